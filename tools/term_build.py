"""Build the table of dealer terms from first principles, and write it as data.

    python tools/term_build.py          # rewrite dealerpp/shapes/generated/term_data.py
    python tools/term_build.py --check  # exit 1 if the shipped data is out of date

Every valid dealer pattern (``5431``, ``5xxx``, ``x3x1``) and every ``any``
pattern is a candidate term of a shape list; terms with the same shapes are
kept once. Building the table takes a tenth of a second (the order between
terms is worked out pair by pair), far too long for the start of a command,
so the emitter loads the result from ``dealerpp/shapes/generated/term_data.py``, where the
numbers are Python literals that load from the ``.pyc`` without any
unpacking. ``tests/shapes/test_term_table.py`` checks that the shipped data
equals what this tool computes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement, permutations
from pathlib import Path

from dealerpp.shapes.universe import ALL_SHAPES, FULL_MASK, LENGTH_MASK

X = -1  # an 'x' in a pattern
DATA_FILE = Path(__file__).resolve().parent.parent / "dealerpp" / "shapes" / "generated" / "term_data.py"


class TermBuild:
    """Every dealer term (text, shapes), largest first; for each shape the
    terms containing it; for each term the terms directly under it."""

    def __init__(self) -> None:
        texts: list[str] = []
        masks: list[int] = []
        by_mask: dict[int, int] = {}
        plain: dict[tuple[int, ...], int] = {}

        def add(text: str, mask: int) -> int:
            known = by_mask.get(mask)
            if known is None:
                texts.append(text)
                masks.append(mask)
                known = by_mask[mask] = len(texts) - 1
            return known

        # Fewest x first: among terms with the same shapes (any 4432 and
        # any 432x, 6133 and x133) the first one built is the one kept.
        for pattern in _valid_patterns():
            plain[pattern] = add(_text(pattern), _plain_mask(pattern))
        for key in _any_keys():
            mask = 0
            for order in set(permutations(key)):
                mask |= masks[plain[order]]
            add("any " + _text(key), mask)
        # Ids go largest term first (ties in build order): a term's size
        # bounds its gain in a cover, so the emitter can read a pool of terms
        # in id order as a queue sorted by bound.
        by_size = sorted(range(len(texts)), key=lambda t: (-masks[t].bit_count(), t))
        self.texts = [texts[t] for t in by_size]
        self.masks = [masks[t] for t in by_size]
        self.containing = [self._containing(shape) for shape in range(len(ALL_SHAPES))]
        self.children = _children(self.masks)

    def _containing(self, shape: int) -> list[int]:
        """The ids of the terms containing ``shape``."""
        return [t for t, mask in enumerate(self.masks) if mask >> shape & 1]


def _children(masks: list[int]) -> list[list[int]]:
    """For each term, the terms directly under it: strictly inside it, and
    inside no other term strictly inside it (the Hasse diagram of the order
    "inside"). A term lies inside another only if it is smaller, so only
    later ids (never larger) can be under a term."""
    under = [[u for u in range(t + 1, len(masks))
              if masks[u] != masks[t] and not masks[u] & ~masks[t]] for t in range(len(masks))]
    children = []
    for below in under:
        deeper: set[int] = set()
        for u in below:
            deeper.update(under[u])
        children.append([u for u in below if u not in deeper])
    return children


def _valid_patterns() -> list[tuple[int, ...]]:
    """Every valid dealer pattern, fewest x first: digits without x total 13,
    digits with x total at most 13."""
    patterns = []
    for x_count in range(5):
        for places in combinations(range(4), x_count):
            for digits in _digit_tuples(4 - x_count, exact=x_count == 0):
                it = iter(digits)
                patterns.append(tuple(X if i in places else next(it) for i in range(4)))
    return sorted(patterns, key=lambda p: (p.count(X), p))


def _digit_tuples(length: int, exact: bool, budget: int = 13) -> list[tuple[int, ...]]:
    if length == 0:
        return [()] if not exact or budget == 0 else []
    if length == 1 and exact:
        return [(budget,)] if budget <= 9 else []
    return [(first, *rest)
            for first in range(min(9, budget) + 1)
            for rest in _digit_tuples(length - 1, exact, budget - first)]


def _any_keys() -> list[tuple[int, ...]]:
    """Multisets of four pattern symbols with more than one order, fewest x first."""
    keys = []
    for x_count in range(4):
        for digits in combinations_with_replacement(range(9, -1, -1), 4 - x_count):
            total = sum(digits)
            if total > 13 or (x_count == 0 and total != 13):
                continue
            key = (*digits, *([X] * x_count))
            if len(set(key)) > 1:
                keys.append(key)
    return sorted(keys, key=lambda k: (k.count(X), k))


def _text(pattern: tuple[int, ...]) -> str:
    return "".join("x" if n == X else str(n) for n in pattern)


def _plain_mask(pattern: tuple[int, ...]) -> int:
    mask = FULL_MASK
    for suit, n in enumerate(pattern):
        if n != X:
            mask &= LENGTH_MASK[suit][n]
    return mask


# --- the data file ------------------------------------------------------------


def data_source(build: TermBuild) -> str:
    """The text of ``term_data.py`` for ``build``: a table a line (they are data)."""
    tables = {
        "TEXTS": repr(",".join(build.texts)),
        "MASKS": _tuple(hex(mask) for mask in build.masks),
        "SIZES": _tuple(str(mask.bit_count()) for mask in build.masks),
        "CONTAINING": _tuple(hex(_bits(terms)) for terms in build.containing),
        "UNDER": _tuple(hex(_bits(ids)) for ids in build.children[:_parents(build.children)]),
    }
    return (
        '"""Generated by ``python tools/term_build.py``: do not edit.\n\n'
        "TEXTS: the dealer terms, comma-separated, in id order (largest first).\n"
        "MASKS: each term's shapes (bit i: ``universe.ALL_SHAPES[i]``).\n"
        "SIZES: each term's number of shapes.\n"
        "CONTAINING: for each shape, the set of terms containing it (bit t: term t).\n"
        "UNDER: for each term up to the last with terms under it, the set of the terms\n"
        "directly under it (bit t: term t).\n"
        '"""\n\n'
        + "".join(f"{name} = {value}\n" for name, value in tables.items())
    )


def _parents(children: list[list[int]]) -> int:
    """How many terms, from the first, reach the last with terms under it
    (the larger terms: the rest have none, and UNDER leaves them out)."""
    return 1 + max((t for t, below in enumerate(children) if below), default=-1)


def _bits(ids: list[int]) -> int:
    return sum(1 << t for t in ids)


def _tuple(items: Iterable[str]) -> str:
    """A tuple literal of ``items`` on one line."""
    return "(" + "".join(f"{item}," for item in items) + ")"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="report whether the shipped data is out of date instead of writing it")
    options = parser.parse_args(argv)
    text = data_source(TermBuild())
    current = DATA_FILE.read_text(encoding="utf-8") if DATA_FILE.is_file() else None
    if current == text:
        return 0
    if options.check:
        print(f"{DATA_FILE}: out of date (run: python tools/term_build.py)")
        return 1
    DATA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DATA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
