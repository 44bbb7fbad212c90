"""The cover search: a few terms whose union is a given set of shapes.

Finding the fewest is a set-cover problem; ``cover`` is the classic greedy
(take the term covering the most shapes still uncovered, until none are
left), then drops every term the others make redundant.

The greedy is *lazy*: a term's gain only shrinks as the cover grows, so a
gain counted earlier is an upper bound, and a term is counted again only
when its bound is the highest in the queue. The queue is a heap of plain
ints, ``(TOP - bound) << 11 | id``, which order as (highest bound, lowest
id) and compare faster than tuples.

A ``limit`` makes the search give up as soon as even the best bound left
cannot finish within it: the callers use it to drop a strategy that cannot
beat the list they already have.
"""

from __future__ import annotations

# heapq's C half: the module ``heapq`` is Python code that loads it (not
# worth its time to the console script's front door, issue 28).
from _heapq import heapify, heappop, heapreplace

from dealerpp.shapes.terms import TermId, TermSet, TermTable
from dealerpp.shapes.universe import ShapeMask, indices

NO_LIMIT = 1 << 30
_ID_BITS = 11  # term ids are below 2**11 (the table has 1,163 terms)
_ID_MASK = (1 << _ID_BITS) - 1
_TOP = 1 << 10  # above any gain (a term has at most 560 shapes)


def cover(target: ShapeMask, pool: TermSet, table: TermTable, limit: int = NO_LIMIT,
          exact: bool = False) -> list[TermId] | None:
    """Terms of ``pool`` whose shapes, together, include all of ``target``
    (the caller makes sure any shapes they take beyond it do no harm).

    ``exact``: every term of the pool lies inside ``target``, so its first
    gain is its size and nothing needs counting. None when the pool cannot
    cover ``target``, or not within ``limit`` terms.
    """
    masks = table.masks
    if exact:  # ids rise as sizes fall: the list is already a heap
        sizes = table.sizes
        queue = [(_TOP - sizes[t]) << _ID_BITS | t for t in indices(pool)]
    else:
        queue = []
        for t in indices(pool):
            gain = (masks[t] & target).bit_count()
            if gain:
                queue.append((_TOP - gain) << _ID_BITS | t)
        heapify(queue)
    chosen: list[TermId] = []
    lefts: list[ShapeMask] = []  # lefts[i]: the shapes still left when chosen[i] was taken
    left, count, room = target, target.bit_count(), limit
    while left:
        if not queue:
            return None
        entry = queue[0]
        bound = _TOP - (entry >> _ID_BITS)
        if bound * room < count:
            return None  # even the best gains left cannot finish in time
        if bound == 1:  # from here on every term takes one shape
            return _one_each(left, pool, table, chosen, lefts, room)
        term = entry & _ID_MASK
        gain = (masks[term] & left).bit_count()
        if gain != bound:  # a stale bound: requeue the term with its gain
            if gain:
                heapreplace(queue, (_TOP - gain) << _ID_BITS | term)
            else:
                heappop(queue)
            continue
        heappop(queue)
        chosen.append(term)
        lefts.append(left)
        left &= ~masks[term]
        count -= gain
        room -= 1
    return without_redundant(chosen, lefts, masks)


def _one_each(left: ShapeMask, pool: TermSet, table: TermTable, chosen: list[TermId],
              lefts: list[ShapeMask], room: int) -> list[TermId] | None:
    """Finish a cover whose terms now take one shape each: for each shape
    left, the lowest id containing it, in id order (the greedy's choices)."""
    shapes = indices(left)
    if len(shapes) > room:
        return None
    last: list[TermId] = []
    taken = 0  # the shapes of the terms in ``last``
    masks, containing = table.masks, table.containing
    singles = table.single_terms()
    # The terms of two shapes or more come first (ids go largest first): the
    # lowest id is one of them when any takes the shape, else the shape's own
    # one-shape term. Looked for among them alone, on ints of half the width.
    several = pool & table.several_shapes
    for shape in shapes:
        terms = containing[shape] & several
        if terms:
            term = (terms & -terms).bit_length() - 1
        else:
            term = singles[shape]
            if not pool >> term & 1:
                return None
        last.append(term)
        taken |= masks[term]
    # Each of ``last`` is the only term taking its shape (no term left takes
    # two of ``left``), so none of them is redundant: only ``chosen`` is checked.
    return without_redundant(chosen, lefts, masks, taken) + sorted(last)


def without_redundant(chosen: list[TermId], lefts: list[ShapeMask],
                      masks: tuple[ShapeMask, ...], after: ShapeMask = 0) -> list[TermId]:
    """``chosen`` (a greedy cover's terms, ``lefts[i]`` the shapes of the
    target still left when ``chosen[i]`` was taken) without the terms whose
    part of the target the others (and the shapes ``after``, taken by terms
    to follow) already cover; the last chosen are dropped first. The terms
    before ``chosen[i]`` cover all of the target but ``lefts[i]``, so only
    ``lefts[i]`` is looked for in the terms kept after it."""
    if len(chosen) < 2 and not after:
        return chosen
    kept: list[TermId] = []
    # ``after``: the shapes of the terms after the current one, kept or to follow
    for i in range(len(chosen) - 1, -1, -1):
        if lefts[i] & ~after:
            kept.append(chosen[i])
            after |= masks[chosen[i]]
    kept.reverse()
    return kept
