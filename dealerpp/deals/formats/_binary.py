""".deals and .dx binary deal files (docs/formats.md).

.deals: 32 bytes a deal, four little-endian u64 hand masks N E S W.
.dx: per deal a number byte (1-255), the 32-byte deal, the auction bytes,
0xFF, the play bytes (0-51), 0xFF.

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


@dataclass(frozen=True)
class DxInfo(FormatData):
    """The number byte a .dx record gave its deal (``Deal.extra`` of a deal
    read from .dx), written back so a .dx copy is the file it was."""

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


def read_dx(source: Source, filename: str | None = None) -> Iterator[Deal]:
    """Deals of a .dx file with their number, auction and play."""
    name = source_name(source, filename)
    data = _Bytes(source)
    index = 0
    while not data.at_end():
        index += 1
        start = data.offset
        yield _read_dx_record(data, start, index, name)


def _dx_error(offset: int, index: int, message: str, name: str | None) -> DppError:
    return DppError(message, filename=name, byte=offset, deal=index)


def _read_dx_record(data: _Bytes, start: int, index: int, name: str | None) -> Deal:
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
    deal = Deal(masks, auction=auction, play=play, extra=DxInfo(number))
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


def _numbered(deals: Iterable[Deal]) -> Iterator[bytes]:
    return numbered_records(deals, 0)


def numbered_records(deals: Iterable[Deal], first_index: int) -> Iterator[bytes]:
    """The records of ``deals``, the first the output's deal ``first_index``
    (from 0); a DppError names a deal counted from the first given."""
    for index, deal in enumerate(deals, first_index):
        # Deals without a number take their board number when it fits a
        # byte, else their place in the file, 1-255 cycling.
        kept = deal.extra.number if isinstance(deal.extra, DxInfo) else None
        number = kept or (deal.board if deal.board and 0 < deal.board < 256 else index % 255 + 1)
        try:
            yield dx_record(deal, number)
        except ValueError as error:
            raise DppError(str(error), deal=index - first_index + 1, output=True) from None


def write_dx(deals: Iterable[Deal], target: Target) -> None:
    with BinarySink(target) as sink:
        for record in _numbered(deals):
            sink.write(record)


def dumps_dx(deals: Iterable[Deal]) -> bytes:
    return b"".join(_numbered(deals))
