"""Display: the 4x4 layout (docs/formats.md) and the four-hand diagram of ``show``.

The layout is four seats in the order W N E S, each four holdings S H D C
as strings of rank characters high to low (``"AKT3"``, ``""`` for a void):
the seed's 4 x 4 x char[14], as nested lists of str.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealerpp.deals.model import (
    SUITS_HIGH_FIRST,
    Deal,
    Hand,
    Seat,
    holding_text,
    parse_holding,
)

LAYOUT_SEATS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)


def to_layout(deal: Deal) -> list[list[str]]:
    """16 holdings: seats W N E S, suits S H D C."""
    return [[holding_text(Hand(deal.masks[seat]).bits(suit)) for suit in SUITS_HIGH_FIRST]
            for seat in LAYOUT_SEATS]


def from_layout(layout: Sequence[Sequence[str]]) -> Deal:
    """A deal from 16 holdings (seats W N E S, suits S H D C); ValueError
    on a bad rank, a card twice or a hand over 13 cards."""
    if len(layout) != 4 or any(len(row) != 4 for row in layout):
        raise ValueError("a layout is 4 seats of 4 suits")
    masks = [0, 0, 0, 0]
    for seat, row in zip(LAYOUT_SEATS, layout, strict=True):
        for suit, text in zip(SUITS_HIGH_FIRST, row, strict=True):
            masks[seat] |= parse_holding(text) << (13 * suit)
    return Deal((masks[0], masks[1], masks[2], masks[3]))


# -- the diagram -------------------------------------------------------------------

WIDTH = 12  # the West column, wide enough for "S " and 10 cards


def _lines(deal: Deal, seat: Seat) -> list[str]:
    hand = Hand(deal.masks[seat])
    title = seat.name_title
    rows = [f"{suit} {holding_text(hand.bits(suit)) or '-'}" for suit in SUITS_HIGH_FIRST]
    return [title, *rows]


def diagram(deal: Deal, number: int | None = None) -> str:
    """The four hands around a table, North on top, with a heading that
    names the board, dealer and vulnerability when known."""
    heading = _heading(deal, number)
    north, south = _lines(deal, Seat.NORTH), _lines(deal, Seat.SOUTH)
    west, east = _lines(deal, Seat.WEST), _lines(deal, Seat.EAST)
    width = max(WIDTH, *(len(x) for x in west)) + 2
    indent = " " * width
    out = [heading] if heading else []
    out += [indent + line for line in north]
    out += [(w.ljust(width) + indent[: max(0, width - 2)] + "  " + e).rstrip()
            for w, e in zip(west, east, strict=True)]
    out += [indent + line for line in south]
    return "\n".join(out) + "\n"


def _heading(deal: Deal, number: int | None) -> str:
    parts = []
    if number is not None:
        parts.append(f"Deal {number}")
    if deal.board is not None:
        parts.append(f"Board {deal.board}")
    if deal.dealer is not None:
        parts.append(f"Dealer {deal.dealer.name_title}")
    if deal.vul is not None:
        parts.append(f"Vul {deal.vul}")
    label = deal.extra.label() if deal.extra is not None else None
    if label:
        parts.append(f"({label})")
    return "  ".join(parts)
