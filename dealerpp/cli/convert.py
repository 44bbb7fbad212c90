"""``dealerpp convert IN OUT [--from FMT] [--to FMT] [--quiet]``

Reads every deal of IN and writes them to OUT in another format. ``-`` is
standard input or output. A named OUT is written beside itself and renamed
at the end (``dealerpp.atomic``), and standard output gets nothing until
the whole input has been read, so an error in the input leaves OUT
untouched.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dealerpp.atomic import atomic_writer, refuse_same_file
from dealerpp.cli.status import EXIT_INPUT, EXIT_OK, EXIT_USAGE
from dealerpp.diagnostics import Diagnostic, DppError

CHOICES = ("pbn", "giblib", "deals", "dx", "hex", "listing", "oneline", "compact", "printall")


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Convert deal files between formats.",
        epilog="Formats are detected from the extension (.pbn .gib .deals .dx .hex) "
               "or, for input, from the content.")
    parser.add_argument("input", metavar="IN", help="input file, - for standard input")
    parser.add_argument("output", metavar="OUT", help="output file, - for standard output")
    parser.add_argument("--from", dest="from_fmt", choices=CHOICES, metavar="FMT",
                        help=f"input format: {' '.join(CHOICES)}")
    parser.add_argument("--to", dest="to_fmt", choices=CHOICES, metavar="FMT",
                        help="output format (same choices)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument("--strict", action="store_true",
                        help="PBN input: what the import rules tolerate with a warning (an "
                             "auction or play that breaks the rules, a value not understood) "
                             "is an error, and that game is left out")
    return parser


def parse_args(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    try:
        return parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage message
        return int(stop.code or 0)


def open_input(path: str) -> tuple[Any, str]:
    """The source to read and the name errors use."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>"
    return Path(path), path


def main(argv: list[str], prog: str) -> int:
    parser = build_parser(prog)
    args = parse_args(parser, argv)
    if isinstance(args, int):
        return args
    refuse_same_file(args.output, [args.input])  # an OSError: reported by dealerpp.cli
    from dealerpp.deals import detect
    from dealerpp.deals.bulk.cli import try_bulk

    to_fmt = args.to_fmt or (detect.from_extension(args.output) if args.output != "-" else None)
    log = ProblemLog()
    pbn_options = {"report": log, "strict": args.strict, "need_deal": to_fmt != "pbn"}
    # full deals between fast formats, in chunks
    status = try_bulk(args, prog, pbn_options, lambda: log.errors)
    if status is not None:
        return status
    from dealerpp import deals

    if to_fmt is None:
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: cannot tell the output format of {args.output!r}; use --to",
              file=sys.stderr)
        return EXIT_USAGE
    source, name = open_input(args.input)
    counter = _Counter(_pbn_progress(args, source) if args.output != "-" else None)
    try:
        from_fmt = args.from_fmt
        if from_fmt is None:
            from_fmt, source = detect.detect(source, name)
        if from_fmt != "pbn":
            counter.progress = None  # the bar follows PBN games (their text)
        if from_fmt == "pbn":
            from dealerpp.deals import dealer_output

            found = dealer_output.read_printpbn(source, filename=name, **pbn_options)
        else:
            found = deals.read(source, from_fmt, filename=name) if from_fmt else iter(())
        stream = counter.count(found)
        if args.output == "-":
            # Held until the input is known to be good: an error prints no deals.
            buffer = io.BytesIO()
            deals.write(stream, buffer, to_fmt)
            sys.stdout.buffer.write(buffer.getvalue())
            sys.stdout.buffer.flush()
        else:
            with atomic_writer(args.output) as out:
                deals.write(stream, out, to_fmt)
    except (DppError, OSError) as error:
        return report_input_error(error, args, name)
    finally:
        counter.close()
    report_converted(prog, counter.total, args.quiet, log.errors)
    return EXIT_INPUT if log.errors else EXIT_OK


class ProblemLog:
    """Prints the problems the PBN reader reports as it reads (warnings,
    and errors of games it leaves out) and counts the errors: the
    conversion goes on, and ends with the input-error status."""

    def __init__(self) -> None:
        self.errors = 0

    def __call__(self, problem: Diagnostic) -> None:
        if problem.severity == "error":
            self.errors += 1
        print(problem.format(), file=sys.stderr)


def report_input_error(error: DppError | OSError, args: argparse.Namespace, name: str) -> int:
    """Print why a conversion failed (a bad record, an unreadable input, an
    unwritable output); the input-error status. Shared by the per-deal and
    the bulk paths."""
    if isinstance(error, DppError):
        if error.filename is None and error.line is None:
            error.filename = name if not error.message.startswith("deal ") else args.output
        print(format_error(error), file=sys.stderr)
    else:
        print(f"{_culprit(error, args)}: error: {error.strerror or error}", file=sys.stderr)
    return EXIT_INPUT


def _culprit(error: OSError, args: argparse.Namespace) -> str:
    """The file an OSError is about: the input if it names it; else a named
    output (a full disk, a missing folder), which is written as it is read."""
    if error.filename is not None and str(error.filename) == args.input:
        return str(args.input)
    return str(args.output) if args.output != "-" else str(args.input)


def report_converted(prog: str, total: int, quiet: bool, left_out: int = 0) -> None:
    """The closing summary on stderr (unless ``--quiet``), with the number of
    errors that left games out, if any (then even with ``--quiet``)."""
    summary = f"{prog}: {total} deal{'s' if total != 1 else ''} converted"
    if left_out:
        summary += (f", {left_out} error{'s' if left_out != 1 else ''}: "
                    "the games that have them are left out")
    if left_out or not quiet:
        print(summary, file=sys.stderr)


def format_error(error: DppError) -> str:
    """The error as ``FILE:LINE:COL: error: MESSAGE`` (and the source line),
    or ``FILE: byte N: error: MESSAGE`` for a binary file."""
    match = re.match(r"(byte \d+): (.*)", error.message, re.DOTALL)
    if error.line is None and match:
        where = f"{error.filename}: " if error.filename else ""
        return f"{where}{match.group(1)}: error: {match.group(2)}"
    return error.diagnostic.format()


def _pbn_progress(args: argparse.Namespace, source: Any) -> Any:
    """A progress bar for a long per-deal conversion (a PBN file copied to
    PBN takes this path), when stderr is a terminal and not ``--quiet``."""
    if args.quiet or not isinstance(source, Path):
        return None
    from dealerpp.deals.bulk.progress import Progress

    try:
        size = source.stat().st_size
    except OSError:
        return None
    bar = Progress(size)
    return bar if bar.enabled else None


class _Counter:
    """Counts the deals as they go by; moves a progress bar, if given, by the
    length of each PBN game's text."""

    def __init__(self, progress: Any = None) -> None:
        self.total = 0
        self.progress = progress
        self.done = 0

    def count(self, stream: Iterator[Any]) -> Iterator[Any]:
        for item in stream:
            self.total += 1
            if self.progress is not None:
                self.done += len(getattr(item.pbn, "text", "")) + 2
                if self.total % 4096 == 0:
                    self.progress.update(self.done, self.total)
            yield item

    def close(self) -> None:
        if self.progress is not None:
            self.progress.update(self.done, self.total)
            self.progress.close()
