"""Which format a deal file is in: from its extension, else from its content.

Both come from the registry (``dealerpp.deals.formats``): each format's
extensions, and its sniffer, shown the first few kilobytes (a stream is
peeked, not consumed). A text no sniffer claims is read as PBN, so a line of
four bare hands is a PBN deal string (N E S W, seed 003) unless it has a
giblib trick string (``:``).
"""

from __future__ import annotations

import io
import os
from typing import IO, Any, cast

from dealerpp.deals import formats
from dealerpp.deals._io import Source, is_path, read_full

FORMATS = formats.NAMES
EXTENSIONS = formats.BY_EXTENSION
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
    is nothing to see (no bytes, or only blank and ``%`` lines)."""
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


__all__ = ["EXTENSIONS", "FORMATS", "detect", "from_content", "from_extension", "prefixed", "sniffed"]
