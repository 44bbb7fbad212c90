"""The .csv club format on the bulk path (dealerpp/deals/bulk/csv.py): the
writer's lines are read in bulk (a per-deal reader that refuses to be
called), writing gives the per-deal writer's bytes (boards numbered from
the output's first), and lines made odd (lower case, a board off its cycle,
``Both``, a card twice, blanks, quotes) give the per-deal path's deals or
first error wherever the chunks cut."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Deal, Seat, Vul
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples, sized
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "csv")
SETTINGS = settings(max_examples=examples(40), deadline=None)


def csv_text(count: int, seed: int, first_board: int | None = None) -> tuple[bytes, bytes]:
    raw = random_deals(count, seed).masks.astype("<u8").tobytes()
    text = per_deal(raw, "deals", "csv", first_board)
    assert isinstance(text, bytes)
    return raw, text


@pytest.mark.sampled(3)
@pytest.mark.parametrize("chunk", [60, 333, 4096, 1 << 20])
@pytest.mark.parametrize("first_board", [None, 9, 99_999_990])
def test_the_writers_lines_are_read_in_bulk(chunk: int, first_board: int | None) -> None:
    raw, text = csv_text(sized(300, 100), 5, first_board)  # chunks of 60: 180 or more
    for data in (text, text.replace(b"\n", b"\r\n")):
        out = io.BytesIO()
        convert_stream(io.BytesIO(data), out, "csv", "pbn", per_deal=PerDealRefused(), chunk=chunk)
        assert out.getvalue() == per_deal(data, "csv", "pbn")
        out = io.BytesIO()
        convert_stream(io.BytesIO(data), out, "csv", "deals", per_deal=PerDealRefused(), chunk=chunk)
        assert out.getvalue() == raw


@SETTINGS
@given(st.lists(full_masks(), max_size=10), st.none() | st.integers(1, 10**12),
       st.sampled_from([64, 300, 1 << 20]))
def test_writing_csv_in_bulk_is_the_per_deal_writer(masks: list[tuple[int, int, int, int]],
                                                    first_board: int | None, chunk: int) -> None:
    raw = np.array(masks, dtype="<u8").reshape(-1, 4).tobytes()
    assert bulk(raw, "deals", "csv", chunk, first_board) == \
        per_deal(raw, "deals", "csv", first_board)


def test_boards_and_their_dealers_come_through_from_pbn() -> None:
    """Boards of a PBN set (one with a dealer of its own) written as the
    per-deal writer writes them."""
    rows = random_deals(8, 2).masks.tolist()
    found = [Deal(tuple(row), board=40 + 3 * i) for i, row in enumerate(rows)]
    found[3] = Deal(tuple(rows[3]), board=7, dealer=Seat.WEST, vul=Vul.BOTH)
    data = deals_api.dumps(found, "pbn")
    assert isinstance(data, str)
    written = per_deal(data.encode(), "pbn", "csv")
    assert isinstance(written, bytes)
    read = per_deal(written, "csv", "pbn")
    for chunk in (64, 1 << 20):
        there = bulk(data.encode(), "pbn", "csv", chunk)
        assert there == written
        assert bulk(written, "csv", "pbn", chunk) == read


def _field(body: bytes, index: int, value: bytes) -> bytes:
    fields = body.split(b'","')
    fields[index] = value
    return b'","'.join(fields)


def odd(line: bytes, how: str) -> bytes:
    body = line.rstrip(b"\n")
    return {
        "plain": line,
        "crlf": body + b"\r\n",
        "lower": body.replace(b"K", b"k", 1) + b"\n",
        "both": body[:body.rindex(b"/") + 1] + b'Both"\n',
        "dealer": _field(body, 17, b"W" + body.split(b'","')[17][1:]) + b"\n",
        "board": _field(body, 16, b"0" + body.split(b'","')[16]) + b"\n",
        "twice": body.replace(b'"', b'"A', 1) + b"\n",
        "order": body.replace(b'"AK', b'"KA', 1) + b"\n",
        "blank": b"\n" + line,
        "spaces": b"  \n" + line,
        "trailing": body + b" \n",
        "quote": body.replace(b'","', b'", "', 1) + b"\n",
        "short": body[:-1] + b"\n",
        "lone_cr": body + b"\r",
        "latin": body.replace(b'"', b'"\xe9', 1) + b"\n",
    }[how]


WAYS = ["plain", "crlf", "lower", "both", "dealer", "board", "twice", "order", "blank",
        "spaces", "trailing", "quote", "short", "lone_cr", "latin"]


@SETTINGS
@given(st.data(), st.sampled_from([64, 250, 1 << 20]))
def test_odd_lines_give_what_the_per_deal_reader_gives(data: st.DataObject, chunk: int) -> None:
    _, text = csv_text(data.draw(st.integers(1, 10)), data.draw(st.integers(0, 99)))
    ways = st.sampled_from(["plain"] * 5 + WAYS)
    odd_text = b"".join(odd(line, data.draw(ways)) for line in text.splitlines(keepends=True))
    if data.draw(st.booleans()):
        odd_text = odd_text.rstrip(b"\n")
    for dst in TARGETS:
        assert bulk(odd_text, "csv", dst, chunk) == per_deal(odd_text, "csv", dst), dst


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", WAYS)
def test_each_odd_line_alone_and_in_the_middle(how: str) -> None:
    _, text = csv_text(5, 7)
    lines = text.splitlines(keepends=True)
    for at in (0, 2, 4):
        odd_text = b"".join(odd(line, how) if i == at else line for i, line in enumerate(lines))
        for dst in ("deals", "pbn", "hex", "bhg"):
            assert bulk(odd_text, "csv", dst, 200) == per_deal(odd_text, "csv", dst), (at, dst)


def test_an_error_after_fast_lines_names_its_line() -> None:
    _, text = csv_text(4, 8)
    lines = text.splitlines(keepends=True)
    lines[2] = odd(lines[2], "twice")
    bad = b"".join(lines)
    message = bulk(bad, "csv", "deals", 100)
    assert message == per_deal(bad, "csv", "deals")
    assert isinstance(message, str) and message.startswith("in:3:")
