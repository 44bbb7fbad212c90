"""What happened at the table, in no format's terms.

A :class:`~dealerpp.deals.deal.Deal` holds the cards, and its ``auction``
and ``play`` hold the calls and the cards played. :class:`Game` holds what
is said about them and who sat where, as LIN and PBN both carry it:

* the alerts and explanations of calls (LIN ``mb|1C!|an|...|``; PBN
  ``1C!`` and ``=1=`` with a ``Note`` tag), by the call's index in the
  auction;
* the claim (LIN ``mc``; PBN ``Result``): tricks for declarer in all;
* the players (LIN ``pn``; PBN ``North`` ... ``West``) and the room (LIN
  ``qx``; PBN ``Room``);
* commentary (LIN ``nt``; PBN ``{...}``), with how far the auction and the
  play had gone when it was written;
* the match it belongs to (LIN ``vg``; PBN ``Event``, ``Stage``,
  ``HomeTeam``, ``VisitTeam``).

What only one format says and no field here holds is :class:`Kept`: named
by its format and key, written back when the deal is written in that format
again and carried through other formats that can hold it (PBN keeps LIN's
keys in a tag of its own), so nothing read is lost.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from dealerpp.deals.seat import Seat

# The records below are frozen dataclasses whose __init__ is written out: a
# reader makes several for every game it reads, and the generated one sets
# each field with its own object.__setattr__ call (three to five times the
# cost of filling the instance's dict at once, as Deal does).

@dataclass(frozen=True, init=False)
class Alert:
    """What was said about one call: ``call`` is its index in the auction
    (0 for the dealer's first call), ``alerted`` whether it was alerted, and
    ``text`` its explanation ("" when none was given)."""

    call: int
    alerted: bool = False
    text: str = ""

    def __init__(self, call: int, alerted: bool = False, text: str = "") -> None:
        object.__setattr__(self, "__dict__", {"call": call, "alerted": alerted, "text": text})


@dataclass(frozen=True, init=False)
class Commentary:
    """A remark made at the table or by a commentator, after ``calls``
    calls and ``cards`` cards had been played."""

    text: str
    calls: int = 0
    cards: int = 0

    def __init__(self, text: str, calls: int = 0, cards: int = 0) -> None:
        object.__setattr__(self, "__dict__", {"text": text, "calls": calls, "cards": cards})


class Room(enum.Enum):
    """The room of a team match a board was played in."""

    OPEN = "Open"
    CLOSED = "Closed"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, init=False)
class Players:
    """The names at one table, by seat (``""`` when not known)."""

    north: str = ""
    east: str = ""
    south: str = ""
    west: str = ""

    def __init__(self, north: str = "", east: str = "", south: str = "", west: str = "") -> None:
        object.__setattr__(self, "__dict__", {"north": north, "east": east, "south": south,
                                              "west": west})

    def __getitem__(self, seat: Seat) -> str:
        return (self.north, self.east, self.south, self.west)[seat]

    @classmethod
    def of(cls, names: dict[Seat, str]) -> Players:
        return cls(*(names.get(seat, "") for seat in Seat))

    def known(self) -> bool:
        return any((self.north, self.east, self.south, self.west))


@dataclass(frozen=True)
class Kept:
    """Something only one format says, as it said it: ``fmt`` is the
    format's name (``"lin"``), ``key`` and ``value`` its own words."""

    fmt: str
    key: str
    value: str


@dataclass(frozen=True)
class Match:
    """The match a board was played in: the event, its stage (a segment, a
    round), how it is scored (as the source wrote it, ``I`` IMPs, ``P``
    matchpoints, ...) and the two teams. ``kept``: what the source said of
    the match beyond that (LIN's results and scores), as it said it."""

    event: str = ""
    stage: str = ""
    scoring: str = ""
    home_team: str = ""
    visit_team: str = ""
    kept: tuple[Kept, ...] = ()


@dataclass(frozen=True, init=False)
class Game:
    """What is known of a board at the table besides the cards, the calls
    and the cards played (those are the deal's own)."""

    alerts: tuple[Alert, ...] = ()
    claim: int | None = None
    players: Players | None = None
    room: Room | None = None
    commentary: tuple[Commentary, ...] = ()
    match: Match | None = None
    kept: tuple[Kept, ...] = ()

    def __init__(self, alerts: tuple[Alert, ...] = (), claim: int | None = None,
                 players: Players | None = None, room: Room | None = None,
                 commentary: tuple[Commentary, ...] = (), match: Match | None = None,
                 kept: tuple[Kept, ...] = ()) -> None:
        object.__setattr__(self, "__dict__", {
            "alerts": alerts, "claim": claim, "players": players, "room": room,
            "commentary": commentary, "match": match, "kept": kept})

    def alert(self, call: int) -> Alert | None:
        """What was said about the call at index ``call``, if anything."""
        for alert in self.alerts:
            if alert.call == call:
                return alert
        return None

    def kept_of(self, fmt: str) -> tuple[Kept, ...]:
        return tuple(item for item in self.kept if item.fmt == fmt)


__all__ = ["Alert", "Commentary", "Game", "Kept", "Match", "Players", "Room"]
