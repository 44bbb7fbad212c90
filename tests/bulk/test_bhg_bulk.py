""".bhg on the bulk path (dealerpp/deals/bulk/bhg.py): the writer's files are
read in bulk (a per-deal reader that refuses to be called), writing gives
the per-deal writer's bytes, and lines made odd give the per-deal path's
deals or first error, wherever the chunks cut, boards numbered by place
(from --first-board too) across the per-deal pieces."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Deal
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "bhg")
SETTINGS = settings(max_examples=examples(40), deadline=None)


def read_fast(data: bytes, chunk: int, first_board: int | None = None) -> bytes:
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, "bhg", "deals", per_deal=PerDealRefused(), chunk=chunk,
                   first_board=first_board)
    return out.getvalue()


@pytest.mark.parametrize("chunk", [60, 100, 4096, 1 << 20])
def test_the_writers_files_are_read_in_bulk(chunk: int) -> None:
    """Each hand lands on its seat: the dealer of each board by place."""
    raw = random_deals(50, 3).masks.astype("<u8").tobytes()
    text = per_deal(raw, "deals", "bhg")
    assert isinstance(text, bytes)
    assert read_fast(text, chunk) == raw
    assert read_fast(text.replace(b"\n", b"\r\n"), chunk) == raw
    shifted = per_deal(raw, "deals", "bhg", first_board=7)
    assert isinstance(shifted, bytes) and shifted != text
    assert read_fast(shifted, chunk, first_board=7) == raw


@SETTINGS
@given(st.lists(full_masks(), max_size=10), st.none() | st.integers(1, 40),
       st.sampled_from([64, 300, 1 << 20]))
def test_writing_bhg_in_bulk_is_the_per_deal_writer(masks: list[tuple[int, int, int, int]],
                                                    first_board: int | None, chunk: int) -> None:
    raw = np.array(masks, dtype="<u8").reshape(-1, 4).tobytes()
    assert bulk(raw, "deals", "bhg", chunk, first_board) == \
        per_deal(raw, "deals", "bhg", first_board)


def test_boards_of_the_source_number_the_output_from_its_first() -> None:
    """PBN boards from 5: the writer numbers from the first deal's board."""
    found = [Deal(tuple(row), board=5 + i) for i, row in enumerate(random_deals(9, 1).masks.tolist())]
    data = deals_api.dumps(found, "pbn")
    assert isinstance(data, str)
    expected = per_deal(data.encode(), "pbn", "bhg")
    for chunk in (64, 1 << 20):
        assert bulk(data.encode(), "pbn", "bhg", chunk) == expected


def odd(line: bytes, how: str) -> bytes:
    body = line.rstrip(b"\n")
    return {
        "plain": line,
        "crlf": body + b"\r\n",
        "blank": b"\n" + line,
        "spaces": b"   \n" + line,
        "trailing": body + b" \n",
        "leading": b" " + line,
        "twice": body[:1] + body[:1] + body[2:] + b"\n",
        "short": body[:-1] + b"\n",
        "long": body + b"A\n",
        "digit": b"1" + body[1:] + b"\n",
        "swap": body[13:26] + body[:13] + body[26:] + b"\n",
        "lone_cr": body + b"\r",
        "nbsp": b"\xc2\xa0\n" + line,
        "latin": body[:-1] + b"\xe9\n",
        "one_letter": line + b".",  # the file's last line, one byte, no line end
    }[how]


WAYS = ["plain", "crlf", "blank", "spaces", "trailing", "leading", "twice", "short", "long",
        "digit", "swap", "lone_cr", "nbsp", "latin", "one_letter"]


@SETTINGS
@given(st.data(), st.sampled_from([64, 250, 1 << 20]), st.none() | st.integers(1, 30))
def test_odd_lines_give_what_the_per_deal_reader_gives(data: st.DataObject, chunk: int,
                                                       first_board: int | None) -> None:
    raw = random_deals(data.draw(st.integers(1, 12)), data.draw(st.integers(0, 99)))
    text = per_deal(raw.masks.astype("<u8").tobytes(), "deals", "bhg")
    assert isinstance(text, bytes)
    head, *lines = text.splitlines(keepends=True)
    ways = st.sampled_from(["plain"] * 6 + WAYS)
    odd_text = head + b"".join(odd(line, data.draw(ways)) for line in lines)
    if data.draw(st.booleans()):
        odd_text = odd_text.rstrip(b"\n")
    for dst in TARGETS:
        assert bulk(odd_text, "bhg", dst, chunk, first_board) == \
            per_deal(odd_text, "bhg", dst, first_board), dst


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", WAYS)
def test_each_odd_line_alone_and_in_the_middle(how: str) -> None:
    text = per_deal(random_deals(6, 4).masks.astype("<u8").tobytes(), "deals", "bhg")
    assert isinstance(text, bytes)
    lines = text.splitlines(keepends=True)
    for at in (1, 3, 6):
        odd_text = b"".join(odd(line, how) if i == at else line for i, line in enumerate(lines))
        for dst in ("deals", "pbn", "csv" if "csv" in formats.FAST else "hex"):
            assert bulk(odd_text, "bhg", dst, 120) == per_deal(odd_text, "bhg", dst), (at, dst)


def test_an_error_after_fast_boards_names_its_line_and_board() -> None:
    text = per_deal(random_deals(5, 8).masks.astype("<u8").tobytes(), "deals", "bhg")
    assert isinstance(text, bytes)
    lines = text.splitlines(keepends=True)
    lines[4] = odd(lines[4], "twice")  # board 4, line 5
    bad = b"".join(lines)
    message = bulk(bad, "bhg", "deals", 100)
    assert message == per_deal(bad, "bhg", "deals")
    assert isinstance(message, str) and message.startswith("in:5:") and "board 4" in message


def test_an_empty_set_is_the_blank_line() -> None:
    assert bulk(b"", "deals", "bhg") == per_deal(b"", "deals", "bhg") == b"\n"
