"""``ShapeSet``: an immutable set over the 560 shapes."""

from __future__ import annotations

from dealerpp.shapes.universe import (
    ALL_SHAPES,
    DEALS_PER_HAND,
    FULL_MASK,
    INDEX,
    Shape,
    hand_counts,
    indices,
)

TYPE_CHECKING = False  # typing, fractions and collections.abc stay unimported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from fractions import Fraction

    from dealerpp.shapes.emit import EmitMode

ShapeLike = Shape | tuple[int, int, int, int] | str
_LONG = {"T": "10", "J": "11", "Q": "12", "K": "13"}  # "T300" is 10=3=0=0


def _to_index(shape: ShapeLike) -> int | None:
    if isinstance(shape, str):
        text = shape.replace("-", "=")
        parts = text.split("=") if "=" in text else [_LONG.get(c, c) for c in text]
        try:
            shape = tuple(int(p) for p in parts)  # type: ignore[assignment]
        except ValueError:
            return None
    return INDEX.get(tuple(shape))  # type: ignore[arg-type]


class ShapeSet:
    """A set of four-suit shapes, stored as a 560-bit int (``mask``).

    Supports ``| & - ^ ~``, ``len``, ``in`` (a ``Shape``, a 4-tuple, ``"5431"``,
    ``"T300"`` or ``"5=4=3=1"``), iteration in a stable order (longest spades first),
    exact ``probability()`` and ``to_dealer()``.

    >>> from dealerpp import expand
    >>> s = expand("5M(xxx)")
    >>> (5, 4, 3, 1) in s, "4=5=2=2" in s, "4333" in s
    (True, True, False)
    """

    __slots__ = ("_mask",)

    def __init__(self, mask: int = 0) -> None:
        if not 0 <= mask <= FULL_MASK:
            raise ValueError("a ShapeSet mask must be a 560-bit non-negative int")
        self._mask = mask

    @classmethod
    def of(cls, shapes: Iterable[ShapeLike]) -> ShapeSet:
        mask = 0
        for shape in shapes:
            index = _to_index(shape)
            if index is None:
                raise ValueError(f"not a shape: {shape!r}")
            mask |= 1 << index
        return cls(mask)

    @classmethod
    def all(cls) -> ShapeSet:
        return cls(FULL_MASK)

    @property
    def mask(self) -> int:
        return self._mask

    def __or__(self, other: ShapeSet) -> ShapeSet:
        return ShapeSet(self._mask | other._mask)

    def __and__(self, other: ShapeSet) -> ShapeSet:
        return ShapeSet(self._mask & other._mask)

    def __sub__(self, other: ShapeSet) -> ShapeSet:
        return ShapeSet(self._mask & ~other._mask)

    def __xor__(self, other: ShapeSet) -> ShapeSet:
        return ShapeSet(self._mask ^ other._mask)

    def __invert__(self) -> ShapeSet:
        return ShapeSet(FULL_MASK & ~self._mask)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __contains__(self, shape: object) -> bool:
        if not isinstance(shape, (tuple, str)):
            return False
        index = _to_index(shape)
        return index is not None and bool(self._mask >> index & 1)

    def __iter__(self) -> Iterator[Shape]:
        return (ALL_SHAPES[i] for i in indices(self._mask))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShapeSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def __le__(self, other: ShapeSet) -> bool:
        return self._mask & ~other._mask == 0

    def __repr__(self) -> str:
        if len(self) <= 8:
            return f"ShapeSet.of([{', '.join(repr(s.dealer) for s in self)}])"
        return f"<ShapeSet of {len(self)} shapes>"

    def probability(self) -> Fraction:
        """The exact chance that a random 13-card hand has one of these shapes."""
        from fractions import Fraction

        counts = hand_counts()
        hands = sum(counts[i] for i in indices(self._mask))
        return Fraction(hands, DEALS_PER_HAND)

    def to_dealer(self, mode: EmitMode = "compact", *, compact: bool = True) -> str:
        """A dealer shape list meaning exactly this set.

        ``mode``: ``"compact"`` (a short list, found fast), ``"shortest"``
        (the full search) or ``"list"`` (one term a shape, as does
        ``compact=False``).
        """
        from dealerpp.shapes.emit import dealer_list

        return dealer_list(self._mask, mode if compact else "list")
