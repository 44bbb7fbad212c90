""".dx on the bulk path: a deal with nothing but its cards is 35 bytes, its
number (1-255), the four masks of .deals and two 0xFF bytes (an empty
auction, an empty play).

Records differ in length only by their auction and play, so a file is read
fast from its start while each record is deal-only and full (each ends
where the next is looked for, so the records found are the reader's); from
the first that is not (an auction, a play, a partial deal, a number 0, a
truncated record), the rest of the file goes to the per-deal reader as one
stream, its errors' bytes and deals counted from the file's start. Each
record's board is read from its number as the per-deal reader reads it
(``_binary.dx_board``: the board of that byte nearest the record before's),
a block at a time: the steps from byte to byte, summed. A record whose
board that sum puts below 1 (the reader takes the board a cycle up) and
all after it go to the per-deal reader too, told the board before them.
Writing, a deal's number is its board's byte (its place in the output
without one), and a board the reader would read back as another is the
per-deal writer's error, as deal by deal.
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
    from dealerpp.deals.options import WriteOptions

RECORD = 35
_END = 0xFF
_CYCLE = 255  # _binary.DX_CYCLE (not imported: the model would come with it)
_REACH = _CYCLE // 2


class DxCodec(LineHooks):
    """Deal-only .dx records, read from a file's start, written always."""

    name = "dx"
    contents = ()

    def __init__(self) -> None:
        self.written = 0  # the board of the output's last record (its per-deal writer's too)
        self._read = 0  # the board of the last record the fast path read

    def decode(self, block: bytes | memoryview, width: int = RECORD, previous: int = 0
               ) -> tuple[DealArray, np.ndarray | None]:
        """Records of 35 bytes after a record of board ``previous`` (0:
        none), with their boards; ``ok`` False from the first that is not a
        full deal-only record or whose board goes below 1."""
        raw = np.frombuffer(block, np.uint8).reshape(-1, RECORD)
        masks = np.ascontiguousarray(raw[:, 1:33]).view("<u8").astype(np.uint64)
        numbers = raw[:, 0]
        boards, may_fall = read_boards(numbers, previous)
        ok = (numbers != 0) & (raw[:, 33] == _END) & (raw[:, 34] == _END) & full_rows(masks)
        if may_fall:
            ok &= boards >= 1
        return DealArray(masks, boards=boards), None if ok.all() else ok

    def begin(self, src_fmt: str, options: WriteOptions) -> None:
        self.written = 0

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview | None:
        """The records, or None when a board would be read back as another
        (the per-deal writer then names it)."""
        count = len(deals)
        boards = deals.boards
        if boards is None:
            boards = np.arange(first_index + 1, first_index + 1 + count, dtype=np.int64)
            counting = self.written == first_index  # on from the board before, 1 a step
        else:
            counting = False
        if count and not counting and not written_back(boards, self.written):
            return None
        out = np.empty((count, RECORD), np.uint8)
        out[:, 0] = (boards - 1) % _CYCLE + 1
        out[:, 1:33] = deals.masks.astype("<u8").view(np.uint8).reshape(count, 32)
        out[:, 33:] = _END
        if count:
            self.written = int(boards[-1])
        return memoryview(out.data).cast("B")

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter(self)

    def remember(self, last_record: bytes, previous: dict[str, str]) -> None:
        from dealerpp.deals.formats._binary import PREVIOUS_BOARD

        previous[PREVIOUS_BOARD] = str(self._read)

    def segments(self, source: Chunks, per_deal: PerDeal, filename: str | None,
                 first_board: int = 1) -> Iterator[Segment]:
        rest = b""
        offset = 0  # bytes of the file read fast
        self._read = 0
        while True:
            data, final = source.read_after(rest)
            if not data:
                return
            whole = len(data) // RECORD * RECORD
            good = 0
            if whole:
                deals, ok = self.decode(memoryview(data)[:whole], previous=self._read)
                good = len(deals) if ok is None else int(np.argmin(ok))
                if good:
                    assert deals.boards is not None
                    self._read = int(deals.boards[good - 1])
                    yield deals[:good]
            offset += good * RECORD
            rest = data[good * RECORD:]
            if good * RECORD < whole or (final and rest):
                # the board before the rest: for its reader (see remember)
                per_deal.fast_read(self.name, data[max(good - 1, 0) * RECORD:good * RECORD])
                yield _stream(rest, source, per_deal, filename, offset)
                return
            if final:
                return


def read_boards(numbers: np.ndarray, previous: int) -> tuple[np.ndarray, bool]:
    """The boards of records whose number bytes are ``numbers``, after a
    record of board ``previous`` (0: none), as ``_binary.dx_board`` reads
    them one by one while none goes below 1 (from the first that would, the
    rows are not read here: they come out below 1); and whether one may."""
    count = len(numbers)
    if not count:
        return np.empty(0, np.int64), False
    first = (int(numbers[0]) - previous) % _CYCLE
    first = previous + (first - _CYCLE if first > _REACH else first)
    if first < 1:
        first += _CYCLE
    if _counting(numbers):  # the usual file: boards one after another
        return _Counts.rows(count) + first, False
    # the steps from byte to byte, -254..254 taken into -127..127 (no
    # division: int16 arithmetic, a fraction of int64 % 255's cost)
    steps = np.empty(count, np.int16)
    np.subtract(numbers[1:], numbers[:-1], out=steps[1:], dtype=np.int16)
    steps -= (steps > _REACH) * np.int16(_CYCLE)
    steps += (steps < -_REACH) * np.int16(_CYCLE)
    steps[0] = 0
    boards = steps.astype(np.int64)
    np.cumsum(boards, out=boards)  # (a cumsum that casts as it goes is ten times slower)
    boards += first
    return boards, True


class _Counts:
    """Arrays a usual file's numbers are checked and counted with, made
    once for the longest block seen (an int64 ``%`` or ``arange`` a block
    cost more than the rest of reading its boards)."""

    cycle = np.empty(0, np.uint8)  # the bytes 1, 2, ... 255, 1, 2, ... as bytes
    counts = np.empty(0, np.int64)  # 0, 1, 2, ...

    @classmethod
    def bytes_from(cls, start: int, count: int) -> bytes:
        """``count`` bytes of the cycle from byte ``start + 1``."""
        if len(cls.cycle) < start + count:
            cls.cycle = np.tile(np.arange(1, _CYCLE + 1, dtype=np.uint8),
                                (start + count) // _CYCLE + 1)
        return cls.cycle[start:start + count].tobytes()

    @classmethod
    def rows(cls, count: int) -> np.ndarray:
        """0, 1, ... ``count - 1``."""
        if len(cls.counts) < count:
            cls.counts = np.arange(count, dtype=np.int64)
        return cls.counts[:count]


def _counting(numbers: np.ndarray) -> bool:
    """Whether each number byte is the one after the byte before (255: 1)."""
    start = int(numbers[0]) - 1
    # compared as bytes: one memcmp (numpy's == of uint8 is not vectorised)
    return start >= 0 and numbers.tobytes() == _Counts.bytes_from(start, len(numbers))


def written_back(boards: np.ndarray, last: int) -> bool:
    """Whether each board is read back as itself after the one before it
    (``last`` before the first): a step of at most _REACH either way, or a
    board that only the floor of 1 lets the reader find."""
    before = np.empty(len(boards), np.int64)
    before[0] = last
    before[1:] = boards[:-1]
    steps = boards - before
    if (boards >= 1).all() and (np.abs(steps) <= _REACH).all():
        return True
    read = before + ((boards - before) % _CYCLE + _REACH) % _CYCLE - _REACH
    read[read < 1] += _CYCLE
    return bool((read == boards).all())


def _stream(head: bytes, source: Chunks, per_deal: PerDeal, filename: str | None,
            offset: int) -> Slow:
    """The rest of the file, from byte ``offset``, through the per-deal
    reader (which names the byte and the deal counted from the file's start)."""
    stream = rest_of(head, source)
    return Slow(per_deal.read_stream("dx", stream, filename, 1, first_byte=offset))


class _PieceWriter:
    """The per-deal writer, numbering on from the output's records before
    (the codec's and its own; a deal without a board numbered by its place
    in the whole output)."""

    def __init__(self, codec: DxCodec) -> None:
        self.codec = codec

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals.formats._binary import DxNumbers

        numbers = DxNumbers()
        numbers.last = self.codec.written
        # made whole before the codec moves on: after an error the caller
        # writes the batch again deal by deal, from where it was
        data = b"".join(numbers.records(deals, first_index))
        self.codec.written = numbers.last
        return data
