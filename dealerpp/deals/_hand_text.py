"""A hand's text looked up by its suits' 13-bit holdings, not built card by
card: the text formats' writers and their readers' usual case (a hand
written as its writer writes it) go through these tables, made on first
use. Anything a table does not know (lower case, another order, a card
twice) gives None, and the reader's own careful code takes over.
"""

from __future__ import annotations

from dealerpp.deals.model import SUIT_MASK, holding_text, pbn_hand

__all__ = ["pbn_hand"]  # one writer of S.H.D.C: the model's

_BY_TEXT: dict[str, int] = {}
_LISTING: list[list[str]] = []  # per suit S H D C: "SA SK S6" by holding
_SPACED: list[str] = []  # "A K 6 " by holding ("- " for a void)
_SPACED_BITS: dict[str, int] = {}


def holding_bits(text: str) -> int | None:
    """The holding of ranks written high first in upper case, else None."""
    if not _BY_TEXT:
        _BY_TEXT.update((holding_text(bits), bits) for bits in range(SUIT_MASK + 1))
    return _BY_TEXT.get(text)


def pbn_hand_mask(text: str) -> int | None:
    """The mask of ``S.H.D.C`` written as :func:`pbn_hand` writes it, else None."""
    parts = text.split(".")
    if len(parts) != 4:
        return None
    if not _BY_TEXT:
        holding_bits("")
    get = _BY_TEXT.get
    spades, hearts, diamonds, clubs = parts
    spades_bits, hearts_bits = get(spades), get(hearts)
    diamonds_bits, clubs_bits = get(diamonds), get(clubs)
    if spades_bits is None or hearts_bits is None or diamonds_bits is None \
            or clubs_bits is None:
        return None
    return spades_bits << 39 | hearts_bits << 26 | diamonds_bits << 13 | clubs_bits


def _listing_tables() -> None:
    for letter in "SHDC":
        row = [" ".join(letter + rank for rank in holding_text(bits))
               for bits in range(SUIT_MASK + 1)]
        _LISTING.append(row)


def listing_hand(mask: int) -> str:
    """``SA SK S6 H8 ...``: the cards of a hand, spades to clubs, high first."""
    if not _LISTING:
        _listing_tables()
    spades, hearts, diamonds, clubs = _LISTING
    parts = (spades[mask >> 39 & SUIT_MASK], hearts[mask >> 26 & SUIT_MASK],
             diamonds[mask >> 13 & SUIT_MASK], clubs[mask & SUIT_MASK])
    return " ".join([part for part in parts if part])


def listing_hand_mask(text: str) -> int | None:
    """The mask of cards written as :func:`listing_hand` writes them, else
    None. Two characters and a blank a card: slices give the suit letters
    (grouped S H D C) and the ranks of each suit (high first, a table)."""
    count = (len(text) + 1) // 3
    if len(text) != 3 * count - 1 or text[2::3] != " " * (count - 1):
        return None
    letters, ranks = text[0::3], text[1::3]
    spades, hearts = letters.count("S"), letters.count("H")
    diamonds = letters.count("D")
    hearts_end, diamonds_end = spades + hearts, spades + hearts + diamonds
    if letters != "S" * spades + "H" * hearts + "D" * diamonds + "C" * (count - diamonds_end):
        return None
    if not _BY_TEXT:
        holding_bits("")
    get = _BY_TEXT.get
    bits = (get(ranks[:spades]), get(ranks[spades:hearts_end]),
            get(ranks[hearts_end:diamonds_end]), get(ranks[diamonds_end:]))
    if None in bits:
        return None
    return bits[0] << 39 | bits[1] << 26 | bits[2] << 13 | bits[3]  # type: ignore[operator]


def _spaced_tables() -> None:
    _SPACED.extend(" ".join(holding_text(bits)) + " " if bits else "- "
                   for bits in range(SUIT_MASK + 1))
    _SPACED_BITS.update((text.rstrip(" "), bits) for bits, text in enumerate(_SPACED))


def spaced_holding(bits: int) -> str:
    """A printall cell: ``A K 6 `` (``- `` for a void)."""
    if not _SPACED:
        _spaced_tables()
    return _SPACED[bits]


def spaced_holding_bits(text: str) -> int | None:
    """The holding of a printall cell written as :func:`spaced_holding`
    writes it, without its trailing blanks (``A K 6``, ``-``), else None."""
    if not _SPACED:
        _spaced_tables()
    return _SPACED_BITS.get(text)
