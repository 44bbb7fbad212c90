"""The ``dealerpp`` and ``dealer.dpp`` commands.

``dealerpp [FILE]`` preprocesses a script (the drop-in for dealer.dpp); the
first argument may instead name a subcommand. Each subcommand lives in its own
module, imported only when it runs, so the preprocessing path stays light.

Exit statuses: ``dealerpp.status``.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from contextlib import suppress

from dealerpp.atomic import remove_unfinished
from dealerpp.cli.commands import SUBCOMMANDS
from dealerpp.diagnostics import quote
from dealerpp.status import EXIT_BROKEN_PIPE, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, TextIO


def main(argv: Sequence[str] | None = None, prog: str = "dealerpp") -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None:  # a process of our own (the console scripts, python -m dealerpp)
        from dealerpp.cli import signals

        _hold_closed_descriptors()
        signals.install(prog)
        _few_collections()
        sys.stdout = _whole_writes(sys.stdout, line_buffering=False)
        sys.stderr = _whole_writes(sys.stderr, line_buffering=True)
    _stand_ins_for_closed_streams()
    _tolerant_stderr()
    try:
        try:
            status = _dispatch(args, prog)
        except SystemExit as stop:  # argparse's --help, --version and usage errors
            status = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        sys.stdout.flush()
        if status == 0 and getattr(sys.stdout, "used", False):
            # argparse goes past a failed write (of --help, --version)
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        if argv is None:
            _leave_to_exit()
        return status
    except BrokenPipeError:
        # The reader (often `head` or dealer) went away: not our error.
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:  # Ctrl-C where signals.install was not called
        remove_unfinished()
        _silence_stdout()  # whatever is left in the buffer goes nowhere
        print(f"{prog}: stopped by SIGINT", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as error:
        # Every file we open names itself in its errors; standard output does not.
        if error.filename is None:
            _silence_stdout()
            where = "cannot write standard output"
        else:
            where = str(error.filename)
        print(f"{prog}: error: {where}: {error.strerror or error}", file=sys.stderr)
        return EXIT_INPUT
    except Exception as error:  # the last line of defence: never a traceback
        print(f"{prog}: internal error: {type(error).__name__}: {error}\n"
              "please report this, with the input that caused it", file=sys.stderr)
        return EXIT_INTERNAL


def _few_collections() -> None:
    """Start-up makes tens of thousands of objects that live as long as the
    process (modules' code, parse and term tables) and no garbage; Python's
    default collects the young ones every 700 allocations, which costs a
    one-line run a millisecond or so and frees nothing. Collect every 10,000."""
    import gc

    gc.set_threshold(10_000)


def _leave_to_exit() -> None:
    """The process is about to end: the interpreter's last garbage collection
    would walk every object the run made (parse tables, compiled code, term
    data), a tenth of a one-line run's time, only for the process to exit.
    Frozen, they are left to the exit; nothing of ours needs a collection
    to be finished (outputs are closed, standard output is flushed)."""
    import gc

    gc.freeze()


def _whole_writes(stream: TextIO, line_buffering: bool) -> TextIO:
    """Under PYTHONUNBUFFERED (or ``python -u``) the standard streams' binary
    layer is a raw file, whose ``write`` may take only part of the data (a
    pipe takes 64 KiB at a time) and drop the rest without an error. Put a
    buffered writer in between: it writes everything, or raises."""
    buffer = getattr(stream, "buffer", None)
    if not isinstance(buffer, io.RawIOBase):
        return stream
    # closefd=False: the new stream must never close the descriptor it shares.
    return open(buffer.fileno(), "w", buffering=1 if line_buffering else -1,
                encoding=stream.encoding, errors=stream.errors, closefd=False, newline="\n")


def _hold_closed_descriptors() -> None:
    """Started with a standard stream closed (``>&-``), the process would
    hand its number to the next file it opens, and what is meant for
    standard output (ours, or dealer's under ``run``) would land in that
    file. Hold each closed one of 0, 1 and 2 open on /dev/null instead;
    Python has already made the stream None, and it stays closed for us
    (``_stand_ins_for_closed_streams``)."""
    for descriptor in (0, 1, 2):
        try:
            os.fstat(descriptor)
        except OSError:
            try:  # the lowest free number: this one, the lower ones being open
                os.open(os.devnull, os.O_RDWR)
            except OSError:
                return


def _stand_ins_for_closed_streams() -> None:
    """A closed standard input or output fails when it is used, as the
    shell's ``<&-`` and ``>&-`` mean, with "Bad file descriptor": the run
    reports it and exits 1, and an output file named with -o is unaffected."""
    if sys.stdin is None:
        sys.stdin = _ClosedStream()
    if sys.stdout is None:
        sys.stdout = _ClosedStream()


class _ClosedStream:
    """A standard stream the process was started without."""

    encoding, errors = "utf-8", "strict"

    @property
    def buffer(self) -> _ClosedStream:
        return self

    used = False  # whether anything tried to read or write it

    def _closed(self, *_: object) -> Any:
        self.used = True
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    read = readline = readlines = write = writelines = fileno = __iter__ = _closed

    def flush(self) -> None:
        pass  # nothing was written

    def isatty(self) -> bool:
        return False


def _tolerant_stderr() -> None:
    """Messages quote the input, whose undecodable bytes are kept as lone
    surrogates; a strict stderr (an embedding program's, or a test's) would
    fail to print them. Show them as escapes, as Python's own stderr does.
    A closed or full stderr loses the messages, never the run's status."""
    if sys.stderr is None:  # started with 2>&-: print() would write to stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (lives as long as the process)
    reconfigure = getattr(sys.stderr, "reconfigure", None)
    if reconfigure is not None:
        with suppress(ValueError, OSError):  # a closed or exotic stream: leave it
            reconfigure(errors="backslashreplace")
    if not isinstance(sys.stderr, _Forgiving):
        sys.stderr = _Forgiving(sys.stderr)


class _Forgiving:
    """A text stream whose write errors are dropped (for stderr)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError:
            return len(text)

    def flush(self) -> None:
        with suppress(OSError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _dispatch(args: list[str], prog: str) -> int:
    if args and args[0] in SUBCOMMANDS:
        from importlib import import_module

        module = import_module(SUBCOMMANDS[args[0]][0])
        return int(module.main(args[1:], prog=f"{prog} {args[0]}"))
    from dealerpp.cli import preprocess

    meant = _misspelt_subcommand(args[0]) if args else None
    if meant is not None:
        preprocess.build_parser(prog).error(
            f"{quote(args[0])} is no command (nor a file); did you mean {meant}?")
    return preprocess.main(args, prog=prog)


def _misspelt_subcommand(word: str) -> str | None:
    """The subcommand ``word`` looks like a slip for (``convrt``), when it
    names no file and looks like no file name; None otherwise."""
    if word.startswith("-") or "." in word or "/" in word or os.path.lexists(word):
        return None
    from difflib import get_close_matches  # only for a word that is neither

    close = get_close_matches(word.lower(), SUBCOMMANDS, n=1, cutoff=0.7)
    return close[0] if close else None


def main_dpp(argv: Sequence[str] | None = None) -> int:
    """``dealer.dpp``: the same command under the Perl tool's name."""
    return main(argv, prog="dealer.dpp")


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the final flush at exit cannot
    fail again (and print "Exception ignored") after we reported it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
