"""The one table of exit statuses every command returns.

They follow the conventions a shell user knows: 0 success, 1 bad input,
2 bad usage, 127 a command that cannot be found, 128+N a death by signal N
(130 for Ctrl-C, 141 for a reader that went away), and 70 (``EX_SOFTWARE``)
for a bug in dealerpp itself, never for anything the user did.
"""

from __future__ import annotations

import signal

EXIT_OK = 0
EXIT_INPUT = 1  # bad input, or a file that cannot be read or written
EXIT_USAGE = 2  # bad arguments (argparse's own status)
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in dealerpp, reported without a traceback
EXIT_NOT_FOUND = 127  # as a shell reports a command it cannot find


def exit_for_signal(number: int) -> int:
    """The status a shell gives a process killed by signal ``number``."""
    return 128 + number


EXIT_INTERRUPTED = exit_for_signal(signal.SIGINT)  # 130
EXIT_BROKEN_PIPE = exit_for_signal(signal.SIGPIPE)  # 141
