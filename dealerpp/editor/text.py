"""An open document and positions in it, as the Language Server Protocol
counts them.

The protocol ends lines at ``\\r\\n``, ``\\n`` or ``\\r`` (and nowhere else:
not at form feeds or ``\\u2028``, where ``str.splitlines`` would), and counts
characters in the code units of the negotiated position encoding, UTF-16
unless the client asks for another. The checker counts lines at ``\\n`` and
columns in code points: every conversion goes through an offset into the
text, so the two never meet.
"""

from __future__ import annotations

import re

UTF16, UTF8, UTF32 = "utf-16", "utf-8", "utf-32"
_LINE_END = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """How many code units of ``encoding`` ``text`` takes."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _char_units(char: str, encoding: str) -> int:
    code = ord(char)
    if encoding == UTF16:
        return 2 if code > 0xFFFF else 1
    if encoding == UTF8:
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return 1


class Document:
    """The text of one open document, its version, and where its lines start."""

    __slots__ = ("_starts", "encoding", "language", "text", "uri", "version")

    def __init__(self, uri: str, text: str, version: int | None, encoding: str = UTF16,
                 language: str = "") -> None:
        self.uri, self.text, self.version = uri, text, version
        self.encoding, self.language = encoding, language
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """The offset where each line starts (made on first use after a change)."""
        if self._starts is None:
            self._starts = [0, *(found.end() for found in _LINE_END.finditer(self.text))]
        return self._starts

    def line_end(self, line: int) -> int:
        """The offset where 0-based ``line``'s text ends (before its line end)."""
        starts = self.starts
        if line + 1 >= len(starts):
            return len(self.text)
        end = starts[line + 1]
        text = self.text
        if text[end - 1] == "\n" and end >= 2 and text[end - 2] == "\r":
            return end - 2
        return end - 1

    def offset(self, line: int, character: int) -> int:
        """The offset of a protocol position; a position past a line's end is
        its end, and a line past the last is the end of the text."""
        starts = self.starts
        if line < 0:
            return 0
        if line >= len(starts):
            return len(self.text)
        start, end = starts[line], self.line_end(line)
        if character <= 0:
            return start
        piece = self.text[start:min(end, start + character)]
        if self.encoding == UTF32 or piece.isascii():
            return start + len(piece)
        counted = 0
        for index in range(start, end):
            counted += _char_units(self.text[index], self.encoding)
            if counted > character:
                return index
            if counted == character:
                return index + 1
        return end

    def position(self, offset: int) -> tuple[int, int]:
        """The protocol position (0-based line, character) of an offset."""
        from bisect import bisect_right

        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        offset = min(offset, max(start, self.line_end(line)))
        return line, units(self.text[start:offset], self.encoding)

    def replace(self, start: int, end: int, new_text: str) -> None:
        """Put ``new_text`` in place of ``text[start:end]`` (an incremental change)."""
        start = max(0, min(start, len(self.text)))
        end = max(start, min(end, len(self.text)))
        self.text = self.text[:start] + new_text + self.text[end:]
        self._starts = None

    def set_text(self, text: str) -> None:
        """The whole text at once (a full change)."""
        self.text = text
        self._starts = None
