"""Finding the .lark files and building their parsers.

The grammars live in the project's top-level ``grammar/`` folder. A wheel
carries them as ``dealerpp/grammar/``; a source checkout (or an editable
install) reads them from ``../grammar`` next to the package.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

_PACKAGE_DIR = Path(__file__).resolve().parent
_SEARCH_PATH = (_PACKAGE_DIR / "grammar", _PACKAGE_DIR.parent / "grammar")


def grammar_path(name: str) -> Path:
    """The path of ``grammar/NAME.lark``."""
    for folder in _SEARCH_PATH:
        path = folder / f"{name}.lark"
        if path.is_file():
            return path
    raise FileNotFoundError(f"grammar {name}.lark not found in {[str(p) for p in _SEARCH_PATH]}")


@cache
def lalr_parser(name: str, start: str | tuple[str, ...] = "start", **options: Any) -> Lark:
    """An LALR parser for ``grammar/NAME.lark``.

    Lark's own cache (a pickled parse table in the temporary folder, keyed by
    a hash of the grammar and options) keeps start-up fast after the first run.
    """
    from lark import Lark

    path = grammar_path(name)
    return Lark(
        path.read_text(encoding="utf-8"),
        parser="lalr",
        start=[start] if isinstance(start, str) else list(start),
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,
        **options,
    )
