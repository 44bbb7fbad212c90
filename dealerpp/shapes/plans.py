"""Strategies: which covers to try for a set, and how to combine them.

dealer reads a shape list left to right, ``+`` adding a term's shapes and
``-`` removing them. A *plan* is the list as term ids: terms to add, then
terms to remove, then terms to add back. Every plan here means exactly its
target set:

- *union*: cover the set with terms inside it;
- *base minus removals*: add a few broad terms covering the set (a *base*:
  ``xxxx``, or one suit's lengths ``5xxx + 6xxx``), then remove what they
  take beyond it with terms apart from the set;
- *relaxed*: the same, but the removals may also take a few wanted shapes,
  which are then added back (``xxxx - 0xxx - ... - 4xxx + 4333``);
- *adding back*: plan the set as if some of its shapes did not matter (a
  few stray ones, or its largest term), then add back what is missing
  (``xxx6 - xx06 + xx60``).

Two searches are built from these. ``compact_plan`` (the default) tries the
union, one base minus the rest (``xxxx``, or the one suit whose lengths
overshoot the set the least, whichever looks cheaper), and ``xxxx`` adding
back stray shapes, with the cover pools cut down to their maximal terms (the
greedy never needs a term lying inside another pool term). ``shortest_plan``
tries every base and every strategy, and then drops every term the list
means the same without: several times slower, a few percent shorter.

Every plan is never longer than the plain enumeration (one term a shape),
because every single shape is itself a term inside the set.
"""

from __future__ import annotations

from dealerpp.shapes.cover import cover
from dealerpp.shapes.terms import TermId, TermSet, TermTable, term_table
from dealerpp.shapes.universe import FULL_MASK, LENGTH_MASK, ShapeMask

# (terms added, terms then removed, terms then added back); never mutated.
Plan = tuple[list[TermId], list[TermId], list[TermId]]
# A base: the terms it adds, and the shapes they take beyond the target.
Base = tuple[list[TermId], ShapeMask]

# compact_plan picks the suit whose base costs the least, counting an
# overshot shape as this fraction of a term (measured on the bench corpus:
# 1/8 to 1/32 all do about as well; fewer shapes is what makes removals cheap).
OVERSHOOT_WEIGHT = 1 / 16
# compact_plan then covers the removals of one base only, xxxx or that suit's
# lengths, whichever costs less counting its terms and this fraction of a term
# per overshot shape. Over the bench corpus, against covering both: 14% less
# time in the emitter for 1.3% more terms (1/4 to 1/64 all save the time;
# 1/64 loses the fewest terms).
BASE_OVERSHOOT_WEIGHT = 1 / 64
# A relaxed removal may take this many wanted shapes (added back later); a
# tight and a loose limit find different lists, so both are tried.
RELAXED_OVERLAPS = (2, 8)
# Stray shapes: at most this many wanted shapes in one suit length, where at
# least STRAY_ROOM shapes are unwanted (4333 in "4333 + 5+xxx"): removing the
# whole length and adding them back can beat removing around them.
STRAY_COUNT, STRAY_ROOM = 2, 8
# compact_plan adds back at most this many stray shapes: more rarely pays
# (over the bench corpus, 46 of the 74 terms saved come from 5 or fewer, in
# 210 of the 572 tries).
COMPACT_STRAYS = 5


def length(plan: Plan) -> int:
    return len(plan[0]) + len(plan[1]) + len(plan[2])


# --- the default -------------------------------------------------------------


def compact_plan(target: ShapeMask) -> Plan:
    """A short plan for ``target``, found with a few covers over small pools."""
    table = term_table()
    every = table.inside(target)
    term = table.exactly(target, every)
    if term is not None:  # what the union cover would find: the largest term inside
        return [term], [], []
    inside = _pool_of(every, table)
    best: Plan = (_union(target, inside, table), [], [])
    if length(best) <= 2:
        return best  # a removal needs two terms at least
    outside = FULL_MASK & ~target
    apart = _Apart(target, table)
    slices = _slices(target)
    base = _everything(outside, table)
    chosen, stray = _cheapest_suit(slices)
    suit = _suit_base(slices[chosen], chosen, target, inside, table)
    if suit is not None and _base_cost(suit) <= _base_cost(base):
        base = suit
    best = _minus(base, apart, target, table, best)
    if stray.bit_count() > COMPACT_STRAYS:
        return best
    return _adding_back(stray, target, inside, table, best, every_base=False,
                        meeting_outside=table.all_terms & ~every)


def _base_cost(base: Base) -> float:
    terms, extra = base
    return len(terms) + extra.bit_count() * BASE_OVERSHOOT_WEIGHT


def _cheapest_suit(slices: Slices) -> tuple[int, ShapeMask]:
    """The suit whose base looks cheapest: a term per length (one for all
    the 10+ lengths), and OVERSHOOT_WEIGHT per shape it takes beyond the
    target (a length's shapes but the target's own); and, from the same
    counts, the stray shapes: wanted shapes nearly alone in a suit length
    (see STRAY_COUNT)."""
    chosen, lowest_cost, stray = 0, 0.0, 0
    for suit, parts in enumerate(slices):
        terms = overshoot = 0
        for part, size in zip(parts[:10], _SLICE_SIZES, strict=True):
            if part:
                count = part.bit_count()
                terms += 1
                overshoot += size - count
                if count <= STRAY_COUNT and size - count >= STRAY_ROOM:
                    stray |= part
        if parts[10] or parts[11] or parts[12] or parts[13]:
            terms += 1
        cost = terms + overshoot * OVERSHOOT_WEIGHT
        if suit == 0 or cost < lowest_cost:
            chosen, lowest_cost = suit, cost
    return chosen, stray


# --- the full search -----------------------------------------------------------


def shortest_plan(target: ShapeMask) -> Plan:
    """The shortest plan found by every strategy, every base, both relaxed
    limits and the add-backs of stray shapes or of the largest term."""
    table = term_table()
    inside = _pool_inside(target, table)
    union = _union(target, inside, table)
    best: Plan = (union, [], [])
    if length(best) <= 2:
        return best
    outside = FULL_MASK & ~target
    apart = _Apart(target, table)
    near = table.touching(target)  # the terms taking some wanted shapes
    slices = _slices(target)
    bases = [_everything(outside, table), *_suit_bases(slices, target, inside, table)]
    for base in bases:
        best = _minus(base, apart, target, table, best)
        for overlap in RELAXED_OVERLAPS:
            best = _relaxed(base, target, apart, near, overlap, inside, table, best)
    for later in (_cheapest_suit(slices)[1], table.masks[union[0]]):
        best = _adding_back(later, target, inside, table, best, every_base=True)
    return without_needless_terms(best, target, table.masks)


def _relaxed(base: Base, target: ShapeMask, apart: _Apart, near: TermSet, overlap: int,
             inside: TermSet, table: TermTable, best: Plan) -> Plan:
    """Remove with terms that may also take up to ``overlap`` wanted shapes,
    then add those back: ``xxxx - 0xxx - 1xxx - 2xxx - 3xxx - 4xxx + 4333``."""
    terms, extra = base
    room = length(best) - len(terms) - 2  # a removal and an add-back at least
    if room < 1 or not extra:
        return best
    touching = table.touching(extra)
    pool = apart.maximal() & touching
    masks = table.masks
    for term in table.ids(near & touching):
        if (masks[term] & target).bit_count() <= overlap:
            pool |= 1 << term
    removals = cover(extra, pool, table, room)
    if removals is None:
        return best
    return _with_back(terms, removals, target, inside, table, best)


def _adding_back(later: ShapeMask, target: ShapeMask, inside: TermSet, table: TermTable,
                 best: Plan, every_base: bool, meeting_outside: TermSet | None = None) -> Plan:
    """Plan the target without the shapes ``later``, taking them or leaving
    them as it pleases, then add back what is missing (from ``xxxx``, and
    with ``every_base`` from each suit's lengths too). ``meeting_outside``:
    the terms touching the shapes outside the target, if known (the caller
    had them from ``inside``: ``xxxx``'s removals take exactly those shapes)."""
    keep = target & ~later
    if not later or not keep or length(best) <= 3:
        return best  # a base, a removal and an add-back at least
    outside = FULL_MASK & ~target
    apart = _Apart(keep, table)  # may take ``later`` too
    bases = [_everything(outside, table)]
    if every_base:
        bases += _suit_bases(_slices(keep), keep, inside, table)
    for terms, extra in bases:
        room = length(best) - len(terms) - 2
        extra &= outside
        if room < 1 or not extra:
            continue
        known = meeting_outside if extra == outside else None
        removals = _removals(extra, apart, table, room, whole=False, touching_extra=known)
        if removals is not None:
            best = _with_back(terms, removals, target, inside, table, best)
    return best


def _with_back(terms: list[TermId], removals: list[TermId], target: ShapeMask,
               inside: TermSet, table: TermTable, best: Plan) -> Plan:
    """``best``, or ``terms - removals + what they miss of target`` if shorter."""
    missing = target & ~(_shapes_of(terms, table.masks) & ~_shapes_of(removals, table.masks))
    room = length(best) - len(terms) - len(removals) - 1
    back = cover(missing, inside & table.touching(missing), table, room) if missing else []
    if back is None or len(terms) + len(removals) + len(back) >= length(best):
        return best
    return terms, removals, back


# --- shared pieces -----------------------------------------------------------


def _union(target: ShapeMask, inside: TermSet, table: TermTable) -> list[TermId]:
    """Cover ``target`` with terms of ``inside`` (the terms inside it, or
    their maximal ones): always possible, each shape being a term."""
    terms = cover(target, inside, table, exact=True)
    if terms is None:
        raise AssertionError("the terms inside a set always cover it")
    return terms


def _everything(outside: ShapeMask, table: TermTable) -> Base:
    """``xxxx``, which takes every shape ``outside`` the target too."""
    return [table.every_shape], outside


# A set cut by suit and length: slices[suit][n], the set's shapes with n
# cards in that suit.
Slices = list[list[ShapeMask]]
_SLICE_SIZES = [LENGTH_MASK[0][n].bit_count() for n in range(10)]  # the same for every suit


def _slices(target: ShapeMask) -> Slices:
    return [[target & mask for mask in row] for row in LENGTH_MASK]


def _suit_bases(slices: Slices, target: ShapeMask, inside: TermSet,
                table: TermTable) -> list[Base]:
    return [base for suit, parts in enumerate(slices)
            if (base := _suit_base(parts, suit, target, inside, table))]


def _suit_base(parts: list[ShapeMask], suit: int, target: ShapeMask, inside: TermSet,
               table: TermTable) -> Base | None:
    """One suit's lengths in ``target`` (``parts``, by length) as a base:
    ``5xxx + 6xxx`` for the lengths 0-9, and terms inside ``target`` for its
    shapes with 10+ cards there (dealer writes no two-digit length). None
    when those fail."""
    row = LENGTH_MASK[suit]
    terms = [table.length_term(suit, n) for n in range(10) if parts[n]]
    covered = 0
    for n in range(10):
        if parts[n]:
            covered |= row[n]
    long_shapes = parts[10] | parts[11] | parts[12] | parts[13]
    if long_shapes:
        extra_terms = cover(long_shapes, inside & table.touching(long_shapes), table)
        if extra_terms is None:
            return None
        terms += extra_terms
    return terms, covered & ~target


def _minus(base: Base, apart: _Apart, target: ShapeMask, table: TermTable, best: Plan) -> Plan:
    """``best``, or the base minus terms of ``apart`` if that is shorter."""
    terms, extra = base
    if not extra:
        return (terms, [], []) if len(terms) < length(best) else best
    room = length(best) - len(terms) - 1  # removals that would still beat ``best``
    removals = _removals(extra, apart, table, room, whole=extra | target == FULL_MASK)
    return best if removals is None else (terms, removals, [])


def _removals(extra: ShapeMask, apart: _Apart, table: TermTable, room: int,
              whole: bool, touching_extra: TermSet | None = None) -> list[TermId] | None:
    """At most ``room`` terms of ``apart`` taking all of ``extra``, or None.
    ``whole``: ``extra`` is everything apart's terms may take, so every one
    of them touches it and counts whole. ``touching_extra``: the terms
    touching ``extra``, if the caller has them."""
    if room < 1:
        return None
    if whole:
        touching = apart.terms
    else:
        if touching_extra is None:
            touching_extra = table.touching(extra)
        touching = apart.terms & touching_extra
    if table.largest(touching) * room < extra.bit_count():
        return None  # even the largest terms cannot take it all
    return cover(extra, apart.maximal() & touching, table, room, exact=whole)


class _Apart:
    """The terms apart from a set of shapes (taking none of them), and their
    maximal ones, made only when a cover needs them."""

    __slots__ = ("_maximal", "table", "terms")

    def __init__(self, shapes: ShapeMask, table: TermTable) -> None:
        self.table = table
        self.terms = table.all_terms & ~table.touching(shapes)
        self._maximal: TermSet | None = None

    def maximal(self) -> TermSet:
        if self._maximal is None:
            self._maximal = self.table.maximal(self.terms)
        return self._maximal


# Below this many terms, a pool is searched as it is: finding its maximal
# terms would cost more than the cover saves.
SMALL_POOL = 24


def _pool_inside(target: ShapeMask, table: TermTable) -> TermSet:
    """The terms inside ``target`` a union cover needs: the maximal ones."""
    return _pool_of(table.inside(target), table)


def _pool_of(inside: TermSet, table: TermTable) -> TermSet:
    """``_pool_inside`` of a target, given every term ``inside`` it."""
    return inside if inside.bit_count() <= SMALL_POOL else table.maximal(inside)


def without_needless_terms(plan: Plan, target: ShapeMask, masks: tuple[ShapeMask, ...]) -> Plan:
    """Drop every term the list means the same without (``xxx0 + ... - xxx0``),
    trying each part in turn, each term in order."""
    parts = [list(part) for part in plan]
    unions = [_shapes_of(part, masks) for part in parts]
    for k, part in enumerate(parts):
        after = [0] * (len(part) + 1)  # after[i]: the shapes of part[i:]
        for i in range(len(part) - 1, -1, -1):
            after[i] = after[i + 1] | masks[part[i]]
        kept: list[TermId] = []
        before = 0
        for i, term in enumerate(part):
            unions[k] = before | after[i + 1]
            still_adds = k > 0 or bool(kept) or i + 1 < len(part)  # dealer needs a first term
            if not (still_adds and _meaning(*unions) == target):
                kept.append(term)
                before |= masks[term]
        unions[k] = before
        parts[k] = kept
    return parts[0], parts[1], parts[2]


def _shapes_of(terms: list[TermId], masks: tuple[ShapeMask, ...]) -> ShapeMask:
    shapes = 0
    for term in terms:
        shapes |= masks[term]
    return shapes


def _meaning(added: ShapeMask, removed: ShapeMask, back: ShapeMask) -> ShapeMask:
    return added & ~removed | back

