"""The model as PBN text: a deal string, an auction section and a play
section, as the PBN writer (:mod:`dealerpp.deals.formats.pbn`) and the game
record's tags (:mod:`dealerpp.deals.formats.pbn.game_record`) both write
them."""

from __future__ import annotations

from dealerpp.deals.model import (
    RANK_CHARS,
    SEAT_CHARS,
    SUITS_HIGH_FIRST,
    Call,
    Deal,
    Seat,
    deal_trumps,
    trick_winner,
)


def deal_string(deal: Deal, first: Seat = Seat.NORTH, prefix: bool = True) -> str:
    """``N:...`` (or four hands N E S W without the prefix), cards in the
    deal's own order when it has one."""
    parts = []
    for i in range(4):
        seat = (first + i) % 4
        if deal.masks[seat] == 0 and deal.in_play:
            parts.append("-")
            continue
        held: list[list[str]] = [[], [], [], []]  # rank characters by suit, clubs first
        for card in deal.cards_in_order(seat):  # one pass: no Suit made a card
            held[card // 13].append(RANK_CHARS[card % 13])
        parts.append(".".join("".join(held[suit]) for suit in SUITS_HIGH_FIRST))
    body = " ".join(parts)
    return f"{SEAT_CHARS[first]}:{body}" if prefix else body


def auction_section(auction: tuple[Call, ...]) -> str:
    rows = [auction[i:i + 4] for i in range(0, len(auction), 4)]
    return "\n".join(" ".join(str(c) for c in row) for row in rows)


def play_section(deal: Deal) -> tuple[str, str] | None:
    """Play tag value and section for the deal's play, or None when the
    contract's strain is unknown (PBN lists tricks by seat, not in time order)."""
    trumps = deal_trumps(deal)
    first = deal.owner(deal.play[0])
    if trumps is None or first is None:
        return None
    rows: list[str] = []
    on_lead = first
    for start in range(0, len(deal.play), 4):
        trick = deal.play[start:start + 4]
        by_seat = {on_lead.next(i): card for i, card in enumerate(trick)}
        rows.append(" ".join(str(by_seat[first.next(i)]) if first.next(i) in by_seat else "-"
                             for i in range(4)))
        if len(trick) == 4:
            on_lead = on_lead.next(trick_winner(list(trick), trumps))
    return str(first), "\n".join(rows)
