"""Chunked conversion: read a chunk, split it into fast blocks and slow
pieces, decode, encode, write; memory stays a few chunks whatever the size.

A chunk of text is cut into *units* (lines; for PBN also the writer's
``[Deal "..."]`` line with the blank line after it). Runs of units of one
fast width are decoded as a block; rows that fail a check, and units of any
other width, go to the per-deal reader as the bytes they were, in order.
Structure that spans records (giblib ``{...}`` comments, PBN ``%`` ``;``
``{}`` comments) makes the rest of the file go through the per-deal reader,
streamed. What a format does otherwise than one record a line (PBN's games)
its codec says through the hooks of :mod:`dealerpp.deals.bulk.hooks`; this
module knows no format by name.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import sys
import threading
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from dealerpp.atomic import atomic_writer
from dealerpp.deals._io import write_all
from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.chunks import Chunks, lone_cr, rest_of
from dealerpp.deals.bulk.codecs import CODECS, RecordCodec
from dealerpp.deals.bulk.fallback import ModelPerDeal
from dealerpp.deals.bulk.hooks import LineHooks, PerDeal, Segment, Slow, Units
from dealerpp.deals.bulk.progress import Progress
from dealerpp.deals.formats import BY_NAME, POSITIONAL
from dealerpp.deals.model import numbered
from dealerpp.deals.options import WriteOptions
from dealerpp.diagnostics import DppError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from dealerpp.deals.bulk.codecs import LineCodec
    from dealerpp.deals.model import Deal

    Stop = Callable[[], bool]  # whether nothing more may be written
    Placed = Callable[[np.ndarray | None, int], None]  # a run's boards, and its length

CHUNK_BYTES = 1 << 23  # 8 MiB: ~120k giblib lines, 256k .deals records
_STREAM_BATCH = 4096  # slow deals between progress updates
# -- planning a chunk of text ----------------------------------------------------

class _Plan:
    """How to process a chunk: ``pieces`` (start, stop, fast width or 0 for
    slow, first line), the bytes and lines they cover, and where the rest
    of the file goes per deal (None: it does not)."""

    __slots__ = ("consumed", "lines", "pieces", "stream_at")

    def __init__(self, pieces: list[tuple[int, int, int, int]], consumed: int, lines: int,
                 stream_at: int | None) -> None:
        self.pieces = pieces
        self.consumed = consumed
        self.lines = lines
        self.stream_at = stream_at


def plan_text(data: bytes, fmt: str, final: bool, line: int = 1) -> _Plan:
    """How to process ``data`` (whole lines unless ``final``)."""
    codec = _line_codec(fmt)
    end = len(data) if final else data.rfind(b"\n") + 1
    stream_at = _context_start(data, codec.context, end)
    if stream_at is not None:
        end = stream_at
    if not final and stream_at is None:
        end = codec.chunk_end(data, end)
    uniform = _uniform(data, end, codec, line)
    if uniform is None:
        pieces, end = _mixed(data, end, codec, line, final and stream_at is None)
        lines = data.count(b"\n", 0, end)
    else:
        lines = uniform[0][4] if uniform else 0
        pieces = [(start, stop, width, first) for start, stop, width, first, _ in uniform]
    if stream_at is not None:
        stream_at = end  # a PBN game left open before the comment streams too
    return _Plan(pieces, end, lines, stream_at)


def _line_codec(fmt: str) -> LineCodec:
    codec = CODECS[fmt]
    assert not isinstance(codec, RecordCodec)
    return codec


def _context_start(data: bytes, context: tuple[bytes, ...], end: int) -> int | None:
    """Where the rest of the file must go per deal: the start of the line
    with the first character that opens structure spanning records, or
    with a lone CR (the readers end a line there too, so from there on
    their line numbers are not the count of LFs)."""
    hits = [p for p in (data.find(c, 0, end) for c in context) if p >= 0]
    lone = lone_cr(data, end)
    if lone is not None:
        hits.append(lone)
    if not hits:
        return None
    return data.rfind(b"\n", 0, min(hits)) + 1


def _uniform(data: bytes, end: int, codec: LineCodec,
             line: int) -> list[tuple[int, int, int, int, int]] | None:
    """One block when every record of the chunk has the same fast width
    (the fifth item: its number of lines)."""
    if end == 0:
        return []
    shape = codec.uniform_record(data, data.find(b"\n", 0, end) + 1)
    if shape is None:
        return None
    width, per_record = shape
    if width not in codec.fast_widths() or end % width:
        return None
    rows = end // width
    arr = np.frombuffer(data, np.uint8, count=end)
    if not codec.rows_are_records(arr[::width], per_record):
        return None
    # An extra line end inside a row would fail that row's checks; _piece
    # then makes sure the line count (for error positions) is right.
    if not (arr[width - 1::width] == 10).all():
        return None
    if per_record == 2 and not (arr[width - 2::width] == 10).all():
        return None
    return [(0, end, width, line, rows * per_record)]


def _mixed(data: bytes, end: int, codec: LineCodec, line: int,
           final: bool) -> tuple[list[tuple[int, int, int, int]], int]:
    """Pieces for a chunk whose records differ; returns them and the bytes used."""
    arr = np.frombuffer(data, np.uint8, count=end)
    ends = np.flatnonzero(arr == 10) + 1
    if len(ends) == 0 or ends[-1] != end:
        ends = np.append(ends, end)
    starts = np.concatenate(([0], ends[:-1]))
    lengths = ends - starts
    numbers = np.arange(line, line + len(starts))
    keys = np.where(np.isin(lengths, codec.fast_widths()), lengths, 0)
    starts, ends, keys, numbers, end = codec.units(arr, Units(starts, ends, keys, numbers, end),
                                                   final)
    if len(keys) == 0:
        return [], end
    pieces = []
    change = np.flatnonzero(np.diff(keys)) + 1
    run_starts = np.concatenate(([0], change)).tolist()
    run_stops = np.concatenate((change, [len(keys)])).tolist()
    for a, b in zip(run_starts, run_stops, strict=True):
        pieces.append((int(starts[a]), int(ends[b - 1]), int(keys[a]), int(numbers[a])))
    return pieces, end


# -- segments of a whole source ----------------------------------------------------

def segments(source: Chunks, fmt: str, per_deal: PerDeal, filename: str | None,
             first_board: int = 1, copying: bool = False) -> Iterator[Segment]:
    """The deals of ``source`` in order, as fast arrays and slow lists.
    ``first_board``: the number of the first record's board, for the
    formats numbered by position (their errors name the board).
    ``copying``: for a copy into the same format, only records whose text
    the copy writes back as read (a fast array's ``text``) are read fast."""
    for segment in _segments(source, fmt, per_deal, filename, first_board, copying):
        if not isinstance(segment, Slow):
            per_deal.fast_rows(len(segment))  # before the next piece is read per deal
        yield segment


def _segments(source: Chunks, fmt: str, per_deal: PerDeal, filename: str | None,
              first_board: int, copying: bool) -> Iterator[Segment]:
    codec = CODECS[fmt]
    if isinstance(codec, RecordCodec):
        yield from _record_segments(source, fmt, codec, per_deal, filename, first_board)
        return
    text_codec = _line_codec(fmt)
    whole = text_codec.segments(source, per_deal, filename, first_board)
    if whole is not None:  # a format that reads a whole file its own way
        yield from whole
    else:
        yield from _text_segments(source, text_codec, per_deal, filename, copying)


def _record_segments(source: Chunks, fmt: str, codec: RecordCodec, per_deal: PerDeal,
                     filename: str | None, first_board: int) -> Iterator[Segment]:
    """Fixed-size records: whole records of a chunk are decoded as a block,
    the failed ones and a short last one go to the per-deal reader."""
    size = codec.record
    rest = b""
    offset = 0
    while True:
        data, final = source.read_after(rest)
        whole = len(data) - len(data) % size
        if whole:
            arr, ok = codec.decode(data[:whole])
            yield from _split_rows(arr, ok, data[:whole], size, fmt, per_deal, filename,
                                   (1, 0, offset), first_board + offset // size)
            offset += whole
        rest = data[whole:]
        if final:
            if rest:  # a truncated record (or a .ber's last line end): the reader's
                yield Slow(per_deal.read(fmt, rest, filename, 1, offset,
                                         first_board + offset // size))
            return


def _text_segments(source: Chunks, codec: LineCodec, per_deal: PerDeal,
                   filename: str | None, copying: bool = False) -> Iterator[Segment]:
    fmt = codec.name
    rest = b""
    line = 1
    offset = 0  # the file's byte at data[0] (and at rest[0])
    base_chunk = source.chunk
    while True:
        data, final = source.read_after(rest)
        if not data:
            return
        if final:
            data = codec.completed(data)
        lead = codec.lead(data, final, line, _FromByte(per_deal, offset), filename)
        if lead is not None:
            source.chunk = base_chunk
            yield from lead.segments
            line += lead.lines
            rest = data[lead.consumed:]
            offset += lead.consumed
            if final and not rest:
                return
            if not final:
                continue
            data = rest
        if copying:  # what no lead took goes per deal, to be written as the writer writes it
            if lead is None and not final and codec.lead_needs_more(data):
                source.chunk *= 2  # a record longer than a chunk: read more
                rest = data
                continue
            yield from _stream_rest(data, source, fmt, per_deal, filename, line, offset)
            return
        plan = plan_text(data, codec.name, final, line)
        if not plan.pieces and not final and plan.stream_at is None:
            source.chunk *= 2  # a record longer than a chunk: read more
            rest = data
            continue
        source.chunk = base_chunk
        miscounted: list[bool] = []  # set when rows of a block were not single lines
        in_file = _FromByte(per_deal, offset)
        for start, stop, width, first in plan.pieces:
            yield from _piece(data, start, stop, width, first, codec, in_file, filename,
                              miscounted)
        line += data.count(b"\n", 0, plan.consumed) if miscounted else plan.lines
        if plan.stream_at is not None:
            yield from _stream_rest(data[plan.stream_at:], source, fmt, per_deal, filename, line,
                                    offset + plan.stream_at)
            return
        rest = data[plan.consumed:]
        offset += plan.consumed
        if final:
            return


class _FromByte:
    """The per-deal path for the pieces of a chunk that starts at byte
    ``offset`` of the file: the codecs give a piece's first byte in the
    chunk, the reader is given it in the file (its problems name the
    file's bytes)."""

    def __init__(self, per_deal: PerDeal, offset: int) -> None:
        self.per_deal, self.offset = per_deal, offset

    def read(self, fmt: str, data: bytes, filename: str | None, first_line: int,
             first_byte: int, first_board: int = 1) -> Iterator[Deal]:
        return self.per_deal.read(fmt, data, filename, first_line, first_byte + self.offset,
                                  first_board)

    def read_stream(self, fmt: str, stream: IO[bytes], filename: str | None,
                    first_line: int, first_board: int = 1,
                    first_byte: int | None = None) -> Iterator[Deal]:
        """``first_byte``: in the chunk, as for ``read``."""
        return self.per_deal.read_stream(fmt, stream, filename, first_line, first_board,
                                         None if first_byte is None else first_byte + self.offset)

    def fast_read(self, fmt: str, last_record: bytes) -> None:
        self.per_deal.fast_read(fmt, last_record)

    def fast_rows(self, rows: int) -> None:
        self.per_deal.fast_rows(rows)

    def dumps(self, fmt: str, deals: Sequence[Deal], first_index: int) -> bytes:
        return self.per_deal.dumps(fmt, deals, first_index)


def _piece(data: bytes, start: int, stop: int, width: int, line: int, codec: LineCodec,
           per_deal: PerDeal, filename: str | None,
           miscounted: list[bool]) -> Iterator[Segment]:
    fmt = codec.name
    if not width:
        yield from codec.slow_piece(data, start, stop, line, per_deal, filename)
        return
    block = memoryview(data)[start:stop]  # no copy of the chunk
    arr, ok = codec.decode(block, width)
    lines_per_row = codec.lines_per_row(width)
    if ok is not None and data.count(b"\n", start, stop) != len(arr) * lines_per_row:
        # rows are not the lines they seemed: let the per-deal reader have it all
        miscounted.append(True)
        yield Slow(per_deal.read(fmt, bytes(block), filename, line, start))
        return
    yield from _split_rows(arr, ok, block, width, fmt, per_deal, filename,
                           (line, lines_per_row, start))


def _split_rows(arr: DealArray, ok: np.ndarray | None, block: bytes | memoryview, width: int,
                fmt: str,
                per_deal: PerDeal, filename: str | None,
                where: tuple[int, int, int], board: int = 1) -> Iterator[Segment]:
    """Fast rows as arrays, failed rows through the per-deal reader, in order.
    ``where``: line of the first row, lines per row, byte of the first row;
    ``board``: the first row's board number (formats numbered by position)."""
    line, lines_per_row, byte = where
    if ok is None:
        per_deal.fast_read(fmt, bytes(block[len(block) - width:]))
        yield arr
        return
    change = np.flatnonzero(np.diff(ok.view(np.int8))) + 1
    bounds = [0, *change.tolist(), len(ok)]
    for a, b in itertools.pairwise(bounds):
        if ok[a]:
            per_deal.fast_read(fmt, bytes(block[(b - 1) * width:b * width]))
            yield arr[a:b]
            continue
        yield Slow(per_deal.read(fmt, bytes(block[a * width:b * width]), filename,
                                 line + a * lines_per_row, byte + a * width, board + a))


def _stream_rest(head: bytes, source: Chunks, fmt: str, per_deal: PerDeal,
                 filename: str | None, line: int, byte: int) -> Iterator[Segment]:
    """``head`` (from ``line`` and ``byte`` of the file) and the rest of
    the file through the per-deal reader."""
    stream = rest_of(head, source)
    yield Slow(per_deal.read_stream(fmt, stream, filename, line, first_byte=byte))


# -- converting ------------------------------------------------------------------

def convert_stream(src: IO[bytes], dst: IO[bytes], src_fmt: str, dst_fmt: str, *,
                   filename: str | None = None, progress: Progress | None = None,
                   per_deal: PerDeal | None = None, chunk: int = CHUNK_BYTES,
                   first_board: int | None = None, stop: Stop | None = None,
                   write_options: WriteOptions | None = None,
                   left_out: Callable[[], int] | None = None,
                   placed: Placed | None = None) -> int:
    """Convert everything ``src`` holds; returns the number of deals.
    ``write_options``: the writer's (an html page's title). ``left_out``:
    how many deals were left out so far (games with an error, reported);
    given, a deal without a board number is numbered by its place in the
    input, those left out counted, as a numbered output's per-deal path
    numbers it. ``placed``: shown the board numbers of each run of deals
    read in bulk (None: numbered by place), and how many, in the input's
    order and before ``stop`` is asked (the per-deal reader's deals are
    ``per_deal``'s to show).

    ``stop``: asked as each deal (or run of deals read in bulk) is reached,
    in the input's order; once it says so, nothing more is written, though
    the input is read to its end (every problem in it is reported). Asked
    here, not as the output is written: the writer's thread lags behind the
    reading, and would drop deals that came before the one that stopped it.

    ``first_board``: number the boards from there, with dealer and
    vulnerability by the cycle (``convert --first-board``). A club format
    numbered by position numbers its boards from 1 without it, as its
    per-deal reader does."""
    per_deal = per_deal or ModelPerDeal()
    encoder = CODECS[dst_fmt]
    source = Chunks(src, chunk)
    numbering = 1 if first_board is None and src_fmt in POSITIONAL else first_board
    total = 0
    stopped = False
    copying = src_fmt == dst_fmt and BY_NAME[src_fmt].bulk_copy and first_board is None
    if isinstance(encoder, LineHooks):
        encoder.begin(src_fmt, write_options or WriteOptions())
    with _Writer(dst) as out:
        for segment in segments(source, src_fmt, per_deal, filename, numbering or 1, copying):
            if placed is not None and isinstance(segment, DealArray):
                placed(segment.boards, len(segment))
            stopped = stopped or (stop is not None and stop())
            if stopped and isinstance(segment, DealArray):
                total += len(segment)
            elif copying and isinstance(segment, DealArray):
                assert isinstance(encoder, LineHooks) and segment.text is not None
                out.write(encoder.copied(segment.text, total))
                total += len(segment)
            elif isinstance(segment, DealArray):
                if numbering is not None:
                    segment.boards = np.arange(numbering + total,
                                               numbering + total + len(segment), dtype=np.int64)
                elif left_out is not None and segment.boards is None and left_out():
                    segment.boards = np.arange(total + 1, total + 1 + len(segment),
                                               dtype=np.int64) + left_out()
                for piece in _pieces(segment, getattr(encoder, "write_rows", None)):
                    data: bytes | memoryview | None = encoder.encode(piece, total)
                    if data is None:
                        data = per_deal.dumps(dst_fmt, piece.to_deals(), total)
                    out.write(data)
                    total += len(piece)
            else:
                slow = segment.deals if first_board is None else numbered(
                    segment.deals, first_board + total)
                if left_out is not None and first_board is None:
                    slow = _placed(slow, total, left_out)
                total = _write_slow(slow, out, per_deal, dst_fmt, total, progress, source,
                                    _Stopped(stop, stopped))
                stopped = stopped or (stop is not None and stop())
            if progress is not None:
                progress.update(source.read_bytes, total)
        if isinstance(encoder, LineHooks) and not stopped:
            out.write(encoder.ending(total))
    return total


def _pieces(deals: DealArray, rows: int | None) -> Iterator[DealArray]:
    """The rows of a segment, ``rows`` at a time for an encoder whose
    output is many times its input (an html page), so what is written at
    once stays a few megabytes; each piece is asked for its set's title as
    the whole (the pieces are written in order, and the title is the
    first one there is)."""
    if rows is None or len(deals) <= rows:
        yield deals
        return
    for start in range(0, len(deals), rows):
        piece = deals[start:start + rows]
        piece.title = deals.title
        yield piece


def _placed(deals: Iterator[Deal], before: int, left_out: Callable[[], int]) -> Iterator[Deal]:
    """The deals, one without a board numbered by its place in the input
    (``before``: the deals written before them; the ones left out counted)."""
    from dataclasses import replace

    for place, deal in enumerate(deals, before + 1):
        skipped = 0 if deal.board is not None else left_out()
        yield replace(deal, board=place + skipped) if skipped else deal


class _Stopped:
    """Whether writing has stopped (``convert_stream``'s ``stop``), asked deal by deal."""

    def __init__(self, stop: Stop | None, already: bool) -> None:
        self.stop = stop
        self.already = already

    def __call__(self) -> bool:
        if not self.already and self.stop is not None:
            self.already = self.stop()
        return self.already


def _write_slow(deals: Iterator[Deal], out: _Writer, per_deal: PerDeal, dst_fmt: str,
                total: int, progress: Progress | None, source: Chunks,
                stopped: _Stopped) -> int:
    """Write the deals of a slow segment, _STREAM_BATCH at a time (one
    writer call a deal cost more than reading it); returns the new total.
    When reading stops on an error, the deals read before it are written
    first, so an error of the writer among them is still the one raised.
    Once ``stopped``, the deals before are written and the rest only counted."""
    batch: list[Deal] = []

    def flush() -> None:
        nonlocal total
        if not batch:
            return
        try:
            data = per_deal.dumps(dst_fmt, batch, total)
        except DppError:
            # one deal the writer cannot write: the ones before it are
            # written, as deal by deal, and its error raised
            for deal in batch:
                out.write(per_deal.dumps(dst_fmt, [deal], total))
                total += 1
            raise
        out.write(data)
        total += len(batch)
        batch.clear()
        if progress is not None:
            progress.update(source.read_bytes, total)

    try:
        for deal in deals:
            if stopped():
                flush()
                return total + 1 + sum(1 for _ in deals)
            batch.append(deal)
            if len(batch) == _STREAM_BATCH:
                flush()
    except (DppError, OSError):
        flush()
        raise
    flush()
    return total


class _Writer:
    """Writes on a thread, so the output of one chunk is written while the
    next is converted; in order, and an error of the write is raised here."""

    def __init__(self, dst: IO[bytes]) -> None:
        self.dst = dst
        self.pending: list[Any] = []
        self.ready = threading.Condition()
        self.error: BaseException | None = None
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Writer:
        self.thread.start()
        return self

    def write(self, data: Any) -> None:
        with self.ready:
            # at most two chunks waiting: memory stays bounded
            while len(self.pending) >= 2 and self.error is None:
                self.ready.wait()
            self._raise()
            self.pending.append(data)
            self.ready.notify_all()

    def __exit__(self, kind: object, *exc: object) -> None:
        with self.ready:
            self.closed = True
            self.ready.notify_all()
        self.thread.join()
        if kind is None:
            self._raise()

    def _raise(self) -> None:
        if self.error is not None:
            raise self.error

    def _run(self) -> None:
        while True:
            with self.ready:
                while not self.pending and not self.closed:
                    self.ready.wait()
                if not self.pending:
                    return
                data = self.pending.pop(0)
                self.ready.notify_all()
            try:
                write_all(self.dst, data)
            except BaseException as error:  # raised in the converting thread
                with self.ready:
                    self.error = error
                    self.pending.clear()
                    self.ready.notify_all()
                return


def convert_file(src: str | os.PathLike[str] | IO[bytes], dst: str | os.PathLike[str] | IO[bytes],
                 src_fmt: str, dst_fmt: str, progress: Progress | bool | None = None, *,
                 quiet: bool = False, filename: str | None = None,
                 per_deal: PerDeal | None = None, chunk: int = CHUNK_BYTES,
                 first_board: int | None = None, stop: Stop | None = None,
                 write_options: WriteOptions | None = None,
                 left_out: Callable[[], int] | None = None,
                 placed: Placed | None = None) -> int:
    """Convert a file (``-`` = standard input/output) between two formats of
    :data:`dealerpp.deals.formats.FAST`; returns the number of deals converted.
    ``stop``, ``write_options``, ``left_out``, ``placed``: see ``convert_stream``.

    A named output is written to a temporary file and renamed at the end, so
    an error leaves an existing file untouched. ``progress``: a Progress, or
    None for a bar on stderr when it is a terminal (``quiet`` turns it off),
    or False for none."""
    for fmt in (src_fmt, dst_fmt):
        if fmt not in CODECS:
            raise ValueError(f"no bulk path for format {fmt!r} (one of {', '.join(CODECS)})")
    with _InputFile(src) as (handle, size, name):
        bar = _progress(progress, size, quiet)
        try:
            with _OutputFile(dst) as out:
                total = convert_stream(handle, out, src_fmt, dst_fmt, filename=filename or name,
                                       progress=bar, per_deal=per_deal, chunk=chunk,
                                       first_board=first_board, stop=stop,
                                       write_options=write_options, left_out=left_out,
                                       placed=placed)
        finally:
            if bar is not None:
                bar.close()
    return total


def _progress(progress: Progress | bool | None, size: int | None, quiet: bool) -> Progress | None:
    if isinstance(progress, Progress):
        return progress
    if progress is False or quiet:
        return None
    bar = Progress(size)
    return bar if bar.enabled else None


class _InputFile:
    def __init__(self, src: Any) -> None:
        self.src = src
        self.close = False

    def __enter__(self) -> tuple[IO[bytes], int | None, str | None]:
        src = self.src
        if isinstance(src, (str, os.PathLike)):
            if os.fspath(src) == "-":
                return sys.stdin.buffer, None, "<stdin>"
            self.handle: IO[bytes] = open(src, "rb")
            self.close = True
            return self.handle, os.fstat(self.handle.fileno()).st_size, os.fspath(src)
        buffer = getattr(src, "buffer", src)
        size = None
        with contextlib.suppress(OSError, AttributeError, io.UnsupportedOperation):
            size = os.fstat(buffer.fileno()).st_size or None
        return buffer, size, getattr(buffer, "name", None) if isinstance(
            getattr(buffer, "name", None), str) else None

    def __exit__(self, *exc: object) -> None:
        if self.close:
            self.handle.close()


class _OutputFile:
    """Standard output for ``-``; a named file through ``atomic_writer``
    (renamed over its target on success); else the open file given."""

    def __init__(self, dst: Any) -> None:
        self.dst = dst
        self.writer: contextlib.AbstractContextManager[IO[bytes]] | None = None

    def __enter__(self) -> IO[bytes]:
        dst = self.dst
        if isinstance(dst, (str, os.PathLike)) and os.fspath(dst) != "-":
            self.writer = atomic_writer(dst)
            self.handle = self.writer.__enter__()
        elif isinstance(dst, (str, os.PathLike)):
            self.handle = sys.stdout.buffer
        else:
            self.handle = getattr(dst, "buffer", dst)
        return self.handle

    def __exit__(self, *exc: Any) -> None:
        if self.writer is None:
            self.handle.flush()
        else:
            self.writer.__exit__(*exc)
