"""Constants written out so that their modules load without ``math``."""

from __future__ import annotations


def test_the_written_out_number_of_hands_is_the_binomial() -> None:
    from math import comb

    from dealerpp.shapes.universe import DEALS_PER_HAND, hand_counts

    assert DEALS_PER_HAND == comb(52, 13) == sum(hand_counts())
