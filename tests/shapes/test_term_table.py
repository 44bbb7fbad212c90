"""The shipped term table is what ``tools/term_build.py`` computes, each term
means what dealer's own rules say, its indexes answer what a scan of every
term would, and the cover search makes the plain greedy's choices."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.shapes.cover import NO_LIMIT, cover
from dealerpp.shapes.dealer_list import read_dealer_list
from dealerpp.shapes.generated.term_data import CONTAINING, MASKS, SIZES, TEXTS, UNDER
from dealerpp.shapes.terms import _WHOLE_AFTER, TermTable, term_table
from dealerpp.shapes.universe import FULL_MASK
from tests.conftest import examples
from tools.term_build import DATA_FILE, TermBuild, data_source

TABLE = term_table()
TERM_COUNT = len(TABLE.texts)


@pytest.fixture(scope="module")
def built() -> TermBuild:
    return TermBuild()


def test_shipped_data_is_what_the_tool_writes(built: TermBuild) -> None:
    shipped = Path(DATA_FILE).read_text(encoding="utf-8")
    assert shipped == data_source(built), "run: python tools/term_build.py"


@pytest.mark.slow  # 1,723 lists read by the slow reference reader: seconds
def test_every_term_means_what_dealer_reads() -> None:
    for text, mask in zip(TABLE.texts, TABLE.masks, strict=True):
        assert read_dealer_list(text).mask == mask, text


def test_terms_are_distinct_and_largest_first() -> None:
    assert len(set(TABLE.masks)) == TERM_COUNT
    assert list(TABLE.sizes) == sorted(TABLE.sizes, reverse=True)
    assert list(TABLE.sizes) == [mask.bit_count() for mask in TABLE.masks]


def test_every_shape_is_a_term() -> None:
    singles = {mask for mask in TABLE.masks if mask.bit_count() == 1}
    assert singles == {1 << shape for shape in range(560)}


# --- indexes -------------------------------------------------------------------

# Sets of shapes built from terms (the sets the emitter meets) and loose bits.
term_ids = st.integers(0, TERM_COUNT - 1)
shape_sets = st.builds(
    lambda terms, extra, holes: (sum(TABLE.masks[t] for t in terms) | extra) & ~holes & FULL_MASK,
    st.lists(term_ids, max_size=5),
    st.sets(st.integers(0, 559), max_size=40).map(lambda s: sum(1 << i for i in s)),
    st.sets(st.integers(0, 559), max_size=40).map(lambda s: sum(1 << i for i in s)),
)


def _scan_inside(shapes: int) -> set[int]:
    return {t for t, mask in enumerate(TABLE.masks) if not mask & ~shapes}


@settings(max_examples=examples(60), deadline=None)
@given(shape_sets)
def test_indexes_match_a_scan(shapes: int) -> None:
    touching = {t for t, mask in enumerate(TABLE.masks) if mask & shapes}
    assert set(TABLE.ids(TABLE.touching(shapes))) == touching
    assert set(TABLE.ids(TABLE.inside(shapes))) == _scan_inside(shapes)


@settings(max_examples=examples(60), deadline=None)
@given(shape_sets)
def test_maximal_terms_match_a_scan(shapes: int) -> None:
    inside = _scan_inside(shapes)
    expected = {t for t in inside
                if not any(u != t and not TABLE.masks[t] & ~TABLE.masks[u] for u in inside)}
    assert set(TABLE.ids(TABLE.maximal(TABLE.inside(shapes)))) == expected


def _fresh_table() -> TermTable:
    return TermTable(TEXTS.split(","), MASKS, SIZES, CONTAINING, UNDER)


# A table past _WHOLE_AFTER lookups reads whole rows; a fresh one fills
# entries as it reads them (a one-term run): both must answer as the scan.
WHOLE = _fresh_table()
for _ in range(_WHOLE_AFTER):
    WHOLE.touching(FULL_MASK)


@settings(max_examples=examples(60), deadline=None)
@given(shape_sets)
def test_whole_and_filled_tables_match_a_scan(shapes: int) -> None:
    filled = _fresh_table()
    assert WHOLE._touching_rows is not None and filled._touching_rows is None
    touching = sum(1 << t for t, mask in enumerate(TABLE.masks) if mask & shapes)
    inside = sum(1 << t for t in _scan_inside(shapes))
    maximal = {t for t in _scan_inside(shapes) if not any(
        u != t and not TABLE.masks[t] & ~TABLE.masks[u] for u in _scan_inside(shapes))}
    for table in (WHOLE, filled):
        assert table.touching(shapes) == touching
        assert table.inside(shapes) == inside
        assert set(table.ids(table.maximal(inside))) == maximal
    assert filled._touching_rows is None  # still filling entries


def test_length_terms() -> None:
    assert TABLE.texts[TABLE.length_term(0, 5)] == "5xxx"
    assert TABLE.texts[TABLE.length_term(3, 0)] == "xxx0"


# --- the cover search ------------------------------------------------------------


def plain_greedy(target: int, pool: set[int], table: TermTable, limit: int) -> list[int] | None:
    """The greedy without laziness: every gain recounted at every step; the
    highest gain wins, then the lowest id; then redundant terms dropped,
    last chosen first."""
    chosen: list[int] = []
    left = target
    while left:
        gains = {t: (table.masks[t] & left).bit_count() for t in pool}
        best = max(gains.values(), default=0)
        if best == 0:
            return None
        term = min(t for t, gain in gains.items() if gain == best)
        chosen.append(term)
        left &= ~table.masks[term]
    if len(chosen) > limit:
        return None
    kept = list(chosen)
    for term in reversed(chosen):
        others = 0
        for t in kept:
            if t != term:
                others |= table.masks[t]
        if not target & ~others:
            kept.remove(term)
    return kept


@settings(max_examples=examples(60), deadline=None)
@given(shape_sets, st.sampled_from([NO_LIMIT, 2, 5, 12]))
def test_cover_makes_the_plain_greedys_choices(shapes: int, limit: int) -> None:
    for target, pool in ((shapes, TABLE.inside(shapes)),
                         (shapes, TABLE.maximal(TABLE.inside(shapes))),
                         (FULL_MASK & ~shapes, TABLE.touching(FULL_MASK & ~shapes))):
        expected = plain_greedy(target, set(TABLE.ids(pool)), TABLE, limit)
        assert cover(target, pool, TABLE, limit) == expected
        if TABLE.inside(target) & pool == pool:  # sizes are the first gains
            assert cover(target, pool, TABLE, limit, exact=True) == expected
