"""The club formats of fixed-size records (.bri .dge .ber) on the bulk path:
for every pair with another fast format, both ways, the bulk converter
writes the bytes the per-deal readers and writers write (board, dealer and
vulnerability included, with and without ``--first-board``), and a bad
record is the same error on both paths, naming the record the test broke.

Bad records are built structurally: a record cut short or followed by
extra bytes, a card given twice, a value out of range; where in the file,
and which record, is drawn by hypothesis.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.cli import main
from dealerpp.deals import formats
from dealerpp.deals.model import Deal
from tests.conftest import examples
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal

CLUB = ("bri", "dge", "ber")
RECORD = {"bri": 128, "dge": 128, "ber": 52}
NEW_PAIRS = [(src, dst) for src in formats.FAST for dst in formats.FAST
             if src != dst and (src in CLUB or dst in CLUB)]
CHUNKS = st.sampled_from([64, 200, 1000, 1 << 20])
FIRST_BOARDS = st.none() | st.integers(1, 200)
RANKS = b"AKQJT98765432"
GLYPHS = b"\x06\x03\x04\x05"
# 78 pairs: locally a few examples each (they add up to over 200 a run)
SETTINGS = settings(max_examples=examples(10, at_least=3), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def written(masks: list[tuple[int, int, int, int]], fmt: str) -> bytes:
    out = io.BytesIO()
    deals_api.write(out, [Deal(m) for m in masks], fmt)
    return out.getvalue()


def test_the_new_pairs_are_the_club_formats_with_every_fast_format() -> None:
    assert set(CLUB) <= set(formats.FAST)
    assert len(NEW_PAIRS) == 2 * len(CLUB) * (len(formats.FAST) - 1) - len(CLUB) * (len(CLUB) - 1)


@pytest.mark.sampled(3)
@pytest.mark.parametrize(("src", "dst"), NEW_PAIRS)
@SETTINGS
@given(masks=st.lists(full_masks(), min_size=1, max_size=20), chunk=CHUNKS,
       first_board=FIRST_BOARDS)
def test_bulk_writes_the_bytes_of_the_per_deal_path(
        src: str, dst: str, masks: list[tuple[int, int, int, int]], chunk: int,
        first_board: int | None) -> None:
    data = written(masks, src)
    expected = per_deal(data, src, dst, first_board)
    assert isinstance(expected, bytes)
    assert bulk(data, src, dst, chunk, first_board) == expected


def test_boards_past_16_keep_their_number_dealer_and_vulnerability() -> None:
    """Board 17 is board 1 of the cycle again (dealer North, nobody
    vulnerable), board 18 board 2 (East, N-S), board 20 board 4 (West, all):
    the PBN tags show the full number, the hex suffix the number mod 16."""
    masks = [Deal.from_pbn("N:AJ9.K9542.Q.AK93 KQ8.AQ.AK97.QJT2 7654.JT8.JT85.87 "
                           "T32.763.6432.654").masks] * 4
    pbn = bulk(written(masks, "bri"), "bri", "pbn", first_board=17)
    assert isinstance(pbn, bytes)
    tags = re.findall(rb'\[(Board|Dealer|Vulnerable) "([^"]*)"\]', pbn)
    assert [value for _, value in tags] == [b"17", b"N", b"None", b"18", b"E", b"NS",
                                            b"19", b"S", b"EW", b"20", b"W", b"All"]
    hex26 = bulk(written(masks, "ber"), "ber", "hex", first_board=17)
    assert isinstance(hex26, bytes)
    assert [line[-2:] for line in hex26.splitlines()] == [b"-1", b"-2", b"-3", b"-4"]


# -- bad records -------------------------------------------------------------------

def _suit_of_each_byte(hands: bytes) -> list[int]:
    """The suit (0-3, S H D C) each byte of .dge hands belongs to."""
    suits, suit = [], 0
    for byte in hands:
        if byte in GLYPHS:
            suit = GLYPHS.index(byte)
        suits.append(suit)
    return suits


@st.composite
def card_twice(draw: st.DrawFn, fmt: str, record: bytes) -> bytes:
    """The record with one card written over another, so it is there twice
    (.ber, which names every card once by position: a card moved to
    another hand, so one holds 14)."""
    if fmt == "bri":
        at, source = draw(st.lists(st.integers(0, 38), min_size=2, max_size=2, unique=True))
        return record[:2 * at] + record[2 * source:2 * source + 2] + record[2 * at + 2:]
    if fmt == "dge":
        suits = _suit_of_each_byte(record[:68])
        ranks = [i for i in range(68) if record[i] in RANKS]
        at = draw(st.sampled_from(ranks))
        others = [i for i in ranks if i != at and suits[i] == suits[at]]
        source = draw(st.sampled_from(others))  # a suit of 13 cards has another
        return record[:at] + record[source:source + 1] + record[at + 1:]
    at = draw(st.integers(0, 51))
    seat = draw(st.sampled_from([d for d in b"1234" if d != record[at]]))
    return record[:at] + bytes([seat]) + record[at + 1:]


@st.composite
def out_of_range(draw: st.DrawFn, fmt: str, record: bytes) -> bytes:
    """The record with a card number, rank or seat digit that is none."""
    if fmt == "bri":
        at = draw(st.integers(0, 38))
        bad = draw(st.sampled_from([b"00", b"53", b"99", b"7x", b" 1", b"-1"]))
        return record[:2 * at] + bad + record[2 * at + 2:]
    if fmt == "dge":
        at = draw(st.sampled_from([i for i in range(68) if record[i] in RANKS]))
        bad = draw(st.sampled_from(b"1aXk \0\x07"))
        return record[:at] + bytes([bad]) + record[at + 1:]
    at = draw(st.integers(0, 51))
    return record[:at] + bytes([draw(st.sampled_from(b"05x \0"))]) + record[at + 1:]


@st.composite
def bad_files(draw: st.DrawFn) -> tuple[str, bytes, int]:
    """(format, a file with one bad record, the index of that record)."""
    fmt = draw(st.sampled_from(CLUB))
    size = RECORD[fmt]
    masks = draw(st.lists(full_masks(), min_size=1, max_size=12))
    data = written(masks, fmt)
    how = draw(st.sampled_from(["short", "long", "twice", "range"]))
    if how == "short":  # the last record cut short
        return fmt, data[:-draw(st.integers(1, size - 1))], len(masks) - 1
    if how == "long":  # bytes after the last record (not a .ber's allowed line end)
        return fmt, data + b"1" * draw(st.integers(1, size - 1)), len(masks)
    index = draw(st.integers(0, len(masks) - 1))
    record = data[index * size:(index + 1) * size]
    broken = draw(card_twice(fmt, record) if how == "twice" else out_of_range(fmt, record))
    return fmt, data[:index * size] + broken + data[(index + 1) * size:], index


@settings(SETTINGS, max_examples=examples(150))
@given(bad_files(), st.sampled_from(formats.FAST), CHUNKS, FIRST_BOARDS)
def test_a_bad_record_is_the_same_error_on_both_paths(
        bad: tuple[str, bytes, int], dst: str, chunk: int, first_board: int | None) -> None:
    fmt, data, index = bad
    if dst == fmt:
        dst = "deals"
    error = per_deal(data, fmt, dst, first_board)
    assert bulk(data, fmt, dst, chunk, first_board) == error
    # the error names the record that was broken: its board and a byte in it
    assert isinstance(error, str)
    found = re.match(r"in: byte (\d+): error: deal (\d+): board (\d+): ", error)
    assert found, error
    size = RECORD[fmt]
    assert index * size <= int(found.group(1)) < (index + 1) * size
    assert int(found.group(2)) == index + 1
    assert int(found.group(3)) == (first_board or 1) + index


def convert(argv: list[str], per_deal_path: bool) -> tuple[int, str]:
    """Status and stderr of ``dealerpp convert``, on the bulk path or with
    the bulk path turned off."""
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(err):
        if per_deal_path:
            patch.setattr(formats, "is_fast_pair", lambda src, dst: False)
        status = main(["convert", *argv])
    return status, err.getvalue()


@settings(SETTINGS, max_examples=examples(40))
@given(bad_files(), st.sampled_from(formats.FAST), FIRST_BOARDS)
def test_convert_reports_a_bad_record_alike_and_writes_nothing(
        tmp_path_factory: pytest.TempPathFactory, bad: tuple[str, bytes, int], dst: str,
        first_board: int | None) -> None:
    fmt, data, _ = bad
    if dst == fmt:
        dst = "deals"
    folder = tmp_path_factory.mktemp("club")
    source, target = folder / f"in.{fmt}", folder / "out"
    source.write_bytes(data)
    target.write_bytes(b"kept")
    argv = [str(source), str(target), "--to", dst]
    if first_board is not None:
        argv += ["--first-board", str(first_board)]
    results = [convert(argv, per_deal_path) for per_deal_path in (False, True)]
    assert results[0] == results[1]
    status, err = results[0]
    assert status == 1 and err.startswith(f"{source}: byte "), err
    assert target.read_bytes() == b"kept"  # an existing output is left as it was
    assert sorted(p.name for p in folder.iterdir()) == sorted(["out", source.name])


def test_convert_takes_the_bulk_path_with_first_board(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from dealerpp.deals.bulk import stream

    calls: list[int | None] = []
    monkeypatch.setattr(stream, "convert_file",
                        lambda *args, first_board=None, **_: calls.append(first_board) or 1)
    (tmp_path / "in.bri").write_bytes(b"")
    assert main(["convert", "-q", str(tmp_path / "in.bri"), str(tmp_path / "out.pbn"),
                 "--first-board", "9"]) == 0
    assert calls == [9]


# Every byte of a .dge record's hands (and a few of its padding) damaged,
# one way at a time: the bulk decoder reads four frames of 17 bytes and
# must take no record the per-deal reader does not read as the same deal.
_DGE_DAMAGE = [b"\x03", b"\x04", b"\x05", b"\x06", b"A", b"2", b"a", b"X", b"\0"]


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", ["delete", "double", "swap",
                                 *(b.decode("latin-1") for b in _DGE_DAMAGE)])
def test_every_byte_of_a_dge_record_damaged_reads_as_the_per_deal_reader_reads(
        how: str) -> None:
    text = written([tuple(m) for m in full_masks_of(3)], "dge")
    record = text[128:256]
    if how == "delete":
        bad = [record[:at] + record[at + 1:] for at in range(72)]
    elif how == "double":
        bad = [record[:at + 1] + record[at:] for at in range(72)]
    elif how == "swap":  # two neighbours swapped (ranks of a suit in another order)
        bad = [record[:at] + record[at + 1:at + 2] + record[at:at + 1] + record[at + 2:]
               for at in range(71)]
    else:
        byte = how.encode("latin-1")
        bad = [record[:at] + byte + record[at + 1:] for at in range(72)
               if record[at:at + 1] != byte]
    for odd in bad:
        odd_text = text[:128] + odd + text[256:]
        for dst in ("deals", "pbn"):
            assert bulk(odd_text, "dge", dst) == per_deal(odd_text, "dge", dst), (odd, dst)


def full_masks_of(count: int) -> list[list[int]]:
    """``count`` full deals, always the same (a seeded shuffle)."""
    import random

    cards = list(range(52))
    random.Random(11).shuffle(cards)
    deals = []
    for _ in range(count):
        random.Random(len(deals)).shuffle(cards)
        deals.append([sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)])
    return deals
