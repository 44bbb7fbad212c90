"""The diagnostics of one check, and the script they point into.

Every pass reports through ``_Report.at`` (at a token) or ``_Report.report``
(at a line and column); each diagnostic quotes its source line, with
control characters made visible. It is separate so that the passes share
it without depending on one another; it also carries the notes the syntax
pass leaves for the semantic one.
"""

from __future__ import annotations

from dealerpp.diagnostics import Diagnostic, Severity
from dealerpp.lalr import Token

# Control characters in a quoted source line shown as their Unicode pictures
# (one column each, so the caret stays aligned); tabs stay tabs.
_VISIBLE_CONTROLS = {code: 0x2400 + code for code in range(32) if code != 9}


class _Report:
    """The script being checked and the diagnostics found in it so far.

    The lexical and syntax passes are methods of its subclasses ``_Lexical``
    and ``_Syntax`` (joined in ``_Checker``); the semantic pass and
    ``_StackDepth`` are handed one.
    """

    def __init__(self, text: str, filename: str, dpp: bool) -> None:
        self.text = text
        self.filename = filename
        self.dpp = dpp
        # Lines as dealer counts them: only "\n" ends one (not a lone "\r" or
        # a form feed, which str.splitlines would split at).
        self.lines = [line.rstrip("\r") for line in text.split("\n")]
        self.found: list[Diagnostic] = []
        # Notes the syntax pass leaves for the semantic one.
        # Names assigned by statements that failed to parse: not "unknown" later.
        self.half_defined: set[str] = set()
        # Positions of names already reported as unknown functions.
        self.called_names: set[int] = set()

    def report(self, severity: Severity, message: str, line: int | None, column: int | None,
               hint: str | None = None, code: str | None = None) -> None:
        source = None
        if line is not None and 0 < line <= len(self.lines):
            source = self.lines[line - 1].translate(_VISIBLE_CONTROLS)
        elif line is not None:
            source = ""
        self.found.append(Diagnostic(severity, message, line, column, self.filename, source,
                                     hint, code))

    def at(self, severity: Severity, token: Token, message: str,
           hint: str | None = None, code: str | None = None) -> None:
        self.report(severity, message, token.line, token.column, hint, code)
