"""Which format a deal file is in: from its extension, else from its content.

Both come from the registry (``dealerpp.deals.formats``): each format's
extensions, and its sniffer, shown the first few kilobytes (a stream is
peeked, not consumed). A text no sniffer claims is read as PBN, so a line of
four bare hands is a PBN deal string (N E S W) unless it has a
giblib trick string (``:``).

A text file saved as UTF-16 (Windows tools write PBN so, with or without a
byte-order mark) is told by its first bytes (``utf16_codec``), sniffed as
the text it holds, and read through ``utf8_from_utf16``: the same deals,
lines and columns as its UTF-8 twin.
"""

from __future__ import annotations

import codecs
import io
import os
from typing import IO, Any, cast

from dealerpp.deals import formats
from dealerpp.deals._io import is_path, read_full
from dealerpp.deals.options import Source

SNIFF = 4096


def from_extension(name: str | None) -> str | None:
    return formats.from_extension(name)


def peek(source: Source) -> tuple[bytes, Source]:
    """The first bytes of a source and a source that still yields all of it."""
    if is_path(source):
        with open(source, "rb") as handle:
            return handle.read(SNIFF), source
    if isinstance(source, str):
        return source[:SNIFF].encode("utf-8", "surrogateescape"), source
    if isinstance(source, (bytes, bytearray)):
        return bytes(source[:SNIFF]), source
    if isinstance(source, io.TextIOBase) and not hasattr(source, "buffer"):
        # An in-memory text stream (StringIO): its text is in memory already.
        text = source.read()
        return text[:SNIFF].encode("utf-8", "surrogateescape"), text
    stream = cast(IO[bytes], getattr(source, "buffer", source))  # a binary file by now
    if isinstance(stream, io.BufferedReader):
        # Peek, so the stream itself (often sys.stdin.buffer) still holds
        # everything for whoever reads it next. A pipe fills the buffer with
        # its first block, so this sees whole lines in practice.
        return stream.peek(SNIFF)[:SNIFF], stream
    # Any other stream: read the head and give it back in front of the rest.
    head = read_full(stream, SNIFF)
    return head, prefixed(head, stream)


def prefixed(head: bytes, rest: IO[bytes]) -> io.BufferedReader:
    """A binary stream giving ``head`` and then the rest of ``rest``."""
    return io.BufferedReader(_Prefixed(head, rest), SNIFF * 2)


class _Prefixed(io.RawIOBase):
    """A binary stream giving ``head`` and then the rest of ``rest``."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        super().__init__()
        self._head = head
        self._rest = rest
        name = getattr(rest, "name", None)
        if isinstance(name, str):
            self.name = name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._head[:len(buffer)] if self._head else self._rest.read(len(buffer))
        self._head = self._head[len(data):] if self._head else b""
        buffer[:len(data)] = data
        return len(data)


def from_content(head: bytes) -> str | None:
    """The format the first bytes look like, or None when empty. A binary
    head that no format claims, or any head that several claim, is a
    DppError naming the formats tried: never a silent guess."""
    shown = sniffed(head)
    if shown is None:
        return None
    claimed = formats.claims(shown)
    if len(claimed) == 1:
        return claimed[0]
    if not claimed and not shown.binary:
        return formats.TEXT_FALLBACK
    from dealerpp.diagnostics import DppError

    tried = [f.name for f in formats.FORMATS if f.binary == shown.binary and f.sniff]
    kind = "binary" if shown.binary else "text"
    if claimed:
        raise DppError(f"cannot tell the format of this {kind} content: it fits "
                       f"{' and '.join(claimed)}; give the format (--from)")
    raise DppError(f"cannot tell the format of this {kind} content: it fits none of "
                   f"{', '.join(tried)}; give the format (--from)")


def sniffed(head: bytes) -> formats.Head | None:
    """What the sniffers are shown of a file's first bytes: None when there
    is nothing to see (no bytes, or only blank and ``%`` lines). UTF-16
    text is shown as the UTF-8 it would be."""
    codec = utf16_codec(head)
    if codec is not None:
        head = head[:len(head) - len(head) % 2].decode(codec, "replace").encode()
    if not head:
        return None
    if _is_binary(head):
        return formats.Head(head, binary=True)
    text = head.decode("utf-8", "replace").removeprefix("\ufeff")
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            return formats.Head(head, False, line, stripped)
    return None


def _is_binary(head: bytes) -> bool:
    if b"\0" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the sniff window is still text.
        return error.start < len(head) - 4
    return any(b < 9 or 13 < b < 32 for b in head)


# ASCII text in UTF-16 without a mark: the first characters' other byte is 0
_UTF16_SAMPLE = 64
_PRINTABLE = frozenset(range(32, 127)) | {9, 10, 13}


def utf16_codec(head: bytes) -> str | None:
    """The codec of a text whose first bytes are UTF-16 (``utf-16`` after a
    byte-order mark, else ``utf-16-le`` or ``-be`` when the first characters
    are ASCII with a 0 byte beside each), or None. Only a text format's
    content is read so: a binary record may begin the same way."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = head[:min(len(head), _UTF16_SAMPLE) // 2 * 2]
    if len(sample) < 4:
        return None
    for codec, text, zeros in (("utf-16-le", sample[0::2], sample[1::2]),
                               ("utf-16-be", sample[1::2], sample[0::2])):
        if not any(zeros) and _PRINTABLE.issuperset(text):
            return codec
    return None


class _Utf8FromUtf16(io.RawIOBase):
    """The UTF-8 bytes of a UTF-16 binary stream (line ends as they are;
    a character that is no UTF-16 becomes U+FFFD, which the readers report)."""

    def __init__(self, stream: IO[bytes], codec: str) -> None:
        super().__init__()
        self._text = io.TextIOWrapper(stream, encoding=codec, errors="replace", newline="")
        self._pending = b""
        name = getattr(stream, "name", None)
        if isinstance(name, str):
            self.name = name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending:
            text = self._text.read(1 << 16)
            if not text:
                return 0
            self._pending = text.encode("utf-8")
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size

    def close(self) -> None:
        if not self.closed:
            self._text.close()
        super().close()


def utf8_from_utf16(stream: IO[bytes], codec: str) -> io.BufferedReader:
    """A binary stream of the UTF-8 text that ``stream`` holds in UTF-16
    (``codec`` as ``utf16_codec`` names it); closing it closes ``stream``."""
    return io.BufferedReader(_Utf8FromUtf16(stream, codec), SNIFF * 16)


def is_utf8_twin(source: object) -> bool:
    """Whether ``source`` is a stream ``as_utf8`` made of a UTF-16 text:
    its bytes are the UTF-8 twin's, not the file's."""
    return isinstance(source, io.BufferedReader) and isinstance(source.raw, _Utf8FromUtf16)


def as_utf8(source: Source) -> tuple[Source, IO[bytes] | None]:
    """``source``, or for a text saved as UTF-16 a binary stream of the
    UTF-8 it holds; and that stream when it was opened here from a path
    (the caller closes it), else None. Text given as a str is left alone."""
    if isinstance(source, str) and not is_path(source):
        return source, None
    head, source = peek(source)
    codec = utf16_codec(head)
    if codec is None:
        return source, None
    if is_path(source):
        opened = utf8_from_utf16(open(source, "rb"), codec)  # noqa: SIM115 (the caller closes it)
        return opened, opened
    if isinstance(source, (bytes, bytearray)):
        return utf8_from_utf16(io.BytesIO(source), codec), None
    stream = cast(IO[bytes], getattr(source, "buffer", source))
    return utf8_from_utf16(stream, codec), None


def detect(source: Source, name: str | None = None) -> tuple[str | None, Source]:
    """Format name (None for empty input) and the source to read it from."""
    if name is None:
        if is_path(source):
            name = os.fspath(source)
        elif isinstance(getattr(source, "name", None), str):
            name = source.name  # type: ignore[union-attr]
    by_name = from_extension(name)
    if by_name:
        return by_name, source
    head, source = peek(source)
    return from_content(head), source


__all__ = ["as_utf8", "detect", "from_content", "from_extension", "is_utf8_twin", "prefixed",
           "sniffed", "utf8_from_utf16", "utf16_codec"]
