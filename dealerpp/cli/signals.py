"""The stop signals for the commands: ``dealerpp.stopping`` (a watcher
thread; see there why), with what ``dealerpp run`` needs besides."""

from __future__ import annotations

from dealerpp.stopping import STOP_SIGNALS, install, unblock

__all__ = ["STOP_SIGNALS", "install", "unblocked_for_children"]


def unblocked_for_children() -> None:
    """Let the main thread (and so the programs it starts, which inherit its
    mask: dealer under ``dealerpp run``) receive the stop signals again. Only
    for the part of a run that writes no file of its own."""
    unblock()
