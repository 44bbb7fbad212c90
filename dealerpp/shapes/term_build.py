"""Build the table of dealer terms from first principles, and write it as data.

Every valid dealer pattern (``5431``, ``5xxx``, ``x3x1``) and every ``any``
pattern is a candidate term of a shape list; terms with the same shapes are
kept once. Building the table this way takes tens of milliseconds, too long
for the start of every command, so the emitter loads the result from
``_term_data.py``; ``tests/shapes/test_term_table.py`` checks that the shipped
data equals what this module computes. To regenerate it::

    python -m dealerpp.shapes.term_build
"""

from __future__ import annotations

import base64
import zlib
from itertools import combinations, combinations_with_replacement, permutations, product
from pathlib import Path

from dealerpp.shapes.universe import ALL_SHAPES, FULL_MASK, LENGTH_MASK

X = -1  # an 'x' in a pattern
SHAPE_BYTES = (len(ALL_SHAPES) + 7) // 8
DATA_FILE = Path(__file__).with_name("_term_data.py")


class TermBuild:
    """Every dealer term (text, shapes), and for each shape the terms containing it."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.masks: list[int] = []
        self._by_mask: dict[int, int] = {}
        self._plain: dict[tuple[int, ...], int] = {}
        self._any: dict[tuple[int, ...], int] = {}
        # Fewest x first: among terms with the same shapes (any 4432 and
        # any 432x, 6133 and x133) the first one built is the one kept.
        for pattern in _valid_patterns():
            self._plain[pattern] = self._add(_text(pattern), _plain_mask(pattern))
        for key in _any_keys():
            mask = 0
            for order in set(permutations(key)):
                mask |= self.masks[self._plain[order]]
            self._any[key] = self._add("any " + _text(key), mask)
        self.containing = [self._containing(shape) for shape in ALL_SHAPES]

    def _add(self, text: str, mask: int) -> int:
        known = self._by_mask.get(mask)
        if known is None:
            self.texts.append(text)
            self.masks.append(mask)
            known = self._by_mask[mask] = len(self.texts) - 1
        return known

    def _containing(self, shape: tuple[int, ...]) -> list[int]:
        """The terms containing ``shape``: its plain generalisations and their ``any``."""
        terms = set()
        for general in _generalisations(shape):
            terms.add(self._plain[general])
            terms.add(self._any.get(_any_key(general), self._plain[general]))
        return sorted(terms)


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


def _valid(pattern: tuple[int, ...]) -> bool:
    total = sum(n for n in pattern if n != X)
    return total <= 13 if X in pattern else total == 13


def _text(pattern: tuple[int, ...]) -> str:
    return "".join("x" if n == X else str(n) for n in pattern)


def _any_key(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """``any`` patterns are written longest suit first, x last: any 5431, any 54xx."""
    return tuple(sorted(pattern, key=lambda n: 99 if n == X else -n))


def _plain_mask(pattern: tuple[int, ...]) -> int:
    mask = FULL_MASK
    for suit, n in enumerate(pattern):
        if n != X:
            mask &= LENGTH_MASK[suit][n]
    return mask


def _generalisations(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The plain terms containing ``shape``: each suit kept (if 0-9) or made x."""
    options = [(n, X) if n <= 9 else (X,) for n in shape]
    return [p for p in product(*options) if _valid(p)]


# --- the data file ------------------------------------------------------------


def pack(masks: list[int], containing: list[list[int]]) -> str:
    """Term masks then, per shape, the bit set of the ids of the terms
    containing it: zlib-compressed, base64."""
    term_bytes = (len(masks) + 7) // 8
    raw = b"".join(mask.to_bytes(SHAPE_BYTES, "little") for mask in masks)
    raw += b"".join(sum(1 << t for t in terms).to_bytes(term_bytes, "little")
                    for terms in containing)
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def data_source(build: TermBuild) -> str:
    """The text of ``_term_data.py`` for ``build``."""
    texts = ",".join(build.texts)
    packed = pack(build.masks, build.containing)
    return (
        '"""Generated by ``python -m dealerpp.shapes.term_build``: do not edit.\n\n'
        "TEXTS: the dealer terms, comma-separated, in id order (ids break ties).\n"
        "PACKED: their masks and the per-shape index, see ``term_build.pack``.\n"
        '"""\n\n'
        f"TEXTS = (\n{_wrapped(texts)})\n\n"
        f"PACKED = (\n{_wrapped(packed)})\n"
    )


def _wrapped(text: str, width: int = 88) -> str:
    return "".join(f'    "{text[i:i + width]}"\n' for i in range(0, len(text), width))


def main() -> None:
    DATA_FILE.write_text(data_source(TermBuild()), encoding="utf-8")
    print(f"wrote {DATA_FILE}")


if __name__ == "__main__":
    main()
