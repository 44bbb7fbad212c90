"""The listing on the bulk path (dealerpp/deals/bulk/listing.py): the writer's
listings are read in bulk (a per-deal reader that refuses to be called),
written in bulk byte for byte as the per-deal writer writes them, deal
numbers of any width; records made odd go to the per-deal reader with the
same deals or the same first error."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "listing")


@pytest.mark.sampled(2)
@pytest.mark.parametrize("chunk", [100, 300, 4096, 1 << 20])
def test_the_writers_listings_are_read_in_bulk(chunk: int) -> None:
    """Numbers of 1 to 4 digits (1,200 deals), chunks cutting anywhere."""
    raw = random_deals(1200, 8).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", "listing", chunk=8000)
    assert isinstance(text, bytes) and text == per_deal(raw, "deals", "listing")
    out = io.BytesIO()
    convert_stream(io.BytesIO(text), out, "listing", "deals", per_deal=PerDealRefused(), chunk=chunk)
    assert out.getvalue() == raw


def odd(record: bytes, how: str) -> bytes:
    lines = record.splitlines(keepends=True)
    return {
        "plain": record,
        "lower": lines[0] + lines[1].lower() + b"".join(lines[2:]),
        "crlf": record.replace(b"\n", b"\r\n"),
        "order": lines[0][:23] + lines[0][26:-1] + b" " + lines[0][23:25] + b"\n"
        + b"".join(lines[1:]),
        "more": record + b"SA\n",  # a card after the last hand: that hand's
        "joined": lines[0][:-1] + b" " + b"".join(lines[1:]),
        "blank": record + b"\n",
        "twice": lines[1][:14] + lines[1][17:20] + lines[1][17:] + b"".join(lines[2:]),
        "number": b"Deal #x" + record[7:],
        "seat": lines[0] + lines[2] + lines[1] + lines[3],
    }[how]


WAYS = ["plain", "lower", "crlf", "order", "more", "joined", "blank", "twice", "number", "seat"]


@settings(max_examples=examples(40), deadline=None)
@given(st.data(), st.sampled_from([100, 400, 1 << 20]))
def test_odd_records_give_what_the_per_deal_reader_gives(data: st.DataObject,
                                                        chunk: int) -> None:
    raw = random_deals(data.draw(st.integers(1, 12)), data.draw(st.integers(0, 99))).masks
    text = bulk(raw.astype("<u8").tobytes(), "deals", "listing")
    assert isinstance(text, bytes)
    lines = text.splitlines(keepends=True)
    records = [b"".join(lines[i:i + 4]) for i in range(0, len(lines), 4)]
    ways = st.sampled_from(["plain"] * 5 + WAYS)
    odd_text = b"".join(odd(record, data.draw(ways)) for record in records)
    for dst in TARGETS:
        assert bulk(odd_text, "listing", dst, chunk) == per_deal(odd_text, "listing", dst), dst


@pytest.mark.parametrize("how", WAYS)
def test_each_odd_record_after_a_good_one(how: str) -> None:
    """``Deal #x`` after a deal is a bad card of that deal, not a new deal."""
    raw = random_deals(3, 4).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", "listing")
    assert isinstance(text, bytes)
    lines = text.splitlines(keepends=True)
    records = [b"".join(lines[i:i + 4]) for i in range(0, len(lines), 4)]
    odd_text = records[0] + odd(records[1], how) + records[2]
    for dst in ("deals", "pbn"):
        assert bulk(odd_text, "listing", dst, 100) == per_deal(odd_text, "listing", dst), dst


# Every byte of a record damaged, one way at a time: the bulk decoder's
# checks (fixed text a number at a time, each card's two characters looked
# up as one uint16) must take no record the per-deal reader does not read
# as the same deal. Deals 9 and 10: a number of one digit and of two.
_DAMAGE = [b"X", b" ", b"\n", b"\r", b"S", b"2", b"0", b"s"]
_JUNK_CARDS = [b"XX", b"ZZ", b"22", b"SS", b"AS", b"sa", b"\x80\x80"]


def _damaged(record: bytes, how: str) -> list[bytes]:
    if how == "delete":
        return [record[:at] + record[at + 1:] for at in range(len(record))]
    if how == "double":
        return [record[:at + 1] + record[at:] for at in range(len(record))]
    if how == "card":  # two bytes that are no card where a card is (both bad at once)
        cells = [m.start() for m in re.finditer(rb"[SHDC][2-9TJQKA]", record)]
        return [record[:at] + junk + record[at + 2:] for at in cells for junk in _JUNK_CARDS]
    byte = how.encode("latin-1")
    return [record[:at] + byte + record[at + 1:] for at in range(len(record))
            if record[at:at + 1] != byte]


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", ["delete", "double", "card", *(b.decode("latin-1") for b in _DAMAGE)])
@pytest.mark.parametrize("deal", [9, 10])
def test_every_byte_of_a_record_damaged_reads_as_the_per_deal_reader_reads(deal: int,
                                                                          how: str) -> None:
    raw = random_deals(11, 3).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", "listing")
    assert isinstance(text, bytes)
    lines = text.splitlines(keepends=True)
    head = b"".join(lines[:4 * (deal - 1)])
    record, tail = b"".join(lines[4 * (deal - 1):4 * deal]), b"".join(lines[4 * deal:])
    for bad in _damaged(record, how):
        odd_text = head + bad + tail
        assert bulk(odd_text, "listing", "deals") == per_deal(odd_text, "listing", "deals"), bad
