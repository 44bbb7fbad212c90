"""Where each line of a text starts: line and column of an offset, and the
text of a line, in logarithmic time.

``dealerpp.diagnostics.line_col`` and ``source_line_of`` count or split the
whole text on every call, which made messages about a large script
quadratic; the rewriter and the checker look positions up here instead.
Lines end at "\\n" only, as dealer counts them (not at a lone "\\r" or a
form feed, where ``str.splitlines`` would also cut).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right


class LineIndex:
    """The line starts of one text, found on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: array[int] | None = None

    def starts(self) -> array[int]:
        if self._starts is None:
            starts = array("q", [0])
            find = self.text.find
            position = find("\n")
            while position >= 0:
                starts.append(position + 1)
                position = find("\n", position + 1)
            self._starts = starts
        return self._starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        starts = self.starts()
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def line_count(self) -> int:
        return len(self.starts())

    def line_text(self, line: int | None) -> str | None:
        """The text of 1-based ``line`` without its line ending; "" just past
        the last line, None for no line."""
        if line is None or line < 1:
            return None
        starts = self.starts()
        if line > len(starts):
            return "" if line == len(starts) + 1 else None
        end = starts[line] - 1 if line < len(starts) else len(self.text)
        return self.text[starts[line - 1]:end].rstrip("\r")
