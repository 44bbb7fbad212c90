"""The real ``dealer``: where it is, and what to say when it is not there.

``dealerpp run`` and ``dealerpp.generate`` find it the same way and say the
same thing when it is missing.
"""

from __future__ import annotations

import errno
import os
import shutil

# Debian installs dealer in /usr/games, which is not on every PATH.
FALLBACK = "/usr/games/dealer"

NOT_INSTALLED = ("dealer is not installed (Debian/Ubuntu: apt-get install dealer); "
                 "or preprocess only: dealerpp SCRIPT > out.dl")


class DealerNotFound(FileNotFoundError):
    """No ``dealer`` on PATH nor in /usr/games."""

    def __init__(self) -> None:
        super().__init__(errno.ENOENT, NOT_INSTALLED)

    def __str__(self) -> str:
        return NOT_INSTALLED


def find_dealer() -> str | None:
    """The path of dealer: on PATH, else /usr/games/dealer; None when neither."""
    found = shutil.which("dealer")
    if found:
        return found
    return FALLBACK if os.path.exists(FALLBACK) else None
