"""dealerpp's grammars, parsed without importing Lark at run time.

``grammar/*.lark`` is the one description of each language. Lark turns it
into LALR(1) tables; ``python tools/export_tables.py`` (a build tool, not
shipped) saves them as ``dealerpp/lalr/generated/NAME.py``, a module of plain
literals that imports from its ``.pyc`` in a fraction of a millisecond, and
``runtime`` runs them. Importing Lark and building its tables costs more
than a one-line script takes to compile, so the command-line path never
does.

Each table module records the SHA-256 of the grammar it was made from; the
tests (``tests/lalr``) fail when a grammar changed and its tables were not
made again, and compare the runtime with Lark token for token.
"""

from __future__ import annotations

import sys

from dealerpp.lalr.runtime import (
    Grammar,
    Meta,
    ParseError,
    ParserState,
    Token,
    Tree,
    UnexpectedCharacters,
    UnexpectedToken,
)

__all__ = ["GRAMMARS", "Grammar", "Meta", "ParseError", "ParserState", "Token", "Tree",
           "UnexpectedCharacters", "UnexpectedToken", "load"]

GRAMMARS = ("shape", "dealer")
_LOADED: dict[str, Grammar] = {}


def load(name: str) -> Grammar:
    """The runnable tables of ``grammar/NAME.lark`` (loaded once)."""
    grammar = _LOADED.get(name)
    if grammar is None:
        if name not in GRAMMARS:
            raise ValueError(f"no parse tables for a grammar named {name!r}")
        # The import statement's own machinery: the importlib package would
        # cost a one-line script half a millisecond (it brings warnings).
        module = f"dealerpp.lalr.generated.{name}"
        __import__(module)
        grammar = _LOADED[name] = Grammar(sys.modules[module])
    return grammar
