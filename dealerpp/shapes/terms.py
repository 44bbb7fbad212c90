"""The candidate terms of dealer shape lists, with indexes for the emitter.

A term is a dealer pattern (``5431``, ``5xxx``, ``any 4432``); its *id* is its
place in the table, and ids break ties in the emitter's greedy choices. The
table is loaded from ``_term_data.py`` (generated and checked against
``term_build``), which takes about a millisecond instead of tens.

Sets of terms are ints too: bit ``t`` stands for term ``t``. The question
the emitter asks most, "which terms lie inside this set of shapes", is
answered with a transposed index: the terms meeting a set of shapes are the
OR, over its shapes, of the terms containing each shape; ORs of eight shapes
at a time are looked up in per-byte tables filled on first use.
"""

from __future__ import annotations

import zlib
from binascii import a2b_base64
from functools import cache

from dealerpp.shapes._term_data import PACKED, TEXTS
from dealerpp.shapes.universe import ALL_SHAPES, FULL_MASK

SHAPE_BYTES = (len(ALL_SHAPES) + 7) // 8
# The positions of the bits of each byte value.
_BYTE_BITS = tuple(tuple(j for j in range(8) if value >> j & 1) for value in range(256))
_DENSE = 40  # from this many members on, ids() reads a term set a byte at a time


class TermTable:
    """Every dealer term: its text, shapes (``masks``) and size; indexes over them."""

    def __init__(self, texts: list[str], masks: list[int], containing: list[int]) -> None:
        self.texts = texts
        self.masks = masks
        self.sizes = [mask.bit_count() for mask in masks]
        self.index = {text: t for t, text in enumerate(texts)}
        count = len(texts)
        self.all_terms = (1 << count) - 1
        self._term_bytes = (count + 7) // 8
        # (size, the set of terms of that size), largest first: a term's size
        # bounds how many shapes of any set it can cover.
        by_size: dict[int, list[int]] = {}
        for t, size in enumerate(self.sizes):
            by_size.setdefault(size, []).append(t)
        self.by_size = [(size, sum(1 << t for t in by_size[size]))
                        for size in sorted(by_size, reverse=True)]
        # containing[s]: the set of terms containing shape s.
        self.containing = containing
        self._bytes: list[list[int | None]] = [[0] + [None] * 255 for _ in range(SHAPE_BYTES)]
        self._containing_masks: list[list[int] | None] = [None] * len(containing)

    def containing_masks(self, shape: int) -> list[int]:
        """The masks of the terms containing ``shape`` (listed on first use)."""
        masks = self._containing_masks[shape]
        if masks is None:
            masks = [self.masks[t] for t in self.ids(self.containing[shape])]
            self._containing_masks[shape] = masks
        return masks

    def touching(self, shapes: int) -> int:
        """The set of terms with at least one shape in ``shapes``."""
        found = 0
        tables = self._bytes
        for chunk, value in enumerate(shapes.to_bytes(SHAPE_BYTES, "little")):
            if value:
                terms = tables[chunk][value]
                if terms is None:
                    terms = tables[chunk][value] = self._byte_terms(chunk, value)
                found |= terms
        return found

    def _byte_terms(self, chunk: int, value: int) -> int:
        terms = 0
        for bit in _BYTE_BITS[value]:
            terms |= self.containing[chunk * 8 + bit]
        return terms

    def inside(self, shapes: int) -> int:
        """The set of terms whose shapes all lie in ``shapes``."""
        return self.all_terms & ~self.touching(FULL_MASK & ~shapes)

    def ids(self, terms: int) -> list[int]:
        """The ids of the set ``terms``, lowest first."""
        out: list[int] = []
        if terms.bit_count() < _DENSE:
            while terms:
                low = terms & -terms
                out.append(low.bit_length() - 1)
                terms ^= low
            return out
        for chunk, value in enumerate(terms.to_bytes(self._term_bytes, "little")):
            if value:
                base = chunk << 3
                out.extend(base + bit for bit in _BYTE_BITS[value])
        return out


def _unpack(texts: list[str], packed: str) -> TermTable:
    raw = zlib.decompress(a2b_base64(packed))
    count, term_bytes = len(texts), (len(texts) + 7) // 8
    masks = [int.from_bytes(raw[i:i + SHAPE_BYTES], "little")
             for i in range(0, count * SHAPE_BYTES, SHAPE_BYTES)]
    start = count * SHAPE_BYTES
    containing = [int.from_bytes(raw[i:i + term_bytes], "little")
                  for i in range(start, start + len(ALL_SHAPES) * term_bytes, term_bytes)]
    return TermTable(texts, masks, containing)


@cache
def term_table() -> TermTable:
    """The table of every dealer term (loaded once)."""
    return _unpack(TEXTS.split(","), PACKED)
