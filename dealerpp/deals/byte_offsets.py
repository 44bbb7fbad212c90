"""Where a line and column of a text reader's input lie in its bytes.

The text readers see a file through Python's universal newlines (CR LF, a
lone CR and LF all end a line) without its leading byte-order mark, and
count columns in characters. A problem they report names a line and a
column; this finds the byte of the file they stand for, looking at the
bytes only when a problem is reported: a file read without one costs
nothing. Paths are mapped, not read whole.
"""

from __future__ import annotations

import os
import re

from dealerpp.deals._io import ENCODING, ERRORS, is_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    import mmap

    from dealerpp.deals.options import Source

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(rb"\r\n|\r|\n")
# Every STEP-th line's start is kept: finding a line walks at most STEP-1
# line ends from the last kept start before it.
STEP = 64


class ByteOffsets:
    """The bytes of one input, and the starts of every ``STEP``-th line of
    them, found as far as the lines asked for so far."""

    __slots__ = ("_crs", "_data", "_marks")

    def __init__(self, data: bytes | mmap.mmap) -> None:
        self._data = data
        self._crs = data.find(b"\r") >= 0  # else every line ends in LF: find() does
        self._marks = [3 if data[:3] == _BOM else 0]  # line 1 starts after the mark

    def line_start(self, line: int) -> int | None:
        """The byte where 1-based ``line`` starts; None past the last line."""
        marks = self._marks
        mark = (line - 1) // STEP
        while len(marks) <= mark:
            start = self._after_line_ends(marks[-1], STEP)
            if start is None:
                return None
            marks.append(start)
        return self._after_line_ends(marks[mark], (line - 1) % STEP)

    def offset(self, line: int | None, column: int | None) -> int | None:
        """The byte of a 1-based line and column (in characters); None when
        either is unknown or not in the bytes."""
        if line is None or column is None or line < 1 or column < 1:
            return None
        start = self.line_start(line)
        if start is None:
            return None
        data = self._data
        if self._crs:
            found = _LINE_END.search(data, start)
            end = len(data) if found is None else found.start()
        else:
            end = data.find(b"\n", start)
            end = len(data) if end < 0 else end
        # a character takes 4 bytes at most: the bytes before the column
        # are in the first 4 * (column - 1) of the line, however long it is
        text = data[start:min(end, start + 4 * (column - 1))].decode(ENCODING, ERRORS)
        return start + len(text[:column - 1].encode(ENCODING, ERRORS))

    def _after_line_ends(self, start: int, count: int) -> int | None:
        """The byte after the ``count``-th line end from ``start``."""
        data = self._data
        if not self._crs:
            find = data.find
            for _ in range(count):
                start = find(b"\n", start) + 1
                if start == 0:
                    return None
            return start
        for _ in range(count):
            found = _LINE_END.search(data, start)
            if found is None:
                return None
            start = found.end()
        return start


def byte_offsets(source: Source) -> ByteOffsets | None:
    """The byte offsets of a source a reader reads as text: a path's file
    (mapped) or bytes; None for a stream or a text, whose bytes are not at
    hand (a stream's are read already)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return ByteOffsets(bytes(source))
    if not is_path(source):
        return None
    try:
        with open(source, "rb") as handle:
            if os.fstat(handle.fileno()).st_size == 0:
                return ByteOffsets(b"")
            import mmap

            return ByteOffsets(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
    except (OSError, ValueError):  # gone since, or not a regular file
        return None
