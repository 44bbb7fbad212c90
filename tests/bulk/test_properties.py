"""The bulk path and the per-deal path give the same bytes, or the same
error, for every pair of fast formats, on random files."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.formats.giblib import tricks_of_text
from dealerpp.deals.model import Deal
from tests.conftest import examples, sized, some_of
from tests.deals.strategies import full_masks

from .helpers import FAST, LINE_FORMATS, bulk, partial_masks, per_deal, write_per_deal

SETTINGS = settings(max_examples=examples(25), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
CHUNKS = st.sampled_from([64, 200, 1 << 20])
TRICKS = st.text(alphabet="0123456789ABCD-", min_size=20, max_size=20)


@st.composite
def deal_lists(draw: st.DrawFn, partial: bool = False, equal: bool = False) -> list[Deal]:
    kinds = [full_masks()]
    if partial:
        kinds.append(partial_masks(equal=equal))
    masks = draw(st.lists(st.one_of(*kinds), min_size=0, max_size=12))
    deals = []
    for m in masks:
        tricks = draw(st.none() | TRICKS) if equal else None
        if tricks and any(c != "-" and int(c, 16) > bin(m[0]).count("1") for c in tricks):
            tricks = None
        deals.append(Deal(m, tricks=tricks_of_text(tricks, bin(m[0]).count("1")) if tricks else None))
    return deals


def check_all_targets(data: bytes, src: str, chunk: int) -> None:
    for dst in FAST:
        if dst != src:
            assert bulk(data, src, dst, chunk) == per_deal(data, src, dst), (src, dst)


@SETTINGS
@given(deal_lists(), st.sampled_from(FAST), CHUNKS)
def test_full_deals_every_pair(deals: list[Deal], src: str, chunk: int) -> None:
    check_all_targets(write_per_deal(deals, src), src, chunk)


@SETTINGS
@given(deal_lists(partial=True), st.sampled_from(["deals", "pbn", "oneline", "compact", "listing"]),
       CHUNKS)
def test_mixed_full_and_partial(deals: list[Deal], src: str, chunk: int) -> None:
    check_all_targets(write_per_deal(deals, src), src, chunk)


@SETTINGS
@given(deal_lists(partial=True, equal=True), CHUNKS)
def test_giblib_mixed_with_end_positions_and_tricks(deals: list[Deal], chunk: int) -> None:
    check_all_targets(write_per_deal(deals, "giblib"), "giblib", chunk)


def _decorate(line: bytes, how: str) -> bytes:
    """One record line made odd in a way the fast path must hand over."""
    body = line.rstrip(b"\n")
    return {
        "plain": line,
        "lower": body.lower() + b"\n",
        "indent": b"  " + line,
        "trailing": body + b" \n",
        "crlf": body + b"\r\n",
        "blank": line + b"\n",
        "twice": body[:5] + body[4:5] + body[6:] + b"\n",  # a card twice
        "junk": b"x" + body[1:] + b"\n",
    }[how]


EXTRA = {
    "giblib": [b"{name=deal7 trumps=h}\n", b"{ a comment\nover lines }\n"],
    "pbn": [b"% a note\n", b'[Event "x"]\n[Board "3"]\n', b"; comment\n"],
    "oneline": [b"Generated 10 hands\n", b"Produced 3 hands\n"],
    "hex": [b"\n"],
}


@SETTINGS
@given(st.data(), st.sampled_from(["giblib", "pbn", "oneline", "hex"]), CHUNKS)
def test_odd_records_go_through_the_per_deal_path(data: st.DataObject, src: str,
                                                  chunk: int) -> None:
    deals = data.draw(deal_lists())
    ways = st.sampled_from(["plain", "plain", "lower", "indent", "trailing", "crlf", "blank",
                            "twice", "junk"])
    lines = write_per_deal(deals, src).splitlines(keepends=True)
    out = b""
    for line in lines:
        if data.draw(st.integers(0, 9)) == 0:
            out += data.draw(st.sampled_from(EXTRA[src]))
        out += _decorate(line, data.draw(ways)) if line.strip() else line
    check_all_targets(out, src, chunk)


def random_deals(count: int, seed: int) -> DealArray:
    rng = np.random.default_rng(seed)
    owner = (np.argsort(rng.random((count, 52)), axis=1) // 13).astype(np.uint8)
    return DealArray.from_owner(owner)


@pytest.mark.sampled(3)
@pytest.mark.parametrize("fmt", [f for f in FAST if f != "deals"])
def test_deals_round_trip_byte_identical(fmt: str) -> None:
    raw = random_deals(3000, 7).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", fmt, chunk=10_000)
    assert isinstance(text, bytes)
    assert bulk(text, fmt, "deals", chunk=10_000) == raw


def test_deals_giblib_deals_in_small_chunks() -> None:
    raw = random_deals(2000, 3).masks.astype("<u8").tobytes()
    out = io.BytesIO()
    assert convert_stream(io.BytesIO(raw), out, "deals", "giblib", chunk=4096) == 2000
    back = io.BytesIO()
    assert convert_stream(io.BytesIO(out.getvalue()), back, "giblib", "deals", chunk=999) == 2000
    assert back.getvalue() == raw


def test_truncated_deals_file_is_the_per_deal_error() -> None:
    raw = random_deals(5, 1).masks.astype("<u8").tobytes() + b"\0" * 7
    assert bulk(raw, "deals", "hex", chunk=64) == per_deal(raw, "deals", "hex")


def test_bad_mask_names_the_record() -> None:
    masks = random_deals(4, 2).masks.copy()
    masks[2, 1] |= np.uint64(1) << np.uint64(60)
    raw = masks.astype("<u8").tobytes()
    message = bulk(raw, "deals", "giblib", chunk=64)
    assert message == per_deal(raw, "deals", "giblib")
    assert "byte 64" in str(message)


@pytest.mark.sampled(2)
@pytest.mark.parametrize("fmt", LINE_FORMATS)
def test_sub_blocks_on_threads_keep_order_and_bad_rows(fmt: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from dealerpp.deals.bulk import blocks

    count = sized(1000, 250)
    monkeypatch.setattr(blocks, "SUB_ROWS", count // 10 - 3)  # ~10 sub-blocks, on helper threads
    raw = random_deals(count, 11).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", fmt)
    assert isinstance(text, bytes)
    assert bulk(text, fmt, "deals") == raw
    lines = text.splitlines(keepends=True)
    middle = min(count // 2, len(lines) - 2)  # .dx holds about two deals a line
    for index in (3, middle, count - 2):  # records the fast path hands over, spread over sub-blocks
        if fmt in ("giblib", "pbn"):
            lines[index] = lines[index].replace(b" ", b"\t", 1)  # a tab: read per deal
        elif index == middle:
            lines[index] = lines[index][:4] + lines[index][3:4] + lines[index][5:]  # an error
    odd = b"".join(lines)
    for dst in some_of([f for f in FAST if f != fmt]):
        assert bulk(odd, fmt, dst) == per_deal(odd, fmt, dst), dst


@pytest.mark.sampled(2)
@pytest.mark.parametrize("fmt", LINE_FORMATS)
def test_crlf_files_and_no_final_newline(fmt: str) -> None:
    raw = random_deals(sized(300, 100), 12).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", fmt)
    assert isinstance(text, bytes)
    targets = some_of([f for f in FAST if f != fmt])
    for variant in (text.replace(b"\n", b"\r\n"), text[:-1]):
        for dst in targets:
            assert bulk(variant, fmt, dst, chunk=sized(5000, 1700)) == \
                per_deal(variant, fmt, dst), dst
