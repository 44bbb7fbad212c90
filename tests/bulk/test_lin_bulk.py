"""Deal-only LIN on the bulk path (issue 26): the bulk reader and writer give
the bytes, deals and first error of the per-deal LIN reader and writer, on
generated sets, on sets made odd in the ways LIN allows, and on every file
of the shared LIN corpus; and the writer's own sets really are read in
bulk (a per-deal reader that refuses to be called)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.codecs import CODECS
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.formats import lin
from dealerpp.deals.model import Deal, board_dealer_vul
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples
from tests.deals.strategies import full_masks
from tests.deals.test_lin_corpus import FILES, needs_corpus

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "lin")
SETTINGS = settings(max_examples=examples(40), deadline=None)


def lin_set(masks: np.ndarray, first: int = 1) -> bytes:
    """A deal-only set as the per-deal writer writes it, boards from ``first``."""
    found = [Deal(tuple(row), board=first + i) for i, row in enumerate(masks.tolist())]
    out = io.BytesIO()
    deals_api.write(out, found, "lin")
    return out.getvalue()


def read_fast(data: bytes, chunk: int = 1 << 20) -> bytes:
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, "lin", "deals", per_deal=PerDealRefused(), chunk=chunk)
    return out.getvalue()


@pytest.mark.parametrize("first", [1, 5, 95, 990, 99_999_990])
@pytest.mark.parametrize("chunk", [100, 4096, 1 << 20])
def test_the_writers_sets_are_read_in_bulk(first: int, chunk: int) -> None:
    """Across board numbers of 1 to 9 digits and chunks that cut lines anywhere."""
    masks = random_deals(40, first).masks
    data = lin_set(masks, first)
    assert read_fast(data, chunk) == masks.astype("<u8").tobytes()
    assert read_fast(data.replace(b"\n", b"\r\n"), chunk) == masks.astype("<u8").tobytes()


def test_the_bulk_reader_gives_boards_of_the_cycle() -> None:
    masks = random_deals(20, 4).masks
    data = lin_set(masks, 7)
    arr, ok = CODECS["lin"].decode(data[:len(data.splitlines(keepends=True)[0])], 89)  # type: ignore[call-arg]
    assert ok is None and arr.boards is not None and arr.boards.tolist() == [7]
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, "lin", "pbn", per_deal=PerDealRefused())
    read_back = list(deals_api.read_source(out.getvalue(), "pbn"))
    expected = list(deals_api.read_source(data, "lin"))
    assert [(d.masks, d.board, d.dealer, d.vul) for d in read_back] == \
        [(d.masks, d.board, d.dealer, d.vul) for d in expected]
    assert all((d.dealer, d.vul) == board_dealer_vul(d.board or 0) for d in expected)


@SETTINGS
@given(st.lists(full_masks(), max_size=12), st.none() | st.integers(1, 2000),
       st.sampled_from([64, 300, 1 << 20]))
def test_writing_lin_in_bulk_is_the_per_deal_writer(masks: list[tuple[int, int, int, int]],
                                                    first_board: int | None, chunk: int) -> None:
    """.deals -> LIN, numbered by place or from --first-board (digits change
    within a chunk), byte for byte."""
    raw = np.array(masks, dtype="<u8").reshape(-1, 4).tobytes()
    assert bulk(raw, "deals", "lin", chunk, first_board) == \
        per_deal(raw, "deals", "lin", first_board)


def test_boards_of_mixed_widths_in_one_block() -> None:
    """Board numbers of several digit counts out of order in one array."""
    arr = random_deals(6, 9)
    arr.boards = np.array([7, 123, 10, 5, 99_999, 1], np.int64)
    data = bytes(CODECS["lin"].encode(arr))
    expected = lin.dumps(arr.to_deals()).encode()
    assert data == expected


def odd(line: bytes, how: str) -> bytes:
    """A deal-only board line made odd in a way LIN allows (or does not)."""
    body = line.rstrip(b"\n")
    return {
        "plain": line,
        "lower": body.lower() + b"\n",  # keys and cards in lower case
        "ten": body.replace(b"T", b"10", 1) + b"\n",
        "dealer": body[:body.index(b"|md|") + 4] + b"1" + body[body.index(b"|md|") + 5:] + b"\n",
        "vul": body[:-6] + b"B|pg||\n",
        "comma": body.replace(b"|rh|", b",|rh|") + b"\n",
        "split": body.replace(b"|rh||", b"|\nrh||") + b"\n",
        "twice": body.replace(b",S", b",SA", 1) + b"\n",
        "auction": body + b"mb|1C|mb|p|pg||\n",
        "header": b"vg|Club,1,I,1,9,A,0,B,0|pg||\n" + line,
        "players": b"pn|a,b,c,d|" + line,
        "comment": b"% made by hand\n" + line,
        "blank": line + b"\n",
        "crlf": body + b"\r\n",
        "bom": b"\xef\xbb\xbf" + line,
        "order": body.replace(b"H", b"X").replace(b"D", b"H").replace(b"X", b"D") + b"\n",
    }[how]


WAYS = ["plain", "lower", "ten", "dealer", "vul", "comma", "split", "twice", "auction",
        "header", "players", "comment", "blank", "crlf", "bom", "order"]


@SETTINGS
@given(st.data(), st.sampled_from([64, 250, 1 << 20]))
def test_odd_sets_give_what_the_per_deal_reader_gives(data: st.DataObject, chunk: int) -> None:
    masks = random_deals(data.draw(st.integers(1, 14)), data.draw(st.integers(0, 999))).masks
    lines = lin_set(masks, data.draw(st.sampled_from([1, 8, 97]))).splitlines(keepends=True)
    ways = st.sampled_from(["plain"] * 6 + WAYS)
    text = b"".join(odd(line, data.draw(ways)) for line in lines)
    if data.draw(st.booleans()):
        text = text.rstrip(b"\n")  # no final line end
    for dst in TARGETS:
        assert bulk(text, "lin", dst, chunk) == per_deal(text, "lin", dst), dst


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", WAYS)
def test_each_odd_line_alone_and_in_the_middle(how: str) -> None:
    lines = lin_set(random_deals(5, 3).masks, 8).splitlines(keepends=True)
    for at in (0, 2, 4):
        text = b"".join(odd(line, how) if i == at else line for i, line in enumerate(lines))
        for dst in ("deals", "pbn", "hex"):
            assert bulk(text, "lin", dst, 100) == per_deal(text, "lin", dst), (at, dst)


def test_a_line_of_a_record_width_that_is_no_record_leaves_the_board_before_it_whole() -> None:
    """``pn|a,b,c,d|`` before board 2's line makes it 11 bytes longer: the
    width of a 6-digit board's CR LF record. That line fails the record's
    checks at once, and board 1 (whose follower is no ``qx|``) went to both
    the bulk and the per-deal reader: read twice (found by hypothesis)."""
    lines = lin_set(random_deals(3, 0).masks).splitlines(keepends=True)
    text = lines[0] + b"pn|a,b,c,d|" + lines[1] + lines[2]
    assert len(lines[0]) + 11 in CODECS["lin"].record_widths()  # the premise
    for dst in ("deals", "pbn"):
        assert bulk(text, "lin", dst, 1 << 20) == per_deal(text, "lin", dst), dst
    assert len(deals_api.loads(bulk(text, "lin", "deals", 1 << 20), "deals")) == 3


def test_an_auction_on_the_next_line_belongs_to_the_board() -> None:
    """The per-deal reader's quick path took a Big Deal line as a whole board
    even when its calls followed on the next line (they were lost)."""
    line = lin_set(random_deals(1, 5).masks)
    board = next(lin.read(line + b"mb|1S|mb|p|mb|p|mb|p|pg||\n"))
    assert [str(call) for call in board.auction] == ["1S", "Pass", "Pass", "Pass"]
    header_after = line + b"vg|x,y,I,1,2,A,0,B,0|" + line.replace(b"o1|", b"o2|")
    assert [d.board for d in lin.read(header_after)] == [1, 1]


def test_an_error_after_fast_boards_names_the_line_and_the_deal() -> None:
    lines = lin_set(random_deals(4, 6).masks).splitlines(keepends=True)
    bad = lines[2].replace(b"|ah|Board 3|", b"|")  # no heading: the board is named by qx
    bad = bad.replace(b"qx|o3|", b"").replace(b",S", b",SA", 1)  # ... and has a card twice
    text = b"".join([*lines[:2], bad, lines[3]])
    message = bulk(text, "lin", "deals", 64)
    assert message == per_deal(text, "lin", "deals")
    assert isinstance(message, str) and message.startswith("in:3:")


def test_lin_through_every_fast_format_and_back() -> None:
    masks = random_deals(500, 21).masks
    data = lin_set(masks)
    for other in TARGETS:
        there = bulk(data, "lin", other, 4096)
        assert isinstance(there, bytes)
        assert there == per_deal(data, "lin", other), other
        if other != "hex":  # hex's -D keeps the board number mod 16 only
            assert bulk(there, other, "lin", 4096) == data, other


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_corpus_file_converts_as_the_per_deal_path_does(path: Path) -> None:
    """The producers' own files (read in place, never copied): the bulk path
    gives the per-deal path's bytes for every target, in small chunks too."""
    data = path.read_bytes()
    for dst in TARGETS:
        expected = per_deal(data, "lin", dst)
        for chunk in (256, 1 << 20):
            assert bulk(data, "lin", dst, chunk) == expected, (dst, chunk)


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_corpus_deals_rewritten_deal_only_are_read_in_bulk(path: Path) -> None:
    """Each corpus file's deals, boards renumbered as a set, written deal-only:
    read back in bulk to the same deals."""
    found = list(lin.read(path.read_bytes()))
    masks = np.array([d.masks for d in found], dtype=np.uint64).reshape(-1, 4)
    data = lin_set(masks)
    assert bytes(CODECS["lin"].encode(DealArray(masks))) == data
    assert read_fast(data, 512) == masks.astype("<u8").tobytes()
