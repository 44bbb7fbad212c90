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

from dealerpp.deals.formats import POSITIONAL
from dealerpp.deals.options import ReadOptions, RecordTally, Report
from dealerpp.diagnostics import Diagnostic, DppError

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.byte_offsets import StreamOffsets
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
        yield from self._counted(fmt, data, filename, Piece(first_line, first_byte),
                                 first_board)

    def read_stream(self, fmt: str, stream: IO[bytes], filename: str | None,
                    first_line: int, first_board: int = 1,
                    first_byte: int | None = None) -> Iterator[Deal]:
        """The rest of a file from ``first_line`` (``first_board``: its
        first record's board, for the formats numbered by position;
        ``first_byte``: where it starts in the file, None when not known)."""
        source: IO[bytes] = stream
        if first_line > 1:
            from dealerpp.deals.detect import prefixed

            source, first_line = prefixed(b"\n", stream), first_line - 1  # as in read()
            first_byte = None if first_byte is None else first_byte - 1
        offsets = None
        if first_byte is not None:
            from dealerpp.deals.byte_offsets import CountedStream

            source = CountedStream(source)
            offsets = source.offsets
        yield from self._counted(fmt, source, filename, Piece(first_line, first_byte, offsets),
                                 first_board)

    def _counted(self, fmt: str, source: Source, filename: str | None, piece: Piece,
                 first_board: int) -> Iterator[Deal]:
        """The deals of a piece, each counted in the tally (unless the
        reader counts them itself, as PBN's does: it numbers on from the
        tally and sets ``numbered``); an error placed in the whole file."""
        tally = self._tally
        before = tally.records
        deals = self._deals(fmt, source, filename, piece,
                            first_board if fmt in POSITIONAL else None)
        given = 0
        try:
            for given, deal in enumerate(deals, 1):  # noqa: B007 - given is read below
                yield deal
        except DppError as error:
            raise shifted(error, piece, None if tally.numbered else before) from None
        finally:
            if not tally.numbered:
                tally.records = before + given

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

    def _deals(self, fmt: str, source: Source, filename: str | None, piece: Piece,
               first_board: int | None = None) -> Iterator[Deal]:
        from dealerpp.deals.files import read_source

        report = self.options.report
        tally = self._tally
        tally.numbered = False
        options = self.options._replace(
            first_board=first_board, previous=self._previous, tally=tally,
            report=None if report is None else shifted_report(report, piece, tally))
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


class Piece:
    """Where a piece of a file read per deal starts: ``first_line``,
    ``first_byte`` (None when not known) and, for a stream, the bytes it
    passed lately (a byte then found from a line and column)."""

    __slots__ = ("first_byte", "first_line", "offsets")

    def __init__(self, first_line: int, first_byte: int | None,
                 offsets: StreamOffsets | None = None) -> None:
        self.first_line, self.first_byte, self.offsets = first_line, first_byte, offsets

    def line(self, line: int | None) -> int | None:
        return None if line is None else line + self.first_line - 1

    def byte(self, byte: int | None, line: int | None, column: int | None) -> int | None:
        """The byte in the file of a problem at ``byte`` in the piece, else
        at ``line`` and ``column`` of a stream's."""
        if self.first_byte is None:
            return None
        if byte is None and self.offsets is not None:
            byte = self.offsets.offset(line, column)
        return None if byte is None else byte + self.first_byte

    @property
    def at_start(self) -> bool:
        return self.first_line == 1 and self.first_byte == 0


def shifted_report(report: Report, piece: Piece, tally: RecordTally | None = None) -> Report:
    """A report for a piece of a file (see Piece): the problems it is given
    are passed on with the file's line numbers and bytes. A reader that
    numbers its records on from the ``tally`` (it sets ``numbered``) names
    their place in the file; another counts from the piece's start: their
    place in the file is not known, but in a piece at its start."""
    if piece.at_start and piece.offsets is None and (tally is None or tally.records == 0):
        return report

    def shifted(problem: Diagnostic) -> None:
        deal = problem.deal if tally is not None and tally.numbered else None
        report(problem.replace(line=piece.line(problem.line), deal=deal,
                               byte=piece.byte(problem.byte, problem.line, problem.column)))

    return shifted


def shifted(error: DppError, piece: Piece, deals_before: int | None = 0) -> DppError:
    """The error of a piece as the error of the whole file: its line, byte
    and deal counted from the file's start (``deals_before``: the records
    of the file before the piece, for a reader that numbers its records
    from the piece's start; None: the reader numbered them on from the
    file's, see RecordTally)."""
    if error.output:
        return error  # a writer's, counted by its own output
    deal = error.deal
    if deal is not None and deals_before is not None:
        deal += deals_before
    return error.replace(line=piece.line(error.line), deal=deal,
                         byte=piece.byte(error.byte, error.line, error.column))


def counted_from(error: DppError, first_index: int) -> DppError:
    """A writer's deal number counted from the start of the output."""
    return error.replace(deal=None if error.deal is None else error.deal + first_index)
