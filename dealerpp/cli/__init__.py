"""The ``dealerpp`` and ``dealer.dpp`` commands.

``dealerpp [FILE]`` preprocesses a script (the drop-in for dealer.dpp); the
first argument may instead name a subcommand. Each subcommand lives in its own
module, imported only when it runs, so the preprocessing path stays light.

Exit statuses: ``dealerpp.cli.status``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import suppress
from importlib import import_module

from dealerpp.cli.status import EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED

# subcommand -> (module, one-line summary)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "expand": ("dealerpp.cli.expand", "compile one shape{} expression and show its shapes"),
    "run": ("dealerpp.cli.run", "preprocess a script and pipe it into dealer"),
    "check": ("dealerpp.cli.check", "report every problem in dealer scripts"),
    "convert": ("dealerpp.cli.convert", "convert deal files between formats"),
    "show": ("dealerpp.cli.show", "print deals as four-hand diagrams"),
}



def main(argv: Sequence[str] | None = None, prog: str = "dealerpp") -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    _tolerant_stderr()
    try:
        return _finish(_dispatch(args, prog))
    except BrokenPipeError:
        # The reader (often `head` or dealer) went away: not our error.
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # the last line of defence: never a traceback
        print(f"{prog}: internal error: {type(error).__name__}: {error}\n"
              "please report this, with the input that caused it", file=sys.stderr)
        return EXIT_INTERNAL


def _tolerant_stderr() -> None:
    """Messages quote the input, whose undecodable bytes are kept as lone
    surrogates; a strict stderr (an embedding program's, or a test's) would
    fail to print them. Show them as escapes, as Python's own stderr does."""
    reconfigure = getattr(sys.stderr, "reconfigure", None)
    if reconfigure is not None:
        with suppress(ValueError, OSError):  # a closed or exotic stream: leave it
            reconfigure(errors="backslashreplace")


def _dispatch(args: list[str], prog: str) -> int:
    if args and args[0] in SUBCOMMANDS:
        module = import_module(SUBCOMMANDS[args[0]][0])
        return int(module.main(args[1:], prog=f"{prog} {args[0]}"))
    from dealerpp.cli import preprocess

    return preprocess.main(args, prog=prog)


def main_dpp(argv: Sequence[str] | None = None) -> int:
    """``dealer.dpp``: the same command under the Perl tool's name."""
    return main(argv, prog="dealer.dpp")


def _finish(status: int) -> int:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    return status


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
