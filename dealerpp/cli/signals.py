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

Only a process of our own gets this (``install`` is called by the console
scripts); a program that calls ``dealerpp.cli.main`` keeps its own signals.
"""

from __future__ import annotations

import _thread
import os
import signal
from contextlib import suppress

from dealerpp.atomic import remove_unfinished
from dealerpp.cli.status import exit_for_signal

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def install(prog: str) -> None:
    """Hand the stop signals to a watcher thread for the rest of the process.
    A signal the process was started ignoring (``nohup``, ``cmd &``) stays
    ignored: the kernel discards it before anyone can wait for it."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    _thread.start_new_thread(_watch, (prog,))


def unblocked_for_children() -> None:
    """Let the main thread (and so the programs it starts, which inherit its
    mask: dealer under ``dealerpp run``) receive the stop signals again. Only
    for the part of a run that writes no file of its own."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _watch(prog: str) -> None:
    number = signal.sigwait(STOP_SIGNALS)
    remove_unfinished(for_good=True)
    with suppress(OSError):
        os.write(2, f"{prog}: stopped by {signal.Signals(number).name}\n".encode())
    os._exit(exit_for_signal(number))
