"""Where a line and column of a text reader's input lie in its bytes.

The text readers see a file through Python's universal newlines (CR LF, a
lone CR and LF all end a line) without its leading byte-order mark, and
count columns in characters. A problem they report names a line and a
column; this finds the byte of the file they stand for, looking at the
bytes only when a problem is reported: a file read without one costs
nothing. Paths are mapped, not read whole.
"""

from __future__ import annotations

import io
import itertools
import os
import re
from collections import deque
from collections.abc import Callable
from typing import IO, Any

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
        return None if start is None else start + _before_column(self._data, start, column)[0]

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


def byte_offsets(source: Source) -> ByteOffsets | StreamOffsets | None:
    """The byte offsets of a source a reader reads as text: a path's file
    (mapped), bytes, or a stream read through a :class:`CountedStream`;
    None for another stream (its bytes are read already) or a text (a str
    has no bytes)."""
    if isinstance(source, CountedStream):
        return source.offsets
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


def _before_column(data: bytes | mmap.mmap, start: int, column: int) -> tuple[int, bool]:
    """The bytes the characters before 1-based ``column`` take in the line
    that starts at ``start``, and whether ``data`` holds them all (a line
    cut by its end may go on past it)."""
    found = _LINE_END.search(data, start)
    end = len(data) if found is None else found.start()
    # a character takes 4 bytes at most: the bytes before the column are in
    # the first 4 * (column - 1) of the line, however long it is
    text = data[start:min(end, start + 4 * (column - 1))].decode(ENCODING, ERRORS)
    return (len(text[:column - 1].encode(ENCODING, ERRORS)),
            found is not None or len(text) >= column - 1)


# A stream's bytes are kept this far back (the newest read always): a
# problem is reported, or an error raised, soon after its record is read.
KEPT_BYTES = 1 << 21


class StreamOffsets(io.RawIOBase):
    """A stream read through this keeps its last ``KEPT_BYTES`` and counts
    the line ends it has passed (as the text readers count them: CR LF, a
    lone CR, LF), so that the byte of a line and column read lately is
    known: ``offset``. Counting costs a ``count`` call a chunk (three with CRs); the
    line starts of a chunk are found when a problem is first placed in it."""

    def __init__(self, stream: IO[bytes], kept: int = KEPT_BYTES) -> None:
        super().__init__()
        self._stream = stream
        # what is there now, as a raw read gives it: a buffered stream's
        # read(n) waits for n bytes, and a pipe's deals would come in batches
        self._read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
        self._kept = kept
        self._chunks: deque[_Chunk] = deque()
        self._held = 0  # bytes in _chunks
        self._passed = 0  # bytes read
        self._line_ends = 0  # line ends read
        self._after_cr = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._read(len(buffer))
        if not data:
            return 0
        buffer[:len(data)] = data
        self._keep(data)
        return len(data)

    def _keep(self, data: bytes) -> None:
        ends = data.count(b"\n")
        if b"\r" in data:  # (a search for the byte costs a 30th of a count)
            ends += data.count(b"\r") - data.count(b"\r\n")
        skip = self._after_cr and data[:1] == b"\n"  # the LF of a CR LF cut between two reads
        self._chunks.append(_Chunk(self._passed, self._line_ends, int(skip), data))
        self._held += len(data)
        while self._held - len(self._chunks[0].data) >= self._kept:
            self._held -= len(self._chunks.popleft().data)
        self._passed += len(data)
        self._line_ends += ends - skip
        self._after_cr = data[-1:] == b"\r"

    def offset(self, line: int | None, column: int | None) -> int | None:
        """The byte of a 1-based line and column (in characters) of the
        stream; None when either is unknown or the line's start is no
        longer kept."""
        if line is None or column is None or line < 1 or column < 1:
            return None
        found = self._line_start(line - 1)
        if found is None:
            return None
        index, start = found
        chunks = self._chunks
        need = start + 4 * (column - 1) + 1  # a character takes 4 bytes at most
        data = chunks[index].data
        for more in range(index + 1, len(chunks)):
            if len(data) >= need:
                break
            data += chunks[more].data
        size, whole = _before_column(data, start, column)
        if not whole:
            return None  # the line goes on past what was read
        return chunks[index].first + start + size

    def _line_start(self, wanted: int) -> tuple[int, int] | None:
        """(the kept chunk where the line after ``wanted`` line ends starts,
        the line's start in it), or None when that is not kept."""
        chunks = self._chunks
        if wanted == 0:
            if self._passed == 0:
                self._keep_empty()
            first = chunks[0]
            if first.first:
                return None  # the first line starts before the kept bytes
            # (a pipe may give the mark's three bytes in more than one read)
            head = b"".join(chunk.data for chunk in itertools.islice(chunks, 3))
            return 0, 3 if head[:3] == _BOM else 0
        for index, chunk in enumerate(chunks):
            if chunk.before < wanted <= chunk.before + len(chunk.starts()):
                start = chunk.starts()[wanted - chunk.before - 1]
                if start < len(chunk.data) or index + 1 == len(chunks):
                    return index, start
                return index + 1, chunks[index + 1].skip  # the line starts with the next chunk
        return None

    def _keep_empty(self) -> None:
        """Nothing read: an empty first line is at byte 0."""
        if not self._chunks:
            self._chunks.append(_Chunk(0, 0, 0, b""))


class _Chunk:
    """Bytes a stream passed: where they start, the line ends before them,
    whether their first byte is the LF of a CR LF begun before (``skip``),
    and (found when first asked) where a line starts after each line end."""

    __slots__ = ("_starts", "before", "data", "first", "skip")

    def __init__(self, first: int, before: int, skip: int, data: bytes) -> None:
        self.first, self.before, self.skip, self.data = first, before, skip, data
        self._starts: list[int] | None = None

    def starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [found.end() for found in _LINE_END.finditer(self.data, self.skip)]
        return self._starts


class CountedStream(io.BufferedReader):
    """A binary stream read through a :class:`StreamOffsets` (``offsets``),
    which ``byte_offsets`` finds: a reader given it places a problem's line
    and column in the stream's bytes, counted from where it was when this
    began to read it."""

    def __init__(self, stream: IO[bytes], size: int = 1 << 16) -> None:
        self.offsets = StreamOffsets(stream)
        super().__init__(self.offsets, size)
