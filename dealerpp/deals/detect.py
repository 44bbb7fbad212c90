"""Which format a deal file is in: from its extension, else from its content.

Extensions: ``.pbn`` pbn, ``.gib`` giblib, ``.deals`` deals, ``.dx`` dx,
``.hex`` hex. Content is sniffed from the first few kilobytes (a stream is
peeked, not consumed). A line of four bare hands is read as a PBN deal
string (N E S W, seed 003) unless it has a giblib trick string (``:``).
"""

from __future__ import annotations

import io
import os
import re
from typing import IO, Any

from dealerpp.deals._io import Source, is_path, read_full

FORMATS = ("pbn", "giblib", "deals", "dx", "hex", "listing", "oneline", "compact", "printall")
EXTENSIONS = {".pbn": "pbn", ".gib": "giblib", ".giblib": "giblib", ".deals": "deals", ".dx": "dx", ".hex": "hex"}
SNIFF = 4096

_HAND = r"[AKQJT2-9akqjt]*\.[AKQJT2-9akqjt]*\.[AKQJT2-9akqjt]*\.[AKQJT2-9akqjt]*"
_FOUR_HANDS = re.compile(rf"({_HAND}|-)(\s+({_HAND}|-)){{3}}")


def from_extension(name: str | None) -> str | None:
    if not name:
        return None
    return EXTENSIONS.get(os.path.splitext(name)[1].lower())


def peek(source: Source) -> tuple[bytes, Source]:
    """The first bytes of a source and a source that still yields all of it."""
    if is_path(source):
        with open(source, "rb") as handle:  # type: ignore[arg-type]
            return handle.read(SNIFF), source
    if isinstance(source, str):
        return source[:SNIFF].encode("utf-8", "surrogateescape"), source
    if isinstance(source, (bytes, bytearray)):
        return bytes(source[:SNIFF]), source
    if isinstance(source, io.TextIOBase) and not hasattr(source, "buffer"):
        # An in-memory text stream (StringIO): its text is in memory already.
        text = source.read()
        return text[:SNIFF].encode("utf-8", "surrogateescape"), text
    stream = getattr(source, "buffer", source)
    if isinstance(stream, io.BufferedReader):
        # Peek, so the stream itself (often sys.stdin.buffer) still holds
        # everything for whoever reads it next. A pipe fills the buffer with
        # its first block, so this sees whole lines in practice.
        return stream.peek(SNIFF)[:SNIFF], stream
    # Any other stream: read the head and give it back in front of the rest.
    head = _read_head(stream)
    return head, io.BufferedReader(_Prefixed(head, stream), SNIFF * 2)


def _read_head(stream: IO[bytes]) -> bytes:
    return read_full(stream, SNIFF)


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
    """The format the first bytes look like, or None when empty."""
    if not head:
        return None
    if _is_binary(head):
        return "deals" if _looks_like_deals(head) else "dx"
    text = head.decode("utf-8", "replace").removeprefix("\ufeff")
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("%"):
            continue
        return _line_format(line, stripped)
    return None


def _line_format(line: str, stripped: str) -> str:
    if stripped.startswith(("[", ";")):
        return "pbn"
    if stripped.startswith("{"):
        return "giblib"
    if stripped.startswith("Deal #"):
        return "listing"
    if re.fullmatch(r"\d+\.", stripped):
        return "printall"
    if line.startswith("n ") and " e " in line and " w " in line:
        return "oneline"
    if re.fullmatch(r"n \S*", stripped):
        return "compact"
    if re.fullmatch(r"[0-9A-Fa-f]{26}(-[0-9A-Fa-f])?", stripped):
        return "hex"
    if re.match(r"[NESWnesw]:", stripped):
        return "pbn"
    if _FOUR_HANDS.match(stripped) and ":" in stripped:
        return "giblib"
    return "pbn"


def _is_binary(head: bytes) -> bool:
    if b"\0" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the sniff window is still text.
        return error.start < len(head) - 4
    return any(b < 9 or 13 < b < 32 for b in head)


def _looks_like_deals(head: bytes) -> bool:
    """Bits 52-63 are clear in all four masks of the first record."""
    if len(head) < 32:
        return len(head) % 32 == 0
    return all(head[8 * i + 7] == 0 and head[8 * i + 6] < 16 for i in range(4))


def detect(source: Source, name: str | None = None) -> tuple[str | None, Source]:
    """Format name (None for empty input) and the source to read it from."""
    if name is None:
        if is_path(source):
            name = os.fspath(source)  # type: ignore[arg-type]
        elif isinstance(getattr(source, "name", None), str):
            name = source.name  # type: ignore[union-attr]
    by_name = from_extension(name)
    if by_name:
        return by_name, source
    head, source = peek(source)
    return from_content(head), source


__all__ = ["EXTENSIONS", "FORMATS", "detect", "from_content", "from_extension"]
