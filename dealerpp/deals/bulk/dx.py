""".dx on the bulk path: a deal with nothing but its cards is 35 bytes, its
number (1-255), the four masks of .deals and two 0xFF bytes (an empty
auction, an empty play).

Records differ in length only by their auction and play, so a file is read
fast from its start while each record is deal-only and full (each ends
where the next is looked for, so the records found are the reader's); from
the first that is not (an auction, a play, a partial deal, a number 0, a
truncated record), the rest of the file goes to the per-deal reader as one
stream, its errors' bytes and deals counted from the file's start. The
number is not kept: the reader gives it to no format but .dx itself.
Writing, a deal's number is its board when that fits a byte, else its place
in the output, 1-255 cycling, as the per-deal writer numbers it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import DealArray, full_rows
from dealerpp.deals.bulk.chunks import Chunks, rest_of
from dealerpp.deals.bulk.hooks import LineHooks, Segment, Slow

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dealerpp.deals.bulk.hooks import PerDeal, PieceWriter
    from dealerpp.deals.model import Deal

RECORD = 35
_END = 0xFF


class DxCodec(LineHooks):
    """Deal-only .dx records, read from a file's start, written always."""

    name = "dx"
    contents = ()

    def decode(self, block: bytes | memoryview, width: int = RECORD
               ) -> tuple[DealArray, np.ndarray | None]:
        """Records of 35 bytes; ``ok`` False from the first that is not a
        full deal-only record."""
        raw = np.frombuffer(block, np.uint8).reshape(-1, RECORD)
        masks = np.ascontiguousarray(raw[:, 1:33]).view("<u8").astype(np.uint64)
        ok = (raw[:, 0] != 0) & (raw[:, 33] == _END) & (raw[:, 34] == _END) & full_rows(masks)
        return DealArray(masks), None if ok.all() else ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        count = len(deals)
        out = np.empty((count, RECORD), np.uint8)
        places = np.arange(first_index, first_index + count, dtype=np.int64) % 255 + 1
        numbers = places
        if deals.boards is not None:
            boards = deals.boards
            numbers = np.where((boards > 0) & (boards < 256), boards, places)
        out[:, 0] = numbers
        out[:, 1:33] = deals.masks.astype("<u8").view(np.uint8).reshape(count, 32)
        out[:, 33:] = _END
        return memoryview(out.data).cast("B")

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter()

    def segments(self, source: Chunks, per_deal: PerDeal, filename: str | None,
                 first_board: int = 1) -> Iterator[Segment]:
        rest = b""
        offset = 0  # bytes of the file read fast
        while True:
            data, final = source.read_after(rest)
            if not data:
                return
            whole = len(data) // RECORD * RECORD
            good = 0
            if whole:
                deals, ok = self.decode(memoryview(data)[:whole])
                good = len(deals) if ok is None else int(np.argmin(ok))
                if good:
                    yield deals[:good]
            offset += good * RECORD
            rest = data[good * RECORD:]
            if good * RECORD < whole or (final and rest):
                yield _stream(rest, source, per_deal, filename, offset)
                return
            if final:
                return


def _stream(head: bytes, source: Chunks, per_deal: PerDeal, filename: str | None,
            offset: int) -> Slow:
    """The rest of the file, from byte ``offset``, through the per-deal
    reader (which names the byte and the deal counted from the file's start)."""
    stream = rest_of(head, source)
    return Slow(per_deal.read_stream("dx", stream, filename, 1, first_byte=offset))


class _PieceWriter:
    """The per-deal writer, a deal without a number of its own or a board
    that fits a byte numbered by its place in the whole output."""

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals.formats._binary import numbered_records

        return b"".join(numbered_records(deals, first_index))
