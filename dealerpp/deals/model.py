"""The deal model: cards, suits, seats, hands, calls and deals.

In the spirit of python-chess everything is a small immutable value built on
plain ints, so the numpy bulk path can share the same numbers:

* a card is its .deals bit: clubs 0-12, diamonds 13-25, hearts 26-38,
  spades 39-51, ranks 2..A inside a suit (``card = suit * 13 + rank - 2``);
* a seat is N=0, E=1, S=2, W=3 (clockwise, the .deals hand order);
* a hand is a 52-bit mask of cards;
* a deal is four hand masks plus the metadata that travels with it.

Cards in no hand are "not in play" (played already, or unknown), so end
positions and hidden PBN ``-`` hands fit the same model.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, overload

from dealerpp.deals.seat import Initialled
from dealerpp.deals.seat import Seat as Seat  # re-exported: the model's own name
from dealerpp.diagnostics import quote
from dealerpp.lengths import Shape

if TYPE_CHECKING:
    from dealerpp.deals.game import Game

FULL_MASK = (1 << 52) - 1
SUIT_MASK = (1 << 13) - 1
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
SEAT_CHARS = "NESW"


class Suit(Initialled):
    """A suit. It iterates in bridge order, spades first (``list(Suit)`` is
    S H D C, as a hand and a shape are written); its value is its place in
    a .deals mask, clubs lowest (``Suit.CLUBS == 0``)."""

    SPADES = 3
    HEARTS = 2
    DIAMONDS = 1
    CLUBS = 0


#: Suits in the order hands are written (S H D C).
SUITS_HIGH_FIRST: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class Strain(enum.IntEnum):
    """A denomination, numbered as in .dx bids (C D H S N = 0..4)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    def __str__(self) -> str:
        return "NT" if self is Strain.NOTRUMP else SUIT_CHARS[self]

    @classmethod
    def from_text(cls, text: str) -> Strain:
        upper = text.upper()
        if upper in ("N", "NT"):
            return cls.NOTRUMP
        return cls(Suit.from_char(upper))

    @property
    def suit(self) -> Suit | None:
        return None if self is Strain.NOTRUMP else Suit(self)


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


class Card(int):
    """A card as its .deals bit number, 0 (club two) to 51 (spade ace).

    ``str(Card.from_str("SA")) == "SA"``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index out of range: {index}")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, suit: Suit | int, rank: int) -> Card:
        """The card of ``suit`` and ``rank`` (2..14, ace = 14)."""
        if not 2 <= rank <= 14:
            raise ValueError(f"rank out of range: {rank}")
        return cls(int(suit) * 13 + rank - 2)

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse suit then rank, e.g. ``SA``, ``h7``, ``CT`` (``10`` is accepted)."""
        if len(text) == 3 and text[1:] == "10":
            text = text[0] + "T"
        if len(text) != 2:
            raise ValueError(f"not a card: {quote(text)}")
        rank = RANK_CHARS.find(text[1].upper())
        if rank < 0:
            raise ValueError(f"not a card: {quote(text)}")
        return cls.of(Suit.from_char(text[0]), rank + 2)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2..14 (ace = 14)."""
        return self % 13 + 2

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self % 13]

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return SUIT_CHARS[self // 13] + RANK_CHARS[self % 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))


def cards_of_mask(mask: int) -> Iterator[Card]:
    """The cards of a mask in display order: spades to clubs, high to low
    (each card once: its highest bit, then the rest)."""
    cards = _CARDS
    mask &= FULL_MASK
    while mask:
        bit = mask.bit_length() - 1
        yield cards[bit]
        mask ^= 1 << bit


def mask_of_cards(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def popcount(mask: int) -> int:
    return mask.bit_count() if type(mask) is int else bin(mask).count("1")


def holding_text(bits: int) -> str:
    """The ranks of a 13-bit suit holding, high first (``AKT3``): a row of
    a table made on first use (writers call this four times a hand)."""
    table = _HOLDING_TEXTS
    if not table:
        table.extend(_holding_text(b) for b in range(SUIT_MASK + 1))
    return table[bits]


def pbn_hand(mask: int) -> str:
    """``S.H.D.C`` (``AK84.AKT3.Q.J965``) of a hand mask."""
    text = holding_text
    return (f"{text(mask >> 39 & SUIT_MASK)}.{text(mask >> 26 & SUIT_MASK)}."
            f"{text(mask >> 13 & SUIT_MASK)}.{text(mask & SUIT_MASK)}")


def _holding_text(bits: int) -> str:
    return "".join([RANK_CHARS[r] for r in range(12, -1, -1) if bits >> r & 1])


_HOLDING_TEXTS: list[str] = []


def parse_holding(text: str) -> int:
    """A 13-bit suit holding from rank characters, any case and order.

    Raises ValueError on a bad character or a rank written twice.
    """
    bits = 0
    for char in text:
        rank = RANK_CHARS.find(char.upper())
        if rank < 0:
            raise ValueError(f"bad rank character {quote(char)}")
        if bits >> rank & 1:
            raise ValueError(f"rank {char.upper()} written twice in one suit")
        bits |= 1 << rank
    return bits


# Per suit, what dealer's functions of the same name count. Each looks at a
# holding's top ranks only: hcp and controls at A K Q J (the top 4 bits),
# losers at A K Q and the length (dealer's losers: a void none, a singleton
# 1 unless the ace, a doubleton 2 less one for the ace and one for the king,
# a longer suit 3 less one each for the ace, king and queen).
_HCP_OF_TOP4 = tuple(4 * (t >> 3 & 1) + 3 * (t >> 2 & 1) + 2 * (t >> 1 & 1) + (t & 1)
                     for t in range(16))
_CONTROLS_OF_TOP2 = (0, 1, 2, 3)


def suit_losers(bits: int) -> int:
    """dealer's ``loser`` count of one 13-bit holding."""
    length = bits.bit_count()
    ace, king, queen = bits >> 12 & 1, bits >> 11 & 1, bits >> 10 & 1
    if length == 0:
        return 0
    if length == 1:
        return 1 - ace
    if length == 2:
        return 2 - ace - king
    return 3 - ace - king - queen


# dealer's losers of each 13-bit holding, one byte each (8 KiB: a hand's
# four lookups stay in the first-level cache). Made on first use.
_LOSERS = bytearray()


def _losers_table() -> bytearray:
    if not _LOSERS:
        _LOSERS.extend(suit_losers(bits) for bits in range(1 << 13))
    return _LOSERS


_RANK_INDEX = {char: i for i, char in enumerate(RANK_CHARS)} | {
    char.lower(): i for i, char in enumerate(RANK_CHARS)} | {"10": 8}


class Holding:
    """One suit of a hand: ``str`` is its ranks high first (``"AQJ432"``,
    ``""`` for a void), ``len`` its length; ``"A" in holding`` (a rank
    letter, ``10`` or ``T``, a rank 2-14 or a ``Card``); iterating gives the
    cards high first. ``hcp``, ``controls`` and ``losers`` count as dealer
    counts them in one suit."""

    __slots__ = ("bits", "suit")

    suit: Suit
    bits: int  # bit 0 = the two

    def __init__(self, suit: Suit | str | int, ranks: int | str = 0) -> None:
        bits = parse_holding(ranks) if isinstance(ranks, str) else ranks
        if not 0 <= bits <= SUIT_MASK:
            raise ValueError("a holding uses bits 0-12 only")
        object.__setattr__(self, "suit", suit if isinstance(suit, Suit) else (
            Suit.from_char(suit) if isinstance(suit, str) else Suit(suit)))
        object.__setattr__(self, "bits", bits)

    def __str__(self) -> str:
        return holding_text(self.bits)

    def __repr__(self) -> str:
        return f"Holding({str(self.suit)!r}, {holding_text(self.bits)!r})"

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __contains__(self, rank: object) -> bool:
        if isinstance(rank, Card):
            return rank.suit is self.suit and bool(self.bits >> (rank % 13) & 1)
        if isinstance(rank, str):
            index = _RANK_INDEX.get(rank)
        elif isinstance(rank, int) and 2 <= rank <= 14:
            index = rank - 2
        else:
            return False
        return index is not None and bool(self.bits >> index & 1)

    def __iter__(self) -> Iterator[Card]:
        base = 13 * self.suit
        return (Card(base + r) for r in range(12, -1, -1) if self.bits >> r & 1)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Holding) and other.suit is self.suit
                and other.bits == self.bits)

    def __hash__(self) -> int:
        return hash((self.suit, self.bits))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Holding is immutable: cannot set {name}")

    @property
    def hcp(self) -> int:
        return _HCP_OF_TOP4[self.bits >> 9]

    @property
    def controls(self) -> int:
        return _CONTROLS_OF_TOP2[self.bits >> 11]

    @property
    def losers(self) -> int:
        return (_LOSERS or _losers_table())[self.bits]


# hcp | controls << 6 of two suits' top four ranks (A K Q J), keyed by a
# hand's mask shifted right 9 (clubs and diamonds) or 35 (hearts and spades)
# and masked with _TOPS_KEY: the lower suit's tops at bits 0-3, the higher
# one's at 13-16. 2**17 rows, of which the 256 a hand can reach are filled:
# few enough to stay in the cache. Made on first use.
_TOPS_KEY = 0xF | 0xF << 13
_TOPS: list[int] = []


def _tops_table() -> list[int]:
    if not _TOPS:
        table = [0] * (_TOPS_KEY + 1)
        for low in range(16):
            for high in range(16):
                table[low | high << 13] = (
                    _HCP_OF_TOP4[low] + _HCP_OF_TOP4[high]
                    | (_CONTROLS_OF_TOP2[low >> 2] + _CONTROLS_OF_TOP2[high >> 2]) << 6)
        _TOPS.extend(table)
    return _TOPS


# The shape: one lookup a suit of its length (a list of 8,192 small ints,
# shared by the four suits: 64 KiB that stay in the cache), then the Shape
# itself by the lengths, spades first, in nested lists (an index of a list
# costs less than summing the lengths into a key, whose sums past 256 are
# new int objects); the spades' rows are looked up by the spades' 13 bits
# at once (_SHAPE_ROWS: one lookup fewer). The suits are read from the
# mask's halves, bits 0-25 and 26-51: each half fits one digit of a Python
# int, on which a shift or a mask costs less than on the two-digit mask. A
# hand of over 13 cards finds None and makes its Shape. The balanced flags
# are nested lists the same way. Made on first use.
_SUIT_LENGTHS: list[int] = []
_SHAPE_ROWS: list[list[list[list[Shape | None]]]] = []
_BALANCED_ROWS: list[list[list[list[bool]]]] = []


def _suit_lengths() -> list[int]:
    if not _SUIT_LENGTHS:
        shapes = [[[[tuple.__new__(Shape, (s, h, d, c)) if s + h + d + c <= 13 else None
                     for c in range(14)] for d in range(14)] for h in range(14)]
                  for s in range(14)]
        unbalanced = [False] * 14  # one row shared by every (s, h, d) no c balances
        balanced = [[[[(s, h, d, c) in _BALANCED for c in range(14)]
                      if any((s, h, d, c) in _BALANCED for c in range(14)) else unbalanced
                      for d in range(14)] for h in range(14)] for s in range(14)]
        lengths = [bits.bit_count() for bits in range(SUIT_MASK + 1)]
        # Each put in place whole, the lengths last: a thread that finds
        # them finds the rest, and two threads making them at once leave
        # equal lists.
        _SHAPE_ROWS[:] = [shapes[length] for length in lengths]
        _BALANCED_ROWS[:] = [balanced[length] for length in lengths]
        _SUIT_LENGTHS[:] = lengths
    return _SUIT_LENGTHS


def _shape_of_mask(mask: int) -> Shape:
    """The Shape of a hand of over 13 cards (no row of _SHAPE_ROWS holds one)."""
    return Shape((mask >> 39).bit_count(), (mask >> 26 & SUIT_MASK).bit_count(),
                 (mask >> 13 & SUIT_MASK).bit_count(), (mask & SUIT_MASK).bit_count())


class Hand:
    """The cards one seat holds, as a 52-bit mask (``Hand(mask)``; also
    ``Hand("AQJ432.8.764.T86")``).

    ``hand.spades`` .. ``hand.clubs`` (or ``hand[Suit.SPADES]``) are its
    ``Holding``s; ``str(hand)`` is ``AQJ432.8.764.T86``; ``hand.shape`` is
    its spades-first ``Shape`` (``hand.shape in expand("6+M(xxx)")``);
    ``hcp``, ``controls`` and ``losers`` count as dealer's functions of the
    same names do; iterating gives its cards, spades first, high first.
    Immutable and hashable, equal by its cards.
    """

    # Written by hand, not a dataclass: one slot, set through its own
    # setter, is the cheapest immutable object to make (deal.north makes
    # one every time). Each count is a few lookups of small tables, made
    # afresh at each read: nothing is kept, so a new hand costs nothing more.
    __slots__ = ("mask",)
    __match_args__ = ("mask",)

    mask: int

    def __init__(self, mask: int | str = 0) -> None:
        if isinstance(mask, str):  # Hand("AQJ432.8.764.T86")
            mask = Hand.from_pbn(mask).mask
        if not 0 <= mask <= FULL_MASK:
            raise ValueError("a hand mask uses bits 0-51 only")
        _SET_MASK(self, mask)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Hand:
            return NotImplemented
        return self.mask == other.mask

    def __hash__(self) -> int:
        return hash((self.mask,))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"a Hand is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"a Hand is immutable: cannot delete {name}")

    def __reduce__(self) -> tuple[type[Hand], tuple[int]]:
        return Hand, (self.mask,)

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> Hand:
        return cls(mask_of_cards(cards))

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Parse ``S.H.D.C`` holdings (``AK84.AKT3.Q.J965``); ``-`` is the empty hand."""
        if text == "-":
            return cls(0)
        parts = text.split(".")
        if len(parts) != 4:
            raise ValueError(f"a hand needs 4 suits separated by '.', got {len(parts)}")
        mask = 0
        for suit, part in zip(SUITS_HIGH_FIRST, parts, strict=True):
            mask |= parse_holding(part) << (13 * suit)
        return cls(mask)

    def bits(self, suit: Suit | int) -> int:
        """The 13-bit holding in one suit as an int (bit 0 = two)."""
        return self.mask >> (13 * int(suit)) & SUIT_MASK

    def holding(self, suit: Suit | int) -> Holding:
        return Holding(Suit(suit), self.mask >> (13 * int(suit)) & SUIT_MASK)

    __getitem__ = holding

    @property
    def spades(self) -> Holding:
        return Holding(Suit.SPADES, self.mask >> 39 & SUIT_MASK)

    @property
    def hearts(self) -> Holding:
        return Holding(Suit.HEARTS, self.mask >> 26 & SUIT_MASK)

    @property
    def diamonds(self) -> Holding:
        return Holding(Suit.DIAMONDS, self.mask >> 13 & SUIT_MASK)

    @property
    def clubs(self) -> Holding:
        return Holding(Suit.CLUBS, self.mask & SUIT_MASK)

    def length(self, suit: Suit | int) -> int:
        return (self.mask >> (13 * int(suit)) & SUIT_MASK).bit_count()

    # The shape and balance: the spades' rows by their bits, three lookups
    # of a suit's length, then the answer indexed by those (_suit_lengths).
    # (8191 is SUIT_MASK: a constant costs less than a global's lookup.)
    @property
    def shape(self) -> Shape:
        """Suit lengths, spades first (one made ``Shape`` a shape, looked up)."""
        mask = self.mask
        high, low = mask >> 26, mask & 0x3FFFFFF
        length = _SUIT_LENGTHS or _suit_lengths()
        return (_SHAPE_ROWS[high >> 13][length[high & 8191]][length[low >> 13]][
            length[low & 8191]] or _shape_of_mask(mask))

    @property
    def is_balanced(self) -> bool:
        """4-3-3-3, 4-4-3-2 or 5-3-3-2 (in any suits)."""
        mask = self.mask
        high, low = mask >> 26, mask & 0x3FFFFFF
        length = _SUIT_LENGTHS or _suit_lengths()
        return _BALANCED_ROWS[high >> 13][length[high & 8191]][length[low >> 13]][
            length[low & 8191]]

    # hcp and controls: two lookups (_tops_table: the top four ranks of two
    # suits at once).
    @property
    def hcp(self) -> int:
        """High-card points: A 4, K 3, Q 2, J 1 (dealer's ``hcp``)."""
        mask = self.mask
        table = _TOPS or _tops_table()
        return (table[mask >> 9 & _TOPS_KEY] + table[mask >> 35 & _TOPS_KEY]) & 63

    @property
    def controls(self) -> int:
        """Controls: A 2, K 1 (dealer's ``control``)."""
        mask = self.mask
        table = _TOPS or _tops_table()
        return (table[mask >> 9 & _TOPS_KEY] + table[mask >> 35 & _TOPS_KEY]) >> 6

    @property
    def losers(self) -> int:
        """Losing-trick count as dealer's ``loser`` makes it (see suit_losers):
        four lookups of one 8 KiB table."""
        mask = self.mask
        table = _LOSERS or _losers_table()
        return (table[mask >> 39] + table[mask >> 26 & SUIT_MASK]
                + table[mask >> 13 & SUIT_MASK] + table[mask & SUIT_MASK])

    def cards(self) -> Iterator[Card]:
        return cards_of_mask(self.mask)

    def to_pbn(self) -> str:
        return pbn_hand(self.mask)

    def __len__(self) -> int:
        return popcount(self.mask)

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            try:
                card = Card.from_str(card)
            except ValueError:
                return False
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return self.cards()

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"Hand({self.to_pbn()!r})"


# The slot's own setter (Hand refuses setattr: it is immutable).
_SET_MASK: Callable[[Hand, int], None] = Hand.__dict__["mask"].__set__
_NEW = object.__new__


def _hand(mask: int) -> Hand:
    """The Hand of a mask a Deal holds, which the Deal has checked: made
    without Hand.__init__ (its checks and its call), a quarter cheaper
    (deal.north makes one at every read)."""
    hand = _NEW(Hand)
    _SET_MASK(hand, mask)
    return hand

_BALANCED = frozenset(
    (s, h, d, c) for s in range(2, 6) for h in range(2, 6) for d in range(2, 6)
    for c in range(2, 6)
    if s + h + d + c == 13 and sorted((s, h, d, c)) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]))


class Call(int):
    """A call, as its .dx byte: ``(level << 5) | (1 << strain)`` for a bid,
    1 Pass, 2 Double, 4 Redouble."""

    __slots__ = ()

    def __new__(cls, code: int) -> Call:
        if code not in _CALL_NAMES:
            raise ValueError(f"not a call byte: {code}")
        return super().__new__(cls, code)

    @classmethod
    def bid(cls, level: int, strain: Strain | int) -> Call:
        if not 1 <= level <= 7 or not 0 <= strain <= 4:
            raise ValueError(f"no such bid: level {level} strain {strain}")
        return cls(level << 5 | 1 << int(strain))

    @classmethod
    def from_str(cls, text: str) -> Call:
        """Parse ``Pass``/``P``, ``X``, ``XX``, ``1C`` .. ``7NT`` (any case)."""
        code = _CALL_CODES.get(text.upper())
        if code is None:
            raise ValueError(f"not a call: {quote(text)}")
        return cls(code)

    @property
    def is_bid(self) -> bool:
        return self >= 32

    @property
    def level(self) -> int:
        return self >> 5

    @property
    def strain(self) -> Strain | None:
        if not self.is_bid:
            return None
        return Strain((self & 31).bit_length() - 1)

    def __str__(self) -> str:
        return _CALL_NAMES[self]

    def __repr__(self) -> str:
        return f"Call({str(self)!r})"


PASS_CODE, DOUBLE_CODE, REDOUBLE_CODE = 1, 2, 4
_CALL_NAMES: dict[int, str] = {PASS_CODE: "Pass", DOUBLE_CODE: "X", REDOUBLE_CODE: "XX"}
for _level in range(1, 8):
    for _strain in Strain:
        _CALL_NAMES[_level << 5 | 1 << _strain] = f"{_level}{_strain}"
_CALL_CODES: dict[str, int] = {name.upper(): code for code, name in _CALL_NAMES.items()}
_CALL_CODES["P"] = PASS_CODE
for _level in range(1, 8):
    _CALL_CODES[f"{_level}N"] = _level << 5 | 1 << Strain.NOTRUMP


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


def trick_winner(cards: tuple[Card, ...] | list[Card], trumps: Strain | None) -> int:
    """Index (0-3) of the winning card of a trick: the highest trump, else the
    highest card of the suit led."""
    trump = None if trumps is None else trumps.suit
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card.suit == top.suit:
            if card.rank > top.rank:
                best = i
        elif card.suit == trump:
            # top is the led suit here (it differs from the card's suit)
            best = i
    return best


UNKNOWN_TRUMPS = "unknown"


def check_play(deal: Deal, play: Iterable[Card], trumps: Strain | str | None,
               leader: Seat | None = None) -> str | None:
    """Why ``play`` (chronological) cannot be played from ``deal``, or None.

    Real rules: each card in the hand on turn, suit followed when possible,
    each trick led by the winner of the previous one. ``leader`` (when
    given) must hold the first card. ``trumps`` None is notrump; with
    ``UNKNOWN_TRUMPS`` (a .dx file without an auction) the winner of a trick
    cannot be known, so any seat may lead the next trick.
    """
    hands = list(deal.masks)
    trick: list[Card] = []
    seats: list[Seat] = []
    turn = leader
    for number, card in enumerate(play, 1):
        holder = deal.owner(card)
        if holder is None:
            return f"card {number} ({card}) is in no hand"
        if turn is None:
            turn = holder
        if holder != turn:
            return f"card {number} ({card}) is held by {holder.name_title}, but {turn.name_title} is on turn"
        if not hands[holder] >> card & 1:
            return f"card {number} ({card}) was already played"
        if trick:
            led = trick[0].suit
            suit_bits = SUIT_MASK << (13 * led)
            if card.suit != led and hands[holder] & suit_bits:
                return f"card {number} ({card}) is a revoke: {holder.name_title} holds {led.name.lower()}"
        hands[holder] &= ~(1 << card)
        trick.append(card)
        seats.append(holder)
        turn = holder.next()
        if len(trick) == 4:
            known = trumps != UNKNOWN_TRUMPS
            turn = seats[trick_winner(trick, trumps)] if known else None  # type: ignore[arg-type]
            trick, seats = [], []
    return None


def auction_strain(auction: tuple[Call, ...]) -> Strain | None:
    """The strain of the auction's last bid; None without a bid."""
    for call in reversed(auction):
        if call.is_bid:
            return call.strain
    return None


def deal_trumps(deal: Deal) -> Strain | None:
    """The strain the deal's play is in, as its source says (giblib's
    ``trumps=``, else notrump; a PBN Contract tag), else the last bid of
    the auction; None when unknown."""
    if deal.extra is not None:
        return deal.extra.contract_strain(deal.auction)
    return auction_strain(deal.auction)
