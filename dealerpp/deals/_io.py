"""Opening sources and targets for the format modules.

A source is a path (``str`` naming an existing file, or ``os.PathLike``), a
file object (text or binary), or the content itself (``bytes``, or a ``str``
that contains a newline or names no file). Readers stream: a path or file is
read line by line or in fixed chunks, never whole.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from typing import IO, Any, TypeGuard, Union, cast

from dealerpp.deals import formats
from dealerpp.diagnostics import DppError

Source = Union[str, bytes, "os.PathLike[str]", IO[Any]]
Target = Union[str, "os.PathLike[str]", IO[Any]]

ENCODING = "utf-8"
# Undecodable bytes become lone surrogates and are then reported as bad
# characters by the parser, with their position, instead of a UnicodeError.
ERRORS = "surrogateescape"


# The registry's extensions, and those deal files often have besides.
PATH_SUFFIXES = (*formats.BY_EXTENSION, ".txt", ".lin", ".dat")


def is_path(source: object) -> TypeGuard[str | os.PathLike[str]]:
    """A ``str`` is a path when it names a file, or looks like a file name
    (a folder separator or a deal-file extension), which no deal text does."""
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str) or "\n" in source or not source:
        return False
    if os.path.isfile(source):
        return True
    return os.sep in source or source.lower().endswith(PATH_SUFFIXES)


def source_name(source: object, filename: str | None = None) -> str | None:
    """The name errors mention: the given one, the path, or a file's name."""
    if filename is not None:
        return filename
    if is_path(source):
        return os.fspath(source)
    name = getattr(source, "name", None)
    if isinstance(name, str):
        return name
    return None


def text_lines(source: Source) -> Iterator[str]:
    r"""Lines of a text source without their line endings (\n, \r\n, \r)
    and without a leading byte-order mark."""
    lines = _raw_lines(source)
    first = next(lines, None)
    if first is None:
        return
    yield first.removeprefix("\ufeff")
    yield from lines


def _raw_lines(source: Source) -> Iterator[str]:
    if is_path(source):
        with open(source, encoding=ENCODING, errors=ERRORS, newline=None) as handle:
            for line in handle:
                yield line.rstrip("\n")
        return
    if isinstance(source, bytes):
        source = source.decode(ENCODING, ERRORS)
    if isinstance(source, str):
        yield from io.StringIO(source, newline=None).read().split("\n") if source else ()
        return
    yield from _file_lines(cast("IO[Any]", source))  # paths and strings are done


def _file_lines(handle: IO[Any]) -> Iterator[str]:
    buffer = _binary_of(handle)
    if buffer is not None:
        wrapper = io.TextIOWrapper(buffer, encoding=ENCODING, errors=ERRORS, newline=None)
        try:
            for line in wrapper:
                yield line.rstrip("\n")
        finally:
            wrapper.detach()
        return
    for line in handle:
        yield line.rstrip("\r\n")


def _binary_of(handle: IO[Any]) -> IO[bytes] | None:
    if isinstance(handle, io.TextIOBase):
        return getattr(handle, "buffer", None)
    return handle


def binary_chunks(source: Source, size: int) -> Iterator[bytes]:
    """Chunks of a binary source, ``size`` bytes each (the last may be short)."""
    if is_path(source):
        with open(source, "rb") as handle:
            yield from _read_chunks(handle, size)
        return
    if isinstance(source, str):
        raise DppError("a binary format needs bytes or a binary file, not text")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        for start in range(0, len(data), size):
            yield data[start:start + size]
        return
    buffer = _binary_of(cast("IO[Any]", source))  # paths and bytes are done
    if buffer is None:
        raise DppError("a binary format needs a binary file, not a text stream")
    yield from _read_chunks(buffer, size)


def _read_chunks(handle: IO[bytes], size: int) -> Iterator[bytes]:
    while chunk := read_full(handle, size):
        yield chunk


def read_full(handle: IO[bytes], size: int) -> bytes:
    """Up to ``size`` bytes, fewer only at the end: a pipe may return short reads."""
    data = b""
    while len(data) < size:
        more = handle.read(size - len(data))
        if not more:
            break
        data += more
    return data


def write_all(handle: IO[bytes], data: bytes | memoryview) -> None:
    """Write every byte of ``data``. A buffered file's ``write`` may return
    a short count instead of raising when the reader of a pipe goes away (or
    the disk fills) in the middle of a large write; the next write raises."""
    view = memoryview(data).cast("B")
    while view:
        written = handle.write(view)
        if not written:  # None from a non-blocking file: none is used here
            raise OSError(f"write wrote nothing ({written!r})")
        view = view[written:]


class TextSink:
    """Where a text writer puts its output: a path, a text or binary file."""

    def __init__(self, target: Target) -> None:
        self._close = False
        if isinstance(target, (str, os.PathLike)):
            if os.fspath(target) == "-":
                self._handle: IO[Any] = sys.stdout
            else:
                self._handle = open(target, "w", encoding=ENCODING, errors=ERRORS, newline="\n")  # noqa: SIM115 - closed by close()
                self._close = True
        else:
            self._handle = target
        self._binary = not isinstance(self._handle, io.TextIOBase) and "b" in getattr(
            self._handle, "mode", "b")

    def write(self, text: str) -> None:
        if self._binary:
            self._handle.write(text.encode(ENCODING, ERRORS))
        else:
            self._handle.write(text)

    def close(self) -> None:
        if self._close:
            self._handle.close()

    def __enter__(self) -> TextSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class BinarySink:
    """Where a binary writer puts its output: a path or a binary file."""

    def __init__(self, target: Target) -> None:
        self._close = False
        if isinstance(target, (str, os.PathLike)):
            if os.fspath(target) == "-":
                self._handle: IO[bytes] = sys.stdout.buffer
            else:
                self._handle = open(target, "wb")  # noqa: SIM115 - closed by close()
                self._close = True
        else:
            buffer = _binary_of(target)
            if buffer is None:
                raise DppError("a binary format needs a binary file, not a text stream")
            self._handle = buffer

    def write(self, data: bytes) -> None:
        self._handle.write(data)

    def close(self) -> None:
        if self._close:
            self._handle.close()

    def __enter__(self) -> BinarySink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
