""".dx on the bulk path (dealerpp/deals/bulk/dx.py): deal-only records are
read in bulk (a per-deal reader that refuses to be called), writing gives
the per-deal writer's bytes (numbers by board or by place across chunks),
and files with auctions, plays or bad records give the per-deal path's
deals or first error (its byte and deal counted from the file's start)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Call, Deal
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "dx")
SETTINGS = settings(max_examples=examples(40), deadline=None)


def dx_file(deals: list[Deal]) -> bytes:
    data = deals_api.dumps(deals, "dx")
    assert isinstance(data, bytes)
    return data


@pytest.mark.parametrize("chunk", [34, 35, 100, 4096, 1 << 20])
def test_deal_only_records_are_read_in_bulk(chunk: int) -> None:
    raw = random_deals(300, 2).masks
    data = dx_file([Deal(tuple(row)) for row in raw.tolist()])
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, "dx", "deals", per_deal=PerDealRefused(), chunk=chunk)
    assert out.getvalue() == raw.astype("<u8").tobytes()


@SETTINGS
@given(st.lists(full_masks(), max_size=10), st.none() | st.integers(1, 400),
       st.sampled_from([40, 300, 1 << 20]))
def test_writing_dx_in_bulk_is_the_per_deal_writer(masks: list[tuple[int, int, int, int]],
                                                   first_board: int | None, chunk: int) -> None:
    raw = np.array(masks, dtype="<u8").reshape(-1, 4).tobytes()
    assert bulk(raw, "deals", "dx", chunk, first_board) == \
        per_deal(raw, "deals", "dx", first_board)


def test_numbers_by_place_cycle_past_255_across_chunks() -> None:
    raw = random_deals(600, 4).masks.astype("<u8").tobytes()
    expected = per_deal(raw, "deals", "dx")
    assert isinstance(expected, bytes) and expected[255 * 35] == 1
    for chunk in (64, 3200, 1 << 20):
        assert bulk(raw, "deals", "dx", chunk) == expected


def odd(record: Deal, how: str, data: bytes) -> bytes:
    """A deal's record made odd: with an auction or a play, or broken."""
    if how == "auction":
        return dx_file([Deal(record.masks, auction=(Call.from_str("1S"), Call.from_str("P")))])
    return {
        "plain": data,
        "zero": b"\0" + data[1:],
        "partial": data[:1] + b"\0" * 8 + data[9:],
        "twice": data[:1] + data[9:17] + data[9:],
        "no_end": data[:-1],
        "call": data[:-2] + b"\xfe\xff\xff",
        "card": data[:-1] + b"\x05\xff",
        "bad_card": data[:-1] + b"\x40\xff",
    }[how]


WAYS = ["plain", "auction", "zero", "partial", "twice", "no_end", "call", "card", "bad_card"]


@SETTINGS
@given(st.data(), st.sampled_from([40, 250, 1 << 20]))
def test_odd_records_give_what_the_per_deal_reader_gives(data: st.DataObject,
                                                        chunk: int) -> None:
    found = [Deal(tuple(row)) for row in
             random_deals(data.draw(st.integers(1, 10)), data.draw(st.integers(0, 99)))
             .masks.tolist()]
    ways = st.sampled_from(["plain"] * 5 + WAYS)
    text = b"".join(odd(deal, data.draw(ways), dx_file([deal])) for deal in found)
    for dst in TARGETS:
        assert bulk(text, "dx", dst, chunk) == per_deal(text, "dx", dst), dst


@pytest.mark.parametrize("how", WAYS)
def test_an_odd_record_after_fast_ones_is_named_from_the_file_start(how: str) -> None:
    found = [Deal(tuple(row)) for row in random_deals(5, 6).masks.tolist()]
    records = [dx_file([deal]) for deal in found]
    records[3] = odd(found[3], how, records[3])
    text = b"".join(records)
    for dst in ("deals", "pbn", "hex"):
        expected = per_deal(text, "dx", dst)
        for chunk in (64, 1 << 20):
            assert bulk(text, "dx", dst, chunk) == expected, (chunk, dst)
    message = bulk(text, "dx", "deals")
    if isinstance(message, str):
        assert "deal 4" in message and "byte 1" in message


def test_a_deal_after_a_game_left_out_keeps_its_place_on_both_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PBN game with an error, reported, is left out; the deals after it
    without a board number are numbered by their place in the input on the
    bulk path too, as the per-deal path numbers them (the bulk path numbered
    them by their place in the output before)."""
    from dealerpp.deals.options import ReadOptions

    hands = (0x1FFF << 39, 0x1FFF << 26, 0x1FFF << 13, 0x1FFF)  # N all spades ...
    games = [deals_api.dumps([Deal(hands)], "pbn") for _ in range(6)]
    games[2] = games[2].replace("N:AKQJT98765432.", "N:AKQJT9876543.")  # 12 cards
    source = tmp_path / "in.pbn"
    source.write_text("\n".join(games))
    written = []
    for bulk_path in (True, False):
        if not bulk_path:
            monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
        problems: list[object] = []
        target = tmp_path / f"out{bulk_path}.dx"
        total = deals_api.convert(source, target, options=ReadOptions(report=problems.append))
        written.append((total, len(problems), target.read_bytes()))
    assert written[0] == written[1]
    assert written[0][:2] == (5, 1)


@st.composite
def board_runs(draw: st.DrawFn) -> list[int]:
    """Boards of a set as a .dx can hold them: a first board 1-255, then
    steps of at most 127 either way (the reader's reach), none below 1;
    now and then a long run counting up past 255."""
    boards = [draw(st.integers(1, 255))]
    for step in draw(st.lists(st.integers(-127, 127) | st.just(1), max_size=12)):
        boards.append(max(1, boards[-1] + step))
    if draw(st.booleans()):
        boards.extend(range(boards[-1] + 1, boards[-1] + 1 + draw(st.integers(0, 300))))
    return boards


@SETTINGS
@given(board_runs(), st.data(), st.sampled_from([70, 350, 4096, 1 << 20]))
def test_boards_read_in_bulk_are_the_per_deal_readers(boards: list[int], data: st.DataObject,
                                                      chunk: int) -> None:
    """Each record's board, from its number byte, is the board written on
    both paths, with some records (an auction) read per deal after fast ones."""
    masks = random_deals(len(boards), data.draw(st.integers(0, 99))).masks.tolist()
    auctions = data.draw(st.sets(st.integers(0, len(boards) - 1), max_size=2))
    auction = (Call.from_str("1S"), Call.from_str("P"), Call.from_str("P"), Call.from_str("P"))
    found = [Deal(tuple(row), board, auction=auction if i in auctions else ())
             for i, (row, board) in enumerate(zip(masks, boards, strict=True))]
    text = dx_file(found)
    assert [d.board for d in deals_api.loads(text, "dx")] == boards
    for dst in ("csv", "pbn", "hex"):
        assert bulk(text, "dx", dst, chunk) == per_deal(text, "dx", dst), dst
    out = bulk(text, "dx", "csv", chunk)
    assert isinstance(out, bytes)
    assert [int(line.split(b'","')[-2]) for line in out.splitlines()] == boards


def test_boards_past_255_go_on_after_a_record_read_per_deal() -> None:
    """300 boards, the 280th with an auction: the per-deal reader takes the
    rest of the file from there, told the board before it (279)."""
    masks = random_deals(300, 8).masks.tolist()
    found = [Deal(tuple(row), i + 1) for i, row in enumerate(masks)]
    found[279] = Deal(found[279].masks, 280, auction=(Call.from_str("P"),) * 4)
    text = dx_file(found)
    for chunk in (70, 35 * 100, 1 << 20):
        out = bulk(text, "dx", "csv", chunk)
        assert isinstance(out, bytes)
        assert [int(line.split(b'","')[-2]) for line in out.splitlines()] == list(range(1, 301))


@SETTINGS
@given(st.lists(st.integers(1, 600), min_size=1, max_size=8) | board_runs(),
       st.sampled_from([300, 4096, 1 << 20]))
def test_writing_boards_in_bulk_is_the_per_deal_writer(boards: list[int], chunk: int) -> None:
    """Boards from a csv (which carries them) written as .dx: the same bytes
    on both paths, or the same error for a board the reader would read
    back as another (any board past 255 first, a step over 127)."""
    masks = random_deals(len(boards), len(boards)).masks.tolist()
    text = deals_api.dumps([Deal(tuple(row), board) for row, board in
                            zip(masks, boards, strict=True)], "csv")
    assert isinstance(text, str)
    source = text.encode()
    expected = per_deal(source, "csv", "dx")
    assert bulk(source, "csv", "dx", chunk) == expected
    if isinstance(expected, bytes):
        assert [d.board for d in deals_api.loads(expected, "dx")] == boards
