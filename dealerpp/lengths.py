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
else:
    class _Lengths(tuple):
        """What ``namedtuple("_Lengths", FIELDS)`` makes, written out: importing
        ``collections`` and building the class (namedtuple compiles code) cost
        a one-shape script more than all its shape work (issue 28).
        ``tests/test_lengths.py`` holds the two alike."""

        __slots__ = ()
        _fields = ("spades", "hearts", "diamonds", "clubs")
        _field_defaults = {}  # noqa: RUF012 - as namedtuple has it (empty, never written)
        __match_args__ = _fields

        def __new__(cls, spades, hearts, diamonds, clubs):
            return tuple.__new__(cls, (spades, hearts, diamonds, clubs))

        @classmethod
        def _make(cls, iterable):
            made = tuple.__new__(cls, iterable)
            if len(made) != 4:
                raise TypeError(f"Expected 4 arguments, got {len(made)}")
            return made

        def _replace(self, /, **changes):
            made = self._make(map(changes.pop, self._fields, self))
            if changes:
                raise ValueError(f"Got unexpected field names: {list(changes)!r}")
            return made

        def __repr__(self):
            return (f"{type(self).__name__}(spades={self[0]!r}, hearts={self[1]!r}, "
                    f"diamonds={self[2]!r}, clubs={self[3]!r})")

        def _asdict(self):
            return dict(zip(self._fields, self, strict=True))

        def __getnewargs__(self):
            return tuple(self)

        spades = property(lambda self: self[0], doc="Alias for field number 0")
        hearts = property(lambda self: self[1], doc="Alias for field number 1")
        diamonds = property(lambda self: self[2], doc="Alias for field number 2")
        clubs = property(lambda self: self[3], doc="Alias for field number 3")


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
