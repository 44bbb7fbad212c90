"""The 560 four-suit shapes, and the bit masks everything else is built from.

A set of shapes is a 560-bit int (a ``ShapeMask``): bit ``i`` stands for
``ALL_SHAPES[i]``. Shapes are ordered by spades, then hearts, then diamonds,
longest first (13-0-0-0 is bit 0, 0-0-0-13 is bit 559), so iteration order
is stable and reads like a frequency table.
"""

from __future__ import annotations

from functools import cache
from itertools import compress

from dealerpp.lengths import Shape as Shape  # re-exported: a set of shapes holds these

SUITS = "shdc"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
MAX_LENGTH = 13

# A set of shapes: bit i stands for ALL_SHAPES[i]. (A plain alias: the type
# says what the int means, and costs nothing at run time.)
ShapeMask = int


def _all_shapes() -> tuple[Shape, ...]:
    make = tuple.__new__  # Shape's own __new__, minus a Python call per shape
    return tuple(make(Shape, (s, h, d, MAX_LENGTH - s - h - d))
                 for s in range(MAX_LENGTH, -1, -1)
                 for h in range(MAX_LENGTH - s, -1, -1)
                 for d in range(MAX_LENGTH - s - h, -1, -1))


ALL_SHAPES: tuple[Shape, ...] = _all_shapes()
INDEX: dict[tuple[int, int, int, int], int] = {shape: i for i, shape in enumerate(ALL_SHAPES)}
FULL_MASK: ShapeMask = (1 << len(ALL_SHAPES)) - 1
SHAPE_BYTES = (len(ALL_SHAPES) + 7) // 8  # a ShapeMask as little-endian bytes


def _length_masks() -> tuple[tuple[ShapeMask, ...], ...]:
    # Bits are set in per-mask byte arrays (small ints), then each array
    # becomes one int: cheaper than growing 56 big ints bit by bit.
    rows = [[bytearray(SHAPE_BYTES) for _ in range(MAX_LENGTH + 1)] for _ in range(4)]
    for i, shape in enumerate(ALL_SHAPES):
        byte, bit = i >> 3, 1 << (i & 7)
        for suit, length in enumerate(shape):
            rows[suit][length][byte] |= bit
    return tuple(tuple(int.from_bytes(mask, "little") for mask in row) for row in rows)


# LENGTH_MASK[suit][n]: the shapes with exactly n cards in that suit.
LENGTH_MASK: tuple[tuple[int, ...], ...] = _length_masks()

DEALS_PER_HAND = 635_013_559_600  # math.comb(52, 13), written out: math loads on first use


@cache
def hand_counts() -> tuple[int, ...]:
    """How many 13-card hands have each shape (the numerators of their
    probabilities; worked out on first use)."""
    from math import comb

    return tuple(comb(13, s) * comb(13, h) * comb(13, d) * comb(13, c)
                 for s, h, d, c in ALL_SHAPES)


def lengths_mask(suit: int, lengths: frozenset[int]) -> ShapeMask:
    """The shapes whose ``suit`` has one of ``lengths`` cards."""
    mask = 0
    row = LENGTH_MASK[suit]
    for n in lengths:
        if 0 <= n <= MAX_LENGTH:
            mask |= row[n]
    return mask


# From this many bits on, indices() reads the int's binary digits at C speed:
# 1.1% fewer instructions for a one-core run of the 1,000-line bench script
# than a byte at a time from 40 bits on (valgrind; 48 and 96 did a little worse).
_DENSE = 64
_DIGIT_BITS = bytes.maketrans(b"01", b"\x00\x01")  # '0'/'1' -> a false/true byte


def lowest(bits: int) -> int:
    """The position of the lowest bit set in ``bits`` (which is not 0)."""
    return (bits & -bits).bit_length() - 1


def indices(bits: int) -> list[int]:
    """The positions of the bits set in ``bits``, lowest first: the members
    of a set of shapes, or of a set of terms. (The one bit loop.)"""
    out: list[int] = []
    if bits.bit_count() < _DENSE:
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out
    digits = bin(bits)[:1:-1].encode().translate(_DIGIT_BITS)  # lowest bit first
    return list(compress(range(len(digits)), digits))
