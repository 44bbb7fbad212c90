"""``dealerpp convert IN OUT [--from FMT] [--to FMT] [--quiet]``

Reads every deal of IN and writes them to OUT in another format. ``-`` is
standard input or output. A named OUT is written beside itself and renamed
at the end (``dealerpp.atomic``), so an error in the input leaves OUT
untouched.

Two paths, one behaviour: between two different formats that have a bulk
codec (``dealerpp.deals.formats``) the file is converted in chunks
(``dealerpp.deals.bulk``, with a progress bar on a terminal); any other pair
goes deal by deal, and standard output then gets nothing until the whole
input has been read. Both report errors, the summary and a reader that went
away (status 141) the same way, and both leave the output unwritten (a
``Judge`` says so) when no deal was found, or when a PBN game was left out
and the output format holds no board numbers (every later board would take
its place). A text input saved as UTF-16 is read as the UTF-8 it holds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from dealerpp.atomic import atomic_writer, refuse_same_file
from dealerpp.cli.common import OutputFailed, shown_name
from dealerpp.cli.deal_input import (
    ProblemLog,
    as_utf8,
    format_error,
    open_input,
    parse_args,
)
from dealerpp.cli.status import EXIT_INPUT, EXIT_OK, EXIT_USAGE
from dealerpp.deals import formats
from dealerpp.deals.options import ReadOptions, WriteOptions
from dealerpp.diagnostics import DppError, quote

if TYPE_CHECKING:
    from dealerpp.deals.bulk.progress import Progress

CHOICES = formats.NAMES


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Convert deal files between formats.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=formats_epilog())
    parser.add_argument("input", metavar="IN", help="input file, - for standard input")
    parser.add_argument("output", metavar="OUT", help="output file, - for standard output")
    parser.add_argument("--from", dest="from_fmt", choices=CHOICES, metavar="FMT",
                        help="input format (default: from the extension, else the content)")
    parser.add_argument("--to", dest="to_fmt", choices=CHOICES, metavar="FMT",
                        help="output format (default: from the extension)")
    parser.add_argument("--first-board", type=int, metavar="N",
                        help="number the boards N, N+1, ... (dealer and vulnerability by "
                             "the standard cycle), for sets that do not start at 1")
    parser.add_argument("--boards", type=board_spans, metavar="LIST",
                        help="only the boards of LIST, by number: 1-24, or 1-12,15 (a deal "
                             "without a number counts as the board after the one before it)")
    parser.add_argument("--pbn-export", action="store_true",
                        help="PBN output in the PBN 2.1 export format: the mandatory tags in "
                             "their order ('?' for a missing one), then the others, the "
                             "auction, the play and the tables; four calls or cards a line; "
                             "CR LF line ends; values, tokens and comments kept (by default "
                             "a PBN input is copied as written)")
    parser.add_argument("--sealed", action="store_true",
                        help=".dlm output: Status=Sealed, a set the dealing machine deals "
                             "without showing the hands")
    parser.add_argument("--title", metavar="TEXT",
                        help="html output: the page's title and heading (default: the PBN "
                             "input's Event, Site and Date, else 'Hand records')")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument("--strict", action="store_true",
                        help="PBN input: what the import rules tolerate with a warning (an "
                             "auction or play that breaks the rules, a value not understood) "
                             "is an error, and that game is left out")
    return parser


def board_spans(text: str) -> tuple[tuple[int, int], ...]:
    """``--boards``' list as spans; argparse's usage error when it is not one."""
    from dealerpp.deals.selection import parse_spans

    try:
        return parse_spans(text)
    except ValueError as bad:
        raise argparse.ArgumentTypeError(str(bad)) from None


def formats_epilog() -> str:
    """The table of formats for ``--help``, from the registry."""
    width = max(len(f.name) for f in formats.FORMATS)
    ext_width = max(len(" ".join(f.extensions)) for f in formats.FORMATS)
    rows = [f"  {f.name:{width}}  {' '.join(f.extensions):{ext_width}}  "
            f"{'*' if f.fast else ' '} {f.description}" for f in formats.FORMATS]
    return "\n".join([
        "formats (FMT), their extensions, and what they hold:",
        *rows,
        "Between two different formats marked *, convert works in bulk: in chunks,",
        "millions of deals a second. A progress bar shows when stderr is a terminal.",
        "",
        "A PBN game with an error is named and left out, and the conversion goes on",
        f"(exit status 1). Only {', '.join(f.name for f in formats.FORMATS if f.numbered)}, "
        "which hold each board's number,",
        "are then written: in any other format every later board would take the wrong",
        "number, so no file is. Nor is one from an input in which no deal is found.",
    ])


def main(argv: list[str], prog: str) -> int:
    parser = build_parser(prog)
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    refuse_same_file(args.output, [args.input])  # an OSError: reported by dealerpp.cli
    to_fmt = args.to_fmt or (formats.from_extension(args.output) if args.output != "-"
                             else "pbn" if args.pbn_export else None)
    if to_fmt is None:
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: cannot tell the output format of {quote(args.output)}; use --to",
              file=sys.stderr)
        return EXIT_USAGE
    if not formats.get(to_fmt).writable:
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: {formats.not_writable(to_fmt)}", file=sys.stderr)
        return EXIT_USAGE
    if args.pbn_export and to_fmt != "pbn":
        print(f"{prog}: error: --pbn-export is for a PBN output, not {to_fmt}", file=sys.stderr)
        return EXIT_USAGE
    if args.title is not None and to_fmt != "html":
        print(f"{prog}: error: --title is for an html output, not {to_fmt}", file=sys.stderr)
        return EXIT_USAGE
    if args.sealed and to_fmt != "dlm":
        print(f"{prog}: error: --sealed is for a .dlm output, not {to_fmt}", file=sys.stderr)
        return EXIT_USAGE
    if args.first_board is not None and args.first_board < 1:
        print(f"{prog}: error: --first-board must be 1 or more", file=sys.stderr)
        return EXIT_USAGE
    name = "<stdin>" if args.input == "-" else args.input
    log = ProblemLog()
    judge = Judge(prog, args, to_fmt, log)
    first_board = None  # the first board written, where the output needs it to be read back
    # the PBN reader's options: its problems printed as they come, the game
    # that has an error left out and the conversion going on
    read_options = ReadOptions(report=log, strict=args.strict, need_deal=to_fmt != "pbn")
    try:
        with contextlib.ExitStack() as opened:
            source, name = open_input(args.input)
            from_fmt, source = _input_format(args, source, name)
            source = as_utf8(source, from_fmt, opened)
            judge.name = name
            if from_fmt is not None and formats.takes_bulk_path(
                    from_fmt, to_fmt, first_board=args.first_board,
                    selecting=args.boards is not None, export=args.pbn_export):
                total, first_board = _convert_in_bulk(args, source, name, from_fmt, to_fmt,
                                                      read_options, judge)
            else:
                total, first_board = _convert_per_deal(args, source, name, from_fmt, to_fmt,
                                                       read_options, judge, opened)
    except BrokenPipeError:
        raise  # the reader (often `head`) went away: the dispatcher's quiet 141
    except OutputFailed as failed:
        raise failed.error from None  # the dispatcher names standard output
    except NotWritten as refused:
        print(f"{prog}: error: {refused.reason}", file=sys.stderr)
        return EXIT_INPUT
    except (DppError, OSError) as error:
        return report_input_error(error, args, name)
    stopped = judge.stopped_output(total)
    if stopped is not None:
        print(f"{prog}: error: {stopped}", file=sys.stderr)
        return EXIT_INPUT
    judge.warn_of_cycle()
    report_converted(prog, total, args.quiet, log.errors)
    if formats.get(to_fmt).dealer_first and first_board not in (None, 1):
        output = "standard output" if args.output == "-" else shown_name(args.output)
        print(f"{prog}: note: {output} lists each board's hands from its dealer, from board "
              f"{first_board} on, and holds no board numbers: read it back with "
              f"--first-board {first_board}", file=sys.stderr)
    return EXIT_INPUT if log.errors else EXIT_OK


class NotWritten(Exception):
    """Raised inside the output's writer, which then discards what it was
    given: everything was read, but the output would not be right."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Judge:
    """Says whether what was converted may be written: something, and with
    no board left out where the output format would move every later board
    into its place (one whose records carry no board numbers)."""

    def __init__(self, prog: str, args: argparse.Namespace, to_fmt: str,
                 log: ProblemLog) -> None:
        self.prog = prog
        # boards whose dealer or vulnerability the output cannot hold
        self.off_cycle: list[int] = []
        self.watches_cycle = to_fmt in formats.POSITIONAL and args.first_board is None
        self.output = "standard output" if args.output == "-" else shown_name(args.output)
        self.to_fmt = to_fmt
        self.log = log
        self.name = "<stdin>" if args.input == "-" else args.input

    @property
    def holds_numbers(self) -> bool:
        return self.to_fmt in formats.NUMBERED

    def stop_writing(self) -> bool:
        """Whether nothing more may reach an output already being written
        (standard output on the bulk path): a board is missing before it."""
        return bool(self.log.errors) and not self.holds_numbers

    def check(self, total: int) -> None:
        """Raise NotWritten when the output must not be written."""
        if not total:
            found = "could be read from" if self.log.errors else "found in"
            raise NotWritten(f"no deal {found} {shown_name(self.name)}: nothing written")
        if self.log.errors and not self.holds_numbers:
            raise NotWritten(f"{self.output} not written: {self._missing()}")

    def stopped_output(self, total: int) -> str | None:
        """For an output written as it was read (standard output on the bulk
        path): what it lacks, or None when it is all there."""
        if not total:
            found = "could be read from" if self.log.errors else "found in"
            return f"no deal {found} {shown_name(self.name)}"
        if self.stop_writing():
            return f"{self.output} stops before the first board left out: {self._missing()}"
        return None

    def watched(self, deals: Iterator[Any]) -> Iterator[Any]:
        """The deals, noting those whose dealer or vulnerability is not the
        standard cycle's for their board number, when the output holds
        neither (a positional format: read back, or dealt by a machine, a
        board gets the cycle's)."""
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

    def warn_of_cycle(self) -> None:
        """One warning naming the boards whose dealer or vulnerability is lost."""
        if not self.off_cycle:
            return
        count = len(self.off_cycle)
        boards = ", ".join(str(board) for board in self.off_cycle[:_NAMED_LINES])
        if count > _NAMED_LINES:
            boards += ", ..."
        print(f"{self.prog}: warning: board{'s' if count != 1 else ''} {boards} of "
              f"{shown_name(self.name)} {'have' if count != 1 else 'has'} a dealer or "
              f"vulnerability other than the standard cycle's for "
              f"{'their' if count != 1 else 'its'} number; {self.to_fmt} holds neither, so "
              f"{self.output} gives {'them' if count != 1 else 'it'} the cycle's",
              file=sys.stderr)

    def _missing(self) -> str:
        lines = self.log.error_lines
        count = len(lines)
        where = ", ".join(str(line) for line in lines[:_NAMED_LINES])
        if count > _NAMED_LINES:
            where += ", ..."
        boards = "a board" if count == 1 else f"{count} boards"
        verb = "has" if count == 1 else "have"
        return (f"{boards} of {shown_name(self.name)} {verb} an error (line{'s' if count != 1 else ''} "
                f"{where}) and {self.to_fmt} holds no board numbers: every board after "
                f"{'it' if count == 1 else 'one'} would take the wrong number")


_NAMED_LINES = 10  # the lines of the first errors a refusal names


class StandardOutput:
    """Standard output's binary stream, its write errors told apart from the
    input's (``OutputFailed``); a reader that went away stays a BrokenPipeError.
    ``stop``: once it says so, what is written is dropped (the boards after
    one left out, in a format that would number them by their place)."""

    def __init__(self, stop: Callable[[], bool] = lambda: False) -> None:
        self.stream = sys.stdout.buffer
        self.stop = stop

    @classmethod
    def as_file(cls, stop: Callable[[], bool] = lambda: False) -> IO[bytes]:
        """One, typed as the binary file it stands in for (it has the two
        methods a writer of ours calls: write and flush)."""
        return cast("IO[bytes]", cls(stop))

    def write(self, data: bytes | memoryview) -> int:
        if self.stop():
            return len(data)
        try:
            return self.stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputFailed(error) from None


def _input_format(args: argparse.Namespace, source: Any, name: str) -> tuple[str | None, Any]:
    """The input's format (None for an empty input) and the source to read:
    a stream may have been wrapped to give back what was peeked."""
    if args.from_fmt is not None:
        return args.from_fmt, source
    from dealerpp.deals import detect

    return detect.detect(source, name)


def _convert_per_deal(args: argparse.Namespace, source: Any, name: str, from_fmt: str | None,
                      to_fmt: str, read_options: ReadOptions, judge: Judge,
                      opened: contextlib.ExitStack) -> tuple[int, int | None]:
    """Convert deal by deal: how many, and the first one's board number."""
    from dealerpp import deals
    from dealerpp.deals._io import write_all

    source, bar = _with_progress(args, source, opened)
    counter = _Counter(bar, _SizeWarning(judge.prog, judge))
    found = iter(()) if from_fmt is None else deals.read_source(
        source, from_fmt, filename=name, first_board=args.first_board, options=read_options)
    if to_fmt != "pbn" and to_fmt in formats.NUMBERED:
        found = _placed(found, judge.log)
    found = judge.watched(found)
    selection = None
    if args.boards is not None:
        from dealerpp.deals.selection import BoardSelection

        selection = BoardSelection(args.boards)
        found = _with_all_boards_asked(selection.select(found), selection, name)
    stream = counter.count(found)
    write = _writer(to_fmt, args.pbn_export, args.sealed, args.title)
    try:
        if args.output == "-":
            # Held until the input is read: an error that stops it prints no deals
            # (a PBN game with an error is left out, the others are printed).
            buffer = io.BytesIO()
            write(stream, buffer)
            counter.close()
            judge.check(counter.total)
            standard_output = StandardOutput.as_file()
            write_all(standard_output, buffer.getbuffer())
            standard_output.flush()
        else:
            with atomic_writer(args.output) as out:
                write(stream, out)
                counter.close()
                judge.check(counter.total)  # NotWritten: the new content is dropped
    finally:
        counter.close()
    return counter.total, counter.first_board


def _with_all_boards_asked(deals: Iterator[Any], selection: Any, name: str) -> Iterator[Any]:
    """The deals picked; once the input is read, an error when none of the
    boards asked for is in it, a warning for those of them that are not."""
    yield from deals
    missing = selection.missing()
    if not selection.found:
        from dealerpp.deals.selection import spans_of

        raise DppError(f"none of the boards asked for (--boards) is in the input: "
                       f"{spans_of(missing)}", filename=name)
    if missing:
        from dealerpp.deals.selection import spans_of

        print(f"{shown_name(name)}: warning: {spans_of(missing)} (--boards) "
              f"{'is' if spans_of(missing).startswith('board ') else 'are'} not in the input",
              file=sys.stderr)


def _placed(deals: Iterator[Any], log: ProblemLog) -> Iterator[Any]:
    """The deals, one without a board number numbered by its place in the
    input (the games left out for an error counted), as a format that
    writes numbers would number it by its place in the output."""
    from dataclasses import replace

    for place, deal in enumerate(deals, 1):
        yield deal if deal.board is not None else replace(deal, board=place + log.errors)


def _writer(to_fmt: str, export: bool, sealed: bool = False,
            title: str | None = None) -> Callable[[Iterator[Any], Any], None]:
    """Writes deals to a target in the output format (``export``: PBN's
    export format; ``sealed``: a .dlm set the machine must not show;
    ``title``: an html page's title)."""
    options = WriteOptions(title=title, sealed=sealed)
    if export:
        from dealerpp.deals.formats.pbn import export as pbn_export

        return lambda stream, target: pbn_export.write(stream, target, options)
    writer = formats.get(to_fmt).load_writer()
    return lambda stream, target: writer(stream, target, options)


def _convert_in_bulk(args: argparse.Namespace, source: Any, name: str, from_fmt: str,
                     to_fmt: str, read_options: ReadOptions, judge: Judge
                     ) -> tuple[int, int | None]:
    """The deals converted, and the first board written (.bhg's note)."""
    from dealerpp.deals.bulk.codecs import CODECS

    total = _bulk_file(args, source, name, from_fmt, to_fmt, read_options, judge)
    return total, getattr(CODECS[to_fmt], "first_written", None)


def _bulk_file(args: argparse.Namespace, source: Any, name: str, from_fmt: str,
               to_fmt: str, read_options: ReadOptions, judge: Judge) -> int:
    from dealerpp.deals.bulk.fallback import ModelPerDeal
    from dealerpp.deals.bulk.stream import convert_file

    # ``source`` is a path, or for "-" the standard input's binary stream
    # (as detection may have wrapped it), never the name "-" itself.
    per_deal = _Watched(ModelPerDeal(read_options), judge)
    if args.output == "-":
        # written as it is converted: after a board left out, nothing more
        return convert_file(source, StandardOutput.as_file(judge.stop_writing), from_fmt,
                            to_fmt, quiet=args.quiet, filename=name, per_deal=per_deal,
                            first_board=args.first_board)
    with atomic_writer(args.output) as out:
        total = convert_file(source, out, from_fmt, to_fmt, quiet=args.quiet, filename=name,
                             per_deal=per_deal, first_board=args.first_board)
        judge.check(total)  # NotWritten: the new content is dropped
    return total


class _Watched:
    """The bulk path's per-deal reader and writer, the deals it reads shown
    to the judge (the bulk path's own rows are boards of the standard cycle:
    anything else goes deal by deal)."""

    def __init__(self, per_deal: Any, judge: Judge) -> None:
        self.per_deal = per_deal
        self.judge = judge

    def read(self, *args: Any, **options: Any) -> Iterator[Any]:
        return self.judge.watched(self.per_deal.read(*args, **options))

    def read_stream(self, *args: Any, **options: Any) -> Iterator[Any]:
        return self.judge.watched(self.per_deal.read_stream(*args, **options))

    def fast_read(self, fmt: str, last_record: bytes) -> None:
        self.per_deal.fast_read(fmt, last_record)

    def dumps(self, fmt: str, deals: Any, first_index: int) -> bytes:
        return self.per_deal.dumps(fmt, deals, first_index)


def report_input_error(error: DppError | OSError, args: argparse.Namespace, name: str) -> int:
    """Print why a conversion failed (a bad record, an unreadable input, an
    unwritable output); the input-error status."""
    if isinstance(error, DppError):
        if error.filename is None and error.line is None:
            error.filename = args.output if error.output else name
        print(format_error(error), file=sys.stderr)
    else:
        print(f"{_culprit(error, args)}: error: {error.strerror or error}", file=sys.stderr)
    return EXIT_INPUT


def _culprit(error: OSError, args: argparse.Namespace) -> str:
    """The file an OSError is about: the input if it names it; else a named
    output (a full disk, a missing folder), which is written as it is read."""
    if error.filename is not None and str(error.filename) == args.input:
        return shown_name(args.input)
    return shown_name(args.output if args.output != "-" else args.input)


def report_converted(prog: str, total: int, quiet: bool, left_out: int = 0) -> None:
    """The closing summary on stderr (unless ``--quiet``), with the number of
    errors that left games out, if any (then even with ``--quiet``)."""
    summary = f"{prog}: {total} deal{'s' if total != 1 else ''} converted"
    if left_out:
        summary += (f", {left_out} error{'s' if left_out != 1 else ''}: "
                    "the games that have them are left out")
    if left_out or not quiet:
        print(summary, file=sys.stderr)


def _with_progress(args: argparse.Namespace, source: Any,
                   opened: contextlib.ExitStack) -> tuple[Any, _CountedBytes | None]:
    """The source to read, counting its bytes, and a progress bar for them,
    when stderr is a terminal and not ``--quiet`` (else the source as it is
    and None): a long conversion shows it is going, whatever the formats."""
    if args.quiet:
        return source, None
    from dealerpp.deals.bulk.progress import Progress

    size = None
    if isinstance(source, Path):
        try:
            size = source.stat().st_size
        except OSError:
            return source, None  # the reader names the problem
    bar = Progress(size)
    if not bar.enabled:
        return source, None
    stream = opened.enter_context(source.open("rb")) if isinstance(source, Path) else source
    counted = _CountedBytes(stream, bar)
    return io.BufferedReader(counted), counted


class _CountedBytes(io.RawIOBase):
    """A binary stream that counts the bytes read through it, for ``bar``."""

    def __init__(self, stream: IO[bytes], bar: Progress) -> None:
        super().__init__()
        self.stream = stream
        self.bar = bar
        self.count = 0

    def update(self, deals: int) -> None:
        self.bar.update(self.count, deals)

    def finish(self, deals: int) -> None:
        """The bar's last state (drawn once even for a short conversion, as
        the bulk path does)."""
        self.bar.update(self.count, deals)
        self.bar.close()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(len(buffer))
        buffer[:len(data)] = data
        self.count += len(data)
        return len(data)


class _SizeWarning:
    """Warns, once, when a printable output (the HTML hand records) gets
    more boards than a browser opens or prints with ease."""

    def __init__(self, prog: str, judge: Judge) -> None:
        self.limit = formats.get(judge.to_fmt).print_limit
        self.prog = prog
        self.judge = judge

    def passed(self, total: int) -> None:
        if self.limit is not None and total == self.limit + 1:
            print(f"{self.prog}: warning: more than {self.limit:,} boards for "
                  f"{self.judge.output}: a page of hand records that long is slow to open "
                  f"and to print; the conversion goes on", file=sys.stderr)


class _Counter:
    """Counts the deals as they go by, moves a progress bar (if given) by
    the bytes read, and warns when the output gets too big to print."""

    def __init__(self, progress: _CountedBytes | None = None,
                 size: _SizeWarning | None = None) -> None:
        self.total = 0
        self.progress = progress
        self.size = size
        self.first_board: int | None = None

    def count(self, stream: Iterator[Any]) -> Iterator[Any]:
        for item in stream:
            if not self.total:
                self.first_board = item.board
            self.total += 1
            if self.size is not None:
                self.size.passed(self.total)
            if self.progress is not None and self.total % 1024 == 0:
                self.progress.update(self.total)
            yield item

    def close(self) -> None:
        if self.progress is not None:
            self.progress.finish(self.total)
            self.progress = None
