"""Cards and suits as small ints: the numbering under the whole model.

A card is its .deals bit: clubs 0-12, diamonds 13-25, hearts 26-38, spades
39-51, ranks 2..A inside a suit (``card = suit * 13 + rank - 2``); a set of
cards (a hand, a suit's holding) is a mask of those bits, so the numpy bulk
path shares the same numbers. Here: ``Suit``, ``Card``, the masks' helpers
and the text of a holding (``AKT3``), read and written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dealerpp.deals.seat import Initialled
from dealerpp.diagnostics import quote

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
