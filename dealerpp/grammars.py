"""Finding the .lark files.

The grammars live in the project's top-level ``grammar/`` folder. A wheel
carries them as ``dealerpp/grammar/``; a source checkout (or an editable
install) reads them from ``../grammar`` next to the package.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_SEARCH_PATH = (_PACKAGE_DIR / "grammar", _PACKAGE_DIR.parent / "grammar")


def grammar_path(name: str) -> Path:
    """The path of ``grammar/NAME.lark``."""
    for folder in _SEARCH_PATH:
        path = folder / f"{name}.lark"
        if path.is_file():
            return path
    raise FileNotFoundError(f"grammar {name}.lark not found in {[str(p) for p in _SEARCH_PATH]}")


def grammar_digest(name: str) -> str:
    """The SHA-256 of ``grammar/NAME.lark``: which grammar a parse table is for."""
    return hashlib.sha256(grammar_path(name).read_bytes()).hexdigest()
