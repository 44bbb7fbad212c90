"""A PBN copy (``convert in.pbn out.pbn``) on the bulk path
(dealerpp/deals/bulk/stream.py, ``copying``): dealer's printpbn games read
in bulk are written back as read, and anything else goes to the per-deal
reader and writer, so the copy is the per-deal path's, byte for byte, with
its first error, wherever the chunks cut."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Deal
from dealerpp.deals.options import ReadOptions
from tests.conftest import examples, run_dealer
from tests.deals.strategies import full_masks

from .helpers import PerDealRefused, bulk, per_deal
from .test_parity import PBN_TAILS, mutated, printpbn_games
from .test_printpbn import ODD_GAMES, with_odd_game

CHUNKS = (64, 300, 1000, 4096, 1 << 20)


class WriterRefused(PerDealRefused):
    """Neither the per-deal reader nor its writer may be asked."""

    def dumps(self, fmt: str, deals: Sequence[Deal], first_index: int) -> bytes:
        raise AssertionError("deals went to the per-deal writer")


def copied(data: bytes, chunk: int = 1 << 20, per_deal_side: Any = None) -> bytes:
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, "pbn", "pbn", chunk=chunk, per_deal=per_deal_side)
    return out.getvalue()


def test_a_copy_of_pbn_takes_the_bulk_path() -> None:
    assert formats.takes_bulk_path("pbn", "pbn")
    assert not formats.takes_bulk_path("pbn", "pbn", first_board=3)
    assert not formats.takes_bulk_path("hex", "hex")


@pytest.mark.parametrize("chunk", CHUNKS)
def test_dealers_games_are_copied_as_read(dealer_bin: str, chunk: int) -> None:
    done = run_dealer(dealer_bin, "produce 30\naction printpbn\n", "-s", "3")
    assert done.returncode == 0, done.stderr
    games = done.stdout.encode()
    games = games[:games.rindex(b"\n\n[") + 2]  # (without dealer's statistics lines)
    expected = per_deal(games, "pbn", "pbn")
    assert expected == games[:-1]  # what the per-deal writer gives back: the games
    assert copied(games, chunk, WriterRefused()) == expected
    assert copied(games[:-1], chunk, WriterRefused()) == expected  # no last blank line


@pytest.mark.sampled(3)
@pytest.mark.parametrize("odd", sorted(ODD_GAMES))
@pytest.mark.parametrize("at", [0, 4, 9])
def test_an_odd_game_is_copied_as_the_per_deal_path_copies_it(odd: str, at: int) -> None:
    data = with_odd_game(6, odd, at)
    expected = per_deal(data, "pbn", "pbn")
    for chunk in CHUNKS:
        assert bulk(data, "pbn", "pbn", chunk) == expected, chunk


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(full_masks(), min_size=1, max_size=6), st.integers(1, 40),
       st.sampled_from([b"", *PBN_TAILS]), st.booleans(), st.data())
def test_a_copy_is_the_per_deal_paths(masks: list[tuple[int, int, int, int]], first: int,
                                      tail: bytes, mutate: bool, data: st.DataObject) -> None:
    text = printpbn_games(masks, first) + tail
    if mutate:
        text = data.draw(mutated(text))
    expected = per_deal(text, "pbn", "pbn")
    for chunk in (64, 300, 1 << 20):
        assert bulk(text, "pbn", "pbn", chunk) == expected, chunk


def test_a_game_left_out_for_an_error_is_reported_on_both_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hands = (0x1FFF << 39, 0x1FFF << 26, 0x1FFF << 13, 0x1FFF)  # N all spades ...
    games = [printpbn_games([hands], board) for board in range(1, 9)]
    games[4] = games[4].replace(b"N:AKQJT98765432.", b"N:AKQJT9876543.")  # 12 cards
    bad = b"".join(games)
    source = tmp_path / "in.pbn"
    source.write_bytes(bad)
    outputs, reports = [], []
    for bulk_path in (True, False):
        if not bulk_path:
            monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
        found: list[str] = []
        target = tmp_path / f"out{bulk_path}.pbn"
        total = deals_api.convert(source, target, options=ReadOptions(
            report=lambda problem, found=found: found.append(problem.format())))
        outputs.append((total, target.read_bytes()))
        reports.append(found)
    assert outputs[0] == outputs[1] and reports[0] == reports[1]
    assert outputs[0][0] == 7 and len(reports[0]) == 1
