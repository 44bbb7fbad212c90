"""SIGINT, SIGTERM and SIGHUP end a dealerpp process cleanly: every output
still being written is removed, and the status is 128+N, as a shell shows a
death by signal N.

Why a watcher thread instead of Python's signal handlers: a Python handler
runs only when the main thread next executes Python code, and CPython (up to
3.11) can lose the "signal pending" mark when another thread (numpy's, or
the bulk converter's) hands over the GIL. A main thread then blocked in a
read of a slow pipe would never run the handler, and the temporary output
would stay. Here the stop signals are blocked in every thread (threads
inherit the mask of the thread that starts them), and one small thread
waits for them with ``sigwait``, whatever the others are doing.

Only a process of our own gets this (the console scripts call ``install``,
through ``dealerpp.quick`` or ``dealerpp.cli.main``); a program that calls
``dealerpp.cli.main`` keeps its own signals. Built on ``_signal``, not
``signal``, whose enums cost a one-shape script a tenth of its time.
"""


import _signal  # type: ignore[import-not-found]  # (signal's C half: no stubs)
import _thread
import os
import sys

from dealerpp.status import exit_for_signal

STOP_SIGNALS = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
NAMES = {_signal.SIGINT: "SIGINT", _signal.SIGTERM: "SIGTERM", _signal.SIGHUP: "SIGHUP"}
_installed: list[str] = []  # the program name, once the watcher runs


def install(prog: str) -> None:
    """Hand the stop signals to a watcher thread for the rest of the process
    (once: a second call changes nothing). A signal the process was started
    ignoring (``nohup``, ``cmd &``) stays ignored: the kernel discards it
    before anyone can wait for it."""
    if _installed:
        return
    _installed.append(prog)
    _signal.pthread_sigmask(_signal.SIG_BLOCK, STOP_SIGNALS)
    _thread.start_new_thread(_watch, (prog,))


def unblock() -> None:
    """Let the calling thread (and so the programs it starts, which inherit
    its mask) receive the stop signals again."""
    _signal.pthread_sigmask(_signal.SIG_UNBLOCK, STOP_SIGNALS)


def _watch(prog: str) -> None:
    number = _signal.sigwait(STOP_SIGNALS)
    atomic = sys.modules.get("dealerpp.atomic")  # not loaded: nothing is being written
    if atomic is not None:
        atomic.remove_unfinished(for_good=True)
    try:  # noqa: SIM105 (contextlib.suppress: an import start-up does without)
        os.write(2, f"{prog}: stopped by {NAMES[number]}\n".encode())
    except OSError:
        pass
    os._exit(exit_for_signal(number))
