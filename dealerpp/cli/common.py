"""Small helpers every subcommand shares: reading input and printing
diagnostics. (Writing output atomically: ``dealerpp.atomic``.)"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing, argparse and pathlib stay unimported at run time
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable

    from dealerpp.diagnostics import Diagnostic


def read_text(path: str) -> str:
    """Read a text file, or standard input for ``-``; keep line endings as they are.
    An empty name is no file (``open`` says so), never standard input."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as file:
            data = file.read()
    return data.decode("utf-8", errors="surrogateescape")


def shown_name(path: str) -> str:
    """A file name as messages show it: an empty one (an unset shell
    variable, most often) as ``''``, so the message still names it."""
    return path or "''"


def print_diagnostics(diagnostics: Iterable[Diagnostic]) -> None:
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=sys.stderr)


# The emitter's modes (dealerpp.shapes.emit.MODES, which is heavier to
# import than a command's start-up should pay for; a test holds them equal).
EMIT_MODES = {
    "compact": "a short list, found fast (default)",
    "shortest": "the shortest list the full search finds (slower)",
    "list": "one term a shape",
}


def add_emit_option(parser: argparse.ArgumentParser) -> None:
    """``--emit MODE``, shared by every command that writes shape lists."""
    parser.add_argument("--emit", choices=tuple(EMIT_MODES), default="compact", metavar="MODE",
                        help="; ".join(f"{mode}: {what}" for mode, what in EMIT_MODES.items()))


class OutputFailed(Exception):
    """Standard output could not be written (closed, a full disk): not the
    input's fault, whatever error the write raised. The command re-raises
    ``error`` for the dispatcher, which names standard output."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error
