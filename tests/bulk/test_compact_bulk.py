"""dealer's printcompact on the bulk path (dealerpp/deals/bulk/compact.py):
the real dealer's output and the writer's give the per-deal path's bytes
for every target, deals written so are read in bulk (a per-deal reader
that refuses to be called), and records made odd go to the per-deal reader
with the same deals or the same first error."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples, run_dealer, some_of

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "compact")


@pytest.mark.parametrize("chunk", [50, 100, 4096, 1 << 20])
def test_the_writers_deals_are_read_in_bulk(chunk: int) -> None:
    raw = random_deals(200, 5).masks.astype("<u8").tobytes()
    text = bulk(raw, "deals", "compact")
    assert isinstance(text, bytes) and text == per_deal(raw, "deals", "compact")
    out = io.BytesIO()
    convert_stream(io.BytesIO(text), out, "compact", "deals", per_deal=PerDealRefused(), chunk=chunk)
    assert out.getvalue() == raw


def test_dealers_own_output(dealer_bin: str) -> None:
    """printcompact as dealer writes it, its statistics lines at the end."""
    done = run_dealer(dealer_bin, "produce 60\naction printcompact\n", "-s", "9")
    assert done.returncode == 0, done.stderr
    data = done.stdout.encode()
    assert b"Generated" in data
    for dst in some_of(TARGETS):  # a third of them a local run
        expected = per_deal(data, "compact", dst)
        for chunk in (64, 1000, 1 << 20):
            assert bulk(data, "compact", dst, chunk) == expected, dst


def odd(record: bytes, how: str) -> bytes:
    lines = record.splitlines(keepends=True)
    return {
        "plain": record,
        "lower": record.lower().replace(b"n ", b"n ", 1),
        "crlf": record.replace(b"\n", b"\r\n"),
        "value": record + b"12\n",  # printcompact(expr)'s value after the deal
        "blank": record + b"\n",
        "twice": lines[0][:3] + lines[0][2:3] + lines[0][4:] + b"".join(lines[1:]),
        "seat": b"e" + record[1:],
        "trailing": lines[0].replace(b"\n", b" \n") + b"".join(lines[1:]),
        "short": lines[0][:-2] + b"\n" + b"".join(lines[1:]),
        "stats": record + b"Generated 10 hands\n",
    }[how]


WAYS = ["plain", "lower", "crlf", "value", "blank", "twice", "seat", "trailing", "short",
        "stats"]


@settings(max_examples=examples(40), deadline=None)
@given(st.data(), st.sampled_from([64, 250, 1 << 20]))
def test_odd_records_give_what_the_per_deal_reader_gives(data: st.DataObject,
                                                        chunk: int) -> None:
    raw = random_deals(data.draw(st.integers(1, 10)), data.draw(st.integers(0, 99))).masks
    text = bulk(raw.astype("<u8").tobytes(), "deals", "compact")
    assert isinstance(text, bytes)
    records = [text[i:i + 76] for i in range(0, len(text), 76)]
    ways = st.sampled_from(["plain"] * 5 + WAYS)
    odd_text = b"".join(odd(record, data.draw(ways)) for record in records)
    for dst in TARGETS:
        assert bulk(odd_text, "compact", dst, chunk) == per_deal(odd_text, "compact", dst), dst
