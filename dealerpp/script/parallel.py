"""A script's shape{} blocks compiled on two cores.

A script of hundreds of shape{} blocks spends nearly all its run compiling
them, one after another, though each block is independent of the others.
Where the system can fork and the process may use a second core, a child
process compiles the second half of the blocks while this process compiles
the first; the child sends the dealer text and warnings of each of its
blocks back through a pipe, and the script is written in order as before.

The result is the one compiling them in turn gives (the tests hold the two
equal): the same text, the same warnings in the same order, the first error
in the script's order. The child only speeds things up, it is never relied
on: if it cannot start, dies, is killed or sends less than its whole share,
this process compiles that share itself.

Only the command line asks for this (``cores=``). It forks a process whose
threads are known: the main one and the signal watcher, blocked in
``sigwait`` and holding no lock. Every module the compiler needs is loaded
before the fork (this process compiles its first block first), so the
child never waits on an import another thread began. The child writes
nothing but its pipe, no file and no message, and leaves by ``os._exit``.
"""

from __future__ import annotations

import os
import signal
from contextlib import suppress

from dealerpp.diagnostics import Diagnostic, DppError, LineIndex
from dealerpp.script.lexer import Region
from dealerpp.script.shape_blocks import compile_block

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Callable

    from dealerpp.shapes.emit import EmitMode

    CompileOne = Callable[[Region], "Compiled"]

Compiled = tuple[str, list[Diagnostic]]  # a block's dealer text and warnings

# A second process pays off from about this much shape{} text (a fork and
# the results' way back cost a few milliseconds; a block compiles in ~0.2).
PARALLEL_MIN_BLOCKS = 32
PARALLEL_MIN_CHARS = 1024
# Past this size a script is rewritten as it is read, a block at a time,
# so that memory stays small; its blocks are not gathered to be shared.
PARALLEL_MAX_CHARS = 1 << 22
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def usable_cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def may_go_parallel(text: str, cores: int) -> bool:
    """Whether a script of ``text`` might have its blocks compiled on two cores."""
    return cores > 1 and PARALLEL_MIN_CHARS <= len(text) <= PARALLEL_MAX_CHARS \
        and hasattr(os, "fork")


def compile_blocks(text: str, blocks: list[Region], lines: LineIndex, filename: str, *,
                   emit: EmitMode = "compact", cores: int = 1) -> list[Compiled]:
    """Each block of ``text`` compiled (see ``compile_block``), in order;
    raises the first block's ``DppError``. With ``cores`` > 1 and enough
    blocks to pay for it, a child process compiles the second half."""
    def one(block: Region) -> Compiled:
        return compile_block(text, block, lines, filename, emit=emit)

    if cores < 2 or not _worth_a_second_process(blocks) or not hasattr(os, "fork"):
        return [one(block) for block in blocks]
    split = _halfway(blocks)
    if split >= len(blocks):  # one block is most of the work
        return [one(block) for block in blocks]
    mine = [one(blocks[0])]  # loads the compiler before the fork
    child = _Child.start([blocks[k] for k in range(split, len(blocks))], one)
    try:
        mine += [one(blocks[k]) for k in range(1, split)]
    except BaseException:
        if child is not None:
            child.stop()
        raise
    theirs = None if child is None else child.results()
    if theirs is None:
        return mine + [one(blocks[k]) for k in range(split, len(blocks))]
    for outcome in theirs:
        if isinstance(outcome, DppError):
            raise outcome
        mine.append(outcome)
    return mine


def _worth_a_second_process(blocks: list[Region]) -> bool:
    return (len(blocks) >= PARALLEL_MIN_BLOCKS
            and sum(block.end - block.start for block in blocks) >= PARALLEL_MIN_CHARS)


def _halfway(blocks: list[Region]) -> int:
    """Where the blocks' text is half written: the child's share starts there."""
    total = sum(block.end - block.start for block in blocks)
    done = 0
    for index, block in enumerate(blocks):
        done += block.end - block.start
        if 2 * done >= total:
            return max(index + 1, 1)
    return len(blocks)


class _Child:
    """A forked process compiling some blocks, and the pipe it answers on."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid, self.pipe = pid, pipe

    @classmethod
    def start(cls, blocks: list[Region], one: CompileOne) -> _Child | None:
        """The child compiling ``blocks`` with ``one``; None if none could start."""
        import warnings

        try:
            reading, writing = os.pipe()
        except OSError:
            return None
        with warnings.catch_warnings():
            # Python 3.12+ warns of forking a threaded process; see the module's note.
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                pid = os.fork()
            except OSError:
                os.close(reading)
                os.close(writing)
                return None
        if pid == 0:
            os.close(reading)
            _run_child(blocks, one, writing)  # never returns
        os.close(writing)
        return cls(pid, reading)

    def results(self) -> list[Compiled | DppError] | None:
        """The child's outcome per block (its first error last), or None
        when it did not give them all."""
        import pickle

        chunks = []
        try:
            while chunk := os.read(self.pipe, 1 << 16):
                chunks.append(chunk)
        except OSError:
            chunks = []
        finally:
            os.close(self.pipe)
            _, status = os.waitpid(self.pid, 0)
        if status != 0 or not chunks:
            return None
        outcomes: list[Compiled | DppError] = pickle.loads(b"".join(chunks))
        return outcomes

    def stop(self) -> None:
        """End the child at once (this process's own blocks failed)."""
        with suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        os.close(self.pipe)
        os.waitpid(self.pid, 0)


def _run_child(blocks: list[Region], one: CompileOne, pipe: int) -> None:
    """The child's whole life: compile, answer, leave (never by an exception)."""
    status = 1
    try:
        _die_with_the_group()
        for stream in {0, 1, 2} - {pipe}:  # a reader of this process's output
            with suppress(OSError):  # sees its end when the parent's ends
                os.close(stream)
        import pickle

        outcomes: list[Compiled | DppError] = []
        for block in blocks:
            try:
                outcomes.append(one(block))
            except DppError as error:
                outcomes.append(error)
                break
        data = pickle.dumps(outcomes, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(pipe, view):]
        status = 0
    finally:
        os._exit(status)


def _die_with_the_group() -> None:
    """A stop signal sent to the process group ends the child at once, by
    the default action (the parent blocks them for its watcher thread,
    which the child does not have). One the process was started ignoring
    stays ignored."""
    for number in _STOP_SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
