"""The 26-hex external format (docs/formats.md), one deal a line.

We follow the format's reference implementation (whose files are the ones
found in the wild), not a literal reading of the seed text: for each rank
A..2 one byte ``S | H<<2 | D<<4 | C<<6`` with two bits a card (0 South,
1 West, 2 North, 3 East), each byte written low nibble first, upper case.
A literal reading of the seed would put spades in the high bits.

An optional suffix ``-D`` (one hex digit, board number mod 16, 0 = board
16) gives dealer and vulnerability by the standard cycle.
"""

from __future__ import annotations

from collections.abc import Iterator

from dealerpp.deals._io import (
    numbered_errors,
    record_errors,
    source_name,
    text_lines,
    text_writers,
)
from dealerpp.deals.model import Deal, Seat, Suit, board_dealer_vul
from dealerpp.deals.options import READ, ReadOptions, Source
from dealerpp.diagnostics import DppError, TextProblem, quote

HEX = "0123456789ABCDEF"
# Two-bit seat code -> our seat, and back (0 South, 1 West, 2 North, 3 East).
_CODE_SEAT = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_SEAT_CODE = {seat: code for code, seat in enumerate(_CODE_SEAT)}
# Position of each suit inside a byte: spades lowest.
_SUIT_SHIFT = {Suit.SPADES: 0, Suit.HEARTS: 2, Suit.DIAMONDS: 4, Suit.CLUBS: 6}


def encode(deal: Deal, suffix: bool | None = None) -> str:
    """The 26 hex digits of a full deal, plus ``-D`` when the deal has a
    board number (or ``suffix`` is true)."""
    if not deal.is_full():
        raise ValueError("the 26-hex format holds full deals only (13 cards a hand)")
    digits = []
    for rank in range(14, 1, -1):
        byte = 0
        for suit, shift in _SUIT_SHIFT.items():
            owner = deal.owner(suit * 13 + rank - 2)
            assert owner is not None  # a full deal places every card
            byte |= _SEAT_CODE[owner] << shift
        digits.append(HEX[byte & 15] + HEX[byte >> 4])
    text = "".join(digits)
    if suffix or (suffix is None and deal.board is not None):
        text += "-" + HEX[(deal.board or 16) % 16]
    return text


def decode(text: str) -> Deal:
    """A deal from 26 hex digits (either case), optionally ``-D``.

    Raises TextProblem (a ValueError) at the 0-based offset of a problem.
    """
    body, dash, tail = text.partition("-")
    for index, char in enumerate(body.upper()):
        if char not in HEX:
            raise TextProblem(f"bad hex digit {quote(char)}", index)
    if len(body) != 26:
        raise TextProblem(f"expected 26 hex digits, got {len(body)}", min(len(body), 26))
    masks = [0, 0, 0, 0]
    for position in range(13):
        low, high = body[2 * position].upper(), body[2 * position + 1].upper()
        byte = HEX.index(low) | HEX.index(high) << 4
        rank = 14 - position
        for suit, shift in _SUIT_SHIFT.items():
            seat = _CODE_SEAT[byte >> shift & 3]
            masks[seat] |= 1 << (suit * 13 + rank - 2)
    counts = [bin(m).count("1") for m in masks]
    if counts != [13, 13, 13, 13]:
        detail = ", ".join(f"{s} {c}" for s, c in zip("NESW", counts, strict=True))
        raise TextProblem(f"hands must hold 13 cards each, got {detail}", 0)
    meta = {}
    if dash:
        if len(tail) != 1 or tail.upper() not in HEX:
            raise TextProblem(f"the suffix after '-' must be one hex digit, got {quote(tail)}", 27)
        board = HEX.index(tail.upper()) or 16
        dealer, vul = board_dealer_vul(board)
        meta = {"board": board, "dealer": dealer, "vul": vul}
    return Deal(tuple(masks), **meta)  # type: ignore[arg-type]


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """The deals of the file, lazily (the options: dealerpp.deals.options)."""
    return options.numbered(record_errors(_deals(source, filename)))


def _deals(source: Source, filename: str | None) -> Iterator[Deal]:
    """Deals of a text with one 26-hex string a line (blank lines skipped)."""
    name = source_name(source, filename)
    for number, line in enumerate(text_lines(source), 1):
        text = line.strip()
        if not text:
            continue
        try:
            yield decode(text)
        except TextProblem as error:
            column = error.offset + 1 + len(line) - len(line.lstrip())
            raise DppError(error.message, line=number, column=column, filename=name,
                           source_line=line) from None


# write(deals, target) and dumps(deals): a line a deal
write, dumps = text_writers(numbered_errors(lambda deal: encode(deal) + "\n"))
