"""The exit statuses' table (dealerpp/status.py) imports nothing: its
signal statuses are written as numbers, held here to the signal module."""

from __future__ import annotations

import signal

import pytest

from dealerpp import status


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this system")
def test_the_signal_statuses_are_the_shells() -> None:
    assert status.EXIT_INTERRUPTED == 128 + signal.SIGINT == 130
    assert status.EXIT_BROKEN_PIPE == 128 + signal.SIGPIPE == 141
