"""``dealerpp [FILE]`` / ``dealer.dpp [FILE]``: the preprocessor."""

from __future__ import annotations

import sys

from dealerpp.atomic import write_atomically
from dealerpp.cli.common import (
    EMIT_MODES,
    add_emit_option,
    print_diagnostics,
    read_text,
    shown_name,
)
from dealerpp.diagnostics import UNCLOSED_SHAPE, DppError
from dealerpp.script.parallel import usable_cores
from dealerpp.script.rewrite import Preprocessed, preprocess_script
from dealerpp.status import EXIT_INPUT, EXIT_OK

TYPE_CHECKING = False  # typing and argparse stay unimported at run time
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from dealerpp.shapes.emit import EmitMode

DESCRIPTION = """\
Expand every shape{COMPASS, ...} of a dealer script into dealer's own
shape(COMPASS, LIST) and copy everything else through unchanged. A drop-in
for the Perl dealer.dpp: `dealer.dpp script.dpp | dealer`.
"""

EPILOG = """\
examples:
  dealerpp opening.dpp | dealer            preprocess, then deal
  dealerpp opening.dpp -o opening.dl       write the result to a file (atomically)
  cat opening.dpp | dealerpp | dealer -s 1  read standard input
  dealerpp                                 type shape{} lines, see each expanded
  dealerpp --emit=list opening.dpp         one term per shape instead of a short list
  dealerpp --emit=shortest opening.dpp     the shortest lists the full search finds

subcommands (dealerpp SUBCOMMAND --help for each):
  expand EXPR      compile one shape{} expression: 'dealerpp expand "5+M(xxx)" --stats'
  run SCRIPT ...   preprocess and pipe into dealer: 'dealerpp run opening.dpp -s 1'
  check FILE...    report every problem in dealer scripts
  convert IN OUT   convert deal files between formats (convert --help lists them)
  show FILE        print deals as four-hand diagrams
  lsp              a language server for editors: docs/editors.md (extra: lsp)

the shape{} language:
  5+xxx   at least 5 spades        2-xxx    at most 2 spades
  x[3-5]x[13]   ranges             (4432)   any order of 4-4-3-2
  5M(xxx) a five-card major        5m2s(42) labels: s h d c, M major, m minor
  x5+xx:h>s,h>=d  conditions over the suit lengths s h d c
  terms joined by ' + ' (union) and ' - ' (difference), left to right

-o OUT acts like > OUT: a regular file is replaced whole or not at all, a
symlink is followed, a device or FIFO is written through, and an OUT that is
the input is refused.

exit status: 0 success, 1 input error (message on stderr, no output written),
2 usage error, 128+N stopped by signal N.
"""


def build_parser(prog: str) -> argparse.ArgumentParser:
    import argparse

    from dealerpp import __version__
    from dealerpp.cli.commands import SUBCOMMANDS

    # The usage line, which every usage error repeats, names the subcommands too.
    usage = (f"%(prog)s [-h] [-o OUT] [--emit MODE] [--no-check] [--version] [FILE]\n"
             f"       %(prog)s {{{','.join(SUBCOMMANDS)}}} ...")
    parser = argparse.ArgumentParser(
        prog=prog, description=DESCRIPTION, epilog=EPILOG, usage=usage,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", metavar="FILE",
                        help="the script to preprocess ('-' or none: standard input)")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write to OUT instead of standard output (atomically)")
    add_emit_option(parser)
    parser.add_argument("--no-check", action="store_true",
                        help="do not run the checker on the output")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


class Options:
    """The command's options, as ``build_parser`` would give them."""

    __slots__ = ("emit", "file", "no_check", "output")

    def __init__(self) -> None:
        self.file: str | None = None
        self.output: str | None = None
        self.emit: EmitMode = "compact"
        self.no_check = False


def parse_arguments(argv: Sequence[str], prog: str) -> Options | argparse.Namespace:
    """The plain forms (``[FILE] [-o OUT] [--emit MODE] [--no-check]``, each
    once, in any order) are read by hand, since importing argparse costs a
    fair part of a one-line script's run; anything else (help, version,
    abbreviations, every mistake) goes to argparse, which also words the errors."""
    options = _plain_options(argv)
    return build_parser(prog).parse_args(list(argv)) if options is None else options


def _plain_options(argv: Sequence[str]) -> Options | None:
    """``argv`` read as argparse would, or None when it is not a plain form."""
    options, seen = Options(), set()  # seen: the options given so far, and FILE
    arguments = iter(argv)
    for argument in arguments:
        name, _, inline = argument.partition("=") if argument.startswith("--") else (
            argument, "", "")
        if name.startswith("-") and name != "-":
            if name in seen:
                return None
            seen.add(name)
        if argument == "--no-check":
            options.no_check = True
        elif name in ("-o", "--output", "--emit"):
            value = inline or (next(arguments, None) if argument == name else None)
            if not value or value.startswith("-"):
                return None
            if name == "--emit":
                if value not in EMIT_MODES:
                    return None
                options.emit = value  # type: ignore[assignment]  # one of EMIT_MODES
            else:
                options.output = value
        elif argument == "-" or not argument.startswith("-"):
            if "" in seen:  # (no option is named "")
                return None
            seen.add("")
            options.file = argument
        else:
            return None
    return options


def main(argv: Sequence[str], prog: str = "dealerpp") -> int:
    options = parse_arguments(argv, prog)
    if options.file in (None, "-") and options.file is None and sys.stdin.isatty():
        return interactive(options.emit)
    path = "-" if options.file is None else options.file
    result = preprocess_file(path, prog, options.emit, check=not options.no_check)
    if isinstance(result, int):
        return result
    return write_output(result.text, options.output, prog, source=path)


def preprocess_file(path: str, prog: str, emit: EmitMode, check: bool) -> Preprocessed | int:
    """Read and preprocess ``path`` (``-``: standard input), printing the
    rewriter's warnings and, with ``check``, the checker's findings; the
    result, or the exit status of a failure (its message printed)."""
    name = "<stdin>" if path == "-" else path
    try:
        text = read_text(path)
    except OSError as error:
        print(f"{prog}: error: cannot read {shown_name(path)}: {error.strerror or error}",
              file=sys.stderr)
        return EXIT_INPUT
    try:
        result = preprocess_script(text, name, emit=emit, cores=usable_cores(), check=check)
    except DppError as error:
        print(error, file=sys.stderr)
        return EXIT_INPUT
    print_diagnostics(result.warnings)
    print_diagnostics(result.findings)
    return result


def write_output(text: str, output: str | None, prog: str, source: str = "-") -> int:
    """Write the result to ``output`` as ``> output`` would (see dealerpp.atomic),
    refusing an output that is the ``source`` script itself."""
    data = text.encode("utf-8", errors="surrogateescape")
    if output is None or output == "-":
        sys.stdout.buffer.write(data)
        return EXIT_OK
    try:
        write_atomically(output, data, inputs=[source])
    except OSError as error:
        print(f"{prog}: error: cannot write {shown_name(output)}: {error.strerror or error}",
              file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


# What a bare `dealerpp` on a terminal says before it waits for input.
BANNER = ("dealerpp: type shape{} lines (e.g. x = shape{north, 5+M(xxx)}) to see each "
          "expanded; Ctrl-D to leave, dealerpp --help for more")


def interactive(emit: EmitMode) -> int:
    """Read shape{} lines from a terminal and print each expansion at once.
    A shape{} may go on over several lines; an error does not end the session."""
    print(BANNER, file=sys.stderr, flush=True)
    buffered = ""
    before = 0  # lines of the session before ``buffered``: messages count from its start
    for line in sys.stdin:
        buffered += line
        try:
            result = preprocess_script(buffered, "<stdin>", emit=emit)
        except DppError as error:
            if error.kind == UNCLOSED_SHAPE:
                continue  # wait for the closing brace
            if error.line is not None:
                error.line += before
            print(error, file=sys.stderr)
        else:
            print_diagnostics([warning.replace(line=warning.line + before)
                               if warning.line is not None else warning
                               for warning in result.warnings])
            sys.stdout.write(result.text)
            sys.stdout.flush()
        before += buffered.count("\n")
        buffered = ""
    return EXIT_OK
