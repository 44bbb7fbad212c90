"""``dealerpp convert IN OUT [--from FMT] [--to FMT] [--quiet]``

Reads every deal of IN and writes them to OUT in another format. ``-`` is
standard input or output. A named OUT is written beside itself and renamed
at the end (``dealerpp.atomic``), so an error in the input leaves OUT
untouched.

The conversion is the library's (``dealerpp.deals.convert``: the bulk path
whenever it applies, the output written atomically or not at all); this
command parses the arguments, calls it, and words what it reports: its
typed errors as ``FILE:LINE:COL: error:`` messages and exit statuses
(``dealerpp.status``), its notices as warnings, its progress as a bar
on a terminal. Standard output gets, on the bulk path, the deals as they
are converted; deal by deal, nothing until the whole input has been read.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, TYPE_CHECKING, cast

from dealerpp.atomic import SameFileError, refuse_same_file
from dealerpp.cli.common import OutputFailed, shown_name
from dealerpp.cli.deal_input import ProblemLog, parse_args
from dealerpp.deals import formats
from dealerpp.deals.conversion import NAMED_LINES
from dealerpp.deals.options import ReadOptions, WriteOptions
from dealerpp.diagnostics import Diagnostic, DppError, quote
from dealerpp.status import EXIT_INPUT, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from dealerpp.deals.bulk.progress import Progress
    from dealerpp.deals.conversion import Notice

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
                             "the standard cycle), for sets that do not start at 1, or to "
                             "number a set with a gap by place on purpose")
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
        "",
        "The other formats but hex (whose -D suffix keeps the number modulo 16) number",
        "the boards by their place in the file: a board whose number is not the one",
        "before plus one (a gap, boards out of order or repeated) would become another",
        "there, so no file is written, and each such board is named. A set may start",
        "at any board (17-32: read it back with --first-board 17); --first-board N",
        "numbers the boards by their place on purpose.",
    ])


def main(argv: list[str], prog: str) -> int:
    parser = build_parser(prog)
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    # An output that is the input is named before anything else (an OSError:
    # reported by dealerpp.cli); the library refuses it too.
    refuse_same_file(args.output, [args.input])
    to_fmt = args.to_fmt or (formats.from_extension(args.output) if args.output != "-"
                             else "pbn" if args.pbn_export else None)
    usage = _usage_error(args, to_fmt)
    if usage is not None:
        message, show_usage = usage
        if show_usage:
            parser.print_usage(sys.stderr)
        print(f"{prog}: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    assert to_fmt is not None
    return _run(prog, args, to_fmt)


def _usage_error(args: argparse.Namespace, to_fmt: str | None) -> tuple[str, bool] | None:
    """What is wrong with the arguments, and whether the usage line goes
    before it; None when nothing is."""
    if to_fmt is None:
        hint = "standard output has no name to tell it by" if args.output == "-" \
            else formats.extension_hint(args.output)
        because = f" ({hint})" if hint is not None else ""
        return f"cannot tell the output format of {quote(args.output)}{because}; use --to", True
    if not formats.get(to_fmt).writable:
        return formats.not_writable(to_fmt), True
    for flag, given, wanted, what in (("--pbn-export", args.pbn_export, "pbn", "a PBN"),
                                      ("--title", args.title is not None, "html", "an html"),
                                      ("--sealed", args.sealed, "dlm", "a .dlm")):
        if given and to_fmt != wanted:
            return f"{flag} is for {what} output, not {to_fmt}", False
    if args.first_board is not None and args.first_board < 1:
        return "--first-board must be 1 or more", False
    return None


def _run(prog: str, args: argparse.Namespace, to_fmt: str) -> int:
    """The conversion, by the library; its errors and notices as messages."""
    from dealerpp.deals.conversion import MOVED, BoardsNotFound, NotWritten, convert

    name = "<stdin>" if args.input == "-" else args.input
    output = "standard output" if args.output == "-" else shown_name(args.output)
    log = ProblemLog()
    told = _Told(prog, args, name, output, to_fmt)
    bar = _progress_bar(args.quiet)
    try:
        total = convert(
            sys.stdin.buffer if args.input == "-" else args.input,
            StandardOutput.as_file() if args.output == "-" else args.output, to_fmt,
            src_format=args.from_fmt, first_board=args.first_board, boards=args.boards,
            export=args.pbn_export, options=ReadOptions(report=log, strict=args.strict),
            write_options=WriteOptions(title=args.title, sealed=args.sealed),
            progress=bar, notice=told, filename=name, output_name=output)
    except BrokenPipeError:
        raise  # the reader (often `head`) went away: the dispatcher's quiet 141
    except OutputFailed as failed:
        raise failed.error from None  # the dispatcher names standard output
    except SameFileError:
        raise  # (reported by dealerpp.cli, as above)
    except NotWritten as refused:
        print(f"{prog}: error: {refused.message}", file=sys.stderr)
        if refused.kind == MOVED:
            print(f"{prog}: hint: --first-board {refused.start} numbers the boards by their "
                  f"place on purpose (each then takes its place's dealer and vulnerability), "
                  f"or --boards writes only those asked for", file=sys.stderr)
        return EXIT_INPUT
    except BoardsNotFound as none:
        from dealerpp.deals.selection import spans_of

        print(Diagnostic("error", f"none of the boards asked for (--boards) is in the input: "
                                  f"{spans_of(list(none.missing))}", filename=name).format(),
              file=sys.stderr)
        return EXIT_INPUT
    except (DppError, OSError) as error:
        return report_input_error(error, args, name)
    finally:
        if bar is not None:
            bar.close()
    told.at_end(total, log.errors)
    return EXIT_INPUT if log.errors else EXIT_OK


class _Told:
    """The library's notices, as messages on stderr: those met on the way at
    once, those of the end after the summary's place is known."""

    def __init__(self, prog: str, args: argparse.Namespace, name: str, output: str,
                 to_fmt: str) -> None:
        self.prog, self.args, self.name, self.output, self.to_fmt = (prog, args, name, output,
                                                                     to_fmt)
        self.later: list[Notice] = []

    def __call__(self, notice: Notice) -> None:
        from dealerpp.deals.conversion import BoardsMissing, LongPage

        if isinstance(notice, BoardsMissing):
            from dealerpp.deals.selection import spans_of

            spans = list(notice.missing)
            one = len(spans) == 1 and spans[0][0] == spans[0][1]  # (not read from the words)
            print(f"{shown_name(self.name)}: warning: {spans_of(spans)} (--boards) "
                  f"{'is' if one else 'are'} not in the input", file=sys.stderr)
        elif isinstance(notice, LongPage):
            print(f"{self.prog}: warning: more than {notice.limit:,} boards for "
                  f"{self.output}: a page of hand records that long is slow to open "
                  f"and to print; the conversion goes on", file=sys.stderr)
        else:
            self.later.append(notice)

    def at_end(self, total: int, left_out: int) -> None:
        """The warning of boards off the cycle, the summary, then the note
        on how to read the output back."""
        from dealerpp.deals.conversion import OffCycle, ReadBackFrom

        for notice in self.later:
            if isinstance(notice, OffCycle):
                self._off_cycle(notice.boards)
        report_converted(self.prog, total, self.args.quiet, left_out)
        for notice in self.later:
            if isinstance(notice, ReadBackFrom) and notice.dealer_first:
                first = notice.first_board
                print(f"{self.prog}: note: {self.output} lists each board's hands from its "
                      f"dealer, from board {first} on, and holds no board numbers: read it "
                      f"back with --first-board {first}", file=sys.stderr)
            elif isinstance(notice, ReadBackFrom):
                first = notice.first_board
                print(f"{self.prog}: note: {self.output} holds boards {first} on, by their "
                      f"place, and no board numbers: read it back with --first-board {first}",
                      file=sys.stderr)

    def _off_cycle(self, off: tuple[int, ...]) -> None:
        count = len(off)
        boards = ", ".join(str(board) for board in off[:NAMED_LINES])
        if count > NAMED_LINES:
            boards += ", ..."
        print(f"{self.prog}: warning: board{'s' if count != 1 else ''} {boards} of "
              f"{shown_name(self.name)} {'have' if count != 1 else 'has'} a dealer or "
              f"vulnerability other than the standard cycle's for "
              f"{'their' if count != 1 else 'its'} number; {self.to_fmt} holds neither, so "
              f"{self.output} gives {'them' if count != 1 else 'it'} the cycle's",
              file=sys.stderr)


class StandardOutput:
    """Standard output's binary stream, its write errors told apart from the
    input's (``OutputFailed``); a reader that went away stays a BrokenPipeError.
    Standard output itself is looked up when first written (nothing is,
    deal by deal, when the input has an error)."""

    @property
    def stream(self) -> IO[bytes]:
        return sys.stdout.buffer

    @classmethod
    def as_file(cls) -> IO[bytes]:
        """One, typed as the binary file it stands in for (it has the two
        methods a writer of ours calls: write and flush)."""
        return cast("IO[bytes]", cls())

    def write(self, data: bytes | memoryview) -> int:
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


def report_input_error(error: DppError | OSError, args: argparse.Namespace, name: str) -> int:
    """Print why a conversion failed (a bad record, an unreadable input, an
    unwritable output); the input-error status."""
    if isinstance(error, DppError):
        if error.filename is None and error.line is None:
            error.filename = args.output if error.output else name
        print(error, file=sys.stderr)
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


class _Bar:
    """The library's progress, drawn as a bar on stderr."""

    def __init__(self, bar: Progress) -> None:
        self.bar = bar

    def __call__(self, done: int, size: int | None, deals: int) -> None:
        self.bar.total = size
        self.bar.update(done, deals)

    def close(self) -> None:
        self.bar.close()


def _progress_bar(quiet: bool) -> _Bar | None:
    """A progress bar, when stderr is a terminal and not ``--quiet``: a long
    conversion shows it is going, whatever the formats."""
    if quiet:
        return None
    from dealerpp.deals.bulk.progress import Progress

    bar = Progress(None)
    return _Bar(bar) if bar.enabled else None
