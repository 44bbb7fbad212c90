"""Seats, and the small enums shown by their initial (``N`` for NORTH).

Its own module, under both the deal model (:mod:`dealerpp.deals.model`) and
what happened at the table (:mod:`dealerpp.deals.game`), so neither needs the
other: the model holds a ``Game``, and a ``Game`` names seats.
"""

from __future__ import annotations

import enum
from typing import TypeVar

from dealerpp.diagnostics import quote


class Initialled(enum.IntEnum):
    """A value shown as the initial of its name (``N`` for NORTH), and read
    back from it in either case."""

    def __str__(self) -> str:
        return self.name[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @classmethod
    def from_char(cls: type[_E], char: str) -> _E:
        initials = _INITIALS.get(cls)
        if initials is None:  # made once a class: readers call this for every card
            initials = _INITIALS[cls] = {initial: member for member in cls
                                         for initial in (member.name[0], member.name[0].lower())}
        found = initials.get(char)
        if found is None:
            raise ValueError(f"not a {cls.__name__.lower()}: {quote(char)}")
        return found  # type: ignore[return-value]


_E = TypeVar("_E", bound=Initialled)
_INITIALS: dict[type[Initialled], dict[str, Initialled]] = {}


class Seat(Initialled):
    """A seat, clockwise from North: ``N E S W`` (values 0-3, the .deals
    hand order). ``Seat.parse`` also takes the name (``"north"``)."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def name_title(self) -> str:
        return self.name.title()

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (LHO for 1, partner for 2)."""
        return Seat((self + steps) % 4)

    @classmethod
    def parse(cls, text: str) -> Seat:
        """The seat an initial or a name says, any case (``N``, ``north``)."""
        found = _SEAT_NAMES.get(text.lower())
        if found is None:
            raise ValueError(f"not a seat: {quote(text)}")
        return found


_SEAT_NAMES: dict[str, Seat] = {name: seat for seat in Seat
                                for name in (seat.name.lower(), seat.name[0].lower())}


