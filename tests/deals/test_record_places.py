"""Where a bad record of a text format is, as data: the error names the
record's place in the file (``deal``: the PBN reader's count, the bad
record counted) and the byte its line and column stand for (the file read
from a path or from bytes), on the per-deal path and on the bulk path.

The expectations come from the file, not from a reader: files are built a
record at a time, record K is damaged at a byte found by the format's
layout (docs/formats.md: a line a deal, four lines a deal, a block a deal,
a ``Board NN=`` line a board...), and the error must name deal K and a
byte between record K's start and the damage, the one its line and column
name (counted here over the raw bytes); where the reader points at the bad
character itself, that byte exactly.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.files import dumps, read_source
from dealerpp.deals.model import Deal
from dealerpp.diagnostics import DppError
from tests.conftest import examples
from tests.deals.strategies import full_masks

BOM = b"\xef\xbb\xbf"
RANK = rb"[AKQJT2-9]"

# Where record K starts: the K-th match of the pattern (a line a deal, or
# the line that opens a deal's lines), and where in it the damage goes (the
# first match of the second pattern from the record's start: its group 1
# if it has one) and the byte put there (no format takes it at that place).
LAYOUT: dict[str, tuple[bytes, bytes, bytes]] = {
    "oneline": (rb"(?m)^n ", RANK, b"Z"),
    "compact": (rb"(?m)^n ", RANK, b"Z"),
    "printall": (rb"(?m)^ *\d+\.\r?$", rb"\n[^\n]*?(" + RANK + b")", b"Z"),
    "listing": (rb"Deal #", rb"North: ([SHDC])", b"Z"),
    "hex": (rb"(?m)^[0-9A-F]", rb"[0-9A-F]", b"Z"),
    "giblib": (rb"(?m)^\S", RANK, b"Z"),
    "csv": (rb"(?m)^\"", rb"\"(" + RANK + b")", b"Z"),
    "bhg": (rb"(?m)^[A-Za-z]", rb"[A-Za-z]", b"1"),
    "html": (rb"data-deal=\"", rb"N:[^\"]*?(" + RANK + b")", b"Z"),
    "lin": (rb"(?m)^qx\|", rb"md\|\d[^|]*?(" + RANK + b")", b"Z"),
    "dlm": (rb"(?m)^Board \d+=", rb"=([a-p])", b"z"),
}
# The readers whose column is the bad character's (the others point at the
# hand, row or record that holds it).
EXACT = {"listing", "hex", "giblib", "csv", "bhg", "lin", "dlm"}
BULK = [fmt for fmt in LAYOUT if fmt in formats.FAST]


def damaged(data: bytes, fmt: str, place: int) -> tuple[bytes, int, int]:
    """``data`` with record ``place`` (from 1) damaged; the record's first
    byte and the damaged byte."""
    opens, site, bad = LAYOUT[fmt]
    base = len(BOM) if data.startswith(BOM) else 0  # (no line start for ``^``)
    starts = [base + found.start() for found in re.finditer(opens, data[base:])]
    start = starts[place - 1]
    found = re.compile(site).search(data, start)
    assert found is not None
    at = found.start(1) if found.re.groups else found.start()
    assert at < (starts[place] if place < len(starts) else len(data))
    return data[:at] + bad + data[at + 1:], start, at


def byte_of(data: bytes, line: int, column: int) -> int:
    """The byte of a 1-based line and column (characters) of ``data``, line
    ends as universal newlines take them, a leading byte-order mark left out."""
    base = len(BOM) if data.startswith(BOM) else 0
    parts = re.split(rb"(\r\n|\r|\n)", data[base:])
    before = sum(len(part) for part in parts[:2 * (line - 1)])
    text = parts[2 * (line - 1)].decode("utf-8", "surrogateescape")
    return base + before + len(text[:column - 1].encode("utf-8", "surrogateescape"))


def written(fmt: str, masks: list[tuple[int, int, int, int]], crlf: bool, bom: bool) -> bytes:
    text = dumps([Deal(m) for m in masks], fmt)
    data = text.encode() if isinstance(text, str) else text
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    return BOM + data if bom else data


def check(error: DppError, data: bytes, fmt: str, place: int, start: int, at: int) -> None:
    assert error.deal == place, error
    assert error.line is not None and error.column is not None and error.byte is not None
    assert error.byte == byte_of(data, error.line, error.column)
    assert start <= error.byte <= at
    if fmt in EXACT:
        assert error.byte == at
    assert not error.output


@st.composite
def bad_files(draw: st.DrawFn, fmts: list[str], most: int) -> tuple[str, bytes, int, int, int]:
    fmt = draw(st.sampled_from(fmts))
    masks = draw(st.lists(full_masks(), min_size=1, max_size=most))
    crlf, bom = draw(st.booleans()), draw(st.booleans())
    data = written(fmt, masks, crlf, bom)
    place = draw(st.integers(1, len(masks)))
    bad, start, at = damaged(data, fmt, place)
    return fmt, bad, place, start, at


@settings(max_examples=examples(200, 40), deadline=None)
@given(bad_files(list(LAYOUT), 12))
def test_a_bad_record_names_its_place_and_byte(bad: tuple[str, bytes, int, int, int]) -> None:
    fmt, data, place, start, at = bad
    with pytest.raises(DppError) as raised:
        list(read_source(data, fmt, filename="in"))
    check(raised.value, data, fmt, place, start, at)


@settings(max_examples=examples(150, 30), deadline=None)
@given(bad_files(BULK, 60), st.sampled_from([64, 300, 4096, 1 << 20]))
def test_the_bulk_path_names_the_same_place_and_byte(bad: tuple[str, bytes, int, int, int],
                                                     chunk: int) -> None:
    fmt, data, place, start, at = bad
    with pytest.raises(DppError) as raised:
        convert_stream(io.BytesIO(data), io.BytesIO(), fmt, "deals" if fmt != "deals" else "hex",
                       filename="in", chunk=chunk)
    check(raised.value, data, fmt, place, start, at)


def test_a_path_is_read_for_the_byte_and_a_text_has_none(tmp_path: Path) -> None:
    masks = [(0x1FFF << 39, 0x1FFF << 26, 0x1FFF << 13, 0x1FFF)] * 3
    data, _, at = damaged(written("hex", masks, False, False), "hex", 2)
    path = tmp_path / "in.hex"
    path.write_bytes(data)
    with pytest.raises(DppError) as raised:
        list(read_source(str(path), "hex"))
    assert (raised.value.deal, raised.value.byte) == (2, at)
    # a text (str) has no bytes of its own: the deal still, the byte not
    with pytest.raises(DppError) as raised:
        list(read_source(data.decode(), "hex"))
    assert (raised.value.deal, raised.value.byte) == (2, None)
    assert str(raised.value).startswith("2:1: error: deal 2: bad hex digit 'Z'")


class _Trickle(io.RawIOBase):
    """A stream that gives a few bytes a read and cannot seek, as a pipe
    may: what was read cannot be read again to find a byte."""

    def __init__(self, data: bytes, step: int) -> None:
        super().__init__()
        self._data, self._at, self._step = data, 0, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        part = self._data[self._at:self._at + min(self._step, len(buffer))]
        buffer[:len(part)] = part
        self._at += len(part)
        return len(part)


def streams(data: bytes, kind: str) -> IO[Any]:
    """``data`` as a caller may hand it over open: a binary file, a text
    file, or a pipe-like stream (buffered or not) that gives 7 bytes a read."""
    if kind == "binary":
        return io.BytesIO(data)
    if kind == "text":
        return io.TextIOWrapper(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")
    if kind == "pipe":
        return io.BufferedReader(_Trickle(data, 7))
    return _Trickle(data, 7)


@settings(max_examples=examples(150, 30), deadline=None)
@given(bad_files(list(LAYOUT), 12), st.sampled_from(["binary", "text", "pipe", "raw"]))
def test_an_open_file_names_the_same_place_and_byte(bad: tuple[str, bytes, int, int, int],
                                                    kind: str) -> None:
    """Read from an open file (deals.read(open(path))) or standard input,
    the bytes are counted as they pass: the byte is the one a path gives."""
    fmt, data, place, start, at = bad
    with pytest.raises(DppError) as raised:
        list(read_source(streams(data, kind), fmt, filename="in"))
    check(raised.value, data, fmt, place, start, at)
