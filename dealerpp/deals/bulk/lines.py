"""Formats of records a per-deal reader reads one at a time, whatever their
widths: a line a board (.bhg, .csv, an html page's board lines) or a fixed
number of lines (dealer's printall: a number line, four suit rows and a
blank line).

The chunked converter of :mod:`dealerpp.deals.bulk.stream` groups lines of
one fast width; these records differ in width from deal to deal (a csv
holding, a printall cell are as long as the suit). :class:`RecordLines`
reads such a file itself: each chunk is cut into lines, the lines into
records while they keep the format's usual structure, and every record is
decoded in bulk or found unusual. Unusual records go to the per-deal reader
as the bytes they were (their first line and byte counted from the file's
start, so its errors name the file's lines), and since that reader keeps no
state from one record to the next it reads them as it would have read them
in the whole file. A record no reader makes a deal of (a line of an html
page that is no board) is left out. Where the structure breaks (dealer's
statistics lines after its printall, a lone CR, which ends a line for the
readers but not here), the rest of the file goes to the per-deal reader as
one stream.

A format numbered by place (.bhg: a board's hands start from its dealer)
learns the board of each record when it is reached: the per-deal pieces
before it are read by then (each segment is written before the next is
made), and the deals they gave are counted.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.chunks import Chunks, lone_cr, rest_of
from dealerpp.deals.bulk.hooks import LineHooks, Segment, Slow
from dealerpp.deals.bulk.places import rows_from

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PerDeal
    from dealerpp.deals.model import Deal


class Decoded(NamedTuple):
    """A chunk's records decoded: ``masks`` (as :meth:`RecordLines.placed`
    takes them), ``ok`` for a record read fast, ``skip`` for one that holds
    no deal for any reader (None: none does), ``boards`` (None: the format
    holds none)."""

    masks: np.ndarray
    ok: np.ndarray
    skip: np.ndarray | None = None
    boards: np.ndarray | None = None


class RecordLines(LineHooks):
    """See the module. A format says how many lines a record has, how far a
    chunk keeps the usual structure (:meth:`structure`) and decodes the
    records (:meth:`decode`)."""

    contents = ()
    lines_per_record = 1
    #: Boards numbered by place: :meth:`placed` needs each record's board.
    positional = False
    #: Where :meth:`vouched` stopped inside a chunk at a record it does not
    #: vouch for: read a few records the usual way and check on (one unusual
    #: record does not send the rest of the chunk the slow way).
    vouch_again = False

    def structure(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> int:
        """How many of the chunk's whole records, from its start, have the
        usual structure (the rest of the file goes per deal from there)."""
        return len(starts) // self.lines_per_record

    def decode(self, block: bytes | memoryview, width: int
               ) -> tuple[DealArray, np.ndarray | None]:
        """Not used: the records are cut by :meth:`segments`, not by width."""
        raise NotImplementedError

    def decode_records(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Decoded:
        """The records whose lines start at ``starts`` and end at ``ends``
        (after the line end; one row a record, a column a line)."""
        raise NotImplementedError

    def vouched(self, data: bytes, final: bool) -> tuple[DealArray, int, int] | None:
        """Records from the chunk's start that a check vouches for (each
        read by the per-deal path would give this deal): the deals, the
        bytes and the lines they take; None when it vouches for none. The
        rest of the chunk is cut into records and decoded as usual."""
        return None

    def placed(self, masks: np.ndarray, first_board: int) -> np.ndarray:
        """The N E S W masks of records read fast, the first of board
        ``first_board`` (a format numbered by place)."""
        return masks

    # -- the file ----------------------------------------------------------------
    def segments(self, source: Chunks, per_deal: PerDeal, filename: str | None,
                 first_board: int = 1) -> Iterator[Segment]:
        reading = _Reading(self, per_deal, filename, first_board)
        rest = b""
        while True:
            data, final = source.read_after(rest)
            if not data:
                return
            vouched, broken = yield from reading.vouched(data, final)
            if broken:  # in a record read the usual way: the rest goes per deal
                yield reading.stream(data[vouched:], source)
                return
            if vouched:
                data = data[vouched:]
                if not data:
                    rest = b""
                    if final:
                        return
                    continue
            done = yield from reading.chunk(data, final)
            if done is None:  # the structure broke: the rest goes per deal
                yield reading.stream(data, source)
                return
            rest = data[done:]
            if final:
                return


class _Reading:
    """Where the reading of one file is: line, byte and deals so far."""

    def __init__(self, codec: RecordLines, per_deal: PerDeal, filename: str | None,
                 first_board: int) -> None:
        self.codec = codec
        self.per_deal = per_deal
        self.filename = filename
        self.line = 1
        self.byte = 0
        self.deals = 0
        self.first_board = first_board
        self.stream_at = 0  # bytes of the chunk read before the rest streams

    def vouched(self, data: bytes, final: bool) -> Generator[Segment, None, tuple[int, bool]]:
        """Yield the deals of the records the codec vouches for from the
        chunk's start; return the bytes read, and whether the structure
        broke in a record read the usual way there (the rest of the file
        then goes per deal from ``stream_at`` of what is left). A codec
        that checks again (``vouch_again``) and stopped at a record has the
        next few read the usual way, then checks on, a window of the chunk
        at a time (a check reads all it is given), while it has vouched for
        ``_AGAIN`` records a stop on average."""
        at, piece, vouched, stops = 0, data, 0, 0
        while True:
            found = self.codec.vouched(piece, final and at + len(piece) == len(data))
            count, window_end = 0, at + len(piece)
            if found is not None:
                deals, size, lines = found
                count = len(deals)
                self.deals += count
                yield deals
                self.line += lines
                self.byte += size
                at += size
                vouched += count
            if not self.codec.vouch_again or at == len(data):
                return at, False
            per = self.codec.lines_per_record
            if data.count(b"\n", at, window_end) < per:  # the window's whole records all vouched for
                if window_end == len(data) or not count:
                    return at, False
            else:  # a record it does not vouch for
                stops += 1
                usual = _after_lines(data, at, per * _AGAIN_RECORDS)
                if vouched < _AGAIN * (stops - 1) or usual is None:
                    return at, False
                done = yield from self.chunk(data[at:usual], False)
                if done is None:
                    return at, True
                at += done
            piece = data[at:at + _WINDOW]

    def chunk(self, data: bytes, final: bool) -> Generator[Segment, None, int | None]:
        """Yield the segments of the chunk's whole records; return the bytes
        they take, or None when the rest of the file (from ``stream_at``)
        must go per deal."""
        codec = self.codec
        per = codec.lines_per_record
        end = len(data) if final else data.rfind(b"\n") + 1
        lone = lone_cr(data, end)
        limit = end if lone is None else data.rfind(b"\n", 0, lone) + 1
        arr = np.frombuffer(data, np.uint8, count=limit)
        ends = np.flatnonzero(arr == 10) + 1
        if limit and (len(ends) == 0 or ends[-1] != limit):
            ends = np.append(ends, limit)  # the file's last line, without a line end
        starts = np.concatenate(([0], ends[:-1])).astype(np.int64)[:len(ends)]
        whole = len(starts) // per
        records = codec.structure(arr, starts[:whole * per], ends[:whole * per])
        used = records * per
        stop = int(ends[used - 1]) if used else 0
        if records:
            yield from self._records(data, arr, starts[:used].reshape(-1, per),
                                     ends[:used].reshape(-1, per))
        broken = records < whole or lone is not None or (final and stop < len(data))
        if broken:
            self.stream_at = stop
            return None
        self.line += used
        self.byte += stop
        return stop

    def _records(self, data: bytes, arr: np.ndarray, starts: np.ndarray,
                 ends: np.ndarray) -> Iterator[Segment]:
        decoded = self.codec.decode_records(arr, starts, ends)
        status = np.where(decoded.ok, 2, 1).astype(np.int8)
        if decoded.skip is not None:
            status[decoded.skip & ~decoded.ok] = 0
        kept = np.flatnonzero(status)
        if not len(kept):
            return
        change = np.flatnonzero(np.diff(status[kept])) + 1
        bounds = [0, *change.tolist(), len(kept)]
        per = self.codec.lines_per_record
        for a, b in itertools.pairwise(bounds):
            first, last = int(kept[a]), int(kept[b - 1])
            if status[first] == 2:
                rows = kept[a:b]
                yield self._fast(decoded, rows if b - a != last - first + 1 else
                                 slice(first, last + 1))
                continue
            start, stop = int(starts[first, 0]), int(ends[last, -1])
            yield Slow(self._counted(self.per_deal.read(
                self.codec.name, data[start:stop], self.filename, self.line + first * per,
                self.byte + start, self.first_board + self.deals)))

    def _fast(self, decoded: Decoded, rows: Any) -> DealArray:
        masks = self.codec.placed(decoded.masks[rows], self.first_board + self.deals)
        boards = None if decoded.boards is None else decoded.boards[rows]
        self.deals += len(masks)
        return DealArray(masks, boards=boards)

    def _counted(self, deals: Iterator[Deal]) -> Iterator[Deal]:
        for deal in deals:
            self.deals += 1
            yield deal

    def stream(self, data: bytes, source: Chunks) -> Slow:
        """The rest of the file from ``stream_at`` through the per-deal reader."""
        at = self.stream_at
        line = self.line + data.count(b"\n", 0, at)
        stream = rest_of(data[at:], source)
        return Slow(self._counted(self.per_deal.read_stream(
            self.codec.name, stream, self.filename, line, self.first_board + self.deals,
            first_byte=self.byte + at)))


_AGAIN = 1024  # records vouched for a stop, on average, to check on after it
_AGAIN_RECORDS = 16  # records then read the usual way
_WINDOW = 1 << 20  # bytes of the chunk checked at a time after a stop


def _after_lines(data: bytes, at: int, lines: int) -> int | None:
    """Where the ``lines``-th line from byte ``at`` ends (after its LF), if it does."""
    for _ in range(lines):
        at = data.find(b"\n", at) + 1
        if not at:
            return None
    return at


def gather(arr: np.ndarray, starts: np.ndarray, width: int, fill: int = 0) -> np.ndarray:
    """``(N, width)``: the bytes from each start, ``fill`` past the chunk's end
    (a caller checks where each line ends). Each row taken as one item
    (places.rows_from): the index is one number a row, not one a byte."""
    if len(starts) > 1 and starts[-1] + width <= len(arr):
        step = int(starts[1] - starts[0])
        if step >= width and (np.diff(starts) == step).all():  # evenly spaced: a view
            return np.lib.stride_tricks.as_strided(arr[int(starts[0]):], (len(starts), width),
                                                   (step, 1), writeable=False)
    padded = np.concatenate((arr, np.full(width, fill, np.uint8)))
    return rows_from(padded, starts, width)  # a row one item (a window's: a byte at a time)


def joined(parts: dict[int, np.ndarray]) -> np.ndarray:
    """The bytes of sub-blocks (by their first row) in order."""
    if not parts:
        return np.empty(0, np.uint8)
    return np.concatenate([parts[start] for start in sorted(parts)])
