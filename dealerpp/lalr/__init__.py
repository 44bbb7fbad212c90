"""dealerpp's grammars, parsed without importing Lark at run time.

``grammar/*.lark`` is the one description of each language. Lark turns it
into LALR(1) tables; ``python -m dealerpp.lalr.export`` saves those tables
as ``dealerpp/lalr/tables/NAME.json``, and ``runtime`` runs them. Importing
Lark and loading its cached tables cost more than a one-line script takes
to compile, so the command-line path reads the JSON instead.

The JSON records the SHA-256 of the grammar it was made from. If the
grammar has changed since (an edited checkout), ``load`` asks Lark for
fresh tables instead of running stale ones. The tests check that the
shipped tables are current and that the runtime parses as Lark does.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from dealerpp.grammars import grammar_digest
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

__all__ = ["Grammar", "Meta", "ParseError", "ParserState", "Token", "Tree",
           "UnexpectedCharacters", "UnexpectedToken", "load"]

_TABLES = Path(__file__).resolve().parent / "tables"


@cache
def load(name: str) -> Grammar:
    """The runnable tables of ``grammar/NAME.lark``."""
    path = _TABLES / f"{name}.json"
    tables = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    if tables is None or tables.get("sha256") != grammar_digest(name):
        from dealerpp.lalr.export import export  # the grammar changed: ask Lark

        tables = export(name)
    return Grammar(tables)
