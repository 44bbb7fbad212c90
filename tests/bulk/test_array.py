"""DealArray: the columnar batch and its conversions."""

from __future__ import annotations

import numpy as np

from dealerpp.deals.bulk.array import DealArray, _swar_popcount, masks_from_owner
from dealerpp.deals.formats.giblib import tricks_of_text
from dealerpp.deals.model import Deal, Seat, Vul

from .test_properties import random_deals


def test_owner_view_matches_the_model() -> None:
    arr = random_deals(50, 21)
    owner = arr.owner()
    for row, deal in zip(owner, arr.to_deals(), strict=True):
        assert [deal.owner(card) for card in range(52)] == [Seat(s) for s in row]
    assert DealArray.from_owner(owner) == arr
    assert np.array_equal(masks_from_owner(owner), arr.masks)


def test_rows_columns_and_concat() -> None:
    arr = random_deals(10, 22)
    tricks = np.frombuffer(b"0123456789ABCD------" * 10, np.uint8).reshape(10, 20)
    with_tricks = DealArray(arr.masks, tricks=tricks)
    assert len(with_tricks[2:5]) == 3 and with_tricks[3].tricks is not None
    picked = with_tricks[np.array([True, False] * 5)]
    assert len(picked) == 5
    joined = DealArray.concat([with_tricks[:4], with_tricks[4:]])
    assert joined == with_tricks
    assert DealArray.concat([with_tricks[:4], arr[4:]]).tricks is None
    assert repr(with_tricks) == "DealArray(10 deals, tricks)"


def test_to_and_from_model_deals() -> None:
    arr = random_deals(5, 23)
    boards = DealArray(arr.masks, boards=np.array([1, 2, 3, 16, 99], np.uint8))
    deals = boards.to_deals()
    assert [d.board for d in deals] == [1, 2, 3, 16, 99]
    assert deals[1].dealer == Seat.EAST and deals[1].vul == Vul.NS
    # board 99 is board 3 of the cycle (99 = 6 * 16 + 3): dealer South, vulnerable E-W
    assert (deals[4].dealer, deals[4].vul) == (Seat.SOUTH, Vul.EW)
    gib = [Deal(d.masks, tricks=tricks_of_text("88887777A9A977778888", 13)) for d in deals]
    back = DealArray.from_deals(gib)
    assert back.masks.tolist() == arr.masks.tolist()
    assert back.tricks is not None and bytes(back.tricks[0]) == b"88887777A9A977778888"


def test_full_partial_and_broken_rows() -> None:
    full = random_deals(1, 24).masks[0]
    rows = np.array([full, [1, 2, 4, 0], [1, 1, 0, 0], [1 << 60, 0, 0, 0]], np.uint64)
    arr = DealArray(rows)
    assert arr.is_full().tolist() == [True, False, False, False]
    assert arr.problems().tolist() == [False, False, True, True]
    assert arr.counts()[1].tolist() == [1, 1, 1, 0]


def test_popcount_without_numpy_2() -> None:
    words = np.random.default_rng(25).integers(0, 2**63, 500, dtype=np.uint64)
    assert (_swar_popcount(words) == np.bitwise_count(words)).all()
