"""``dealerpp check FILE...``: report every problem in dealer scripts.

Each finding prints as ``FILE:LINE:COL: error|warning: MESSAGE`` with the
source line and a caret. Exit status: 1 if any file has an error (or cannot
be read), 0 otherwise, 2 for a usage error. ``-`` reads standard input.
After ``--max-errors`` errors in a file (100 by default; 0: no limit) the
check of that file stops, and says so.
"""

from __future__ import annotations

import argparse
import sys

from dealerpp.cli.common import print_diagnostics, read_text, shown_name
from dealerpp.script.check.report import DEFAULT_MAX_ERRORS
from dealerpp.status import EXIT_INPUT, EXIT_OK, EXIT_USAGE

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from dealerpp.diagnostics import Diagnostic


def _arguments(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Check dealer scripts: syntax errors (all of them, not just the first), "
        "what dealer rejects or crashes on, and what it silently gets wrong.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="a dealer script; - for stdin")
    parser.add_argument("--dpp", action="store_true",
                        help="allow dealerpp's shape{...} (default: only in *.dpp files)")
    parser.add_argument("-q", "--quiet", action="store_true", help="report errors only")
    parser.add_argument("--json", action="store_true",
                        help="print the findings as one JSON array on standard output: "
                        "file, line, column, severity, code, message, hint and fix "
                        "(line, column, end_line, end_column, text) of each")
    parser.add_argument("--max-errors", type=count, default=DEFAULT_MAX_ERRORS, metavar="N",
                        help=f"stop checking a file after N errors (default: "
                        f"{DEFAULT_MAX_ERRORS}; 0: no limit)")
    return parser


def count(text: str) -> int:
    """A count given on the command line: a whole number, 0 or more."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def main(argv: list[str], prog: str) -> int:
    try:
        options = _arguments(prog).parse_args(argv)
    except SystemExit as stop:
        # argparse exits 0 for --help and 2 for a usage error.
        return EXIT_OK if stop.code in (0, None) else EXIT_USAGE

    from dealerpp.script.check import check_text

    status = EXIT_OK
    everything: list[Diagnostic] = []
    for path in options.files:
        name = "<stdin>" if path == "-" else shown_name(path)
        try:
            text = read_text(path)
        except OSError as problem:
            print(f"{name}: error: cannot read: {problem.strerror or problem}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        found = check_text(text, name, dpp=True if options.dpp else None,
                           max_errors=options.max_errors)
        if options.quiet:
            found = [d for d in found if d.severity == "error"]
        if options.json:
            everything.extend(found)
        else:
            print_diagnostics(found)
        if any(d.severity == "error" for d in found):
            status = EXIT_INPUT
    if options.json:
        print_json(everything)
    return status


def print_json(found: list[Diagnostic]) -> None:
    """The findings as one JSON array, for an editor."""
    import json

    records = []
    for diagnostic in found:
        fix = diagnostic.fix
        records.append({
            "file": diagnostic.filename, "line": diagnostic.line, "column": diagnostic.column,
            "severity": diagnostic.severity, "code": diagnostic.code,
            "message": diagnostic.message, "hint": diagnostic.hint,
            "fix": None if fix is None else dict(zip(
                ("line", "column", "end_line", "end_column", "text"), fix, strict=True)),
            "byte": diagnostic.byte, "related_line": diagnostic.related_line,
        })
    print(json.dumps(records, indent=1, ensure_ascii=True))
