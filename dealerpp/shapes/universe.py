"""The 560 four-suit shapes, and the bit masks everything else is built from.

A set of shapes is a 560-bit int (a ``ShapeMask``): bit ``i`` stands for
``ALL_SHAPES[i]``. Shapes are ordered by spades, then hearts, then diamonds,
longest first (13-0-0-0 is bit 0, 0-0-0-13 is bit 559), so iteration order
is stable and reads like a frequency table.
"""

from __future__ import annotations

from itertools import compress

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from dealerpp.lengths import Shape as Shape  # re-exported: a set of shapes holds these

SUITS = "shdc"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
MAX_LENGTH = 13

# A set of shapes: bit i stands for ALL_SHAPES[i]. (A plain alias: the type
# says what the int means, and costs nothing at run time.)
ShapeMask = int


def _all_shapes() -> tuple[Shape, ...]:
    from dealerpp.lengths import Shape

    make = tuple.__new__  # Shape's own __new__, minus a Python call per shape
    return tuple(make(Shape, (s, h, d, MAX_LENGTH - s - h - d))
                 for s in range(MAX_LENGTH, -1, -1)
                 for h in range(MAX_LENGTH - s, -1, -1)
                 for d in range(MAX_LENGTH - s - h, -1, -1))


# ALL_SHAPES, INDEX and Shape are made on first use (``__getattr__`` below):
# the console script's front door compiles a term from the masks alone, and
# 560 Shapes and their index cost it a fifth of a millisecond (issue 28).
ALL_SHAPES: tuple[Shape, ...]
INDEX: dict[tuple[int, int, int, int], int]
SHAPE_COUNT = 560  # len(ALL_SHAPES)
FULL_MASK: ShapeMask = (1 << SHAPE_COUNT) - 1
SHAPE_BYTES = (SHAPE_COUNT + 7) // 8  # a ShapeMask as little-endian bytes


def all_shapes() -> tuple[Shape, ...]:
    """``ALL_SHAPES`` (the name is not there before first use, even here)."""
    shapes: tuple[Shape, ...] | None = globals().get("ALL_SHAPES")
    if shapes is None:
        shapes = globals()["ALL_SHAPES"] = _all_shapes()
    return shapes


def __getattr__(name: str) -> object:
    """``ALL_SHAPES``, ``INDEX`` or ``Shape``, made when first asked for
    (then kept as the module's own names, found without this)."""
    value: object
    if name == "ALL_SHAPES":
        return all_shapes()
    if name == "INDEX":
        value = {shape: i for i, shape in enumerate(all_shapes())}
    elif name == "Shape":
        from dealerpp.lengths import Shape

        value = Shape
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def _length_masks() -> tuple[tuple[ShapeMask, ...], ...]:
    # From the order of ALL_SHAPES rather than shape by shape (a tenth of the
    # time: every process pays it, issue 28). The shapes of one spade length
    # are a run of bits, and so are those of one spade and one heart length
    # (a *block*: one shape for each diamond length, longest first, so the
    # clubs' length is the place in the block). A block of m shapes has a
    # diamond and a club length n for each n < m: the clubs' at its start
    # plus n, the diamonds' at its end minus n. tests/shapes/
    # test_universe_constants.py holds the masks to their definition.
    spades, hearts = [0] * (MAX_LENGTH + 1), [0] * (MAX_LENGTH + 1)
    starts, ends = [0] * (MAX_LENGTH + 2), [0] * (MAX_LENGTH + 2)  # blocks by size
    at = 0
    for s in range(MAX_LENGTH, -1, -1):
        first = at
        for h in range(MAX_LENGTH - s, -1, -1):
            size = MAX_LENGTH + 1 - s - h
            hearts[h] |= ((1 << size) - 1) << at
            starts[size] |= 1 << at
            ends[size] |= 1 << (at + size - 1)
            at += size
        spades[s] = ((1 << (at - first)) - 1) << first
    diamonds, clubs = [0] * (MAX_LENGTH + 1), [0] * (MAX_LENGTH + 1)
    longer_starts = longer_ends = 0  # of the blocks of more than n shapes
    for n in range(MAX_LENGTH, -1, -1):
        longer_starts |= starts[n + 1]
        longer_ends |= ends[n + 1]
        clubs[n], diamonds[n] = longer_starts << n, longer_ends >> n
    return tuple(tuple(row) for row in (spades, hearts, diamonds, clubs))


# LENGTH_MASK[suit][n]: the shapes with exactly n cards in that suit.
LENGTH_MASK: tuple[tuple[int, ...], ...] = _length_masks()

DEALS_PER_HAND = 635_013_559_600  # math.comb(52, 13), written out: math loads on first use


_HAND_COUNTS: list[tuple[int, ...]] = []  # (functools.cache: not imported on start-up)


def hand_counts() -> tuple[int, ...]:
    """How many 13-card hands have each shape (the numerators of their
    probabilities; worked out on first use)."""
    if not _HAND_COUNTS:
        from math import comb

        _HAND_COUNTS.append(tuple(comb(13, s) * comb(13, h) * comb(13, d) * comb(13, c)
                                  for s, h, d, c in all_shapes()))
    return _HAND_COUNTS[0]


def lengths_mask(suit: int, lengths: frozenset[int]) -> ShapeMask:
    """The shapes whose ``suit`` has one of ``lengths`` cards."""
    mask = 0
    row = LENGTH_MASK[suit]
    for n in lengths:
        if 0 <= n <= MAX_LENGTH:
            mask |= row[n]
    return mask


# From this many bits on, indices() reads the int's binary digits at C speed,
# taking the positions from a tuple (a range would make an int object for
# each of them): 20% fewer instructions in indices() on the emitter's sets and
# pools of the 1,000-line bench script than from 64 bits on out of a range
# (valgrind; 16 and 64 did worse, so did 64-bit words read by memoryview).
_DENSE = 32
_DIGIT_BITS = bytes.maketrans(b"01", b"\x00\x01")  # '0'/'1' -> a false/true byte
_POSITIONS = tuple(range(2048))  # above a term set's 1,163 bits (and a shape set's 560)


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
    return list(compress(_POSITIONS if len(digits) <= len(_POSITIONS) else range(len(digits)),
                         digits))
