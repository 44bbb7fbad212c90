"""A script's shape{} blocks compiled on two cores.

A script of hundreds of shape{} blocks spends nearly all its run compiling
them, one after another, though each block is independent of the others.
Where the system can fork and the process may use a second core, a child
process compiles from the last block down while this process compiles
from the first one up (after the work it has besides, the checker's pass);
the child sends each block's dealer text and warnings back through a pipe
as soon as it has them, and the two meet wherever that happens to be.

The result is the one compiling them in turn gives (the tests hold the two
equal): the same text, the same warnings in the same order, the first error
in the script's order. The child only speeds things up, it is never relied
on: if it cannot start, dies or is killed, this process compiles what it
has not sent.

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
# Past this size a script's regions are not gathered in a list to share
# its blocks: they are rewritten as the scanner finds them, one at a time,
# which keeps the memory of a huge script to its text and its output
# (bench/bench_scaling_script.py).
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
                   emit: EmitMode = "compact", cores: int = 1,
                   meanwhile: Callable[[], object] | None = None) -> list[Compiled]:
    """Each block of ``text`` compiled (see ``compile_block``), in order;
    raises the first block's ``DppError``. ``meanwhile`` is called once,
    while a child compiles, or first when there is none.

    With ``cores`` > 1 and enough blocks to pay for it, a child compiles
    from the last block down while this process compiles from the first
    one up; they meet wherever that happens to be, so neither waits for
    the other, whatever ``meanwhile`` costs and however the blocks vary.
    """
    def one(block: Region) -> Compiled:
        return compile_block(text, block, lines, filename, emit=emit)

    if cores < 2 or not _worth_a_second_process(blocks) or not hasattr(os, "fork"):
        if meanwhile is not None:
            meanwhile()
        return [one(block) for block in blocks]
    outcomes: list[Compiled | DppError | None] = [None] * len(blocks)
    outcomes[0] = one(blocks[0])  # loads the compiler before the fork
    child = _Child.start(blocks, one)
    try:
        if meanwhile is not None:
            meanwhile()
        _compile_up(blocks, one, outcomes, child)
    finally:
        if child is not None:
            child.stop()
    return [_compiled(outcome) for outcome in outcomes]


def _compile_up(blocks: list[Region], one: CompileOne,
                outcomes: list[Compiled | DppError | None], child: _Child | None) -> None:
    """Compile from the second block up until the child's part is reached
    (all of them if there is no child, or once it stops answering)."""
    index, theirs = 1, len(blocks)  # the child has sent blocks[theirs:]
    while True:
        if child is not None:
            theirs = child.receive(outcomes, theirs)
        if index >= theirs:
            return
        outcomes[index] = one(blocks[index])
        index += 1


def _compiled(outcome: Compiled | DppError | None) -> Compiled:
    """A block's result; its error raised (they are read in order)."""
    if isinstance(outcome, DppError):
        raise outcome
    assert outcome is not None  # every block is compiled by one side or the other
    return outcome


def _worth_a_second_process(blocks: list[Region]) -> bool:
    return (len(blocks) >= PARALLEL_MIN_BLOCKS
            and sum(block.end - block.start for block in blocks) >= PARALLEL_MIN_CHARS)


_LENGTH = 4  # bytes of a message's length, before the pickled (index, outcome)


class _Child:
    """A forked process compiling blocks from the last one down, and the
    pipe on which it sends each block's outcome as soon as it has it."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid, self.pipe = pid, pipe
        self.unread = b""  # the start of a message not yet whole
        self.done = False  # the child has ended (or failed)
        os.set_blocking(pipe, False)

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

    def receive(self, outcomes: list[Compiled | DppError | None], theirs: int) -> int:
        """Record the outcomes that have arrived, without waiting; the lowest
        block the child has sent so far."""
        import pickle

        while not self.done:
            try:
                data = os.read(self.pipe, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.done = True
                break
            self.unread += data
        while len(self.unread) >= _LENGTH:
            size = int.from_bytes(self.unread[:_LENGTH], "little")
            if len(self.unread) < _LENGTH + size:
                break
            index, outcome = pickle.loads(self.unread[_LENGTH:_LENGTH + size])
            self.unread = self.unread[_LENGTH + size:]
            outcomes[index] = outcome
            theirs = min(theirs, index)
        return theirs

    def stop(self) -> None:
        """End the child (its part is done, or this process's failed) and reap it."""
        with suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        os.close(self.pipe)
        with suppress(ChildProcessError):  # started with SIGCHLD ignored: reaped already
            os.waitpid(self.pid, 0)


def _run_child(blocks: list[Region], one: CompileOne, pipe: int) -> None:
    """The child's whole life: compile from the last block down, sending
    each outcome at once, until its first error or until it is stopped;
    never leaves by an exception."""
    status = 1
    try:
        _die_with_the_group()
        for stream in {0, 1, 2} - {pipe}:  # a reader of this process's output
            with suppress(OSError):  # sees its end when the parent's ends
                os.close(stream)
        import pickle

        for index in range(len(blocks) - 1, 0, -1):
            try:
                outcome: Compiled | DppError = one(blocks[index])
            except DppError as error:
                outcome = error
            message = pickle.dumps((index, outcome), protocol=pickle.HIGHEST_PROTOCOL)
            _write_all(pipe, len(message).to_bytes(_LENGTH, "little") + message)
            if isinstance(outcome, DppError):
                break  # the blocks below it are the parent's to judge
        status = 0
    finally:
        os._exit(status)


def _write_all(pipe: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(pipe, view):]


def _die_with_the_group() -> None:
    """A stop signal sent to the process group ends the child at once, by
    the default action (the parent blocks them for its watcher thread,
    which the child does not have). One the process was started ignoring
    stays ignored."""
    for number in _STOP_SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
