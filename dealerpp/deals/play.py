"""The rules of the play: who wins a trick, whether a play could have
been played from a deal, and the strain a deal's play is in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from dealerpp.deals.calls import Strain, auction_strain
from dealerpp.deals.cards import SUIT_MASK, Card
from dealerpp.deals.seat import Seat

if TYPE_CHECKING:
    from dealerpp.deals.deal import Deal

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


def deal_trumps(deal: Deal) -> Strain | None:
    """The strain the deal's play is in, as its source says (giblib's
    ``trumps=``, else notrump; a PBN Contract tag), else the last bid of
    the auction; None when unknown."""
    if deal.extra is not None:
        return deal.extra.contract_strain(deal.auction)
    return auction_strain(deal.auction)
