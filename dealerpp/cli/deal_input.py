"""What convert and show both do with a deal file given on the command
line: parse the arguments, open the input, print the problems the PBN
reader reports (an error is worded by ``str(error)``). (A text saved as UTF-16 is read as the
UTF-8 it holds by the library: ``dealerpp.deals.detect.as_utf8``.)"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path
from typing import Any

from dealerpp.diagnostics import Diagnostic


def parse_args(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    try:
        return parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage message
        return int(stop.code or 0)


def open_input(path: str) -> tuple[Any, str]:
    """The source to read and the name errors use. An empty name is no file
    (``Path("")`` would be the current directory)."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>"
    if not path:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    return Path(path), path


class ProblemLog:
    """Prints the problems the PBN reader reports as it reads (warnings,
    and errors of games it leaves out) and counts the errors: the
    conversion goes on, and ends with the input-error status."""

    def __init__(self) -> None:
        self.errors = 0
        self.error_lines: list[int | None] = []

    def __call__(self, problem: Diagnostic) -> None:
        if problem.severity == "error":
            self.errors += 1
            self.error_lines.append(problem.line)
        print(problem.format(), file=sys.stderr)

