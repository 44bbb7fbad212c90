"""``dealerpp lsp``: the language server for dealer scripts, over stdio.

It needs the optional extra ``lsp`` (pygls and lsprotocol); without it, it
says the pip command that installs it and exits 2. Nothing of the server is
imported on any other path.
"""

from __future__ import annotations

import argparse
import os
import sys

from dealerpp.status import EXIT_OK, EXIT_USAGE

INSTALL = "pip install 'dealerpp[lsp]'"
_NEEDED = ("pygls", "lsprotocol")


def _arguments(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Serve the Language Server Protocol over standard input and output: an "
        "editor starts this command and shows check's errors and warnings as you type, "
        "shape{} blocks' dealer lists and probabilities on hover, completion, go to "
        "definition, references, symbols and quick fixes. See docs/editors.md for each "
        f"editor's configuration. Needs the optional extra: {INSTALL}",
    )
    parser.add_argument("--stdio", action="store_true",
                        help="talk over standard input and output (the default and only way; "
                        "accepted because editors pass it)")
    return parser


def missing_extra() -> list[str]:
    """The modules of the extra ``lsp`` that cannot be imported."""
    from importlib.util import find_spec

    return [name for name in _NEEDED if find_spec(name) is None]


def main(argv: list[str], prog: str) -> int:
    try:
        _arguments(prog).parse_args(argv)
    except SystemExit as stop:
        return EXIT_OK if stop.code in (0, None) else EXIT_USAGE
    missing = missing_extra()
    if missing:
        print(f"{prog}: error: the language server needs {' and '.join(missing)}, "
              f"from the optional extra lsp: {INSTALL}", file=sys.stderr)
        return EXIT_USAGE
    from dealerpp.editor.server import serve

    # The protocol has standard output to itself: whatever else writes to
    # it (a stray print, a library's warning) goes to standard error.
    protocol_out = os.fdopen(os.dup(sys.__stdout__.fileno() if sys.__stdout__ else 1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    serve(sys.stdin.buffer, protocol_out)
    return EXIT_OK
