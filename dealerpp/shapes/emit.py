"""The emitter's front door: a set of shapes → the text of a dealer shape list.

    >>> from dealerpp.shapes.emit import dealer_list
    >>> from dealerpp.shapes.universe import LENGTH_MASK
    >>> dealer_list(LENGTH_MASK[0][5] | LENGTH_MASK[1][5])
    'x5xx + 5xxx'

dealer's shape lists are built from *terms*: a pattern of four characters,
each a digit or ``x`` (any length), optionally preceded by ``any`` (every
order of the suits), joined by ``+`` (add) and ``-`` (remove), left to
right. A suit of 10+ cards can only be written as ``x``.

Three modes (``EmitMode``):

- ``"compact"`` (the default): a short list, found fast (``plans.compact_plan``);
- ``"shortest"``: the full search (``plans.shortest_plan``), a few percent
  shorter and several times slower;
- ``"list"``: one term per shape, in the set's order.

dealer compiles any list into a table, so a shorter list is for the reader,
not for dealer's speed. Every mode means exactly its set, and no mode is
longer than the plain enumeration. The emitter works on ``ShapeMask`` ints
and never imports ``ShapeSet`` (``ShapeSet.to_dealer`` calls it). Plans are
memoised by set within a run: scripts repeat the same sets (balanced hands,
a suit length). Nothing is kept between runs.
"""

from __future__ import annotations

from dealerpp.shapes.plans import Plan, compact_plan, shortest_plan
from dealerpp.shapes.terms import term_table
from dealerpp.shapes.universe import FULL_MASK, ShapeMask, all_shapes, indices

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Literal

    EmitMode = Literal["compact", "shortest", "list"]

MODES = ("compact", "shortest", "list")
EMPTY_LIST = "xxxx - xxxx"  # dealer needs some list; this one matches nothing

_PLANNERS = {"compact": compact_plan, "shortest": shortest_plan}
# The plans found so far, by mode and set; emptied when full. (A dict, not
# functools.lru_cache: functools is not imported on start-up, issue 28.)
_MEMO: dict[str, dict[ShapeMask, Plan]] = {"compact": {}, "shortest": {}}
_KEPT = {"compact": 4096, "shortest": 1024}


def dealer_list(shapes: ShapeMask, mode: EmitMode = "compact") -> str:
    """A dealer shape list meaning exactly ``shapes``: ``any 4333 + 5xxx - 5332``."""
    if mode == "list":
        return enumeration(shapes)
    planner = _PLANNERS.get(mode)
    if planner is None:
        raise ValueError(f"unknown emit mode {mode!r}: expected one of {', '.join(MODES)}")
    if not shapes:
        return EMPTY_LIST
    if shapes == FULL_MASK:
        return "xxxx"
    memo = _MEMO[mode]
    plan = memo.get(shapes)
    if plan is None:
        if len(memo) >= _KEPT[mode]:
            memo.clear()
        plan = memo[shapes] = planner(shapes)
    return plan_text(plan)


def plan_text(plan: Plan) -> str:
    """A plan (terms added, removed, added back) as dealer text."""
    texts = term_table().texts
    added, removed, back = plan
    parts = [texts[added[0]]]
    parts += [f"+ {texts[t]}" for t in added[1:]]
    parts += [f"- {texts[t]}" for t in removed]
    parts += [f"+ {texts[t]}" for t in back]
    return " ".join(parts)


def enumeration(shapes: ShapeMask) -> str:
    """One term per shape, in the set's order: ``5431 + 5422 + x300``."""
    if not shapes:
        return EMPTY_LIST
    every = all_shapes()
    return " + ".join(every[i].dealer for i in indices(shapes))


def clear_memo() -> None:
    """Forget the plans found so far (for benchmarks that time the search)."""
    for memo in _MEMO.values():
        memo.clear()
