"""Build the lists of common shape{} terms that a one-shape script is
answered from without loading the compiler (``dealerpp/quick.py``).

    python tools/common_terms.py          # rewrite dealerpp/shapes/generated/common_terms.py
    python tools/common_terms.py --check  # exit 1 if the shipped data is out of date

Each entry is a term exactly as written after the compass (``5+M(xxx)``)
and the list the compiler emits for it by default; the terms are the ones
the documentation and examples show, and the families people write most:
one suit's length (``5+xxx``, ``xx3-x``, ``5+M(xxx)``, ``6h(xxx)``) and a
pattern in any order (``(4432)``, ``any 4432``). A term is left out when
the compiler warns about it or when its set is empty or every shape (the
checker has something to say about such a condition). Made by the
compiler itself, so the data changes when the emitter does:
``tests/script/test_quick.py`` checks the shipped file equals a fresh
build and reads every list back with dealer's rules.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from dealerpp.shapes.compiler import compile_shape
from dealerpp.shapes.universe import FULL_MASK

ROOT = Path(__file__).resolve().parent.parent
DATA_FILE = ROOT / "dealerpp" / "shapes" / "generated" / "common_terms.py"
LENGTHS = "0123456789TJQK"
SHOWN_IN = ("README.md", "docs/*.md", "examples/*.dpp")
_BLOCK = re.compile(r"shape\{\s*(?:north|east|south|west)\s*,([^{}\n]*)\}")


def shown_terms() -> Iterator[str]:
    """The terms of the shape{} blocks the documentation and examples show."""
    for pattern in SHOWN_IN:
        for path in sorted(ROOT.glob(pattern)):
            for match in _BLOCK.finditer(path.read_text()):
                yield match.group(1).strip(" \t")


def family_terms() -> Iterator[str]:
    """One suit's length in each of its spellings, and every pattern in any order."""
    for length in LENGTHS:
        for bound in ("", "+", "-"):
            slot = length + bound
            for position in range(4):
                yield "x" * position + slot + "x" * (3 - position)
            for label in "shdcMm":
                yield f"{slot}{label}(xxx)"
    for spades in range(14):
        for hearts in range(spades + 1):
            for diamonds in range(hearts + 1):
                clubs = 13 - spades - hearts - diamonds
                if 0 <= clubs <= diamonds:
                    digits = "".join(LENGTHS[n] for n in (spades, hearts, diamonds, clubs))
                    yield f"({digits})"
                    yield f"any {digits}"


def build() -> dict[str, str]:
    """Every candidate term the compiler takes without a warning, with its list."""
    lists: dict[str, str] = {}
    for term in [*shown_terms(), *family_terms()]:
        if not term or term in lists or any(c in term for c in "#/\"'{}"):
            continue
        try:
            compiled = compile_shape(term)
        except Exception:  # the documentation shows mistakes on purpose
            continue
        if compiled.warnings or compiled.shapes.mask in (0, FULL_MASK):
            continue
        lists[term] = compiled.dealer_list()
    return lists


def data_source(lists: dict[str, str]) -> str:
    rows = "".join(f"    {term!r}: {listing!r},\n" for term, listing in lists.items())
    return ('"""Common shape{} terms and their default lists: made by '
            '``python tools/common_terms.py``, do not edit."""\n\n'
            f"LISTS = {{\n{rows}}}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the data is out of date")
    options = parser.parse_args()
    fresh = data_source(build())
    if options.check:
        current = DATA_FILE.read_text() if DATA_FILE.exists() else ""
        if current != fresh:
            print(f"{DATA_FILE} is out of date: run python tools/common_terms.py", file=sys.stderr)
            return 1
        return 0
    DATA_FILE.write_text(fresh)
    print(f"wrote {DATA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
