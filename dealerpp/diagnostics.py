"""Positioned messages shared by every stage: the shape compiler, the script
rewriter, the checker and the deal readers.

A message looks like a compiler's:

    script.dpp:3:17: error: a pattern needs exactly 4 suit lengths, this one has 8
    n = shape{north, 4432+5332}
                    ^

Lines and columns are 1-based; the column counts characters, not bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Severity = Literal["error", "warning", "note"]

# Codes of problems that more than one stage reports (see Diagnostic.code).
TOO_MANY_SHAPES = "too-many-shapes"
INTERNAL_ERROR = "internal-error"  # a bug of ours: always worth a report


@dataclass(frozen=True)
class Diagnostic:
    """One message about one place in one source text."""

    severity: Severity
    message: str
    line: int | None = None
    column: int | None = None
    filename: str | None = None
    source_line: str | None = None
    hint: str | None = None
    # A stable name for the kind of problem, where two stages can find the
    # same one (the rewriter and the checker both count shape() calls).
    code: str | None = None

    def location(self) -> str:
        parts = [p for p in (self.filename,) if p]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def headline(self) -> str:
        where = self.location()
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.severity}: {self.message}"

    def format(self) -> str:
        """The headline, then the source line with a caret under the column."""
        lines = [self.headline()]
        if self.source_line is not None and self.column is not None:
            text = self.source_line.rstrip("\r\n")
            lines.append(text)
            # Keep tabs so the caret lines up under the same character.
            pad = "".join(ch if ch == "\t" else " " for ch in text[: self.column - 1])
            lines.append(pad + "^")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def relocated(self, text: str, line_offset: int, column_offset: int,
                  filename: str | None) -> Diagnostic:
        """The same message placed inside a larger text (see ``DppError.relocated``)."""
        line, column = _shifted(self.line, self.column, line_offset, column_offset)
        return replace(self, line=line, column=column, filename=filename,
                       source_line=source_line_of(text, line))


@dataclass
class DppError(Exception):
    """An input that cannot be compiled: where, and what is wrong.

    ``str(error)`` is ``LINE:COL: error: MESSAGE`` (prefixed by the file name
    when one is known), then the source line and a caret.
    """

    message: str
    line: int | None = None
    column: int | None = None
    filename: str | None = None
    source_line: str | None = None
    hint: str | None = None
    notes: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    @property
    def diagnostic(self) -> Diagnostic:
        return Diagnostic(
            "error",
            self.message,
            self.line,
            self.column,
            self.filename,
            self.source_line,
            self.hint,
        )

    def __str__(self) -> str:
        return self.diagnostic.format()

    def relocated(self, text: str, line_offset: int, column_offset: int,
                  filename: str | None) -> DppError:
        """The same error placed inside a larger text.

        ``line_offset``/``column_offset`` say where the smaller text started
        (0-based line offset, and the column offset applies to its first line
        only, as for a shape{} body that starts mid-line).
        """
        line, column = _shifted(self.line, self.column, line_offset, column_offset)
        return DppError(
            self.message,
            line,
            column,
            filename,
            source_line_of(text, line),
            self.hint,
            self.notes,
        )


def _shifted(line: int | None, column: int | None, line_offset: int,
             column_offset: int) -> tuple[int | None, int | None]:
    """A position in a piece of text moved to where the piece starts in a larger
    one; the column offset applies to the piece's first line only."""
    if line is not None:
        if line == 1 and column is not None:
            column += column_offset
        line += line_offset
    return line, column


def source_line_of(text: str, line: int | None) -> str | None:
    """The text of 1-based ``line`` in ``text`` (without its line ending)."""
    if line is None or line < 1:
        return None
    lines = text.splitlines()
    if line > len(lines):
        return "" if line == len(lines) + 1 else None
    return lines[line - 1]


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1
