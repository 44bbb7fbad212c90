"""A hand and one suit of it: ``Hand`` (a 52-bit mask of cards) and
``Holding`` (13 bits of one suit), with what is counted of them (hcp,
controls, losers, shape, balance), each from small tables made on first use.

The tables are globals of this module, read by the counts that use them: a
global of another module would cost an attribute look-up at every read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import FrozenInstanceError

from dealerpp.deals.cards import (
    FULL_MASK,
    RANK_CHARS,
    SUIT_MASK,
    SUITS_HIGH_FIRST,
    Card,
    Suit,
    cards_of_mask,
    holding_text,
    mask_of_cards,
    parse_holding,
    pbn_hand,
    popcount,
)
from dealerpp.lengths import Shape

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
        raise FrozenInstanceError(f"a Holding is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"a Holding is immutable: cannot delete {name}")

    # Made again by the constructor: the default (the slots set one by one)
    # meets __setattr__'s refusal, and protocols 0 and 1 refuse slots.
    def __reduce__(self) -> tuple[type[Holding], tuple[Suit, int]]:
        return Holding, (self.suit, self.bits)

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


_BALANCED = frozenset(
    (s, h, d, c) for s in range(2, 6) for h in range(2, 6) for d in range(2, 6)
    for c in range(2, 6)
    if s + h + d + c == 13 and sorted((s, h, d, c)) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]))


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
