"""Opening sources and targets for the format modules.

A source is a path (``str`` naming an existing file, or ``os.PathLike``), a
file object (text or binary), or the content itself (``bytes``, or a ``str``
that contains a newline or names no file). Readers stream: a path or file is
read line by line or in fixed chunks, never whole.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, TypeGuard, TypeVar, cast

from dealerpp.deals import formats
from dealerpp.deals.options import WRITE, Source, Target, WriteOptions
from dealerpp.diagnostics import DppError

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Writer

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
            if not buffer.closed:  # see formats/pbn/lexer.py _handle_chunks
                wrapper.detach()
        return
    for line in handle:
        yield line.rstrip("\r\n")


def sync_text_layer(source: object) -> bool:
    """Put the binary file under a file opened in text mode where its text
    stands: the text layer reads ahead (8 KiB), so once the caller has taken
    a line (``readline``) the bytes under it are further on than its text,
    and a reader of the bytes would skip what was read ahead. (A pipe
    cannot be put back: what its text layer holds stays there.) False when
    a seekable file's text cannot say where it stands (``tell`` is off once
    the caller has iterated it, ``next(file)``): its bytes would skip the
    text read ahead, so the caller reads the text itself."""
    if not isinstance(source, io.TextIOBase) or getattr(source, "buffer", None) is None:
        return True
    with contextlib.suppress(ValueError):  # closed: the reader says so
        if not source.seekable():
            return True
        try:
            where = source.tell()
        except OSError:
            return False
        with contextlib.suppress(OSError):
            source.seek(where)
    return True


def _binary_of(handle: IO[Any]) -> IO[bytes] | None:
    if isinstance(handle, io.TextIOBase):
        return getattr(handle, "buffer", None)
    return handle


def record_errors(deals: Iterator[Deal]) -> Iterator[Deal]:
    """``deals``, an error of their reader that names no deal naming the
    record it stopped at, the one after the last deal given: its place from
    1 in the source, as the PBN reader counts its games. For the readers
    that read a record at a time, in order, and stop at the first error
    (every reader but PBN's, which names its games itself, and .dlm's,
    which reads every board line first)."""
    place = 0
    try:
        for place, deal in enumerate(deals, 1):  # noqa: B007 - place is read below
            yield deal
    except DppError as error:
        if error.deal is not None or error.output:
            raise
        raise error.replace(deal=place + 1) from None


def fixed_records(source: Source, size: int, name: str | None,
                  board_at: Callable[[int], int | None] = lambda offset: None
                  ) -> Iterator[tuple[int, bytes]]:
    """(offset, record) of each ``size``-byte record of a binary source, read
    in chunks; a short last record is an error at its byte, naming the board
    ``board_at(offset)`` when the format knows it."""
    offset = 0
    for chunk in binary_chunks(source, size * 1024):
        for start in range(0, len(chunk), size):
            record = chunk[start:start + size]
            if len(record) < size:
                raise DppError(
                    f"truncated record: {len(record)} of {size} "
                    f"bytes (the file size is not a multiple of {size})", filename=name,
                    byte=offset, board=board_at(offset))
            yield offset, record
            offset += size


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


class _Sink:
    """Where a writer puts its output: standard output for ``-``, a path
    (opened ``how``, and closed on ``close`` or on leaving a ``with`` block)
    or a file object (taken as ``file_object`` gives it)."""

    def __init__(self, target: Target, standard: Callable[[], IO[Any]],
                 file_object: Callable[[IO[Any]], IO[Any]], **how: Any) -> None:
        self._close = False
        if isinstance(target, (str, os.PathLike)):
            if os.fspath(target) == "-":
                self._handle = standard()
            else:
                self._handle = open(target, **how)  # noqa: SIM115 - closed by close()
                self._close = True
        else:
            self._handle = file_object(target)

    def close(self) -> None:
        if self._close:
            self._handle.close()

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_S = TypeVar("_S", bound=_Sink)


class TextSink(_Sink):
    """Where a text writer puts its output: a path, a text or binary file."""

    def __init__(self, target: Target) -> None:
        super().__init__(target, lambda: sys.stdout, lambda handle: handle, mode="w",
                         encoding=ENCODING, errors=ERRORS, newline="\n")
        self._binary = not isinstance(self._handle, io.TextIOBase) and "b" in getattr(
            self._handle, "mode", "b")

    def write(self, text: str) -> None:
        if self._binary:
            self._handle.write(text.encode(ENCODING, ERRORS))
        else:
            self._handle.write(text)


class BinarySink(_Sink):
    """Where a binary writer puts its output: a path or a binary file."""

    def __init__(self, target: Target) -> None:
        super().__init__(target, lambda: sys.stdout.buffer, _binary_file, mode="wb")

    def write(self, data: bytes) -> None:
        self._handle.write(data)


def _binary_file(handle: IO[Any]) -> IO[bytes]:
    buffer = _binary_of(handle)
    if buffer is None:
        raise DppError("a binary format needs a binary file, not a text stream")
    return buffer


DealText = Callable[["Deal", int], str]  # a deal's text, given its number (from 1)


Writers = tuple["Writer", Callable[[Iterable["Deal"]], str]]


def piece_writers(pieces: Callable[[Iterable[Deal]], Iterator[str]]) -> Writers:
    """A text format's ``write`` (deals into a target) and ``dumps`` (deals
    into a string), the text made a piece at a time by ``pieces``."""

    def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
        with TextSink(target) as sink:
            for piece in pieces(deals):
                sink.write(piece)

    def dumps(deals: Iterable[Deal]) -> str:
        return "".join(pieces(deals))

    return write, dumps


def text_writers(deal_text: DealText) -> Writers:
    """``piece_writers`` for a format written a deal at a time, each as
    ``deal_text`` gives it."""
    return piece_writers(lambda deals: (deal_text(deal, number)
                                        for number, deal in enumerate(deals, 1)))


def numbered_errors(encode: Callable[[Deal], str]) -> DealText:
    """``encode`` with its ValueError told as a DppError that names the deal."""

    def deal_text(deal: Deal, number: int) -> str:
        try:
            return encode(deal)
        except ValueError as error:
            raise DppError(str(error), deal=number, output=True) from None

    return deal_text
