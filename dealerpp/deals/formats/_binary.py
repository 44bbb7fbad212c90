""".deals and .dx binary deal files (docs/formats.md).

.deals: 32 bytes a deal, four little-endian u64 hand masks N E S W.
.dx: per deal a number byte (1-255), the 32-byte deal, the auction bytes,
0xFF, the play bytes (0-51), 0xFF. The number byte is the board's, 1-255
cycling (board 256 is 1 again); a record's board is the one of its byte
nearest the previous record's (:func:`dx_board`).

Errors name the byte offset of the record and what is wrong.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar

from dealerpp.deals._io import BinarySink, binary_chunks, fixed_records, source_name
from dealerpp.deals.model import (
    UNKNOWN_TRUMPS,
    Call,
    Card,
    Deal,
    FormatData,
    Strain,
    board_dealer_vul,
    check_play,
    mask_problem,
)
from dealerpp.deals.options import Source, Target
from dealerpp.diagnostics import DppError

RECORD = 32
END = 0xFF
_MASKS = struct.Struct("<4Q")
# Read .dx in large chunks; records are variable length so we parse a buffer.
_DX_CHUNK = 1 << 16
#: The number byte holds a board modulo this, as 1-255 (0 is no number).
DX_CYCLE = 255
#: How far a record's board may be from the previous record's, up or down:
#: half the cycle, so that each byte names one board.
DX_REACH = DX_CYCLE // 2
#: The key of ``ReadOptions.previous`` that holds the board of the record
#: before a piece of a .dx file read on its own (the bulk path's).
PREVIOUS_BOARD = "dx board"


@dataclass(frozen=True)
class DxInfo(FormatData):
    """The number byte a .dx record gave its deal, which the reader kept as
    ``Deal.extra`` before it read the board from it. Nothing makes one now:
    kept so that a pickle of such a deal still loads."""

    fmt: ClassVar[str] = "dx"

    number: int


def deal_from_bytes(data: bytes, offset: int = 0, filename: str | None = None) -> Deal:
    """One deal from its 32 bytes; ``offset`` is where the record starts."""
    masks = _MASKS.unpack(data)
    problem = mask_problem(masks)
    if problem:
        raise DppError(problem, filename=filename, byte=offset, deal=offset // RECORD + 1)
    return Deal(masks)


def deal_to_bytes(deal: Deal) -> bytes:
    return _MASKS.pack(*deal.masks)


# -- .deals ---------------------------------------------------------------

def read_deals(source: Source, filename: str | None = None) -> Iterator[Deal]:
    """Deals of a .deals file, streamed 32 bytes at a time."""
    name = source_name(source, filename)
    for offset, record in fixed_records(source, RECORD, name):
        yield deal_from_bytes(record, offset, name)


def write_deals(deals: Iterable[Deal], target: Target) -> None:
    with BinarySink(target) as sink:
        for deal in deals:
            sink.write(deal_to_bytes(deal))


def dumps_deals(deals: Iterable[Deal]) -> bytes:
    return b"".join(deal_to_bytes(d) for d in deals)


# -- .dx ------------------------------------------------------------------

class _Bytes:
    """A byte reader over a chunked stream that knows its absolute offset."""

    def __init__(self, source: Source) -> None:
        self._chunks = binary_chunks(source, _DX_CHUNK)
        self._buffer = b""
        self._pos = 0
        self.offset = 0  # absolute offset of the next byte

    def _fill(self, need: int) -> bool:
        while len(self._buffer) - self._pos < need:
            chunk = next(self._chunks, None)
            if chunk is None:
                return False
            self._buffer = self._buffer[self._pos:] + chunk
            self._pos = 0
        return True

    def at_end(self) -> bool:
        return not self._fill(1)

    def take(self, count: int) -> bytes | None:
        """``count`` bytes, or None at end of data (nothing consumed then)."""
        if not self._fill(count):
            return None
        data = self._buffer[self._pos:self._pos + count]
        self._pos += count
        self.offset += count
        return data


def dx_byte(board: int) -> int:
    """The number byte of a board: 1-255, cycling (256 is 1 again)."""
    return (board - 1) % DX_CYCLE + 1


def dx_board(byte: int, previous: int) -> int:
    """The board of a record whose number byte is ``byte`` (1-255), after a
    record of board ``previous`` (0: it is the file's first): of the boards
    with that byte, the one nearest ``previous``, at most DX_REACH above or
    below it, and never below 1. So boards 1, 2, ... 1000 read back as
    written, and so do gaps, repeats and small steps back (a set of tables
    that each play boards 1-3); the first record's board is its byte."""
    step = (byte - previous) % DX_CYCLE
    if step > DX_REACH:
        step -= DX_CYCLE
    board = previous + step
    return board if board >= 1 else board + DX_CYCLE


def read_dx(source: Source, filename: str | None = None, previous: int = 0
            ) -> Iterator[Deal]:
    """Deals of a .dx file with their board (its dealer and vulnerability
    by the cycle), auction and play. ``previous``: the board of the record
    before the source's first (0: the source is a whole file)."""
    name = source_name(source, filename)
    data = _Bytes(source)
    index = 0
    while not data.at_end():
        index += 1
        start = data.offset
        deal = _read_dx_record(data, start, index, name, previous)
        previous = deal.board or 0
        yield deal


def _dx_error(offset: int, index: int, message: str, name: str | None) -> DppError:
    return DppError(message, filename=name, byte=offset, deal=index)


def _read_dx_record(data: _Bytes, start: int, index: int, name: str | None,
                    previous: int) -> Deal:
    head = data.take(1)
    assert head is not None  # at_end() was checked by the caller
    number = head[0]
    if number == 0:
        raise _dx_error(start, index, "deal number 0 (must be 1-255)", name)
    body = data.take(RECORD)
    if body is None:
        raise _dx_error(start, index, "truncated: the 32-byte deal is incomplete", name)
    masks = _MASKS.unpack(body)
    problem = mask_problem(masks)
    if problem:
        raise _dx_error(start + 1, index, problem, name)
    auction = tuple(_dx_calls(data, index, name))
    play = tuple(_dx_cards(data, index, name))
    board = dx_board(number, previous)
    dealer, vul = board_dealer_vul(board)
    deal = Deal(masks, board, dealer, vul, auction=auction, play=play)
    if play:
        problem = check_play(deal, play, _trumps_of(auction))
        if problem:
            raise _dx_error(start, index, f"play: {problem}", name)
    return deal


def _dx_calls(data: _Bytes, index: int, name: str | None) -> Iterator[Call]:
    for offset, byte in _dx_list(data, index, name, "auction"):
        try:
            yield Call(byte)
        except ValueError:
            raise _dx_error(offset, index, f"byte {byte} is not a call", name) from None


def _dx_cards(data: _Bytes, index: int, name: str | None) -> Iterator[Card]:
    for count, (offset, byte) in enumerate(_dx_list(data, index, name, "play"), 1):
        if byte > 51:
            raise _dx_error(offset, index, f"byte {byte} is not a card (0-51)", name)
        if count > 52:
            raise _dx_error(offset, index, "more than 52 cards played", name)
        yield Card(byte)


def _dx_list(data: _Bytes, index: int, name: str | None, what: str
             ) -> Iterator[tuple[int, int]]:
    """The bytes of a list that ends in 0xFF (the auction, the play), each
    with its offset."""
    while True:
        offset = data.offset
        byte = data.take(1)
        if byte is None:
            raise _dx_error(offset, index, f"truncated: the {what} has no 0xFF end byte", name)
        if byte[0] == END:
            return
        yield offset, byte[0]


def _trumps_of(auction: tuple[Call, ...]) -> Strain | str | None:
    """The strain of the last bid (the contract's); unknown without a bid."""
    for call in reversed(auction):
        if call.is_bid:
            return call.strain
    return UNKNOWN_TRUMPS


def dx_record(deal: Deal, number: int) -> bytes:
    if deal.play:
        # A PBN play may come from hidden hands or break the rules; .dx
        # holds the play of the deal it holds, and its reader checks that.
        problem = check_play(deal, deal.play, _trumps_of(deal.auction))
        if problem:
            raise ValueError(f".dx cannot hold this play: {problem}")
    parts = [bytes([number]), deal_to_bytes(deal)]
    parts.append(bytes(int(c) for c in deal.auction) + bytes([END]))
    parts.append(bytes(int(c) for c in deal.play) + bytes([END]))
    return b"".join(parts)


class DxNumbers:
    """The number bytes of one output's records. A deal's board (its place
    in the output when it has none) is written as its byte when the reader
    reads that byte back as that board after the board before it
    (:func:`dx_board`); a board it would read as another is an error, so
    no board of a .dx we write is ever read back as another."""

    def __init__(self) -> None:
        self.last = 0  # the board of the last record written (0: none yet)

    def records(self, deals: Iterable[Deal], first_index: int) -> Iterator[bytes]:
        """The records of ``deals``, the first the output's deal
        ``first_index`` (from 0); a DppError names a deal counted from the
        first given. ``last`` moves on as each record is made."""
        for index, deal in enumerate(deals, first_index):
            board = index + 1 if deal.board is None else deal.board
            place = index - first_index + 1
            problem = self.problem(board)
            if problem is not None:
                raise DppError(problem, deal=place, board=board, output=True)
            try:
                record = dx_record(deal, dx_byte(board))
            except ValueError as error:
                raise DppError(str(error), deal=place, output=True) from None
            self.last = board
            yield record

    def problem(self, board: int) -> str | None:
        """Why ``board`` cannot follow the last one written, or None (the
        error names the board: the text does not)."""
        if board < 1:
            return ".dx numbers boards from 1"
        read = dx_board(dx_byte(board), self.last)
        if read == board:
            return None
        rule = (f"a record's board is the one nearest the board before ({self.last}), at "
                f"most {DX_REACH} away" if self.last else "the first record's board is its byte")
        return (f".dx would read it back as board {read}: its number byte holds the board "
                f"1-{DX_CYCLE} cycling, and {rule}")


def _numbered(deals: Iterable[Deal]) -> Iterator[bytes]:
    return DxNumbers().records(deals, 0)


def write_dx(deals: Iterable[Deal], target: Target) -> None:
    with BinarySink(target) as sink:
        for record in _numbered(deals):
            sink.write(record)


def dumps_dx(deals: Iterable[Deal]) -> bytes:
    return b"".join(_numbered(deals))
