"""Property tests: random patterns and conditions, compiled by dealerpp,
equal the brute-force oracle; every emitted list, read back with dealer's
rules, equals its set and is no longer than the plain enumeration."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp import ShapeSet, expand
from dealerpp.diagnostics import DppError
from dealerpp.shapes.dealer_list import read_dealer_list
from dealerpp.shapes.universe import ALL_SHAPES, FULL_MASK
from tests.conftest import examples
from tests.shapes.oracle import (
    all_shapes,
    condition_holds,
    random_condition,
    random_pattern,
)

SHAPES = all_shapes()
# Every random choice the generators make is a draw hypothesis controls, so a
# failing expression shrinks to a small one (a drawn int seed would not).
RANDOMS = st.randoms(use_true_random=False)
# A local run tries fewer examples (new ones each run); CI the whole tier.
SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
EMISSION = settings(max_examples=examples(40), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def oracle_set(predicate) -> ShapeSet:
    return ShapeSet.of(shape for shape in SHAPES if predicate(shape))


def term_count(dealer_list: str) -> int:
    return dealer_list.count("+") + dealer_list.count("-") + 1


def test_universe_has_560_shapes() -> None:
    assert len(SHAPES) == 560
    assert sorted(SHAPES) == sorted(ALL_SHAPES)
    assert len(ShapeSet(FULL_MASK)) == 560


@SETTINGS
@given(RANDOMS)
def test_random_patterns_match_oracle(rng: random.Random) -> None:
    pattern = random_pattern(rng)
    text = pattern.text(rng)
    try:
        compiled = expand(text)
    except DppError as error:  # the only legal failure: exact lengths that cannot make 13
        exact = [s.values[0] for s, _ in pattern.items if s.kind == "exact"]
        exact += [s.values[0] for s in pattern.group or () if s.kind == "exact"]
        assert sum(exact) > 13 or (len(exact) == 4 and sum(exact) < 13), f"{text}: {error}"
        return
    assert compiled == oracle_set(pattern.matches), text


@SETTINGS
@given(RANDOMS)
def test_random_conditions_match_oracle(rng: random.Random) -> None:
    pattern = random_pattern(rng)
    while any(label in ("M", "m") for _, label in pattern.items):
        pattern = random_pattern(rng)
    condition_text, alternatives = random_condition(rng)
    text = f"{pattern.text(rng)}:{condition_text}"
    try:
        compiled = expand(text)
    except DppError as error:
        exact = [s.values[0] for s, _ in pattern.items if s.kind == "exact"]
        exact += [s.values[0] for s in pattern.group or () if s.kind == "exact"]
        assert sum(exact) > 13 or (len(exact) == 4 and sum(exact) < 13), f"{text}: {error}"
        return
    expected = oracle_set(lambda shape: pattern.matches(shape)
                          and condition_holds(alternatives, shape))
    assert compiled == expected, text


@SETTINGS
@given(RANDOMS, st.integers(1, 4))
def test_unions_and_differences_match_oracle(rng: random.Random, count: int) -> None:
    patterns = [random_pattern(rng) for _ in range(count)]
    signs = ["+"] + [rng.choice("+-") for _ in range(count - 1)]
    text = ""
    expected = set()
    for sign, pattern in zip(signs, patterns, strict=True):
        members = {s for s in SHAPES if pattern.matches(s)}
        expected = expected | members if sign == "+" else expected - members
        text += ("" if not text else f" {sign} ") + pattern.text(rng)
    try:
        compiled = expand(text)
    except DppError:
        return  # an over-13 pattern; covered by the single-pattern test
    assert compiled == ShapeSet.of(expected), text


@pytest.mark.slow
@SETTINGS
@given(RANDOMS)
def test_emitted_lists_mean_their_set(rng: random.Random) -> None:
    text = " + ".join(random_pattern(rng).text(rng) for _ in range(rng.randint(1, 3)))
    try:
        shapes = expand(text)
    except DppError:
        return
    _check_emission(shapes)


@EMISSION
@given(st.sets(st.integers(0, 559), max_size=80))
def test_emission_of_arbitrary_sets(indices: set[int]) -> None:
    shapes = ShapeSet(sum(1 << i for i in indices))
    _check_emission(shapes)


@pytest.mark.slow
@EMISSION
@given(st.sets(st.integers(0, 559), max_size=60))
def test_emission_of_large_sets(holes: set[int]) -> None:
    """Sets with most shapes in them: the subtraction strategies at work."""
    shapes = ShapeSet(FULL_MASK & ~sum(1 << i for i in holes))
    _check_emission(shapes)


def _check_emission(shapes: ShapeSet) -> None:
    compact = shapes.to_dealer()
    listing = shapes.to_dealer(compact=False)
    assert read_dealer_list(compact) == shapes, compact
    assert read_dealer_list(listing) == shapes, listing
    if shapes:
        assert term_count(compact) <= len(shapes)
        assert term_count(listing) == len(shapes)
    for term in compact.replace("any ", "").replace("+", " ").replace("-", " ").split():
        assert len(term) == 4 and set(term) <= set("0123456789x"), term
