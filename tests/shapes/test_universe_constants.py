"""Constants written out so that their modules load without ``math``."""

from __future__ import annotations


def test_the_written_out_number_of_hands_is_the_binomial() -> None:
    from math import comb

    from dealerpp.shapes.universe import DEALS_PER_HAND, hand_counts

    assert DEALS_PER_HAND == comb(52, 13) == sum(hand_counts())


def test_the_length_masks_are_the_shapes_of_each_length() -> None:
    from dealerpp.shapes.universe import ALL_SHAPES, LENGTH_MASK, MAX_LENGTH

    for suit in range(4):
        for n in range(MAX_LENGTH + 1):
            wanted = sum(1 << i for i, shape in enumerate(ALL_SHAPES) if shape[suit] == n)
            assert LENGTH_MASK[suit][n] == wanted, (suit, n)


def test_the_names_made_on_first_use() -> None:
    import pytest

    from dealerpp.lengths import Shape as LengthsShape
    from dealerpp.shapes import universe
    from dealerpp.shapes.universe import ALL_SHAPES, INDEX, SHAPE_COUNT, Shape

    assert len(ALL_SHAPES) == SHAPE_COUNT == len(INDEX) == 560
    assert universe.all_shapes() is ALL_SHAPES is universe.ALL_SHAPES
    assert Shape is LengthsShape and all(type(shape) is Shape for shape in ALL_SHAPES)
    assert all(INDEX[shape] == i for i, shape in enumerate(ALL_SHAPES))
    assert sorted(ALL_SHAPES, reverse=True) == list(ALL_SHAPES)  # spades, hearts, ... longest first
    assert len(set(ALL_SHAPES)) == 560 and all(sum(shape) == 13 for shape in ALL_SHAPES)
    with pytest.raises(AttributeError):
        universe.NOT_A_NAME  # noqa: B018


def test_indices_are_the_bits_set_at_every_density_and_width() -> None:
    import random

    from dealerpp.shapes.universe import indices

    rng = random.Random(28)
    for width in (1, 31, 64, 560, 1163, 2047, 2048, 2049, 5000):
        for ones in (0.0, 0.01, 0.05, 0.5, 1.0):
            bits = sum(1 << i for i in range(width) if rng.random() < ones)
            assert indices(bits) == [i for i in range(bits.bit_length()) if bits >> i & 1]
