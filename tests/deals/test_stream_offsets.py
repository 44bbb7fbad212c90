"""The byte of a line and column of a stream (byte_offsets.StreamOffsets),
read a few bytes at a time: line ends of every kind, a CR LF cut between
two reads, characters of 1 to 4 bytes, an undecodable byte, a byte-order
mark. The expectation is counted here over the whole text; with few bytes
kept, an answer is that one or None, never another."""

from __future__ import annotations

import io
import re
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from dealerpp.deals.byte_offsets import StreamOffsets
from tests.conftest import examples

BOM = b"\xef\xbb\xbf"
PIECES = [b"a", b"bc", "é".encode(), "日".encode(), "𝄞".encode(), b"\xff", b"\n", b"\r\n", b"\r"]


class Trickle(io.RawIOBase):
    """``data`` in reads of the sizes drawn, over and over."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        super().__init__()
        self.data, self.sizes, self.turn = data, sizes, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), self.sizes[self.turn % len(self.sizes)])
        self.turn += 1
        chunk, self.data = self.data[:size], self.data[size:]
        buffer[:len(chunk)] = chunk
        return len(chunk)


def expected(data: bytes) -> dict[tuple[int, int], int]:
    """Every (line, column) of ``data``, universal newlines, to its byte."""
    base = len(BOM) if data.startswith(BOM) else 0
    parts = re.split(rb"(\r\n|\r|\n)", data[base:])
    places = {}
    position = base
    for index in range(0, len(parts), 2):
        text = parts[index].decode("utf-8", "surrogateescape")
        at = position
        for column, char in enumerate(text, 1):
            places[(index // 2 + 1, column)] = at
            at += len(char.encode("utf-8", "surrogateescape"))
        places[(index // 2 + 1, len(text) + 1)] = at  # just past the line's text
        position += len(parts[index]) + (len(parts[index + 1]) if index + 1 < len(parts) else 0)
    return places


@settings(max_examples=examples(200, 40), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.booleans(),
       st.lists(st.integers(1, 7), min_size=1, max_size=5), st.sampled_from([1, 8, 1 << 20]))
@example([b"a"], True, [1], 8)  # the mark in three reads: line 1 starts after it all
def test_a_line_and_column_give_their_byte(pieces: list[bytes], bom: bool, sizes: list[int],
                                           kept: int) -> None:
    data = (BOM if bom else b"") + b"".join(pieces)
    offsets = StreamOffsets(io.BufferedReader(Trickle(data, sizes), 3), kept)
    assert offsets.read() == data
    for (line, column), byte in expected(data).items():
        found = offsets.offset(line, column)
        if kept >= len(data):
            assert found == byte, (line, column)
        else:
            assert found in (byte, None), (line, column)
    assert offsets.offset(len(re.split(rb"\r\n|\r|\n", data)) + 1, 1) is None
