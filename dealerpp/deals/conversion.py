"""Converting a deal file: ``dealerpp.deals.convert``, which the command
``dealerpp convert`` is a shell over.

Two paths, one behaviour. Between two different formats that have a bulk
codec the file is converted in chunks (``dealerpp.deals.bulk``); any other
pair, or a conversion that asks what only the per-deal path does (boards
picked by number, PBN's export format), goes deal by deal.
``formats.takes_bulk_path`` decides. Both paths:

- read a text saved as UTF-16 as the UTF-8 it holds;
- send the readers' problems to ``options.report`` (a PBN game with an
  error is then left out and the conversion goes on), and count the errors;
- write a named output atomically (replaced whole at the end, or left as
  it was: no empty or half file), and refuse an output that is the input;
- write nothing when no deal was found, or when a game was left out and
  the output holds no board numbers (every later board would take its
  place): ``NotWritten``.

An output given as a file object gets the deals as they are converted on
the bulk path (after a board left out, nothing more: ``NotWritten`` then
says so, ``streamed``), and deal by deal once the whole input has been
read, so that an error leaves it untouched.

What is worth telling but stops nothing comes as a ``Notice`` (typed, for
the caller to word); progress as ``(bytes read, input size, deals)``.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, Protocol, Union, cast

from dealerpp.deals import formats
from dealerpp.deals.bulk.progress import Progress  # (light: numpy is the bulk path's own)
from dealerpp.deals.options import ReadOptions, WriteOptions
from dealerpp.diagnostics import Diagnostic, DppError
from dealerpp.records import Record  # (cheaper to make than NamedTuple: start-up)

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal

File = Union[str, "os.PathLike[str]", IO[Any]]
Span = tuple[int, int]  # boards low to high, both included

# DppError.kind of a NotWritten
NO_DEALS = "no-deals"  # nothing was found in the input (or nothing could be read)
LEFT_OUT = "left-out"  # a game was left out and the output holds no board numbers
MOVED = "moved"  # a board would take another's place in an output numbered by place
# DppError.kind of a BoardsNotFound
NO_BOARDS = "no-boards"

NAMED_LINES = 10  # the lines of the first errors a refusal names
NAMED_BOARDS = 10  # the boards a refusal names (of those it would move)


class NotWritten(DppError, frozen=False):
    """The input was read, but the output would not be right, so it is not
    written (``streamed``: an output written as it was converted stops
    before the first board left out). ``kind`` is NO_DEALS, LEFT_OUT or
    MOVED; ``lines``: the lines of the errors that left games out;
    ``moved`` (MOVED): the first boards that would be read back, or dealt,
    as another, each (its number, the number of its place), ``moves``
    how many there were, ``start`` the first board's number."""

    lines: tuple[int | None, ...] = ()
    streamed: bool = False
    moved: tuple[tuple[int, int], ...] = ()
    moves: int = 0
    start: int = 1

    def __init__(self, message: str, *args: Any, lines: tuple[int | None, ...] = (),
                 streamed: bool = False, moved: tuple[tuple[int, int], ...] = (),
                 moves: int = 0, start: int = 1, **fields: Any) -> None:
        super().__init__(message, *args, **fields)
        self.lines, self.streamed = lines, streamed
        self.moved, self.moves, self.start = moved, moves, start


class BoardsNotFound(DppError, frozen=False):
    """None of the boards asked for (``boards``) is in the input: ``missing``."""

    missing: tuple[Span, ...] = ()

    def __init__(self, message: str, *args: Any, missing: tuple[Span, ...] = (),
                 **fields: Any) -> None:
        super().__init__(message, *args, **fields)
        self.missing = missing


class BoardsMissing(Record):
    """Notice: boards asked for that are not in the input (some others are)."""

    missing: tuple[Span, ...]


class LongPage(Record):
    """Notice: the output, a page meant to be printed, has passed ``limit``
    boards (it is slow to open and print; the conversion goes on)."""

    limit: int


class OffCycle(Record):
    """Notice, at the end: boards whose dealer or vulnerability is not the
    standard cycle's for their number, which the output (a format that
    holds neither) cannot keep: read back, they get the cycle's."""

    boards: tuple[int, ...]


class ReadBackFrom(Record):
    """Notice, at the end: the output holds no board numbers and its first
    board is not 1: read it back with ``first_board=first_board``. With
    ``dealer_first`` it lists each board's hands from its dealer (.bhg),
    which lands them on the wrong seats read back from another board; else
    (any format numbered by place, its boards' numbers the input's own)
    they are read back as boards from 1."""

    first_board: int
    dealer_first: bool = True


Notice = BoardsMissing | LongPage | OffCycle | ReadBackFrom


class ProgressReport(Protocol):
    """Told, now and then and once at the end, the bytes of the input read
    so far, the input's size (None when unknown: a pipe) and the deals
    converted so far."""

    def __call__(self, done: int, size: int | None, deals: int) -> None: ...


def convert(src: File, dst: File, format: str | None = None, *,
            src_format: str | None = None, first_board: int | None = None,
            boards: Sequence[Span] | str | None = None, export: bool = False,
            options: ReadOptions | None = None, write_options: WriteOptions | None = None,
            progress: ProgressReport | None = None,
            notice: Callable[[Notice], None] | None = None,
            filename: str | None = None, output_name: str | None = None) -> int:
    """Convert the deals of ``src`` (a path, or a file open for reading) to
    ``dst`` (a path, written atomically, or a file open for writing) in
    ``format`` (by default from ``dst``'s extension; PBN for ``export``);
    how many deals were written.

    ``src_format``: the input's (by default from its extension, else its
    content). ``first_board``: number the boards from there, with dealer
    and vulnerability by the cycle. ``boards``: only the boards of these
    spans (``[(1, 12), (15, 15)]``, or the text ``"1-12,15"``; a deal
    without a number is the board after the one before it). ``export``:
    PBN output in the PBN 2.1 export format. ``options``, ``write_options``:
    the reader's and the writer's (dealerpp.deals.options); with a
    ``report`` in ``options`` a PBN game with an error is reported there
    and left out, without one the first error is raised. ``progress``,
    ``notice``: see the module's docstring. ``filename``, ``output_name``:
    what messages call the input and the output (by default their paths,
    or the files' names).

    Raises DppError for a bad record (positioned) or an unknown format;
    its kinds ``NotWritten`` and ``BoardsNotFound``; OSError (the file in
    ``filename``, ``SameFileError`` for an output that is the input)."""
    job = _Job.start(src, dst, format, src_format, first_board, export, filename, output_name)
    read_options = (options or ReadOptions())._replace(need_deal=job.to_fmt != "pbn")
    problems = _Problems(read_options.report)
    if read_options.report is not None:
        read_options = read_options._replace(report=problems)
    spans = _spans(boards)
    from_fmt, source = _input_format(job.source(), job.src_path, src_format)
    judge = _Judge(job, problems, from_fmt)
    extras = _Extras(spans, export, write_options, progress, notice)
    if from_fmt is not None and formats.takes_bulk_path(
            from_fmt, job.to_fmt, first_board=first_board, selecting=spans is not None,
            export=export):
        total = _in_bulk(job, source, from_fmt, read_options, judge, extras)
    else:
        total = _per_deal(job, source, from_fmt, read_options, judge, extras)
    if notice is not None:
        judge.tell_at_end(notice)
    return total


class _Job:
    """What a conversion reads and writes, and what messages call them."""

    def __init__(self, src: File, dst: File, to_fmt: str, src_path: os.PathLike[str] | None,
                 first_board: int | None, input_name: str, output_name: str) -> None:
        self.src, self.dst, self.to_fmt, self.src_path = src, dst, to_fmt, src_path
        self.first_board = first_board
        self.input_name, self.output_name = input_name, output_name
        self.size: int | None = None

    @classmethod
    def start(cls, src: File, dst: File, format: str | None, src_format: str | None,
              first_board: int | None, export: bool, filename: str | None,
              output_name: str | None) -> _Job:
        """The job, checked before anything is read or written."""
        from dealerpp.atomic import refuse_same_file
        from dealerpp.deals.files import refuse_not_a_file

        refuse_not_a_file(src, "deals.convert takes as src", writing=False)
        refuse_not_a_file(dst, "deals.convert takes as dst", writing=True)
        if src_format is not None:
            formats.get(src_format)  # an unknown name is an error now
        to_fmt = format or formats.from_extension(_name_of(dst)) or ("pbn" if export else None)
        if to_fmt is None:
            from dealerpp.deals.files import no_output_format

            raise no_output_format(_name_of(dst))
        if not formats.get(to_fmt).writable:
            raise DppError(formats.not_writable(to_fmt), output=True)
        if export and to_fmt != "pbn":
            raise ValueError(f"export is for a PBN output, not {to_fmt}")
        if first_board is not None and first_board < 1:
            raise ValueError("first_board must be 1 or more")
        src_path: os.PathLike[str] | None = None
        if isinstance(src, (str, os.PathLike)):
            from dealerpp.deals.files import existing_path

            src_path = existing_path(os.fspath(src))  # FileNotFoundError now
        if isinstance(dst, (str, os.PathLike)):
            refuse_same_file(dst, [src_path] if src_path is not None else _descriptors(src))
        input_name = filename or _name_of(src) or "the input"
        return cls(src, dst, to_fmt, src_path, first_board, input_name,
                   output_name or _name_of(dst) or "the output")

    def source(self) -> Any:
        """The input as the readers take it: its path (one they take as a
        path whatever it looks like), or a file object's binary layer."""
        return self.src_path if self.src_path is not None else _binary_source(self.src)

    @property
    def streams_output(self) -> bool:
        """Whether the output is a file object (written as it is converted,
        on the bulk path), not a path written atomically."""
        return not isinstance(self.dst, (str, os.PathLike))


def _name_of(file: object) -> str | None:
    """A path's name, or a file object's when it has one."""
    if isinstance(file, (str, os.PathLike)):
        return os.fspath(file)
    name = getattr(file, "name", None)
    return name if isinstance(name, str) else None


def _descriptors(file: object) -> list[int]:
    """The descriptor of a file object, where it has one (the output must
    not be the file it reads)."""
    try:
        return [file.fileno()]  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return []


def _binary_source(src: File) -> Any:
    """A file object as the bulk path reads it: its binary layer; an
    in-memory text (StringIO) as its UTF-8 bytes."""
    buffer = getattr(src, "buffer", None)
    if buffer is not None:
        from dealerpp.deals._io import sync_text_layer

        if sync_text_layer(src):
            return buffer
    if isinstance(src, io.TextIOBase):
        return io.BytesIO(src.read().encode("utf-8", "surrogateescape"))
    return src


def _input_format(source: Any, path: os.PathLike[str] | None,
                  given: str | None) -> tuple[str | None, Any]:
    """The input's format (None for an empty input) and the source to read:
    a stream may have been wrapped to give back what was peeked."""
    if given is not None:
        return given, source
    from dealerpp.deals import detect

    return detect.detect(source, None if path is None else os.fspath(path))


def _spans(boards: Sequence[Span] | str | None) -> tuple[Span, ...] | None:
    if boards is None:
        return None
    if isinstance(boards, str):
        from dealerpp.deals.selection import parse_spans

        return parse_spans(boards)
    return tuple((int(low), int(high)) for low, high in boards)


class _Problems:
    """The readers' report, passed on, with the errors counted: the games
    they left out."""

    def __init__(self, report: Callable[[Diagnostic], None] | None) -> None:
        self.report = report
        self.lines: list[int | None] = []

    @property
    def errors(self) -> int:
        return len(self.lines)

    def __call__(self, problem: Diagnostic) -> None:
        if problem.severity == "error":
            self.lines.append(problem.line)
        if self.report is not None:
            self.report(problem)


class _Places:
    """The boards in the order an output numbered by place gets them. The
    first board's number starts the set (boards 17-32 are read back with
    first_board=17, as written); every later one must be the board before
    plus one, or it would become another board there: a gap, a board out of
    order or repeated ``moves`` it (the first few kept, ``moved``)."""

    def __init__(self, modulus: int | None) -> None:
        self.modulus = modulus  # the input holds its numbers modulo this (hex)
        self.start: int | None = None
        self.placed = 0
        self.moved: list[tuple[int, int]] = []  # (board, the board of its place)
        self.moves = 0

    def deals(self, deals: Iterator[Deal]) -> Iterator[Deal]:
        """The deals, each board compared with its place (a deal without a
        number is numbered by place). The places are counted in a local and
        stored once the deals are through (a call a deal cost 1,600
        instructions); nothing asks for them before."""
        place = None if self.start is None else self.start + self.placed
        try:
            for deal in deals:
                board = deal.board
                if place is None:
                    place = self.start = 1 if board is None else board
                elif board is not None and board != place:
                    self._moved(board, place)
                place += 1
                yield deal
        finally:
            if place is not None and self.start is not None:
                self.placed = place - self.start

    def _moved(self, board: int, place: int) -> None:
        if self.modulus is not None and not (board - place) % self.modulus:
            return  # the same board as far as the input can tell
        self.moves += 1
        if len(self.moved) < NAMED_BOARDS:
            self.moved.append((board, place))

    def rows(self, boards: Any, count: int) -> None:
        """A run of ``count`` deals read in bulk, ``boards`` their numbers
        (an int64 array; None: numbered by place)."""
        if boards is None or not count:
            if self.start is None and count:
                self.start = 1
            self.placed += count
            return
        import numpy as np  # (the bulk path's own: loaded there already)

        if self.start is None:
            self.start = int(boards[0])
        first = self.start + self.placed
        off = boards - np.arange(first, first + count, dtype=np.int64)
        if self.modulus is not None:
            # an & for hex's 16: an int64 % costs some 20 instructions a row
            modulus = self.modulus
            if modulus & (modulus - 1):
                off %= modulus
            else:
                off &= modulus - 1
        bad = np.flatnonzero(off)
        self.placed += count
        if len(bad):  # the ordinary set, numbered 1..n, never gets here
            self.moves += len(bad)
            room = NAMED_BOARDS - len(self.moved)
            self.moved += [(int(boards[i]), first + int(i)) for i in bad[:max(room, 0)]]


class _Judge:
    """Says whether what was converted may be written: something, and with
    no board left out where the output format would move every later board
    into its place (one whose records carry no board numbers), nor a board
    that would become another there (a gap, boards out of order or repeated,
    in a numbered input); and notes what the caller is told at the end."""

    def __init__(self, job: _Job, problems: _Problems, from_fmt: str | None) -> None:
        self.job = job
        self.problems = problems
        # boards whose dealer or vulnerability the output cannot hold
        self.off_cycle: list[int] = []
        self.watches_cycle = job.to_fmt in formats.BY_CYCLE and job.first_board is None
        self.first_board: int | None = None  # the first deal written's, deal by deal
        # --first-board numbers the boards by place on purpose: nothing moves then
        self.places = (_Places(formats.get(from_fmt).board_modulus if from_fmt else None)
                       if job.to_fmt in formats.BY_PLACE and job.first_board is None else None)

    def left_out(self) -> int:
        """The games left out so far, for an error."""
        return self.problems.errors

    def stop_writing(self) -> bool:
        """Whether nothing more may reach an output already being written:
        a board is missing before it."""
        if self.places is not None and self.places.moves:
            return True
        return bool(self.problems.errors) and self.job.to_fmt not in formats.NUMBERED

    def check(self, total: int, streamed: bool = False) -> None:
        """Raise NotWritten when the output must not be written (or, for
        one written as it was converted, lacks what it should hold)."""
        name = self.job.input_name
        lines = tuple(self.problems.lines)
        if not total:
            found = "could be read from" if lines else "found in"
            raise NotWritten(f"no deal {found} {name}" + ("" if streamed else ": nothing written"),
                             kind=NO_DEALS, lines=lines, streamed=streamed, filename=name)
        if self.problems.errors and self.job.to_fmt not in formats.NUMBERED:
            what = "stops before the first board left out" if streamed else "not written"
            raise NotWritten(f"{self.job.output_name} {what}: {self._missing()}", kind=LEFT_OUT,
                             lines=lines, streamed=streamed, filename=name)
        if self.places is not None and self.places.moves:
            self._refuse_moved(self.places, streamed)

    def in_place(self, deals: Iterator[Deal]) -> Iterator[Deal]:
        """The deals, as they are written, each board's number compared with
        the place it takes, when the output numbers its boards by place."""
        return deals if self.places is None else self.places.deals(deals)

    def _refuse_moved(self, places: _Places, streamed: bool) -> None:
        what = "stops before the first board moved" if streamed else "not written"
        moved = places.moved
        if places.moves == 1:
            (board, place), = moved
            which = f"board {board} of {self.job.input_name} would become board {place} there"
        else:
            pairs = ", ".join(f"{board} as {place}" for board, place in moved)
            more = ", ..." if places.moves > len(moved) else ""
            which = (f"{places.moves} boards of {self.job.input_name} would become others "
                     f"there ({pairs}{more})")
        assert places.start is not None
        raise NotWritten(
            f"{self.job.output_name} {what}: {which}: {self.job.to_fmt} numbers its boards by "
            f"their place in the file, and the input's are not in order from board "
            f"{places.start}", kind=MOVED, moved=tuple(moved), moves=places.moves,
            start=places.start, streamed=streamed, filename=self.job.input_name,
            hint=f"first_board={places.start} numbers the boards by their place on purpose")

    def watched(self, deals: Iterator[Deal]) -> Iterator[Deal]:
        """The deals, noting those whose dealer or vulnerability is not the
        standard cycle's for their board number, when the output holds
        neither (a positional format, .dx: read back, or dealt by a machine,
        a board gets the cycle's)."""
        if not self.watches_cycle:
            yield from deals
            return
        from dealerpp.deals.model import board_dealer_vul

        for deal in deals:
            if deal.board is not None and (deal.dealer is not None or deal.vul is not None):
                dealer, vul = board_dealer_vul(deal.board)
                if deal.dealer not in (None, dealer) or deal.vul not in (None, vul):
                    self.off_cycle.append(deal.board)
            yield deal

    def tell_at_end(self, notice: Callable[[Notice], None]) -> None:
        if self.off_cycle:
            notice(OffCycle(tuple(self.off_cycle)))
        if formats.get(self.job.to_fmt).dealer_first and self.first_board not in (None, 1):
            assert self.first_board is not None
            notice(ReadBackFrom(self.first_board))
        elif self.places is not None and self.places.start not in (None, 1):
            assert self.places.start is not None
            notice(ReadBackFrom(self.places.start, dealer_first=False))

    def _missing(self) -> str:
        lines = self.problems.lines
        count = len(lines)
        where = ", ".join(str(line) for line in lines[:NAMED_LINES])
        if count > NAMED_LINES:
            where += ", ..."
        boards = "a board" if count == 1 else f"{count} boards"
        verb = "has" if count == 1 else "have"
        return (f"{boards} of {self.job.input_name} {verb} an error "
                f"(line{'s' if count != 1 else ''} {where}) and {self.job.to_fmt} holds no "
                f"board numbers: every board after {'it' if count == 1 else 'one'} would "
                f"take the wrong number")


# -- the bulk path ------------------------------------------------------------------

def _in_bulk(job: _Job, source: Any, from_fmt: str, read_options: ReadOptions, judge: _Judge,
             extras: _Extras) -> int:
    from dealerpp.deals import detect
    from dealerpp.deals.bulk import stream
    from dealerpp.deals.bulk.codecs import CODECS
    from dealerpp.deals.bulk.fallback import ModelPerDeal

    opened: IO[bytes] | None = None
    if not formats.get(from_fmt).binary:
        source, opened = detect.as_utf8(source)
    twin = detect.is_utf8_twin(source)  # a UTF-16 text's: its bytes are not the file's
    if twin:
        read_options = _without_bytes(read_options)
    per_deal = _Watched(ModelPerDeal(read_options), judge)
    try:
        with _InputHandle(source) as handle:
            limit = formats.get(job.to_fmt).print_limit if extras.notice else None
            bar: Progress | bool = (False if extras.progress is None and limit is None
                                    else _Forwarded(extras.progress, _size_of(handle), limit,
                                                    extras.notice))
            options = extras.write_options
            # a board without a number: its place in the input, as _per_deal numbers it
            left_out = judge.left_out if _numbers_by_place(job.to_fmt) else None
            placed = None if judge.places is None else judge.places.rows
            if job.streams_output:
                total = stream.convert_file(handle, _binary_target(job.dst), from_fmt,
                                            job.to_fmt, progress=bar, filename=job.input_name,
                                            per_deal=per_deal, first_board=job.first_board,
                                            stop=judge.stop_writing, write_options=options,
                                            left_out=left_out, placed=placed)
                judge.check(total, streamed=True)
                return total
            from dealerpp.atomic import atomic_writer

            with atomic_writer(job.dst) as out:  # type: ignore[arg-type]
                total = stream.convert_file(handle, out, from_fmt, job.to_fmt, progress=bar,
                                            filename=job.input_name, per_deal=per_deal,
                                            first_board=job.first_board, write_options=options,
                                            left_out=left_out, placed=placed)
                judge.check(total)  # NotWritten: the new content is dropped
            return total
    except DppError as error:
        if twin and not error.output:
            error.byte = None  # the line and column are the twin's, as deal by deal
        raise
    finally:
        # the first board written, where the codec knows it (.bhg's note)
        judge.first_board = getattr(CODECS[job.to_fmt], "first_written", None)
        if opened is not None:
            opened.close()


def _without_bytes(options: ReadOptions) -> ReadOptions:
    """``options`` whose report is given each problem without its byte."""
    report = options.report
    if report is None:
        return options
    return options._replace(report=lambda problem: report(problem.replace(byte=None)))


class _InputHandle:
    """A path opened for reading (and closed on leaving), or the stream."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.opened: IO[bytes] | None = None

    def __enter__(self) -> IO[bytes]:
        if isinstance(self.source, (str, os.PathLike)):
            self.opened = open(self.source, "rb")
            return self.opened
        return self.source  # type: ignore[no-any-return]

    def __exit__(self, *exc: object) -> None:
        if self.opened is not None:
            self.opened.close()


def _size_of(handle: IO[bytes]) -> int | None:
    """The size of a regular file open as ``handle``; None for a pipe or
    a stream without a descriptor."""
    try:
        found = os.fstat(handle.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None
    return found.st_size if stat.S_ISREG(found.st_mode) and found.st_size else None


def _binary_target(dst: Any) -> IO[bytes]:
    """A file object's binary layer (a text file's buffer); an in-memory
    text (StringIO) has none: the bytes go to it as text."""
    buffer = getattr(dst, "buffer", None)
    if buffer is not None:
        dst.flush()  # what the text layer holds goes first
        return buffer  # type: ignore[no-any-return]
    if isinstance(dst, io.TextIOBase):
        return cast("IO[bytes]", _AsText(dst))
    return dst  # type: ignore[no-any-return]


class _AsText:
    """Bytes written to a text stream as the text they are (UTF-8)."""

    def __init__(self, text: io.TextIOBase) -> None:
        self.text = text

    def write(self, data: bytes | memoryview) -> int:
        self.text.write(bytes(data).decode("utf-8", "surrogateescape"))
        return len(data)

    def flush(self) -> None:
        self.text.flush()


class _Forwarded(Progress):
    """The bulk path's progress bar, told to a ProgressReport instead (if
    any), and the LongPage notice once a printable output passes ``limit``
    boards."""

    def __init__(self, report: ProgressReport | None, size: int | None, limit: int | None,
                 notice: Callable[[Notice], None] | None) -> None:
        super().__init__(size, enabled=False)
        self.report = report
        self.size = size
        self.limit = limit
        self.notice = notice

    def update(self, done: int, deals: int) -> None:
        if self.report is not None:
            self.report(done, self.size, deals)
        if self.limit is not None and deals > self.limit and self.notice is not None:
            self.notice(LongPage(self.limit))
            self.limit = None  # told once

    def close(self) -> None:
        pass  # a caller's bar is the caller's to close


class _Watched:
    """The bulk path's per-deal reader and writer, the deals it reads shown
    to the judge (the bulk path's own rows are boards of the standard cycle:
    anything else goes deal by deal)."""

    def __init__(self, per_deal: Any, judge: _Judge) -> None:
        self.per_deal = per_deal
        self.judge = judge

    def read(self, *args: Any, **options: Any) -> Iterator[Deal]:
        return self.judge.in_place(self.judge.watched(self.per_deal.read(*args, **options)))

    def read_stream(self, *args: Any, **options: Any) -> Iterator[Deal]:
        return self.judge.in_place(self.judge.watched(
            self.per_deal.read_stream(*args, **options)))

    def fast_read(self, fmt: str, last_record: bytes) -> None:
        self.per_deal.fast_read(fmt, last_record)

    def fast_rows(self, rows: int) -> None:
        self.per_deal.fast_rows(rows)

    def dumps(self, fmt: str, deals: Any, first_index: int) -> bytes:
        return self.per_deal.dumps(fmt, deals, first_index)  # type: ignore[no-any-return]


# -- deal by deal -------------------------------------------------------------------

class _Extras(Record):
    """What only the per-deal path does, or reports."""

    spans: tuple[Span, ...] | None
    export: bool
    write_options: WriteOptions | None
    progress: ProgressReport | None
    notice: Callable[[Notice], None] | None


def _per_deal(job: _Job, source: Any, from_fmt: str | None, read_options: ReadOptions,
              judge: _Judge, extras: _Extras) -> int:
    from dealerpp.deals.files import read_source

    counted = _Counted.around(source, extras.progress)
    counter = _Counter(judge, counted, extras.notice)
    try:
        found: Iterator[Deal] = iter(()) if from_fmt is None else read_source(
            counted.source if counted else source, from_fmt, filename=job.input_name,
            first_board=job.first_board, options=read_options)
        if _numbers_by_place(job.to_fmt):
            found = _placed(found, judge.problems)
        found = judge.watched(found)
        if extras.spans is not None:
            found = _selected(found, extras.spans, job.input_name, extras.notice)
        found = judge.in_place(found)  # the boards written, after those picked
        write = _writer(job.to_fmt, extras.export, extras.write_options)
        if job.streams_output:
            # Held until the input is read: an error that stops it writes no deals
            # (a PBN game with an error is left out, the others are written).
            held = io.BytesIO()
            write(counter.count(found), held)
            counter.close()
            judge.check(counter.total)
            _deliver(held.getbuffer(), job.dst)
        else:
            from dealerpp.atomic import atomic_writer

            with atomic_writer(job.dst) as out:  # type: ignore[arg-type]
                write(counter.count(found), out)
                counter.close()
                judge.check(counter.total)  # NotWritten: the new content is dropped
    finally:
        counter.close()
        if counted is not None:
            counted.close()
    judge.first_board = counter.first_board
    return counter.total


def _numbers_by_place(to_fmt: str) -> bool:
    """Whether a deal without a board number is written with its place in
    the input (the games left out for an error counted) as its number: a
    format that writes numbers, but PBN, which writes none it was not given."""
    return to_fmt != "pbn" and to_fmt in formats.NUMBERED


def _deliver(data: memoryview, dst: Any) -> None:
    """The whole output to a file object, and flushed."""
    from dealerpp.deals._io import write_all

    out = _binary_target(dst)
    write_all(out, data)
    out.flush()


def _placed(deals: Iterator[Deal], problems: _Problems) -> Iterator[Deal]:
    """The deals, one without a board number numbered by its place in the
    input (the games left out for an error counted), as a format that
    writes numbers would number it by its place in the output."""
    from dataclasses import replace

    for place, deal in enumerate(deals, 1):
        yield deal if deal.board is not None else replace(deal, board=place + problems.errors)


def _selected(deals: Iterator[Deal], spans: tuple[Span, ...], name: str,
              notice: Callable[[Notice], None] | None) -> Iterator[Deal]:
    """The deals picked; once the input is read, BoardsNotFound when none
    of the boards asked for is in it, a notice of those of them that are not."""
    from dealerpp.deals.selection import BoardSelection, spans_of

    selection = BoardSelection(spans)
    yield from selection.select(deals)
    missing = tuple(selection.missing())
    if not selection.found:
        raise BoardsNotFound(f"none of the boards asked for is in the input: "
                             f"{spans_of(list(missing))}", filename=name, kind=NO_BOARDS,
                             missing=missing)
    if missing and notice is not None:
        notice(BoardsMissing(missing))


def _writer(to_fmt: str, export: bool,
            options: WriteOptions | None) -> Callable[[Iterable[Deal], IO[bytes]], None]:
    """Writes deals to a binary target in the output format (``export``:
    PBN's export format)."""
    options = options or WriteOptions()
    if export:
        from dealerpp.deals.formats.pbn import export as pbn_export

        return lambda deals, target: pbn_export.write(deals, target, options)
    writer = formats.get(to_fmt).load_writer()
    return lambda deals, target: writer(deals, target, options)


class _Counted(io.RawIOBase):
    """The input as a binary stream that counts the bytes read through it,
    for a progress report."""

    def __init__(self, stream: IO[bytes], report: ProgressReport, size: int | None,
                 opened: bool) -> None:
        super().__init__()
        self.stream = stream
        self.report = report
        self.size = size
        self.count = 0
        self.opened = opened
        self.source = io.BufferedReader(self)

    @classmethod
    def around(cls, source: Any, report: ProgressReport | None) -> _Counted | None:
        """One around ``source`` (a path is opened), or None without a report."""
        if report is None:
            return None
        if isinstance(source, (str, os.PathLike)):
            size = os.stat(source).st_size
            return cls(open(source, "rb"), report, size or None, True)
        return cls(source, report, None, False)

    def update(self, deals: int) -> None:
        self.report(self.count, self.size, deals)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        buffer[:len(data)] = data
        self.count += len(data)
        return len(data)

    def close(self) -> None:
        if self.opened and not self.stream.closed:
            self.stream.close()
        super().close()


class _Counter:
    """Counts the deals as they go by, tells the progress (if asked) and
    tells, once, when a printable output gets more boards than a browser
    opens or prints with ease."""

    def __init__(self, judge: _Judge, counted: _Counted | None,
                 notice: Callable[[Notice], None] | None) -> None:
        self.total = 0
        self.counted = counted
        self.limit = formats.get(judge.job.to_fmt).print_limit if notice else None
        self.notice = notice
        self.first_board: int | None = None
        self.closed = False

    def count(self, deals: Iterator[Deal]) -> Iterator[Deal]:
        for deal in deals:
            if not self.total:
                self.first_board = deal.board
            self.total += 1
            if self.limit is not None and self.total == self.limit + 1 and self.notice:
                self.notice(LongPage(self.limit))
            if self.counted is not None and self.total % 1024 == 0:
                self.counted.update(self.total)
            yield deal

    def close(self) -> None:
        """The last progress (told once even for a short conversion, as the
        bulk path does)."""
        if self.counted is not None and not self.closed:
            self.counted.update(self.total)
        self.closed = True
