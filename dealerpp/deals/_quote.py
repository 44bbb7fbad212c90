"""Input quoted in a message, as ``repr`` quotes it but with an undecodable
byte shown as the byte it was.

Text is read with ``surrogateescape``, so a byte that is not UTF-8 (a
latin-1 ``é``) is a lone surrogate; ``repr`` would show it as ``'\\udce9'``,
a character the file does not hold. ``shown`` gives ``'\\xe9'``, as the
quoted source line under the message does (``dealerpp.diagnostics.escape``).
"""

from __future__ import annotations

from dealerpp.diagnostics import escape


def shown(text: str) -> str:
    r"""``text`` in single quotes, its quotes and backslashes escaped, and
    every character a terminal must not receive raw shown as an escape.

    >>> shown("S\udce9"), shown("it's"), shown("a\\b")
    ("'S\\xe9'", "'it\\'s'", "'a\\\\b'")
    """
    return "'" + escape(text.replace("\\", "\\\\").replace("'", "\\'")) + "'"
