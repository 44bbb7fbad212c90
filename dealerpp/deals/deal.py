"""The deal: who holds each card (four hand masks, N E S W) and what
travels with it: board, dealer, vulnerability, auction, play, the
double-dummy table (``Tricks``) and what one format alone says
(``FormatData``). Also ``full_deal``, the readers' trusted way to make one,
and the standard cycle of dealers and vulnerabilities over board numbers.

Cards in no hand are "not in play" (played already, or unknown), so end
positions and hidden PBN ``-`` hands fit the same model.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, overload

from dealerpp.deals.calls import Call, Strain, auction_strain
from dealerpp.deals.cards import FULL_MASK, Card, cards_of_mask, mask_of_cards, pbn_hand, popcount
from dealerpp.deals.hand import Hand, _hand
from dealerpp.deals.seat import Seat

if TYPE_CHECKING:
    from dealerpp.deals.game import Game

_SEATS: tuple[Seat, ...] = tuple(Seat)


class Vul(enum.IntEnum):
    """Vulnerability."""

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    def __str__(self) -> str:
        return ("None", "NS", "EW", "All")[self]

    def __repr__(self) -> str:
        return f"Vul.{self.name}"


class FormatData:
    """What one format alone says of a deal, kept so that format can write
    it back as it was: giblib's comments, a PBN game's tags and text, a .dx
    deal number, a .dlm header. ``Deal.extra`` holds one, the format's own
    immutable object, defined in and read by that format's module alone
    (``fmt`` names the format). Anything else asks the questions below,
    which each format answers for itself (the defaults: it says nothing).
    """

    __slots__ = ()
    fmt: ClassVar[str] = ""

    def label(self) -> str | None:
        """A name the source gave the deal (giblib's ``name=``), for display."""
        return None

    def title(self) -> str | None:
        """What the source calls the set the deal is in (PBN's Event, Site
        and Date), for a page's title."""
        return None

    def contract_strain(self, auction: tuple[Call, ...]) -> Strain | None:
        """The strain the deal's play is in, as the source says it (by
        default: the last bid of the auction)."""
        return auction_strain(auction)

    def game_record(self, deal: Deal) -> Game | None:
        """What the source says of the board at the table (players, the
        claim, alerts, ...) as the neutral record: ``deal.game`` of a deal
        made with this and no record of its own (by default: nothing)."""
        return None


class _Unasked(enum.Enum):
    """In a deal's ``game`` slot: the record is what its format data says
    (an enum member, so a deal pickles as it is)."""

    GAME = "game"


# the member as a global: a member looked up on an Enum class costs a
# metaclass attribute look-up, paid for every deal made
_UNASKED_GAME = _Unasked.GAME


class _GameField:
    """``Deal.game``: a deal made with format data and no game record has
    the record that data says (PBN's player tags, notes, ...), asked of the
    data each time (which keeps what it works out, if it likes: a PbnGame
    does). So reading a file costs nothing for it, and the record is
    there, the same as if read at once, for whoever asks: the LIN writer,
    equality, ``dataclasses.replace``. Nothing is written into the deal
    after it is made. (A descriptor as the field's default: dataclasses
    calls it for the default, None.)"""

    @overload
    def __get__(self, deal: None, owner: type[Deal] | None = None) -> None: ...

    @overload
    def __get__(self, deal: Deal, owner: type[Deal] | None = None) -> Game | None: ...

    def __get__(self, deal: Deal | None, owner: type[Deal] | None = None) -> Game | None:
        if deal is None:
            return None
        state = deal.__dict__
        found: Game | _Unasked | None = state["game"]
        if found is _Unasked.GAME:
            return state["extra"].game_record(deal)  # type: ignore[no-any-return]
        return found

    def __set__(self, deal: Deal, value: object) -> None:
        raise FrozenInstanceError("cannot assign to field 'game'")


#: Strains in the order double-dummy tables list them: NT S H D C.
TABLE_STRAINS: tuple[Strain, ...] = (
    Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_TABLE_PLACE = {strain: place for place, strain in enumerate(TABLE_STRAINS)}


@dataclass(frozen=True)
class Tricks:
    """A double-dummy table: the tricks each seat takes as declarer in each
    strain, None where unknown. ``deal.tricks[Seat.NORTH, Strain.NOTRUMP]``.

    ``values`` are the 20 entries declarer by declarer (N E S W), each in
    the strain order NT S H D C. giblib's trick string (North-South's tricks
    by opening leader) and PBN's DoubleDummyTricks (declarer's tricks, N S E
    W) each say this table in their own order and terms: each format reads
    into it and writes from it, and none converts another's text.
    """

    values: tuple[int | None, ...]

    def __post_init__(self) -> None:
        if len(self.values) != 20 or not all(
                value is None or (type(value) is int and 0 <= value <= 13) for value in self.values):
            raise ValueError("a trick table is 20 values 0-13 or None: "
                             "declarers N E S W, each by strains NT S H D C")

    @classmethod
    def of(cls, tricks: Callable[[Seat, Strain], int | None]) -> Tricks:
        """The table whose entry for ``(declarer, strain)`` is ``tricks(declarer, strain)``."""
        return cls(tuple(tricks(seat, strain) for seat in _SEATS for strain in TABLE_STRAINS))

    def __getitem__(self, key: tuple[Seat, Strain]) -> int | None:
        declarer, strain = key
        return self.values[int(declarer) * 5 + _TABLE_PLACE[strain]]

    def is_complete(self) -> bool:
        return None not in self.values

    def __str__(self) -> str:
        """Rows ``N  8 7 9 7 8`` (NT S H D C, ``-`` unknown)."""
        return "\n".join(
            f"{seat}  " + " ".join("-" if v is None else str(v)
                                   for v in self.values[5 * seat:5 * seat + 5])
            for seat in _SEATS)


@dataclass(frozen=True, repr=False, init=False)
class Deal:
    """Who holds each card, plus what travels with the deal.

    ``deal.north`` .. ``deal.west``, ``deal["N"]`` or ``deal[Seat.NORTH]``
    are its ``Hand``s, and iterating gives them N E S W; ``str(deal)`` is
    the PBN deal string ``N:AKQ.. ... ... ...`` (``Deal.from_pbn`` reads it
    back; ``Deal("N:...")`` does too). ``board``, ``dealer`` and
    ``vulnerability`` are None where unknown; ``tricks`` is the double-dummy
    table (:class:`Tricks`) where a source gave one. Equal deals hold the
    same cards, board, dealer, vulnerability, auction and play (not the
    tricks, nor what one format alone carries); a deal is hashable.

    ``masks`` are the four hand masks, N E S W. A card in no mask is not in
    play. ``order`` is set by text readers only when the source listed cards
    in a non-canonical order (kept, so a copy is the file as written): per seat, the cards
    as written. ``extra`` is what one format alone says (a
    :class:`FormatData` of that format's own), None for a deal made in
    Python or read from a format that says nothing more. ``game`` is what is known of the board at the table besides
    the calls and cards played (alerts, claim, players, room, commentary,
    match: :mod:`dealerpp.deals.game`), None when nothing is.
    """

    masks: tuple[int, int, int, int] = (0, 0, 0, 0)
    board: int | None = None
    dealer: Seat | None = None
    vul: Vul | None = None
    auction: tuple[Call, ...] = ()
    play: tuple[Card, ...] = ()
    # The double-dummy table, where a source gave one (giblib, PBN). Not part
    # of what the deal is: a solver makes it from the cards, so a deal read
    # with its table and the same deal read without are equal.
    tricks: Tricks | None = field(default=None, compare=False)
    # What one format alone says, in one slot that format alone reads: kept
    # for writing that format back, and no part of what the deal is (two
    # deals read from different files are still equal).
    extra: FormatData | None = field(default=None, compare=False)
    # The order a text listed each hand's cards in, where it was not the
    # usual one. Here, not in ``extra``: it is no one format's. Every text
    # that lists cards one by one can keep it (a PBN deal string, dealer's
    # listing), so it travels PBN -> listing -> PBN; in one format's slot it
    # would be lost at the first other format. No part of what the deal is.
    order: tuple[tuple[Card, ...], ...] | None = field(default=None, compare=False)
    # What is known of the board at the table (dealerpp.deals.game): part of
    # what the deal is, as its auction and play are. Given, or what the
    # format data says, asked of it when asked for (_GameField).
    game: _GameField = _GameField()

    def __init__(self, masks: tuple[int, int, int, int] | str = (0, 0, 0, 0),
                 board: int | None = None, dealer: Seat | None = None, vul: Vul | None = None,
                 auction: tuple[Call, ...] = (), play: tuple[Card, ...] = (),
                 tricks: Tricks | None = None, extra: FormatData | None = None,
                 order: tuple[tuple[Card, ...], ...] | None = None,
                 game: Game | None = None) -> None:
        # Written by hand (not the dataclass's): a frozen dataclass sets its
        # ten fields one object.__setattr__ at a time, which cost readers
        # of large files more than reading the deal did.
        if isinstance(masks, str):  # Deal("N:..."), as repr shows a deal
            masks = Deal.from_pbn(masks).masks
        # mask_problem's full-deal test done here first: a reader makes a
        # Deal a record, and the call alone cost ~1k instructions of one
        n, e, s, w = masks if type(masks) is tuple and len(masks) == 4 else _NO_MASKS
        if not (type(n) is int and type(e) is int and type(s) is int and type(w) is int
                and n | e | s | w == FULL_MASK == n + e + s + w
                and n.bit_count() == e.bit_count() == s.bit_count() == 13):
            problem = mask_problem(masks)
            if problem:
                raise ValueError(problem)
        if order is not None and (
                len(order) != 4
                or any(mask_of_cards(cards) != mask or len(cards) != popcount(mask)
                       for cards, mask in zip(order, masks, strict=True))):
            raise ValueError("order must list exactly each hand's cards")
        object.__setattr__(self, "__dict__", {
            "masks": masks, "board": board, "dealer": dealer, "vul": vul, "auction": auction,
            "play": play, "tricks": tricks, "extra": extra, "order": order,
            "game": _UNASKED_GAME if game is None and extra is not None else game})

    # -- construction ---------------------------------------------------
    @classmethod
    def from_hands(cls, hands: Iterable[Hand | int], **meta: Any) -> Deal:
        masks = tuple(h.mask if isinstance(h, Hand) else int(h) for h in hands)
        if len(masks) != 4:
            raise ValueError("a deal needs four hands")
        return cls(masks, **meta)

    @classmethod
    def from_pbn(cls, text: str, **meta: Any) -> Deal:
        """``N:h1 h2 h3 h4`` (clockwise from the first seat) or four hands N E S W."""
        first = Seat.NORTH
        if len(text) > 1 and text[1] == ":":
            first = Seat.from_char(text[0])
            text = text[2:]
        parts = text.split()
        if len(parts) != 4:
            raise ValueError(f"a deal needs 4 hands, got {len(parts)}")
        masks = [0, 0, 0, 0]
        for i, part in enumerate(parts):
            masks[(first + i) % 4] = Hand.from_pbn(part).mask
        return cls(tuple(masks), **meta)  # type: ignore[arg-type]

    # -- views ----------------------------------------------------------
    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        n, e, s, w = self.masks
        return _hand(n), _hand(e), _hand(s), _hand(w)

    def __getitem__(self, seat: Seat | int | str) -> Hand:
        """The hand of a seat: ``deal[Seat.NORTH]``, ``deal["N"]``, ``deal["north"]``."""
        if isinstance(seat, str):
            seat = Seat.parse(seat)
        elif not 0 <= seat <= 3:
            raise IndexError(f"no seat {seat}: seats are 0-3 (N E S W)")
        return _hand(self.masks[seat])

    def __iter__(self) -> Iterator[Hand]:
        """The hands N E S W."""
        return (_hand(mask) for mask in self.masks)

    @property
    def north(self) -> Hand:
        return _hand(self.masks[0])

    @property
    def east(self) -> Hand:
        return _hand(self.masks[1])

    @property
    def south(self) -> Hand:
        return _hand(self.masks[2])

    @property
    def west(self) -> Hand:
        return _hand(self.masks[3])

    @property
    def vulnerability(self) -> Vul | None:
        return self.vul

    def owner(self, card: int) -> Seat | None:
        for seat, mask in enumerate(self.masks):
            if mask >> card & 1:
                return _SEATS[seat]
        return None

    @property
    def in_play(self) -> int:
        n, e, s, w = self.masks
        return n | e | s | w

    def is_full(self) -> bool:
        return all(popcount(m) == 13 for m in self.masks)

    def to_pbn(self, first: Seat = Seat.NORTH) -> str:
        """``N:...`` with hands clockwise from ``first``; empty hands as ``-``
        when the deal has cards elsewhere."""
        parts = []
        for i in range(4):
            mask = self.masks[(first + i) % 4]
            parts.append("-" if mask == 0 and self.in_play else pbn_hand(mask))
        return f"{first}:" + " ".join(parts)

    def cards_in_order(self, seat: Seat | int) -> tuple[Card, ...]:
        """The seat's cards as the source listed them (canonical otherwise)."""
        if self.order is not None:
            return self.order[seat]
        return tuple(cards_of_mask(self.masks[seat]))

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        known = [f"{name}={value!r}" for name, value in (
            ("board", self.board), ("dealer", self.dealer), ("vul", self.vul))
            if value is not None]
        return f"Deal({', '.join([repr(self.to_pbn()), *known])})"


_NO_MASKS = (None, None, None, None)  # not a full deal: mask_problem says why
_SET_STATE = object.__setattr__
_NEW = object.__new__


def full_deal(masks: tuple[int, int, int, int], board: int | None, dealer: Seat | None,
              vul: Vul | None, extra: FormatData | None) -> Deal:
    """``Deal(masks, board, dealer, vul, extra=extra)`` for a reader that has
    checked ``masks`` itself: four ints of 13 cards each, every card once
    (the PBN reader's quick_full_deal). The same object, made without the
    constructor's call and its checks, which would be the reader's again
    (the two cost 6% of reading a game of dealer's printpbn). ``Deal()``
    itself still checks all it is given."""
    deal = _NEW(Deal)
    _SET_STATE(deal, "__dict__", {
        "masks": masks, "board": board, "dealer": dealer, "vul": vul, "auction": (),
        "play": (), "tricks": None, "extra": extra, "order": None,
        "game": None if extra is None else _UNASKED_GAME})
    return deal


def mask_problem(masks: tuple[int, ...]) -> str | None:
    """Why four masks are not a deal, or None: bits 52-63, a card in two
    hands, a hand over 13 cards."""
    if len(masks) != 4:
        return "a deal needs four hands"
    n, e, s, w = masks
    if (type(n) is int and type(e) is int and type(s) is int and type(w) is int
            and n | e | s | w == FULL_MASK == n + e + s + w
            and n.bit_count() == e.bit_count() == s.bit_count() == 13):
        return None  # a full deal (a sum equal to the union: no card twice)
    seen = 0
    for seat, mask in zip(Seat, masks, strict=True):
        if not isinstance(mask, int) or mask < 0:
            return f"{seat.name_title} has a mask that is not a non-negative int"
        if mask >> 52:
            return f"{seat.name_title} has bits 52-63 set"
        twice = seen & mask
        if twice:
            card = next(cards_of_mask(twice))
            return f"card {card} is in two hands"
        seen |= mask
        if popcount(mask) > 13:
            return f"{seat.name_title} has {popcount(mask)} cards, over 13"
    return None


def board_dealer_vul(board: int) -> tuple[Seat, Vul]:
    """Dealer and vulnerability of a board number by the standard 16-board cycle."""
    index = (board - 1) % 16
    return Seat(index % 4), _VUL_CYCLE[index]


def numbered(deals: Iterable[Deal], first_board: int) -> Iterator[Deal]:
    """The deals as boards ``first_board``, ``first_board + 1``, ..., with
    dealer and vulnerability by the cycle (``convert --first-board``)."""
    for board, deal in enumerate(deals, first_board):
        dealer, vul = board_dealer_vul(board)
        # made anew (the constructor's checks run) with the game record as
        # given: one its format data says is still worked out only when asked
        given = deal.__dict__["game"]
        yield Deal(deal.masks, board, dealer, vul, deal.auction, deal.play, deal.tricks,
                   deal.extra, deal.order, None if given is _Unasked.GAME else given)


_VUL_CYCLE = (
    Vul.NONE, Vul.NS, Vul.EW, Vul.BOTH,
    Vul.NS, Vul.EW, Vul.BOTH, Vul.NONE,
    Vul.EW, Vul.BOTH, Vul.NONE, Vul.NS,
    Vul.BOTH, Vul.NONE, Vul.NS, Vul.EW,
)
