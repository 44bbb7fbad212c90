"""The input of a bulk conversion, read a chunk at a time.

:class:`Chunks` reads the next chunk on a thread while the current one is
converted; :func:`rest_of` gives what a codec has not taken of a chunk, and
then the rest of the file, as one stream for the per-deal reader (for the
codecs that hand a file's rest over, and for the converter,
:mod:`dealerpp.deals.bulk.stream`). :func:`lone_cr` finds where the
readers' line numbers stop being a count of LFs.
"""

from __future__ import annotations

import io
import threading
from typing import IO, Any

import numpy as np


def lone_cr(data: bytes, end: int) -> int | None:
    """The first CR not followed by LF in ``data[:end]``, if any: one memchr
    for a file without CRs, two counts for one with CR LF throughout."""
    if data.find(b"\r", 0, end) < 0:
        return None
    if data.count(b"\r", 0, end) == data.count(b"\r\n", 0, end + 1):
        return None
    arr = np.frombuffer(data, np.uint8, count=end)
    at = np.flatnonzero(arr == 13)
    nexts = np.frombuffer(data + b"\0", np.uint8)[at + 1]  # (a CR may be the last byte)
    return int(at[nexts != 10][0])


THREAD_BYTES = 1 << 16


class _Read:
    """Stands for a read-ahead thread when the chunk was read at once."""

    def join(self) -> None:
        pass


_READ = _Read()


class Chunks:
    """Bytes of the input in chunks, with a count for the progress bar.

    The next chunk is read on a thread while the current one is converted
    (reading releases the GIL, as numpy does), so the disk or pipe and the
    CPU work at the same time. A chunk under ``THREAD_BYTES`` (a test's,
    to cross many chunk ends) is read ahead at once, in this thread: a
    thread's start and the GIL's handovers cost more than such a read."""

    def __init__(self, handle: IO[bytes], chunk: int) -> None:
        self.handle = handle
        self.chunk = chunk
        self.read_bytes = 0
        self._ahead: threading.Thread | _Read | None = None
        self._ahead_data = b""
        self._ahead_error: BaseException | None = None

    def read(self) -> bytes:
        data = self._take_ahead() or self._fill(self.chunk)
        self.read_bytes += len(data)
        if data:
            self._read_ahead()
        return data

    def read_after(self, rest: bytes) -> tuple[bytes, bool]:
        """What the last chunk left unread (``rest``) and the next chunk, and
        whether the file has ended (nothing new was read)."""
        data = self.read()
        return (rest + data if rest else data), not data

    def read_rest(self, size: int) -> bytes:
        """At least ``size`` bytes if there are (the per-deal reader's stream)."""
        data = self._take_ahead() or self.handle.read(size)
        self.read_bytes += len(data)
        return data

    def _fill(self, size: int) -> bytes:
        data = self.handle.read(size)
        # a pipe may return short reads: fill up so blocks stay large
        while data and len(data) < size:
            more = self.handle.read(size - len(data))
            if not more:
                break
            data += more
        return data

    def _read_ahead(self) -> None:
        def run() -> None:
            try:
                self._ahead_data = self._fill(self.chunk)
            except BaseException as error:  # raised where the data is taken
                self._ahead_error = error

        if self.chunk < THREAD_BYTES:
            run()
            self._ahead = _READ
            return
        self._ahead = threading.Thread(target=run, daemon=True)
        self._ahead.start()

    def _take_ahead(self) -> bytes:
        if self._ahead is None:
            return b""
        self._ahead.join()
        self._ahead = None
        if self._ahead_error is not None:
            raise self._ahead_error
        data, self._ahead_data = self._ahead_data, b""
        return data


class _Chain(io.RawIOBase):
    """Bytes already read, then the rest of the source."""

    def __init__(self, head: bytes, source: Chunks) -> None:
        self.head = memoryview(head)
        self.source = source

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.head:
            self.head = memoryview(self.source.read_rest(len(buffer)))
        size = min(len(buffer), len(self.head))
        buffer[:size] = self.head[:size]
        self.head = self.head[size:]
        return size


def rest_of(head: bytes, source: Chunks) -> io.BufferedReader:
    """``head`` (what a codec has not taken of a chunk), then the rest of
    ``source``, as one stream for the per-deal reader."""
    return io.BufferedReader(_Chain(head, source), 1 << 16)
