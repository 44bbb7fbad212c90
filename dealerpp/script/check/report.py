"""The diagnostics of one check, bounded like a compiler's.

Every pass reports through one ``Report``: at a token (``at``) or at a
line and column (``add``). Each diagnostic quotes its source line
(``Diagnostic.format`` escapes it and cuts a long one around the caret). The report keeps the output in
proportion to the input, whatever the input:

- after ``max_errors`` errors it stops the check (``TooManyErrors``) and
  says so;
- an error repeated on a line, and any further lexical or syntax error on
  a line that has an error, are counted, not quoted, and summed up as "N
  more errors on this line";
- so are repeats of a warning on one line ("N more warnings like this").
"""

from __future__ import annotations

from dealerpp.diagnostics import Diagnostic, LineIndex, Severity
from dealerpp.lalr import Token

DEFAULT_MAX_ERRORS = 100
# Codes of the summing-up notes, for a caller that words them its own way
# (the preprocessor, whose findings are warnings and which has no --max-errors).
MORE_ERRORS = "more-errors"
ERROR_LIMIT = "error-limit"
_LINE_END = 1 << 62  # sorts after every column



class TooManyErrors(Exception):
    """Raised by ``Report`` when the error limit is passed: the check stops."""


class Report:
    """The script being checked and the diagnostics found in it so far."""

    def __init__(self, text: str, filename: str, max_errors: int = DEFAULT_MAX_ERRORS) -> None:
        self.text = text
        self.filename = filename
        self.max_errors = max_errors
        self.lines = LineIndex(text)
        self.found: list[Diagnostic] = []
        self.error_count = 0
        self.stopped = False
        # Lines with an error, and how many more errors each one has.
        self.error_lines: set[int] = set()
        self.more_errors: dict[int, int] = {}
        self.shown_errors: set[tuple[int | None, str]] = set()
        # Warnings shown, by line and message: their column, and how many
        # repeats each had.
        self.warnings: dict[tuple[int | None, str], list[int]] = {}

    def add(self, severity: Severity, message: str, line: int | None, column: int | None,
            hint: str | None = None, code: str | None = None,
            fix: tuple[int, int, int, int, str] | None = None,
            related_line: int | None = None) -> None:
        """A diagnostic; ``related_line``: another line its message names."""
        if severity == "error":
            if (line, message) in self.shown_errors:
                self.count_more(line)
                return
            if self.max_errors and self.error_count >= self.max_errors:
                self.stopped = True
                raise TooManyErrors
            self.error_count += 1
            self.shown_errors.add((line, message))
            if line is not None:
                self.error_lines.add(line)
        elif severity == "warning":
            key = (line, message)
            if key in self.warnings:
                self.warnings[key][1] += 1
                return
            self.warnings[key] = [column or 0, 0]
        source = self.lines.excerpt(line, column)  # escaped and cut when shown
        self.found.append(Diagnostic(severity, message, line, column, self.filename, source,
                                     hint, code, fix, related_line=related_line,
                                     byte=self.lines.byte_offset(line, column)))

    def at(self, severity: Severity, token: Token, message: str,
           hint: str | None = None, code: str | None = None,
           fix: tuple[int, int, int, int, str] | None = None,
           related_line: int | None = None) -> None:
        self.add(severity, message, token.line, token.column, hint, code, fix, related_line)

    def error_once(self, line: int | None, column: int | None, message: str,
                   hint: str | None = None, related_line: int | None = None) -> None:
        """An error, unless its line has one already: then it is counted."""
        if self.has_error_on(line):
            self.count_more(line)
        else:
            self.add("error", message, line, column, hint, related_line=related_line)

    def has_error_on(self, line: int | None) -> bool:
        return line in self.error_lines

    def count_more(self, line: int | None) -> None:
        """One more error on ``line``, which already has one: counted, not shown."""
        if line is not None:
            self.more_errors[line] = self.more_errors.get(line, 0) + 1

    def diagnostics(self) -> list[Diagnostic]:
        """Everything found, in source order, with the summaries: a note on
        repeated warnings right after the warning, on more errors at the end
        of their line."""
        placed: list[tuple[tuple[int, int, int], Diagnostic]] = [
            ((d.line or 0, d.column or 0, 0), d) for d in self.found]
        for line, count in self.more_errors.items():
            plural = "s" if count > 1 else ""
            placed.append(((line, _LINE_END, 1), Diagnostic(
                "note", f"{count} more error{plural} on this line", line, None, self.filename,
                code=MORE_ERRORS, count=count)))
        for (warned_line, _message), (column, count) in self.warnings.items():
            if count:
                plural = "s" if count > 1 else ""
                placed.append(((warned_line or 0, column, 1), Diagnostic(
                    "note", f"{count} more warning{plural} like this one on this line",
                    warned_line, None, self.filename)))
        placed.sort(key=lambda pair: pair[0])
        found = [diagnostic for _key, diagnostic in placed]
        if self.stopped:
            found.append(Diagnostic(
                "note", "too many errors, stopping", None, None, self.filename,
                hint=f"these are the first {self.max_errors}; --max-errors 0 shows them all",
                code=ERROR_LIMIT))
        return found
