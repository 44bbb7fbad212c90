"""The one table of exit statuses every command returns.

They follow the conventions a shell user knows: 0 success, 1 bad input,
2 bad usage, 127 a command that cannot be found, 128+N a death by signal N
(130 for Ctrl-C, 141 for a reader that went away), and 70 (``EX_SOFTWARE``)
for a bug in dealerpp itself, never for anything the user did.

It sits below every layer, importing nothing, so that the front door
(``dealerpp.quick``, which may load nothing it does not need) returns its
statuses from it as the commands do.
"""

EXIT_OK = 0
EXIT_INPUT = 1  # bad input, or a file that cannot be read or written
EXIT_USAGE = 2  # bad arguments (argparse's own status)
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in dealerpp, reported without a traceback
EXIT_NOT_FOUND = 127  # as a shell reports a command it cannot find


def exit_for_signal(number: int) -> int:
    """The status a shell gives a process killed by signal ``number``."""
    return 128 + number


# SIGINT is 2 and SIGPIPE 13 on Linux, the BSDs and macOS (tests/test_status.py
# holds them to the signal module, which is not imported here: it costs
# the front door's start-up).
EXIT_INTERRUPTED = exit_for_signal(2)  # 130
EXIT_BROKEN_PIPE = exit_for_signal(13)  # 141
