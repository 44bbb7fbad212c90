"""``ShapeSet`` → the shortest dealer shape list we can find for it.

dealer's shape lists are built from *terms*: a pattern of four characters,
each a digit or ``x`` (any length), optionally preceded by ``any`` (every
order of the suits), joined by ``+`` (add) and ``-`` (remove), left to right.
A suit of 10+ cards can only be written as ``x``.

Minimising the number of terms is a set-cover problem; we take the shortest
of a few greedy strategies:

1. union only: cover the set with terms that lie inside it;
2. a *base* then subtraction: a few broad terms that cover the set, then
   remove what they overshoot with terms that lie outside the set. Bases
   tried: everything (``xxxx``), and the set's lengths in one suit
   (``5xxx + 6xxx + ...``);
3. the same, but removing with terms that also take a few wanted shapes,
   which are then added back (``xxxx - 0xxx - ... - 4xxx + 4333``).

Finally every term the list means the same without is dropped. The result is never longer than the plain enumeration (one term a shape),
because every single shape is itself a candidate term.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, permutations, product

from dealerpp.shapes.shapeset import ShapeSet
from dealerpp.shapes.universe import ALL_SHAPES, FULL_MASK, LENGTH_MASK, indices

X = -1  # an 'x' in a pattern
EMPTY_LIST = "xxxx - xxxx"  # dealer needs some list; this one matches nothing
SMALL_SET = 48  # up to this size, find subset terms from the members outward
INDEX_AFTER = 100  # small-set queries answered by scanning before the index is built


class _Candidates:
    """Every dealer term with its mask, and for each shape the terms containing it."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.masks: list[int] = []
        self.sizes: list[int] = []
        self.index: dict[str, int] = {}
        self._by_mask: dict[int, int] = {}
        self._plain: dict[tuple[int, ...], int] = {}
        self._any: dict[tuple[int, ...], int] = {}
        self._containing: list[list[int]] | None = None
        self._small_queries = 0
        self._build()

    def _build(self) -> None:
        # Fewest x first: among terms with the same shapes (any 4432 and
        # any 432x, 6133 and x133) the first one built is the one kept.
        for pattern in _valid_patterns():
            self._plain[pattern] = self._add(_text(pattern), _plain_mask(pattern))
        for key in _any_keys():
            mask = 0
            for order in set(permutations(key)):
                mask |= self.masks[self._plain[order]]
            self._any[key] = self._add("any " + _text(key), mask)
        self.index = {text: i for i, text in enumerate(self.texts)}

    def _add(self, text: str, mask: int) -> int:
        known = self._by_mask.get(mask)
        if known is None:
            self.texts.append(text)
            self.masks.append(mask)
            self.sizes.append(mask.bit_count())
            known = self._by_mask[mask] = len(self.texts) - 1
        return known

    @property
    def containing(self) -> list[list[int]]:
        """For each shape, the terms that contain it (built on first use)."""
        if self._containing is None:
            self._containing = []
            plain, any_of = self._plain, self._any_of_plain()
            for shape in ALL_SHAPES:
                terms = set()
                for general in _generalisations(shape):
                    terms.add(plain[general])
                    terms.add(any_of.get(general, plain[general]))
                self._containing.append(sorted(terms))
        return self._containing

    def _any_of_plain(self) -> dict[tuple[int, ...], int]:
        """The ``any`` term of each plain pattern (patterns with one order have none)."""
        return {pattern: self._any[key] for key, pattern in
                ((_any_key(p), p) for p in self._plain) if key in self._any}

    def inside(self, target: int, touching: int | None = None) -> list[int]:
        """The terms whose shapes all lie in ``target`` (and, if given, meet ``touching``)."""
        seeds = target if touching is None else touching
        if seeds.bit_count() <= SMALL_SET:
            # The per-shape index costs about a hundred scans to build: a short
            # script scans, a long one builds it once.
            self._small_queries += 1
            if self._containing is not None or self._small_queries > INDEX_AFTER:
                return self._inside_from_members(target, seeds)
        outside = FULL_MASK & ~target
        return [t for t, m in enumerate(self.masks) if not m & outside and m & seeds]

    def _inside_from_members(self, target: int, seeds: int) -> list[int]:
        masks, outside, containing = self.masks, FULL_MASK & ~target, self.containing
        terms: set[int] = set()
        for i in indices(seeds):
            terms.update(containing[i])
        return sorted(t for t in terms if not masks[t] & outside)


def _valid_patterns() -> list[tuple[int, ...]]:
    """Every valid dealer pattern, fewest x first: digits without x total 13,
    digits with x total at most 13."""
    patterns = []
    for x_count in range(5):
        for places in combinations(range(4), x_count):
            for digits in _digit_tuples(4 - x_count, exact=x_count == 0):
                it = iter(digits)
                patterns.append(tuple(X if i in places else next(it) for i in range(4)))
    return sorted(patterns, key=lambda p: (p.count(X), p))


def _digit_tuples(length: int, exact: bool, budget: int = 13) -> list[tuple[int, ...]]:
    if length == 0:
        return [()] if not exact or budget == 0 else []
    if length == 1 and exact:
        return [(budget,)] if budget <= 9 else []
    return [(first, *rest)
            for first in range(min(9, budget) + 1)
            for rest in _digit_tuples(length - 1, exact, budget - first)]


def _any_keys() -> list[tuple[int, ...]]:
    """Multisets of four pattern symbols with more than one order, fewest x first."""
    keys = []
    for x_count in range(4):
        for digits in combinations_with_replacement(range(9, -1, -1), 4 - x_count):
            total = sum(digits)
            if total > 13 or (x_count == 0 and total != 13):
                continue
            key = (*digits, *([X] * x_count))
            if len(set(key)) > 1:
                keys.append(key)
    return sorted(keys, key=lambda k: (k.count(X), k))


def _valid(pattern: tuple[int, ...]) -> bool:
    total = sum(n for n in pattern if n != X)
    return total <= 13 if X in pattern else total == 13


def _text(pattern: tuple[int, ...]) -> str:
    return "".join("x" if n == X else str(n) for n in pattern)


def _any_key(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """``any`` patterns are written longest suit first, x last: any 5431, any 54xx."""
    return tuple(sorted(pattern, key=lambda n: 99 if n == X else -n))


def _plain_mask(pattern: tuple[int, ...]) -> int:
    mask = FULL_MASK
    for suit, n in enumerate(pattern):
        if n != X:
            mask &= LENGTH_MASK[suit][n]
    return mask


def _generalisations(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The plain terms containing ``shape``: each suit kept (if 0-9) or made x."""
    options = [(n, X) if n <= 9 else (X,) for n in shape]
    return [p for p in product(*options) if _valid(p)]


@cache
def _candidates() -> _Candidates:
    return _Candidates()


# --- greedy cover -----------------------------------------------------------


def _cover(target: int, terms: list[int], table: _Candidates,
           limit: int = 1 << 30) -> list[int] | None:
    """Greedy set cover of ``target`` by ``terms`` (lazy evaluation of gains).

    None when ``terms`` cannot cover ``target``, or need more than ``limit``.
    """
    masks = table.masks
    # Gains only shrink as the cover grows, so a stale gain is an upper bound:
    # re-count a term only when it reaches the top of the heap (lazy greedy).
    heap = [(-gain, t) for t in terms if (gain := (masks[t] & target).bit_count())]
    heapq.heapify(heap)
    chosen: list[int] = []
    left = target
    while left:
        if not heap:
            return None
        if limit < 1 << 30 and -heap[0][0] * (limit + 1 - len(chosen)) < left.bit_count():
            return None  # even the best gains left cannot finish within the limit
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
    return _drop_redundant(chosen, target, masks)


def _drop_redundant(chosen: list[int], target: int, masks: list[int]) -> list[int]:
    """Remove terms whose part of ``target`` the other terms already cover."""
    kept = list(chosen)
    for term in reversed(chosen):
        others = 0
        for t in kept:
            if t != term:
                others |= masks[t]
        if target & ~others == 0:
            kept.remove(term)
    return kept


# --- strategies -------------------------------------------------------------

# (terms added, terms then removed, terms then added back); never mutated.
Plan = tuple[list[int], list[int], list[int]]
# A relaxed removal may take this many wanted shapes (added back later); a
# tight and a loose limit find different lists, so both are tried.
RELAXED_OVERLAPS = (2, 8)


def plan_terms(shapes: ShapeSet) -> Plan:
    """The terms to add, then remove, then add back for ``shapes`` (term ids)."""
    return _plan(shapes.mask)


def _meaning(plan: Sequence[list[int]], masks: list[int]) -> int:
    """The set a plan's list means under dealer's rules."""
    added, removed, back = plan
    result = 0
    for term in added:
        result |= masks[term]
    for term in removed:
        result &= ~masks[term]
    for term in back:
        result |= masks[term]
    return result


def _without_needless_terms(plan: Plan, target: int, masks: list[int]) -> Plan:
    """Drop every term the list means the same without (``xxx0 + ... - xxx0``)."""
    parts = [list(part) for part in plan]
    for part in parts:
        position = 0
        while position < len(part):
            term = part.pop(position)
            if parts[0] and _meaning(parts, masks) == target:
                continue
            part.insert(position, term)
            position += 1
    return parts[0], parts[1], parts[2]


@lru_cache(maxsize=2048)
def _plan(target: int) -> Plan:
    # Scripts repeat the same sets (balanced hands, a suit length), hence the cache.
    table = _candidates()
    best: Plan = (_cover(target, table.inside(target), table) or [], [], [])
    if len(best[0]) < 3:
        return best
    masks = table.masks
    # Terms taking at most max(RELAXED_OVERLAPS) wanted shapes, with how many
    # they take: found once, then filtered for each base.
    near = [(t, n) for t, m in enumerate(masks)
            if (n := (m & target).bit_count()) <= RELAXED_OVERLAPS[-1]]
    for base in _bases(target, table):
        if len(base) + 1 >= _length(best):
            continue  # even one removal would not beat what we have
        covered = 0
        for term in base:
            covered |= masks[term]
        extra = covered & ~target
        touching = [(t, n) for t, n in near if masks[t] & extra]
        budget = _length(best) - len(base) - 1
        removals = _cover(extra, [t for t, n in touching if not n], table, budget)
        if removals is not None and len(base) + len(removals) < _length(best):
            best = (base, removals, [])
        for limit in RELAXED_OVERLAPS:
            if _length(best) > 4:
                pool = [t for t, n in touching if n <= limit]
                best = _relaxed(base, extra, pool, target, table, best)
    return _without_needless_terms(best, target, masks)


def _relaxed(base: list[int], extra: int, pool: list[int], target: int,
             table: _Candidates, best: Plan) -> Plan:
    """Remove with terms that also take a few wanted shapes, then add those back:
    ``xxxx - 0xxx - 1xxx - 2xxx - 3xxx - 4xxx + 4333``."""
    masks = table.masks
    budget = _length(best) - len(base) - 2
    removals = _cover(extra, pool, table, budget)
    if removals is None:
        return best
    lost = 0
    for term in removals:
        lost |= masks[term] & target
    back = _cover(lost, table.inside(target, touching=lost), table) if lost else []
    if back is None:
        return best
    plan = (base, removals, back)
    return plan if _length(plan) < _length(best) else best


def _length(plan: Plan) -> int:
    return len(plan[0]) + len(plan[1]) + len(plan[2])


def _bases(target: int, table: _Candidates) -> list[list[int]]:
    """Broad unions of terms that contain ``target``."""
    index = table.index
    bases = [[index["xxxx"]]]
    for suit in range(4):
        base: list[int] = []
        long_suits = 0
        for n in range(14):
            part = target & LENGTH_MASK[suit][n]
            if not part:
                continue
            if n <= 9:
                text = "".join(str(n) if s == suit else "x" for s in range(4))
                base.append(index[text])
            else:
                long_suits |= part
        if long_suits:
            extra = _cover(long_suits, table.inside(target, touching=long_suits), table)
            if extra is None:
                continue
            base.extend(extra)
        bases.append(base)
    return bases


# --- text -------------------------------------------------------------------


def emit_dealer_list(shapes: ShapeSet) -> str:
    """The shortest dealer list found for ``shapes``: ``any 4333 + 5xxx - 5332``."""
    if not shapes:
        return EMPTY_LIST
    if shapes.mask == FULL_MASK:
        return "xxxx"
    added, removed, back = plan_terms(shapes)
    texts = _candidates().texts
    parts = [texts[added[0]]]
    parts += [f"+ {texts[t]}" for t in added[1:]]
    parts += [f"- {texts[t]}" for t in removed]
    parts += [f"+ {texts[t]}" for t in back]
    return " ".join(parts)


def emit_enumeration(shapes: ShapeSet) -> str:
    """One term per shape, in the set's order: ``5431 + 5422 + x300``."""
    if not shapes:
        return EMPTY_LIST
    return " + ".join(shape.dealer for shape in shapes)
