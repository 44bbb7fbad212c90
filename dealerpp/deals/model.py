"""The deal model: cards, suits, seats, hands, calls and deals, by name.

In the spirit of python-chess everything is a small immutable value built on
plain ints, so the numpy bulk path can share the same numbers:

* a card is its .deals bit: clubs 0-12, diamonds 13-25, hearts 26-38,
  spades 39-51, ranks 2..A inside a suit (``card = suit * 13 + rank - 2``);
* a seat is N=0, E=1, S=2, W=3 (clockwise, the .deals hand order);
* a hand is a 52-bit mask of cards;
* a deal is four hand masks plus the metadata that travels with it.

This module is the model's one front: it defines nothing and names what its
parts define, each part importing only those below it:

* :mod:`dealerpp.deals.seat`: ``Seat``;
* :mod:`dealerpp.deals.cards`: ``Suit``, ``Card``, the masks and a
  holding's text;
* :mod:`dealerpp.deals.hand`: ``Holding`` and ``Hand`` and their counts;
* :mod:`dealerpp.deals.calls`: ``Strain`` and ``Call``;
* :mod:`dealerpp.deals.deal`: ``Deal``, ``Vul``, ``Tricks``, ``FormatData``,
  ``full_deal`` and the board cycle;
* :mod:`dealerpp.deals.play`: trick winners and the play's legality.

Import from here (``from dealerpp.deals.model import Deal``) or from a part;
the objects are the same. A pickle made before the model was split names
its classes here (``dealerpp.deals.model.Deal``, and a deal's unasked game
record ``dealerpp.deals.model._Unasked``): both still load.
"""

from __future__ import annotations

from dealerpp.deals.calls import (
    DOUBLE_CODE,
    PASS_CODE,
    REDOUBLE_CODE,
    Call,
    Strain,
    auction_strain,
)
from dealerpp.deals.cards import (
    FULL_MASK,
    RANK_CHARS,
    SEAT_CHARS,
    SUIT_CHARS,
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
from dealerpp.deals.deal import (
    TABLE_STRAINS,
    Deal,
    FormatData,
    Tricks,
    Vul,
    board_dealer_vul,
    full_deal,
    mask_problem,
    numbered,
)

# not offered (no __all__ entry), only kept findable: old pickles name it
from dealerpp.deals.deal import _Unasked as _Unasked
from dealerpp.deals.hand import Hand, Holding, suit_losers
from dealerpp.deals.play import UNKNOWN_TRUMPS, check_play, deal_trumps, trick_winner
from dealerpp.deals.seat import Seat

__all__ = [
    "DOUBLE_CODE", "FULL_MASK", "PASS_CODE", "RANK_CHARS", "REDOUBLE_CODE", "SEAT_CHARS",
    "SUITS_HIGH_FIRST", "SUIT_CHARS", "SUIT_MASK", "TABLE_STRAINS", "UNKNOWN_TRUMPS", "Call",
    "Card", "Deal", "FormatData", "Hand", "Holding", "Seat", "Strain", "Suit", "Tricks", "Vul",
    "auction_strain", "board_dealer_vul", "cards_of_mask", "check_play", "deal_trumps",
    "full_deal", "holding_text", "mask_of_cards", "mask_problem", "numbered", "parse_holding",
    "pbn_hand", "popcount", "suit_losers", "trick_winner",
]
