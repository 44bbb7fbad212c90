"""The shipped term table equals what ``term_build`` computes, its indexes
answer what a scan of every term would, and the emitter's bucket queue makes
the same greedy choices as a plain lazy heap."""

from __future__ import annotations

import heapq
import random

import pytest

from dealerpp.shapes import emit
from dealerpp.shapes._term_data import PACKED, TEXTS
from dealerpp.shapes.term_build import TermBuild, data_source
from dealerpp.shapes.terms import _unpack, term_table
from dealerpp.shapes.universe import FULL_MASK


@pytest.fixture(scope="module")
def built() -> TermBuild:
    return TermBuild()


def test_shipped_table_is_the_built_one(built: TermBuild) -> None:
    table = _unpack(TEXTS.split(","), PACKED)
    assert table.texts == built.texts
    assert table.masks == built.masks
    assert [table.ids(terms) for terms in table.containing] == built.containing


def test_data_source_round_trips(built: TermBuild) -> None:
    namespace: dict[str, str] = {}
    exec(data_source(built), namespace)
    assert namespace["TEXTS"] == TEXTS
    assert _unpack(namespace["TEXTS"].split(","), namespace["PACKED"]).masks == built.masks


def _random_sets(count: int) -> list[int]:
    rng = random.Random(5)
    masks = term_table().masks
    sets = []
    for _ in range(count):
        shapes = 0
        for _ in range(rng.randint(1, 5)):
            shapes |= masks[rng.randrange(len(masks))]
        sets.append(shapes | rng.getrandbits(560) & rng.getrandbits(560) & rng.getrandbits(560))
    return sets


def test_indexes_match_a_scan() -> None:
    table = term_table()
    for shapes in _random_sets(60):
        touching = {t for t, m in enumerate(table.masks) if m & shapes}
        inside = {t for t, m in enumerate(table.masks) if not m & ~shapes & FULL_MASK}
        assert set(table.ids(table.touching(shapes))) == touching
        assert set(table.ids(table.inside(shapes))) == inside


def _heap_cover(target: int, terms: list[int], masks: list[int],
                limit: int = emit.NO_LIMIT) -> list[int] | None:
    """The lazy greedy as a heap of (-bound, id): the reference the queue must match."""
    heap = [(-gain, t) for t in terms if (gain := (masks[t] & target).bit_count())]
    heapq.heapify(heap)
    chosen: list[int] = []
    left = target
    while left:
        if not heap:
            return None
        if limit < emit.NO_LIMIT and -heap[0][0] * (limit + 1 - len(chosen)) < left.bit_count():
            return None
        _, term = heapq.heappop(heap)
        gain = (masks[term] & left).bit_count()
        if not gain:
            continue
        if heap and gain < -heap[0][0]:
            heapq.heappush(heap, (-gain, term))
            continue
        chosen.append(term)
        if len(chosen) > limit:
            return None
        left &= ~masks[term]
    kept = list(chosen)
    for term in reversed(chosen):
        others = 0
        for t in kept:
            if t != term:
                others |= masks[t]
        if target & ~others == 0:
            kept.remove(term)
    return kept


@pytest.mark.parametrize("limit", [emit.NO_LIMIT, 3, 8, 20])
def test_queue_makes_the_heap_choices(limit: int) -> None:
    table = term_table()
    for shapes in _random_sets(40):
        # Covering the set from inside it, and its complement from terms apart from it.
        for target, pool, exact in [(shapes, table.inside(shapes), None),
                                    (FULL_MASK & ~shapes, table.inside(FULL_MASK & ~shapes), 0)]:
            expected = _heap_cover(target, table.ids(pool), table.masks, limit)
            assert emit._cover(target, pool, table, limit, exact) == expected
