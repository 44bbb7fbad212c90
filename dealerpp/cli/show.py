"""``dealerpp show FILE [--from FMT]``: print each deal as a four-hand diagram.

Deals are printed as they are read. As in ``convert``, a PBN game with an
error is named and left out and the listing goes on (exit status 1); an
error in any other format stops it with a positioned message (status 1);
a reader that goes away (``| head``) ends it quietly with status 141.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dealerpp.cli.common import OutputFailed, shown_name
from dealerpp.cli.deal_input import ProblemLog, open_input, parse_args
from dealerpp.deals import formats
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic, DppError
from dealerpp.status import EXIT_INPUT, EXIT_OK


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Print deals as four-hand diagrams.")
    parser.add_argument("file", metavar="FILE", help="deal file, - for standard input")
    parser.add_argument("--from", dest="from_fmt", choices=formats.NAMES, metavar="FMT",
                        help=f"input format: {' '.join(formats.NAMES)} "
                             "(default: from the extension, else the content)")
    return parser


def main(argv: list[str], prog: str) -> int:
    args = parse_args(build_parser(prog), argv)
    if isinstance(args, int):
        return args
    from dealerpp import deals
    from dealerpp.deals.display import diagram

    name = args.file
    log = ShownProblems()
    try:
        source, name = open_input(args.file)
        if isinstance(source, Path):
            # Opened before the listing names its format: a file that cannot
            # be read gets its error alone.
            source.open("rb").close()
        fmt, source = _format_named(args.from_fmt, source, name)
        # a game with an error is named, and the others shown (a text saved
        # as UTF-16 is read as the UTF-8 it holds)
        read = deals.read_source(source, fmt, filename=name,
                                 options=ReadOptions(report=log)) if fmt else iter(())
        shown = 0
        for deal in read:
            shown += 1
            number = shown + log.errors  # its place, counting the games left out
            _write(("\n" if shown > 1 else "") + diagram(deal, number))
    except BrokenPipeError:
        raise  # the reader (often `head`) went away: the dispatcher's quiet 141
    except DppError as error:
        sys.stdout.flush()
        if error.filename is None:
            error.filename = name
        print(error, file=sys.stderr)
        return EXIT_INPUT
    except OutputFailed as failed:
        raise failed.error from None  # the dispatcher names standard output
    except OSError as error:
        print(f"{shown_name(args.file)}: error: {error.strerror or error}", file=sys.stderr)
        return EXIT_INPUT
    if log.errors:
        sys.stdout.flush()
        print(f"{prog}: {shown} deal{'s' if shown != 1 else ''} shown, {log.errors} "
              f"error{'s' if log.errors != 1 else ''}: the games that have them are left out",
              file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


class ShownProblems(ProblemLog):
    """The PBN reader's problems, each printed after the diagrams before it."""

    def __call__(self, problem: Diagnostic) -> None:
        sys.stdout.flush()
        super().__call__(problem)


def _write(text: str) -> None:
    try:
        sys.stdout.write(text)
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputFailed(error) from None


def _format_named(given: str | None, source: Any, name: str) -> tuple[str | None, Any]:
    """The input's format, named on the first line of the listing, and the
    source to read (detection may have wrapped a stream)."""
    from dealerpp.deals import detect

    fmt: str | None = given
    how = "--from"
    if given is None:
        fmt, source = detect.detect(source, name)
        how = "its extension" if formats.from_extension(name) else "its content"
    if fmt is not None:
        _write(f"{name}: {fmt} (by {how})\n\n")
    return fmt, source
