"""``Shape``: the suit lengths of one hand, spades first.

It sits under both the shape compiler (a set of shapes is a set of these)
and the deal model (``hand.shape`` is one), which know nothing of each
other, so ``hand.shape in expand("5+M(xxx)")`` needs no conversion.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import NamedTuple

    class _Lengths(NamedTuple):
        spades: int
        hearts: int
        diamonds: int
        clubs: int
else:  # the same class typing.NamedTuple would make, without importing typing
    from collections import namedtuple

    _Lengths = namedtuple("_Lengths", ("spades", "hearts", "diamonds", "clubs"))


class Shape(_Lengths):
    """Suit lengths of one hand, spades first: ``Shape(5, 3, 3, 2)``,
    shown as ``5=3=3=2``; equal to the plain tuple ``(5, 3, 3, 2)``."""

    __slots__ = ()

    spades: int
    hearts: int
    diamonds: int
    clubs: int

    def __str__(self) -> str:
        return "=".join(str(n) for n in self)

    @property
    def dealer(self) -> str:
        """The shape as a dealer pattern: a 10+ card suit is written ``x``."""
        return "".join("x" if n >= 10 else str(n) for n in self)
