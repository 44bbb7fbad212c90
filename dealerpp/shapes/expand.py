"""AST → ``ShapeSet``: the exact meaning of a shape list.

Each term is computed with bit masks: a slot on a suit is the union of
``LENGTH_MASK[suit][n]`` over its allowed lengths, an assignment of slots to
suits is the intersection of its slot masks, and a term is the union over the
assignments its labels and parentheses allow. Conditions then filter the
shapes of each assignment.
"""

from __future__ import annotations

from itertools import permutations

from dealerpp.shapes import ast
from dealerpp.shapes.universe import FULL_MASK, ShapeMask, all_shapes, indices, lengths_mask

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from dealerpp.diagnostics import Diagnostic, DppError, LineIndex
    from dealerpp.shapes.shapeset import ShapeSet

# The diagnostics (and the ``re`` they import), ``functools`` and ``ShapeSet``
# are loaded only when needed: the console script's front door compiles a
# term that has no shipped list with ``expand_mask``, and a plain term has no
# message (issue 28: a one-shape script near ``python -c pass``).

SUIT_OF_LABEL = {"s": 0, "h": 1, "d": 2, "c": 3}
MAJORS = (0, 1)
MINORS = (2, 3)


class _Context:
    """The text being compiled (for source lines) and the warnings so far.

    A warning is given once per kind of problem, at its first place; the
    places after that are only counted ("and 2899 more like this"), so a
    long list repeating one mistake gives one short message.
    """

    __slots__ = ("_lines", "places", "repeats", "text", "warnings")

    def __init__(self, text: str) -> None:
        self.text = text
        self.warnings: list[Diagnostic] = []
        self.repeats: dict[str, int] = {}
        self.places: set[tuple[str, ast.Pos]] = set()
        self._lines: LineIndex | None = None

    @property
    def lines(self) -> LineIndex:
        """The text's line index, made on first use (most texts have no message)."""
        if self._lines is None:
            from dealerpp.diagnostics import LineIndex

            self._lines = LineIndex(self.text)
        return self._lines

    def error(self, message: str, pos: ast.Pos, hint: str | None = None) -> DppError:
        from dealerpp.diagnostics import DppError

        return DppError(message, pos.line, pos.column, None,
                        self.lines.excerpt(pos.line, pos.column), hint)

    def warn(self, message: str, pos: ast.Pos) -> None:
        if message in self.repeats:
            self.repeats[message] += 1
            return
        self.repeats[message] = 0
        from dealerpp.diagnostics import Diagnostic

        self.warnings.append(Diagnostic("warning", message, pos.line, pos.column, None,
                                        self.lines.excerpt(pos.line, pos.column)))

    def warn_once(self, message: str, pos: ast.Pos) -> None:
        """``warn``, but a place already warned about is not counted again
        (a division is evaluated once per binding of M and m)."""
        if (message, pos) not in self.places:
            self.places.add((message, pos))
            self.warn(message, pos)

    def final_warnings(self) -> list[Diagnostic]:
        """The warnings, each saying how many more places had the same problem."""
        return [w.replace(message=f"{w.message} (and {self.repeats[w.message]} more like this)")
                if self.repeats.get(w.message) else w for w in self.warnings]


def expand_list(shape_list: ast.ShapeList, text: str) -> tuple[ShapeSet, list[Diagnostic]]:
    """The set a shape list denotes, and the warnings found on the way.

    ``text`` is the source the AST was parsed from (for error messages).
    """
    from dealerpp.shapes.shapeset import ShapeSet

    mask, warnings = expand_mask(shape_list, text)
    return ShapeSet(mask), warnings


def expand_mask(shape_list: ast.ShapeList, text: str) -> tuple[ShapeMask, list[Diagnostic]]:
    """``expand_list``'s set as its mask."""
    context = _Context(text)
    mask = 0
    for signed in shape_list.terms:
        term_mask = _term_mask(signed.term, context)
        if not term_mask and len(shape_list.terms) > 1:
            context.warn("this term matches no shape", signed.term.pos)
        mask = mask | term_mask if signed.sign == "+" else mask & ~term_mask
    if not mask:
        context.warn("this shape list matches no shape: the dealer condition is always false",
                     shape_list.pos)
    return mask, context.final_warnings()


# --- one term ---------------------------------------------------------------


def _term_mask(term: ast.Term, context: _Context) -> int:
    pattern = term.pattern
    _check_slot_count(pattern, context)
    labels = _check_labels(pattern, context)
    _check_exact_total(pattern, context)
    used = _condition_facts(term.condition, context) if term.condition is not None else set()
    if "M" in used and labels.count("M") > 1:
        raise context.error("'M' in the condition is ambiguous: the pattern has two M labels",
                            term.condition.pos if term.condition else term.pos)
    if "m" in used and labels.count("m") > 1:
        raise context.error("'m' in the condition is ambiguous: the pattern has two m labels",
                            term.condition.pos if term.condition else term.pos)

    mask = 0
    for binding in _label_bindings(labels):
        # (no label: the items take the suits in order, spades first)
        suits = _assign(pattern, binding) if labels else _IN_ORDER[len(pattern.items)]
        alternative = _assignment_mask(pattern, suits)
        if term.condition is not None and alternative:
            alternative &= _condition_mask(term.condition, binding, used, alternative, context)
        mask |= alternative
    return mask


def _check_slot_count(pattern: ast.Pattern, context: _Context) -> None:
    count = pattern.slot_count
    if count == 4:
        return
    tight = any(item.slot.kind in ("at_least", "at_most")
                for item in (*pattern.items, *(pattern.group or ())))
    hint = None
    if count > 4 and tight:
        hint = ("'+' or '-' right after a length means 'at least' / 'at most'; "
                "to join two shapes put spaces around the sign: 4432 + 5332")
    elif count < 4 and ":" in context.text:
        hint = "inside a condition, a sign with spaces on both sides starts a new term"
    elif count < 4:
        hint = "a pattern gives all four suits: write x for any length, as in 5xxx"
    else:
        hint = ("one length a suit, spades first: four in all; a length of 10-13 is written "
                "T J Q K, as in Txxx")
    raise context.error(f"a pattern needs exactly 4 suit lengths, this one has {count}",
                        pattern.pos, hint)


def _check_exact_total(pattern: ast.Pattern, context: _Context) -> None:
    exact = [next(iter(item.slot.lengths))
             for item in (*pattern.items, *(pattern.group or ()))
             if item.slot.kind == "exact"]
    if sum(exact) > 13:
        raise context.error(
            f"the exact lengths total {sum(exact)} cards, more than 13", pattern.pos)
    if len(exact) == 4 and sum(exact) < 13:
        # dealer rejects such a shape ("wrong number of cards in shape"): a
        # slip, not a set that happens to be empty.
        raise context.error(
            f"the exact lengths total {sum(exact)} cards, fewer than 13", pattern.pos,
            "a hand holds 13 cards: check the lengths, or write x for one left open")


def _check_labels(pattern: ast.Pattern, context: _Context) -> list[str]:
    labels: list[str] = []
    named: set[str] = set()
    for item in pattern.items:
        if item.label is None:
            continue
        where = item.label_pos or item.pos
        if item.label in SUIT_OF_LABEL:
            if item.label in named:
                raise context.error(f"the suit '{item.label}' is named twice", where)
            named.add(item.label)
        labels.append(item.label)
    for letter, pool, what in (("M", "sh", "major"), ("m", "dc", "minor")):
        free = [s for s in pool if s not in named]
        if labels.count(letter) > len(free):
            last = [i for i in pattern.items if i.label == letter][-1]
            raise context.error(
                f"'{letter}' needs a {what} that no other label names, and none is left",
                last.label_pos or last.pos)
    return labels


def _label_bindings(labels: list[str]) -> list[dict[str, int]]:
    """Every way to give the M and m labels (in order) distinct free suits.

    A binding maps each label position key ('M0', 'M1', 'm0', ...) to a suit,
    plus 'M'/'m' for the first of each (what a condition's M/m means).
    """
    if "M" not in labels and "m" not in labels:
        return [{}]  # nothing to bind (most patterns): the one empty binding
    named = {SUIT_OF_LABEL[label] for label in labels if label in SUIT_OF_LABEL}
    choices: list[list[tuple[int, ...]]] = []
    for letter, pool in (("M", MAJORS), ("m", MINORS)):
        count = labels.count(letter)
        free = [s for s in pool if s not in named]
        choices.append(list(permutations(free, count)))
    bindings = []
    for majors in choices[0]:
        for minors in choices[1]:
            binding = {f"M{i}": s for i, s in enumerate(majors)}
            binding.update({f"m{i}": s for i, s in enumerate(minors)})
            if majors:
                binding["M"] = majors[0]
            if minors:
                binding["m"] = minors[0]
            bindings.append(binding)
    return bindings


_IN_ORDER = [list(range(count)) for count in range(5)]  # never changed


def _assign(pattern: ast.Pattern, binding: dict[str, int]) -> list[int]:
    """The suit of each item outside the parentheses, for one binding."""
    suits: list[int | None] = []
    seen = {"M": 0, "m": 0}
    for item in pattern.items:
        if item.label in SUIT_OF_LABEL:
            suits.append(SUIT_OF_LABEL[item.label])
        elif item.label in seen:
            suits.append(binding[f"{item.label}{seen[item.label]}"])
            seen[item.label] += 1
        else:
            suits.append(None)
    free = iter(s for s in range(4) if s not in suits)
    return [s if s is not None else next(free) for s in suits]


def _assignment_mask(pattern: ast.Pattern, suits: list[int]) -> int:
    mask = FULL_MASK
    for item, suit in zip(pattern.items, suits, strict=True):
        mask &= _slot_mask(suit, item.slot.lengths)
    if pattern.group:
        left = [s for s in range(4) if s not in suits]
        mask &= _group_mask(tuple(left), tuple(i.slot.lengths for i in pattern.group))
    return mask


# Masks made before, by their arguments (scripts repeat their slots); a plain
# dict, emptied when full, instead of functools.lru_cache (not imported on start-up).
_SLOT_MASKS: dict[tuple[int, frozenset[int]], int] = {}
_GROUP_MASKS: dict[tuple[tuple[int, ...], tuple[frozenset[int], ...]], int] = {}
_KEPT = 4096


def _slot_mask(suit: int, lengths: frozenset[int]) -> int:
    found = _SLOT_MASKS.get((suit, lengths))
    if found is None:
        if len(_SLOT_MASKS) >= _KEPT:
            _SLOT_MASKS.clear()
        found = _SLOT_MASKS[suit, lengths] = lengths_mask(suit, lengths)
    return found


def _group_mask(suits: tuple[int, ...], slots: tuple[frozenset[int], ...]) -> int:
    """The group's slots over ``suits`` in every order."""
    found = _GROUP_MASKS.get((suits, slots))
    if found is not None:
        return found
    mask = 0
    for order in set(permutations(slots)):
        part = FULL_MASK
        for suit, lengths in zip(suits, order, strict=True):
            part &= _slot_mask(suit, lengths)
        mask |= part
    if len(_GROUP_MASKS) >= _KEPT:
        _GROUP_MASKS.clear()
    _GROUP_MASKS[suits, slots] = mask
    return mask


# --- conditions -------------------------------------------------------------


def _condition_facts(condition: ast.Expr, context: _Context) -> set[str]:
    """The variables ``condition`` uses; on the way, a warning for each
    number that dealer reads as another value (its ints have 32 bits)."""
    from dealerpp.shapes.condition import walk  # (a term without a condition never loads it)

    used: set[str] = set()
    for node in walk(condition):
        if isinstance(node, ast.Variable):
            used.add(node.name)
        elif isinstance(node, ast.Number) and node.written is not None:
            from dealerpp.diagnostics import quote

            context.warn(f"dealer reads the number {quote(node.written, 24)} as {node.value} "
                         "(a 32-bit int), and so does this condition", node.pos)
    return used


def _condition_mask(condition: ast.Expr, binding: dict[str, int], used: set[str],
                    candidates: int, context: _Context) -> int:
    """The shapes among ``candidates`` that satisfy ``condition``.

    M/m bound by the pattern mean the pattern's suit; unbound ones range over
    both majors/minors (a union of alternatives).
    """
    options = [dict(binding)]
    for letter, pool in (("M", MAJORS), ("m", MINORS)):
        if letter in used and letter not in binding:
            options = [{**o, letter: s} for o in options for s in pool]
    from dealerpp.shapes.condition import Evaluation

    mask = 0
    shapes = all_shapes()
    for option in options:
        remaining = indices(candidates & ~mask)
        evaluation = Evaluation(condition, option, [shapes[i] for i in remaining])
        for i, value in zip(remaining, evaluation.values, strict=True):
            if value:  # neither 0 nor None (a division by zero)
                mask |= 1 << i
        for pos, message in evaluation.traps.items():
            context.warn_once(message, pos)
    return mask
