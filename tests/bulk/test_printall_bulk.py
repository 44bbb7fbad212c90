"""dealer's printall on the bulk path (dealerpp/deals/bulk/printall.py): the
real dealer's output and the writer's give the per-deal path's bytes for
every target; the writer's deals are read in bulk (a per-deal reader that
refuses to be called); writing is the per-deal writer byte for byte; and
deals made odd (a long suit that pushes a column, lower case, no blank line,
a card twice) give the per-deal path's deals or first error."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.deals import formats
from dealerpp.deals.bulk.lines import Decoded
from dealerpp.deals.bulk.printall import PrintallCodec
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Deal
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples, run_dealer, sized, some_of
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "printall")
SETTINGS = settings(max_examples=examples(40), deadline=None)
# N holds ten spades (its cell pushes East's column right); E, S and W nine
# hearts, diamonds and clubs
LONG = Deal.from_pbn("N:AKQJT98765.2.2.2 432.AKQJT9876.3. .5.AKQJT9876.543 .43.54.AKQJT9876")


def printall_text(count: int, seed: int) -> tuple[bytes, bytes]:
    raw = random_deals(count, seed).masks.astype("<u8").tobytes()
    text = per_deal(raw, "deals", "printall")
    assert isinstance(text, bytes)
    return raw, text


@pytest.mark.sampled(2)
@pytest.mark.parametrize("chunk", [50, 333, 4096, 1 << 20])
def test_the_writers_deals_are_read_in_bulk(chunk: int) -> None:
    """Random deals with no suit of ten or more before West's column."""
    masks = random_deals(sized(400, 150), 5).masks
    text = per_deal(masks.astype("<u8").tobytes(), "deals", "printall")
    assert isinstance(text, bytes)
    records = text.split(b"\n\n")[:-1]
    usual = [r + b"\n\n" for r in records
             if all(row[18:20] == row[38:40] == row[58:60] == b"  "
                    for row in r.split(b"\n")[1:])]
    data = b"".join(usual)
    assert len(usual) > sized(300, 100)
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, "printall", "deals", per_deal=PerDealRefused(), chunk=chunk)
    assert out.getvalue() == per_deal(data, "printall", "deals")
    crlf = data.replace(b"\n", b"\r\n")
    out = io.BytesIO()
    convert_stream(io.BytesIO(crlf), out, "printall", "deals", per_deal=PerDealRefused(), chunk=chunk)
    assert out.getvalue() == per_deal(data, "printall", "deals")


def test_dealers_own_output(dealer_bin: str) -> None:
    done = run_dealer(dealer_bin, "produce 40\naction printall\n", "-s", "5")
    assert done.returncode == 0, done.stderr
    data = done.stdout.encode()
    assert b"Generated" in data
    for dst in some_of(TARGETS):  # a third of them a local run
        expected = per_deal(data, "printall", dst)
        for chunk in (64, 1000, 1 << 20):
            assert bulk(data, "printall", dst, chunk) == expected, dst


@SETTINGS
@given(st.lists(full_masks(), max_size=10), st.sampled_from([64, 300, 1 << 20]))
def test_writing_printall_in_bulk_is_the_per_deal_writer(
        masks: list[tuple[int, int, int, int]], chunk: int) -> None:
    raw = np.array(masks, dtype="<u8").reshape(-1, 4).tobytes()
    assert bulk(raw, "deals", "printall", chunk) == per_deal(raw, "deals", "printall")


def test_long_suits_and_numbers_past_9999_are_written_as_per_deal() -> None:
    """Cells wider than their column, and a number line wider than %4d."""
    raw = np.array([LONG.masks] * 10_005, dtype="<u8").tobytes()
    expected = per_deal(raw, "deals", "printall")
    assert isinstance(expected, bytes) and b"\n10005.\n" in expected
    assert bulk(raw, "deals", "printall", 1 << 16) == expected
    # The per-deal PBN writer takes 2 s over the whole file: locally it is
    # read whole into .deals, and into PBN from deal 9998 on (numbers of 4
    # and 5 digits, several chunks).
    tail = expected[expected.index(b"\n9998.\n") + 1:]
    for dst, data, chunk in (("deals", expected, 1 << 16),
                             ("pbn", *sized((expected, 1 << 16), (tail, 1 << 8)))):
        assert bulk(data, "printall", dst, chunk) == per_deal(data, "printall", dst)


def odd(record: bytes, how: str) -> bytes:
    lines = record.splitlines(keepends=True)
    return {
        "plain": record,
        "crlf": record.replace(b"\n", b"\r\n"),
        "lower": record.replace(b"K", b"k"),
        "no_blank": b"".join(lines[:5]),
        "two_blanks": record + b"\n",
        "number": b"  12.\n" + b"".join(lines[1:]),
        "tab": lines[0] + lines[1].replace(b" ", b"\t", 1) + b"".join(lines[2:]),
        "trailing": lines[0] + lines[1].rstrip(b" \n") + b"\n" + b"".join(lines[2:]),
        "twice": lines[0] + lines[1][:20] + lines[1][:20] + lines[1][40:] + b"".join(lines[2:]),
        "rank_twice": lines[0] + b"A A A A A A A A A A " + lines[1][20:] + b"".join(lines[2:]),
        "stats": record + b"Generated 10 hands\n",
        "no_number": b"".join(lines[1:]),
        "long": record.replace(b"\n  ", b"\n  ", 1) + _long_record(),
        "lone_cr": lines[0] + lines[1].rstrip(b"\n") + b"\r" + b"".join(lines[2:]),
        # text, and no line end, where the blank line is (found by hypothesis)
        "text_for_blank": b"".join(lines[:5]) + b".",
    }[how]


def _long_record() -> bytes:
    text = per_deal(np.array([LONG.masks], dtype="<u8").tobytes(), "deals", "printall")
    assert isinstance(text, bytes)
    return text


WAYS = ["plain", "crlf", "lower", "no_blank", "two_blanks", "number", "tab", "trailing",
        "twice", "rank_twice", "stats", "no_number", "long", "lone_cr", "text_for_blank"]


@SETTINGS
@given(st.data(), st.sampled_from([64, 250, 1 << 20]))
def test_odd_records_give_what_the_per_deal_reader_gives(data: st.DataObject,
                                                        chunk: int) -> None:
    _, text = printall_text(data.draw(st.integers(1, 8)), data.draw(st.integers(0, 99)))
    records = [r + b"\n\n" for r in text.split(b"\n\n")[:-1]]
    ways = st.sampled_from(["plain"] * 5 + WAYS)
    odd_text = b"".join(odd(record, data.draw(ways)) for record in records)
    for dst in TARGETS:
        assert bulk(odd_text, "printall", dst, chunk) == \
            per_deal(odd_text, "printall", dst), dst


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", WAYS)
def test_each_odd_record_alone_and_in_the_middle(how: str) -> None:
    _, text = printall_text(5, 7)
    records = [r + b"\n\n" for r in text.split(b"\n\n")[:-1]]
    for at in (0, 2, 4):
        odd_text = b"".join(odd(r, how) if i == at else r for i, r in enumerate(records))
        for dst in ("deals", "pbn", "hex"):
            assert bulk(odd_text, "printall", dst, 200) == \
                per_deal(odd_text, "printall", dst), (at, dst)


def test_an_error_after_fast_deals_names_its_line() -> None:
    _, text = printall_text(4, 8)
    records = [r + b"\n\n" for r in text.split(b"\n\n")[:-1]]
    records[2] = odd(records[2], "twice")
    bad = b"".join(records)
    message = bulk(bad, "printall", "deals", 100)
    assert message == per_deal(bad, "printall", "deals")
    assert isinstance(message, str) and message.startswith("in:13:")


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", WAYS)
def test_odd_records_after_many_vouched_for_give_what_the_per_deal_reader_gives(
        how: str) -> None:
    """Past the 1,024 deals the check must have vouched for to check on after
    a record it does not vouch for (lines.RecordLines.vouch_again)."""
    _, text = printall_text(1_500, 12)
    records = [r + b"\n\n" for r in text.split(b"\n\n")[:-1]]
    for place in (1_100, 1_300):
        records[place] = odd(records[place], how)
    odd_text = b"".join(records)
    for chunk in (1 << 20, 1 << 18):
        assert bulk(odd_text, "printall", "deals", chunk) == \
            per_deal(odd_text, "printall", "deals"), chunk


def test_the_check_goes_on_after_a_record_it_does_not_vouch_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal numbered out of turn (read alike, but not the writer's text for
    its place) sends a few records the usual way, not the chunk's rest."""
    _, text = printall_text(3_000, 13)
    records = [r + b"\n\n" for r in text.split(b"\n\n")[:-1]]
    records[1_500] = records[1_500].replace(b"1501.", b"   7.", 1)
    odd_text = b"".join(records)
    decoded: list[int] = []
    usual = PrintallCodec.decode_records

    def counted(self: PrintallCodec, arr: np.ndarray, starts: np.ndarray,
                ends: np.ndarray) -> Decoded:
        decoded.append(len(starts))
        return usual(self, arr, starts, ends)

    monkeypatch.setattr(PrintallCodec, "decode_records", counted)
    assert bulk(odd_text, "printall", "deals", 1 << 23) == per_deal(odd_text, "printall", "deals")
    assert 1 <= sum(decoded) <= 16
