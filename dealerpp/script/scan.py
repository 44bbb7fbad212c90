"""The lexical layer of a dealer script: where code, comments and strings are.

dealer's rules (shared/spec/dealer-language.md):
- ``//`` comments run to the end of the line;
- ``/* ... */`` comments may span lines and do not nest;
- ``#`` starts a comment only in column 1 (the rewriter turns a ``#`` comment
  elsewhere into a ``//`` comment, because dealer.dpp users write them);
- strings are ``"..."`` with no escapes and may span lines.

``scan`` cuts a script into regions; every character belongs to exactly one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

RegionKind = Literal["code", "line_comment", "block_comment", "hash_comment", "string"]

# What can start a non-code region inside code.
_OPENER = re.compile(r'//|/\*|#|"')


@dataclass(frozen=True)
class Region:
    kind: RegionKind
    start: int
    end: int  # exclusive; a line comment ends before its newline
    closed: bool = True  # False for a string or /* comment still open at the end

    def text(self, source: str) -> str:
        return source[self.start:self.end]


def scan(text: str) -> list[Region]:
    """Cut ``text`` into code, comment and string regions, in order."""
    regions: list[Region] = []
    position = 0
    code_start = 0
    while True:
        match = _OPENER.search(text, position)
        if match is None:
            break
        start = match.start()
        region = _region_at(text, start, match.group())
        if start > code_start:
            regions.append(Region("code", code_start, start))
        regions.append(region)
        position = code_start = region.end
    if code_start < len(text):
        regions.append(Region("code", code_start, len(text)))
    return regions


def _region_at(text: str, start: int, opener: str) -> Region:
    if opener == '"':
        end = text.find('"', start + 1)
        return Region("string", start, len(text), False) if end < 0 else Region(
            "string", start, end + 1)
    if opener == "/*":
        end = text.find("*/", start + 2)
        return Region("block_comment", start, len(text), False) if end < 0 else Region(
            "block_comment", start, end + 2)
    kind: RegionKind = "line_comment" if opener == "//" else "hash_comment"
    return Region(kind, start, _line_end(text, start))


def _line_end(text: str, start: int) -> int:
    """The offset of the line ending after ``start`` (before a CR of a CRLF)."""
    end = text.find("\n", start)
    if end < 0:
        return len(text)
    return end - 1 if end > start and text[end - 1] == "\r" else end


def is_column_one(text: str, offset: int) -> bool:
    return offset == 0 or text[offset - 1] == "\n"
