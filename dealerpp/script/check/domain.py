"""What a deal can be: the abstract states of the logic analysis.

A ``State`` over-approximates a set of deals: each seat's possible shapes
(the exact ``ShapeMask`` over the 560 shapes), an interval for every other
quantity dealer can read from a deal (an *atom*: hcp of a seat or a suit,
the other point tables, hascard, a variable whose value has no simpler
form), and intervals on sums of atoms (*groups*: a partnership's HCP, a
fit). ``Deck`` holds what ties the seats together: 13 cards a hand, 13 a
suit, each card in one hand, the point tables' totals and the predealt
cards. An operation never drops a deal a real script could see, so "no
deal" (``None``, the bottom) is a proof.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from operator import itemgetter

from dealerpp.shapes.universe import ALL_SHAPES, FULL_MASK, LENGTH_MASK

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable

SEATS = ("north", "east", "south", "west")
SUIT_WORDS = ("spade", "heart", "diamond", "club")
SUIT_LETTERS = "SHDC"
RANKS = "AKQJT98765432"  # dealer's point tables run from the ace down
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
TOP = (INT_MIN, INT_MAX)

# An atom: ("len", seat, suit), ("tbl", table, seat, suit or -1),
# ("card", seat, card index), ("var", name), ("other", text).
Atom = tuple
Interval = tuple[int, int]
# Per point tables and predealt cards: the tables' ranges and totals.
_SHARED: dict[object, tuple[dict[Atom, Interval],
                            dict[Atom, tuple[tuple[Atom, ...], int] | None],
                            tuple[int, ...],
                            dict[tuple[Atom, int, int], int],
                            dict[tuple[str, int, int], tuple[Interval | None, ...]]]] = {}

# Not yet in the totals' table, where None means "no total" (told apart
# by identity).
_UNKNOWN: tuple[tuple[tuple[object, ...], ...], int] = ((), -1)

# dealer's default point tables, from the ace down (row names as the script
# reads them: hcp, control, pt0..pt9 = tens jacks queens kings aces top2
# top3 top4 top5 c13).
_DEFAULT_TABLES: dict[str, tuple[int, ...]] = {
    "hcp": (4, 3, 2, 1), "control": (2, 1),
    "pt0": (0, 0, 0, 0, 1), "pt1": (0, 0, 0, 1), "pt2": (0, 0, 1), "pt3": (0, 1), "pt4": (1,),
    "pt5": (1, 1), "pt6": (1, 1, 1), "pt7": (1, 1, 1, 1), "pt8": (1, 1, 1, 1, 1),
    "pt9": (6, 4, 2, 1),
}
# The row each table lives in (altcount N writes row N; pointcount row 0).
TABLE_ROWS = {"hcp": 0, "control": 1} | {f"pt{n}": n + 2 for n in range(10)}


def default_tables() -> dict[str, tuple[int, ...]]:
    return dict(_PADDED_TABLES)


_PADDED_TABLES = {name: row + (0,) * (13 - len(row)) for name, row in _DEFAULT_TABLES.items()}


class Deck:
    """The facts every deal of a script shares: the point tables and the
    predealt cards, and the base state they give."""

    def __init__(self, tables: dict[str, tuple[int, ...]],
                 predealt: dict[int, list[int]]) -> None:
        self.tables = tables
        # predealt[seat]: card indexes (suit * 13 + rank) predealt to it.
        self.predealt = predealt
        self.owner = {card: seat for seat, cards in predealt.items() for card in cards}
        self.count = [len(predealt.get(seat, ())) for seat in range(4)]
        self._ranges: dict[Atom, Interval] = {}
        # What the point tables and predealt cards alone decide, shared by
        # every deck with the same ones (most scripts have dealer's own
        # tables and no predeal).
        facts = (tuple(tables.items()), tuple((seat, tuple(cards))
                                              for seat, cards in sorted(predealt.items())))
        shared = _SHARED.get(facts)
        if shared is None:
            if len(_SHARED) >= 64:
                _SHARED.clear()
            shared = _SHARED[facts] = ({}, {}, self._base_masks(), {}, {})
        self._table_ranges: dict[Atom, Interval] = shared[0]
        self._totals: dict[Atom, tuple[tuple[Atom, ...], int] | None] = shared[1]
        self.base: State = ({}, shared[2], {})
        # _points_shapes by (atom, low, high), looked up first.
        self.fits: dict[tuple[Atom, int, int], int] = shared[3]
        # _points_by_length by (table, seat, suit).
        self._spans = shared[4]

    def _base_masks(self) -> tuple[int, ...]:
        masks = []
        for seat in range(4):
            mask = FULL_MASK
            for suit in range(4):
                mine = sum(1 for c in self.predealt.get(seat, ()) if c // 13 == suit)
                others = sum(1 for c, s in self.owner.items() if c // 13 == suit and s != seat)
                room = min(13 - self.count[seat], 13 - mine - others)
                mask &= _lengths_between(suit, mine, mine + room)
            masks.append(mask)
        return tuple(masks)

    def range(self, atom: Atom) -> Interval:
        """What ``atom`` can be on any deal of this deck."""
        found = self._ranges.get(atom)
        if found is None:
            found = self._ranges[atom] = self._compute(atom)
        return found

    def set_range(self, atom: Atom, interval: Interval) -> None:
        """What ``atom`` (a variable) can be, worked out by the analysis."""
        self._ranges[atom] = interval

    def _compute(self, atom: Atom) -> Interval:
        kind = atom[0]
        if kind == "tbl":
            found = self._table_ranges.get(atom)
            if found is None:
                found = self._table_ranges[atom] = self._table_range(atom[1], atom[2], atom[3])
            return found
        if kind == "card":
            owner = self.owner.get(atom[2])
            if owner is None:
                return (0, 1)
            return (1, 1) if owner == atom[1] else (0, 0)
        return TOP

    def _table_range(self, table: str, seat: int, suit: int) -> Interval:
        weights = self.tables[table]
        mine = [c for c in self.predealt.get(seat, ()) if suit < 0 or c // 13 == suit]
        fixed = sum(weights[c % 13] for c in mine)
        free = 13 - self.count[seat]
        pool = sorted(weights[c % 13] for c in range(52)
                      if c not in self.owner and (suit < 0 or c // 13 == suit))
        largest = pool[max(len(pool) - free, 0):] if free else []
        if suit < 0:  # exactly `free` more cards from the pool
            return fixed + sum(pool[:free]), fixed + sum(largest)
        # Any number of the suit's free cards, up to `free`.
        low = sum(w for w in pool[:free] if w < 0)
        high = sum(w for w in largest if w > 0)
        return fixed + low, fixed + high

    def points_by_length(self, table: str, seat: int, suit: int, low: int,
                         high: int) -> Interval:
        """What ``seat``'s ``table`` points in ``suit`` can be when it holds
        ``low`` to ``high`` cards there: with n cards, from the n smallest to
        the n largest values of the cards it can hold (its predealt ones and
        those predealt to nobody). (1, 0) when no such length can be."""
        key = ("bylen", table, seat, suit, low, high)
        found = self._table_ranges.get(key)
        if found is None:
            by_length = self._points_by_length(table, seat, suit)
            spans = [span for span in by_length[max(low, 0):min(high, 13) + 1]
                     if span is not None]
            found = ((min(a for a, _ in spans), max(b for _, b in spans)) if spans
                     else (1, 0))
            self._table_ranges[key] = found
        return found

    def _points_by_length(self, table: str, seat: int, suit: int) -> tuple[Interval | None, ...]:
        """``seat``'s fewest and most ``table`` points in ``suit`` with n
        cards there (None: it cannot hold n), kept by the shared tables."""
        key = (table, seat, suit)
        found = self._spans.get(key)
        if found is None:
            found = self._spans[key] = self._spans_by_length(table, seat, suit)
        return found

    def _spans_by_length(self, table: str, seat: int, suit: int) -> tuple[Interval | None, ...]:
        weights = self.tables[table]
        mine = [weights[c % 13] for c in self.predealt.get(seat, ()) if c // 13 == suit]
        pool = sorted(weights[c % 13] for c in range(suit * 13, suit * 13 + 13)
                      if c not in self.owner)
        fixed = sum(mine)
        spans: list[Interval | None] = []
        for n in range(14):
            more = n - len(mine)
            if more < 0 or more > len(pool):
                spans.append(None)
            else:
                spans.append((fixed + sum(pool[:more]), fixed + sum(pool[len(pool) - more:])))
        return tuple(spans)

    def lengths_for_points(self, table: str, seat: int, suit: int, low: int, high: int) -> int:
        """The shapes whose length in ``suit`` lets ``seat`` hold ``low`` to
        ``high`` ``table`` points there."""
        key = ("forpoints", table, seat, suit, low, high)
        found = self._table_ranges.get(key)
        if found is None:
            mask = 0
            row = LENGTH_MASK[suit]
            for n, span in enumerate(self._points_by_length(table, seat, suit)):
                if span is not None and span[0] <= high and span[1] >= low:
                    mask |= row[n]
            found = self._table_ranges[key] = (mask, 0)
        return found[0]

    def shapes_for_points(self, table: str, seat: int, low: int, high: int) -> int:
        """The shapes with which ``seat`` can hold ``low`` to ``high``
        ``table`` points in all (each suit between its n smallest and n
        largest card values: a void holds none)."""
        key = ("handpoints", table, seat, low, high)
        found = self._table_ranges.get(key)
        if found is None:
            spans = tuple([self._points_by_length(table, seat, suit) for suit in range(4)])
            leasts, fewest_first, mosts, most_last = _hand_points(spans)
            mask = (fewest_first[bisect_right(leasts, high)]
                    & most_last[bisect_left(mosts, low)])
            found = self._table_ranges[key] = (mask, 0)
        return found[0]

    def totals(self, atom: Atom) -> tuple[tuple[Atom, ...], int] | None:
        """The sum over the four seats that ``atom`` is part of, and its value
        on every deal, if there is one."""
        if atom in self._totals:
            return self._totals[atom]
        found = self._totals[atom] = self._total(atom)
        if found is not None:  # one tuple for the four (settle tells totals apart by it)
            for member in found[0]:
                self._totals.setdefault(member, found)
        return found

    def _total(self, atom: Atom) -> tuple[tuple[Atom, ...], int] | None:
        kind = atom[0]
        if kind == "tbl":
            _, table, _seat, suit = atom
            weights = self.tables[table]
            total = sum(weights) * (4 if suit < 0 else 1)
            return tuple(canonical(("tbl", table, s, suit)) for s in range(4)), total
        if kind == "card":
            return tuple(canonical(("card", s, atom[2])) for s in range(4)), 1
        if kind == "len":
            return tuple(canonical(("len", s, atom[2])) for s in range(4)), 13
        return None


# Each hand's fewest and most points by shape, sorted, by the spans of
# points each suit length allows (one entry for every seat and deck with
# the same tables and no predealt cards): see _hand_points.
_HAND_POINTS: dict[tuple[tuple[Interval | None, ...], ...],
                   tuple[list[int], list[int], list[int], list[int]]] = {}


def _hand_points(spans: tuple[tuple[Interval | None, ...], ...]
                 ) -> tuple[list[int], list[int], list[int], list[int]]:
    """For a seat whose suit of n cards holds ``spans[suit][n]`` points (None:
    it cannot hold n): the shapes' fewest points in ascending order with the
    shapes of the first i of them (``fewest_first[i]``), and their most points
    in ascending order with the shapes from the i-th on (``most_last[i]``).
    The shapes holding ``low`` to ``high`` are then two bisections away, where
    each (table, seat, low, high) walked the 560 shapes."""
    found = _HAND_POINTS.get(spans)
    if found is not None:
        return found
    rows = []
    bit = 1
    spade_spans, heart_spans, diamond_spans, club_spans = spans
    # The shapes in ALL_SHAPES' order (spades, hearts, diamonds, longest
    # first), the two major suits' points added once for their diamonds.
    for spades in range(13, -1, -1):
        first = spade_spans[spades]
        for hearts in range(13 - spades, -1, -1):
            second = heart_spans[hearts]
            rest = 13 - spades - hearts
            if first is None or second is None:
                bit <<= rest + 1
                continue
            least, most = first[0] + second[0], first[1] + second[1]
            for diamonds in range(rest, -1, -1):
                third, fourth = diamond_spans[diamonds], club_spans[rest - diamonds]
                if third is not None and fourth is not None:
                    rows.append((least + third[0] + fourth[0], most + third[1] + fourth[1], bit))
                bit <<= 1
    rows.sort(key=itemgetter(0))
    leasts = [row[0] for row in rows]
    fewest_first = [0]
    for row in rows:
        fewest_first.append(fewest_first[-1] | row[2])
    rows.sort(key=itemgetter(1))
    mosts = [row[1] for row in rows]
    most_last = [0]
    for row in reversed(rows):
        most_last.append(most_last[-1] | row[2])
    most_last.reverse()
    if len(_HAND_POINTS) > 64:
        _HAND_POINTS.clear()
    found = _HAND_POINTS[spans] = (leasts, fewest_first, mosts, most_last)
    return found


# The one tuple each atom met so far is (see canonical).
_CANONICAL: dict[Atom, Atom] = {}


def canonical(atom: Atom) -> Atom:
    """The tuple standing for every atom equal to ``atom``: a dict finds a
    key that is the very object at once, without comparing its items."""
    found = _CANONICAL.get(atom)
    if found is None:
        if len(_CANONICAL) > 8192:
            _CANONICAL.clear()
        found = _CANONICAL[atom] = atom
    return found


# A set of deals (over-approximated), ``None`` standing for no deal: a plain
# tuple (atoms, masks, groups), read by index on the hot path (the analysis
# makes thousands; a tuple costs a fifth of an object with slots to make).
# state[0], the atoms: the atoms narrowed from the deck's ranges;
# state[1], the masks: each seat's possible shapes (a tuple of 4 ints);
# state[2], the groups: intervals on sums of atoms.
State = tuple[dict[Atom, Interval], tuple[int, ...], dict[frozenset[Atom], Interval]]


def _lengths_between(suit: int, low: int, high: int) -> int:
    """The shapes with ``low`` to ``high`` cards in ``suit``."""
    low, high = max(low, 0), min(high, 13)
    if low > high:
        return 0
    return _BETWEEN[suit][low][high]


def _between_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = []
    for row in LENGTH_MASK:
        by_low = []
        for low in range(14):
            masks, mask = [0] * 14, 0
            for high in range(low, 14):
                mask |= row[high]
                masks[high] = mask
            by_low.append(tuple(masks))
        table.append(tuple(by_low))
    return tuple(table)


_BETWEEN = _between_table()


_LENGTH_RANGES: dict[int, tuple[Interval, ...]] = {}


def length_range(mask: int, suit: int) -> Interval:
    """The fewest and most cards ``suit`` has in the shapes of ``mask``."""
    found = _LENGTH_RANGES.get(mask)
    if found is None:
        found = _suit_ranges(mask)
    return found[suit]


def _suit_ranges(mask: int) -> tuple[Interval, ...]:
    """``length_range`` of each suit, worked out once for a mask."""
    ranges = []
    for row in LENGTH_MASK:
        low = 0
        while low < 14 and not mask & row[low]:
            low += 1
        high = 13
        while high >= low and not mask & row[high]:
            high -= 1
        ranges.append((low, high) if low <= high else (1, 0))
    if len(_LENGTH_RANGES) > 4096:
        _LENGTH_RANGES.clear()
    found = _LENGTH_RANGES[mask] = tuple(ranges)
    return found


def atom_range(deck: Deck, state: State, atom: Atom) -> Interval:
    if atom[0] == "len":
        return length_range(state[1][atom[1]], atom[2])
    found = state[0].get(atom)
    if found is None:
        found = deck._ranges.get(atom)
        if found is None:
            found = deck.range(atom)
    return found


_SHAPES_WHERE: dict[tuple[int, tuple[tuple[int, int], ...], int, int, int], int] = {}


def shapes_where(mask: int, seat_terms: Iterable[tuple[int, int]], const: int,
                 low: int, high: int) -> int:
    """The shapes of ``mask`` where sum(coeff * length(suit)) + const lies in
    [low, high]."""
    terms = tuple(sorted(seat_terms))
    key = (mask, terms, const, low, high)
    kept = _SHAPES_WHERE.get(key)
    if kept is not None:
        return kept
    kept = 0
    for value, shapes in _shapes_by_value(terms):
        if low <= value + const <= high:
            kept |= shapes
    kept &= mask
    if len(_SHAPES_WHERE) > 1024:
        _SHAPES_WHERE.clear()
    _SHAPES_WHERE[key] = kept
    return kept


# The shapes by the value of sum(coeff * length(suit)), for each such sum met.
_BY_VALUE: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}


def _shapes_by_value(terms: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Each value the sum of ``terms`` (suit, coefficient) takes over the 560
    shapes, with the shapes that give it: worked out once a sum, so that
    shapes_where looks at a few dozen values where it walked the shapes for
    each mask and range."""
    found = _BY_VALUE.get(terms)
    if found is None:
        masks: dict[int, int] = {}
        if len(terms) <= 2:  # by the lengths of its suits: 105 pairs at most
            (suit, coeff), (other, factor) = terms[0], terms[-1] if len(terms) > 1 else (0, 0)
            for length in range(14):
                row = LENGTH_MASK[suit][length]
                for more in range(14 - length if factor else 1):
                    shapes = row & LENGTH_MASK[other][more] if factor else row
                    value = coeff * length + factor * more
                    masks[value] = masks.get(value, 0) | shapes
        else:
            bit = 1
            for shape in ALL_SHAPES:
                value = 0
                for suit, coeff in terms:
                    value += coeff * shape[suit]
                masks[value] = masks.get(value, 0) | bit
                bit <<= 1
        if len(_BY_VALUE) > 256:
            _BY_VALUE.clear()
        found = _BY_VALUE[terms] = tuple(sorted(masks.items()))
    return found


# -- lattice operations ------------------------------------------------------------

# The atoms (groups) of a join whose sides do not both have some: one empty
# dict for all (a state's dicts are never changed, only copied).
_NO_ATOMS: dict[Atom, Interval] = {}
_NO_GROUPS: dict[frozenset[Atom], Interval] = {}


def join(first: State | None, second: State | None) -> State | None:
    """Deals of either (over-approximated)."""
    if first is None:
        return second
    if second is None or first is second:
        return first
    atoms = _NO_ATOMS
    if first[0] and second[0]:
        atoms = {}
        others = second[0]
        for atom, a in first[0].items():
            b = others.get(atom)
            if b is not None:  # (one interval, often shared by both: kept as it is)
                atoms[atom] = a if a is b else (a[0] if a[0] < b[0] else b[0],
                                                a[1] if a[1] > b[1] else b[1])
    groups = _NO_GROUPS
    if first[2] and second[2]:
        groups = {}
        others_groups = second[2]
        for group, a in first[2].items():
            b = others_groups.get(group)
            if b is not None:
                groups[group] = (a[0] if a[0] < b[0] else b[0], a[1] if a[1] > b[1] else b[1])
    one, two = first[1], second[1]
    masks = (one[0] | two[0], one[1] | two[1], one[2] | two[2], one[3] | two[3])
    return (atoms, masks, groups)


def meet(deck: Deck, first: State | None, second: State | None) -> State | None:
    """Deals of both."""
    if first is None or second is None:
        return None
    base = deck.base
    base_masks = base[1]
    second_atoms, two, second_groups = second
    if first is second or (not second_atoms and not second_groups and two is base_masks):
        return first
    first_atoms, one, first_groups = first
    if first is base or (not first_atoms and not first_groups and one is base_masks):
        return second
    if not second_atoms and not second_groups:
        # Shapes alone: what settle would test, without the call.
        both = (one[0] & two[0], one[1] & two[1], one[2] & two[2], one[3] & two[3])
        return None if 0 in both else (first_atoms, both, first_groups)
    atoms = dict(first_atoms)
    for atom, interval in second_atoms.items():
        old = atoms.get(atom)
        if old is not None:
            interval = (interval[0] if interval[0] > old[0] else old[0],
                        interval[1] if interval[1] < old[1] else old[1])
            if interval[0] > interval[1]:
                return None  # (settle's test of the atoms it touches)
        atoms[atom] = interval
    touched: Iterable[Atom] = second_atoms  # (its keys; a list if groups add to them)
    groups = first_groups
    if second_groups:
        more = list(touched)
        touched = more
        groups = dict(groups)
        for group, interval in second_groups.items():
            old = groups.get(group)
            if old is not None:
                interval = (interval[0] if interval[0] > old[0] else old[0],
                            interval[1] if interval[1] < old[1] else old[1])
            groups[group] = interval
            more.extend(group)
    masks = one if two is base_masks else (one[0] & two[0], one[1] & two[1],
                                           one[2] & two[2], one[3] & two[3])
    return settle(deck, (atoms, masks, groups), touched)


def with_mask(masks: tuple[int, ...], seat: int, mask: int) -> tuple[int, ...]:
    """``masks`` with ``seat``'s shapes replaced by ``mask``."""
    if seat == 0:
        return (mask, masks[1], masks[2], masks[3])
    if seat == 1:
        return (masks[0], mask, masks[2], masks[3])
    if seat == 2:
        return (masks[0], masks[1], mask, masks[3])
    return (masks[0], masks[1], masks[2], mask)


def narrow(deck: Deck, state: State, atom: Atom, low: int, high: int) -> State | None:
    """``state`` where ``low <= atom <= high``."""
    if atom[0] == "len":
        seat, suit = atom[1], atom[2]
        old_mask = state[1][seat]
        if low < 0:
            low = 0
        if high > 13:
            high = 13
        mask = old_mask & _BETWEEN[suit][low][high] if low <= high else 0
        if mask == old_mask:
            return state
        if not mask or (state[0] and not points_fit(deck, state, seat, mask)):
            return None
        old_masks = state[1]  # (with_mask, without its call)
        masks: tuple[int, ...] = (
            (mask, old_masks[1], old_masks[2], old_masks[3]) if seat == 0
            else (old_masks[0], mask, old_masks[2], old_masks[3]) if seat == 1
            else (old_masks[0], old_masks[1], mask, old_masks[3]) if seat == 2
            else (old_masks[0], old_masks[1], old_masks[2], mask))
        narrowed = (state[0], masks, state[2])
        if not state[2]:  # settle's test, without the call
            base_masks = deck.base[1]
            if old_masks is base_masks:
                return narrowed  # only this seat's shapes differ from the deck's
            if ((masks[0] is not base_masks[0]) + (masks[1] is not base_masks[1])
                    + (masks[2] is not base_masks[2]) + (masks[3] is not base_masks[3])) < 2:
                return narrowed
            # Two seats' shapes or more narrowed: the suit's 13 cards.
            unfit = _UNFIT_SUITS.get(masks)
            if unfit is None:
                unfit = _unfit_suits(masks)
            return None if unfit >> suit & 1 else narrowed
        return settle(deck, narrowed, [atom])
    old = state[0].get(atom) or deck._ranges.get(atom) or deck.range(atom)
    masks = state[1]
    if low < old[0]:
        low = old[0]
    if high > old[1]:
        high = old[1]
    if low == old[0] and high == old[1]:
        return state
    if low > high:
        return None
    atoms = dict(state[0])
    atoms[atom] = (low, high)
    if atom[0] == "tbl":
        fits = deck.fits.get((atom, low, high))
        if fits is None:
            fits = _points_shapes(deck, atom, low, high)
        if not masks[atom[2]] & fits:
            return None  # no shape the seat can have holds these points
    narrowed = (atoms, masks, state[2])
    if not state[2]:  # settle's test, without the call
        total = deck._totals.get(atom, _UNKNOWN)
        if total is _UNKNOWN:
            total = deck.totals(atom)
        if total is None:
            return narrowed
        members = total[0]
        if len(atoms) < 2 or ((members[0] in atoms) + (members[1] in atoms)
                              + (members[2] in atoms) + (members[3] in atoms)) < 2:
            return narrowed
        # Two of the total's atoms narrowed or more: the total must fit.
        return narrowed if _total_fits(deck, atoms, members, total[1]) else None
    return settle(deck, narrowed, [atom])


def _total_fits(deck: Deck, atoms: dict[Atom, Interval], members: tuple[Atom, ...],
                total: int) -> bool:
    """Whether the members' ranges (as narrowed in ``atoms``, else the
    deck's) can still add up to ``total`` (a suit's 13 cards, 40 points)."""
    least = most = 0
    ranges = deck._ranges
    for member in members:
        found = atoms.get(member) or ranges.get(member) or deck.range(member)
        least += found[0]
        most += found[1]
    return least <= total <= most


def narrow_group(deck: Deck, state: State, group: frozenset[Atom], low: int,
                 high: int) -> State | None:
    """``state`` where the sum of the atoms of ``group`` lies in [low, high]."""
    old = group_range(deck, state, group)
    low, high = max(low, old[0]), min(high, old[1])
    if low > high:
        return None
    if (low, high) == old:
        return state
    groups = dict(state[2])
    groups[group] = (low, high)
    return settle(deck, (state[0], state[1], groups), list(group))


def group_range(deck: Deck, state: State, group: frozenset[Atom]) -> Interval:
    """What the sum of ``group``'s atoms can be: the sum of their ranges, the
    interval kept for the group, and what the rest of a total leaves."""
    low, high = _summed_range(deck, state, group)
    total = deck.totals(next(iter(group)))
    if total is not None and group <= set(total[0]):
        rest_low, rest_high = _summed_range(deck, state, frozenset(total[0]) - group)
        low, high = max(low, total[1] - rest_high), min(high, total[1] - rest_low)
    return low, high


def _summed_range(deck: Deck, state: State, group: frozenset[Atom]) -> Interval:
    """The sum of ``group``'s atoms' ranges, within the interval kept for it."""
    low = high = 0
    for atom in group:
        a, b = atom_range(deck, state, atom)
        low, high = low + a, high + b
    kept = state[2].get(group)
    if kept is not None:
        low, high = max(low, kept[0]), min(high, kept[1])
    return low, high


def _points_shapes(deck: Deck, atom: Atom, low: int, high: int) -> int:
    """The shapes with which a seat can hold ``low`` to ``high`` of the
    points ``atom`` counts (two honours of a suit need two cards there, more
    than 30 HCP no void)."""
    _, table, seat, suit = atom
    if suit >= 0:
        found = deck.lengths_for_points(table, seat, suit, low, high)
    else:
        found = deck.shapes_for_points(table, seat, low, high)
    if len(deck.fits) > 4096:
        deck.fits.clear()
    deck.fits[atom, low, high] = found
    return found


def points_fit(deck: Deck, state: State, seat: int, mask: int) -> bool:
    """Whether some shape of ``mask`` lets ``seat`` hold the points
    ``state`` has narrowed for it."""
    fits = deck.fits
    for atom, (low, high) in state[0].items():
        if atom[0] == "tbl" and atom[2] == seat:
            found = fits.get((atom, low, high))
            if found is None:
                found = _points_shapes(deck, atom, low, high)
            if not mask & found:
                return False
    return True


def settle(deck: Deck, state: State, touched: Iterable[Atom]) -> State | None:
    """``state`` after a narrowing of ``touched``: None if no deal is left;
    otherwise the totals those atoms are part of, applied once.

    Only the touched atoms can have become empty, and the callers have
    seen to that (narrow keeps an empty interval from being made, meet
    tests what it intersects): every state is built from settled ones by
    narrowing, meeting or joining (which keeps what both sides allow)."""
    atoms, masks, groups = state
    if 0 in masks:
        return None
    if groups:
        return _settle_groups(deck, state, touched)
    # No groups: each total is tested alone (a total tested twice, when two
    # of its atoms are touched, gives the same answer twice).
    known_totals = deck._totals
    seats_narrowed = -1  # how many seats' shapes are narrowed from the deck's
    for atom in touched:
        total = known_totals.get(atom, _UNKNOWN)
        if total is _UNKNOWN:
            total = deck.totals(atom)
        if total is None:
            continue
        members = total[0]
        if members[0][0] == "len":
            # One seat's shapes narrowed within the deck's meet the suit's 13 cards.
            if seats_narrowed < 0:
                base_masks = deck.base[1]
                seats_narrowed = ((masks[0] is not base_masks[0]) + (masks[1] is not base_masks[1])
                                  + (masks[2] is not base_masks[2])
                                  + (masks[3] is not base_masks[3]))
            if seats_narrowed >= 2:
                unfit = _UNFIT_SUITS.get(masks)
                if unfit is None:
                    unfit = _unfit_suits(masks)
                if unfit >> members[0][2] & 1:
                    return None
        elif (len(atoms) >= 2 and ((members[0] in atoms) + (members[1] in atoms)
                                   + (members[2] in atoms) + (members[3] in atoms)) >= 2
              and not _total_fits(deck, atoms, members, total[1])):
            # Two of the total's atoms narrowed or more (one alone meets
            # it), and their ranges cannot make the total.
            return None
    return state


def _settle_groups(deck: Deck, state: State, touched: Iterable[Atom]) -> State | None:
    """``settle`` of a state with intervals on sums of atoms: each total
    touched must fit, and so must the groups within it."""
    atoms, masks, groups = state
    seen: list[tuple[Atom, ...]] = []
    for atom in touched:
        total = deck._totals.get(atom, _UNKNOWN)
        if total is _UNKNOWN:
            total = deck.totals(atom)
        if total is None:
            continue
        members, value = total
        if members in seen:
            continue
        seen.append(members)
        if members[0][0] == "len":
            unfit = _UNFIT_SUITS.get(masks)
            if unfit is None:
                unfit = _unfit_suits(masks)
            if unfit >> members[0][2] & 1:
                return None
        elif not _total_fits(deck, atoms, members, value):
            return None
        everyone = set(members)
        for group in groups:
            if group <= everyone:
                a, b = group_range(deck, state, group)
                if a > b:
                    return None
    return state


_SEAT_LENGTHS = tuple([canonical(("len", seat, suit)) for suit in range(4)] for seat in range(4))


def settle_seat(deck: Deck, state: State | None, seat: int) -> State | None:
    """``settle`` after a narrowing of ``seat``'s shapes (its four suit
    lengths): each suit's 13 cards, once two seats' shapes are narrowed."""
    if state is None:
        return None
    if state[2]:
        return settle(deck, state, _SEAT_LENGTHS[seat])
    masks = state[1]
    if 0 in masks:
        return None
    base_masks = deck.base[1]
    if ((masks[0] is not base_masks[0]) + (masks[1] is not base_masks[1])
            + (masks[2] is not base_masks[2]) + (masks[3] is not base_masks[3])) < 2:
        return state
    unfit = _UNFIT_SUITS.get(masks)
    if unfit is None:
        unfit = _unfit_suits(masks)
    return None if unfit else state


# The suits whose 13 cards a tuple of the four seats' shapes cannot hold
# (a bit per suit), by the tuple: a state's masks are shared by the states
# narrowed from it, so most are looked up.
_UNFIT_SUITS: dict[tuple[int, ...], int] = {}


def _unfit_suits(masks: tuple[int, ...]) -> int:
    unfit = 0
    for suit in range(4):
        low = high = 0
        for mask in masks:
            a, b = length_range(mask, suit)
            low += a
            high += b
        if not low <= 13 <= high:
            unfit |= 1 << suit
    if len(_UNFIT_SUITS) > 4096:
        _UNFIT_SUITS.clear()
    _UNFIT_SUITS[masks] = unfit
    return unfit
