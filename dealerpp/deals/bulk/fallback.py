"""The per-deal path, as the bulk converter sees it.

Records the fast path cannot take are handed, as the raw bytes they were
read from, to the format's own reader (``dealerpp.deals.read``), and deals
the fast encoders cannot write go to the format's own writer. Both see
pieces of a file, so the adapter puts back what a piece does not know: the
line or byte offset where it starts (for error messages), the number of
its first board (for the club formats numbered by position, whose errors
name the board) and the index of its first deal (for writers that number
deals or separate games).

Two more things a piece cannot know from its own bytes are put back: a
byte-order mark at the start of a piece in the middle of the file stays a
character of the line (only a file's first line may start with one), and
PBN's ``#`` (a tag copying the previous game's value) sees the games read
before the piece, fast or slow.

Anything with ``read``, ``read_stream``, ``fast_read`` and ``dumps`` of
these signatures (:class:`dealerpp.deals.bulk.hooks.PerDeal`) can stand in
for it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING

from dealerpp.deals.formats import BY_NAME, POSITIONAL
from dealerpp.deals.options import ReadOptions, RecordTally, Report
from dealerpp.diagnostics import Diagnostic, DppError

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source

_BOM = b"\xef\xbb\xbf"


class ModelPerDeal:
    """The readers and writers of :mod:`dealerpp.deals`. ``options``: the
    readers' (dealerpp.deals.options; the problems ``report`` is given for a
    piece get the file's line numbers)."""

    def __init__(self, options: ReadOptions | None = None) -> None:
        self.options = options or ReadOptions()
        # what the records read so far leave for those after (PBN's '#')
        self._previous: dict[str, str] = {}
        # per-deal writers that keep state over the whole output (LIN's)
        self._writers: dict[str, PieceWriter] = {}
        # the records read so far, fast and slow (a PBN problem names its game's place)
        self._tally = RecordTally()

    def read(self, fmt: str, data: bytes, filename: str | None, first_line: int,
             first_byte: int, first_board: int = 1) -> Iterator[Deal]:
        """Deals of a piece, lazily: the caller writes each before the next
        is read, so the first error is the one the per-deal path meets.
        ``first_board``: the board number of the piece's first record, for
        the formats numbered by position."""
        if first_line > 1 and data.startswith(_BOM):
            # a blank line first: the mark is then no longer at a file's start
            data, first_line, first_byte = b"\n" + data, first_line - 1, first_byte - 1
        tally = self._tally
        try:
            yield from self._deals(fmt, data, filename, first_line,
                                   first_board if fmt in POSITIONAL else None, first_byte)
        except DppError as error:
            deals_before = None if tally.numbered else _deals_before(fmt, first_byte)
            raise shifted(error, first_line, first_byte, deals_before) from None

    def read_stream(self, fmt: str, stream: IO[bytes], filename: str | None,
                    first_line: int, first_board: int = 1) -> Iterator[Deal]:
        """The rest of a file from ``first_line`` (``first_board``: its
        first record's board, for the formats numbered by position)."""
        source: IO[bytes] = stream
        if first_line > 1:
            from dealerpp.deals.detect import prefixed

            source, first_line = prefixed(b"\n", stream), first_line - 1  # as in read()
        try:
            yield from self._deals(fmt, source, filename, first_line,
                                   first_board if fmt in POSITIONAL else None)
        except DppError as error:
            raise shifted(error, first_line, 0, None if self._tally.numbered else 0) from None

    def fast_rows(self, rows: int) -> None:
        """Records the fast path read (before the next piece read per deal)."""
        self._tally.records += rows

    def fast_read(self, fmt: str, last_record: bytes) -> None:
        """The last record the fast path read before what follows (what it
        leaves for the records after it: the codec's ``remember`` hook)."""
        from dealerpp.deals.bulk.codecs import CODECS
        from dealerpp.deals.bulk.hooks import LineHooks

        codec = CODECS[fmt]
        if isinstance(codec, LineHooks):
            codec.remember(last_record, self._previous)

    def _deals(self, fmt: str, source: Source, filename: str | None, first_line: int,
               first_board: int | None = None, first_byte: int | None = None) -> Iterator[Deal]:
        """``first_byte``: where the piece starts in the file (None: a stream
        from ``first_line`` on, where it is not known)."""
        from dealerpp.deals.files import read_source

        report = self.options.report
        tally = self._tally
        tally.numbered = False
        options = self.options._replace(
            first_board=first_board, previous=self._previous, tally=tally,
            report=None if report is None else shifted_report(report, first_line, first_byte,
                                                              tally))
        return read_source(source, fmt, filename=filename, options=options)

    def dumps(self, fmt: str, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals.files import write

        if not deals:
            return b""
        writer = self._writer(fmt)
        out = io.BytesIO()
        try:
            if writer is not None:
                return writer.dumps(deals, first_index)
            write(out, deals, fmt)
        except DppError as error:
            raise counted_from(error, first_index) from None
        data = out.getvalue()
        if first_index > 0:
            from dealerpp.deals.bulk.codecs import CODECS
            from dealerpp.deals.bulk.hooks import LineHooks

            codec = CODECS[fmt]
            if isinstance(codec, LineHooks):
                data = codec.separator + data
        return data


    def _writer(self, fmt: str) -> PieceWriter | None:
        """The codec's writer for the whole output, if it has one."""
        writer = self._writers.get(fmt)
        if writer is None:
            from dealerpp.deals.bulk.codecs import CODECS
            from dealerpp.deals.bulk.hooks import LineHooks

            codec = CODECS[fmt]
            writer = codec.piece_writer() if isinstance(codec, LineHooks) else None
            if writer is None:
                return None
            self._writers[fmt] = writer
        return writer


def shifted_report(report: Report, first_line: int, first_byte: int | None = 0,
                   tally: RecordTally | None = None) -> Report:
    """A report for a piece of a file that starts at ``first_line`` and
    ``first_byte`` (None: not known): the problems it is given are passed on
    with the file's line numbers and bytes. A reader that numbers its
    records on from the ``tally`` (it sets ``numbered``) names their place
    in the file; another counts from the piece's start: their place in the
    file is not known, but in a piece at its start."""
    if first_line == 1 and first_byte == 0 and (tally is None or tally.records == 0):
        return report

    def shifted(problem: Diagnostic) -> None:
        line = problem.line + first_line - 1 if problem.line is not None else None
        byte = None if problem.byte is None or first_byte is None else problem.byte + first_byte
        deal = problem.deal if tally is not None and tally.numbered else None
        report(problem.replace(line=line, byte=byte, deal=deal))

    return shifted


def _deals_before(fmt: str, first_byte: int) -> int:
    """The deals of a file of fixed-size records before ``first_byte``."""
    size = BY_NAME[fmt].record_size
    return first_byte // size if size else 0


def shifted(error: DppError, first_line: int, first_byte: int,
            deals_before: int | None = 0) -> DppError:
    """The error of a piece as the error of the whole file: its line, byte
    and deal counted from the file's start (``deals_before``: the deals of
    the file before the piece, for a reader that numbers deals by place;
    None: the reader numbered them on from the file's, see RecordTally)."""
    byte = None if error.byte is None else error.byte + first_byte
    if error.line is not None:
        return error.replace(line=error.line + first_line - 1, byte=byte)
    return error.replace(
        byte=byte,
        deal=None if error.deal is None or deals_before is None else error.deal + deals_before)


def counted_from(error: DppError, first_index: int) -> DppError:
    """A writer's deal number counted from the start of the output."""
    return error.replace(deal=None if error.deal is None else error.deal + first_index)
