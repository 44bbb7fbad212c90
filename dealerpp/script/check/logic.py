"""The logic analysis: what each expression can be, and what that proves.

``Analysis.evaluate`` gives each expression a ``Value`` in a ``State`` (see
``domain``): an interval, a linear form over atoms where it has one, and
for a truth value the states where it holds and where it does not. From
these the analysis proves, and only then says:

- an `and`/`or` operand or a test that can never hold, or always holds
  (contradictory ranges, values outside a function's range, shape() against
  suit lengths or its own negation, more than 13 cards, predealt cards);
- a truth value used as a number (`lp1 or lp2` added to hcp);
- a chained comparison (`10 <= hcp(north) <= 12`);
- `not` applied before a comparison (`not hcp(north) < 15`);
- a whole condition that can never hold.

Where it cannot decide, it says nothing: every narrowing keeps every deal
a script could see, so "no deal left" is a proof. Findings go to a
callback; the semantic pass words and places them.
"""

from __future__ import annotations

from dealerpp.lalr import Token, Tree
from dealerpp.script.check.arithmetic import number_value
from dealerpp.script.check.domain import (
    INT_MAX,
    INT_MIN,
    RANKS,
    SEATS,
    SUIT_LETTERS,
    SUIT_WORDS,
    TOP,
    Atom,
    Deck,
    Interval,
    State,
    atom_range,
    canonical,
    group_range,
    join,
    length_range,
    meet,
    narrow,
    narrow_group,
    points_fit,
    settle_seat,
    shapes_where,
    with_mask,
)
from dealerpp.script.check.stream import Placeholder
from dealerpp.script.check.trees import first_token

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Linear = tuple[dict[Atom, int], int]

# Deeper expressions are not analysed (their value is unknown).
MAX_DEPTH = 120
_COMPARISONS = frozenset(("EQ", "NE", "LT", "LE", "GT", "GE"))
_ARITHMETIC = frozenset(("PLUS", "MINUS", "STAR", "SLASH", "PERCENT"))
# A comparison `x OP 0` as an interval for x (None: x != 0).
_SPANS: dict[str, tuple[int, int] | None] = {
    "EQ": (0, 0), "NE": None, "LT": (INT_MIN, -1), "LE": (INT_MIN, 0),
    "GT": (1, INT_MAX), "GE": (0, INT_MAX),
}
_NEGATED = {"EQ": "NE", "NE": "EQ", "LT": "GE", "GE": "LT", "GT": "LE", "LE": "GT"}
# A comparison `atom + c OP 0` narrows the atom to [low - c, high - c] where it
# holds and [not_low - c, not_high - c] where it fails (not_low None: fails
# where != 0, which is not one interval); != has no entry.
_ONE_ATOM: dict[str, tuple[int, int, int | None, int]] = {
    kind: (span[0], span[1], *(_SPANS[_NEGATED[kind]] or (None, 0)))
    for kind, span in _SPANS.items() if span is not None}
_PT_ALIASES = {
    "ten": "pt0", "jack": "pt1", "queen": "pt2", "king": "pt3", "ace": "pt4",
    "top2": "pt5", "top3": "pt6", "top4": "pt7", "top5": "pt8", "c13": "pt9",
}
_FIXED_RANGES = {"loser": ((0, 12), (0, 3))}
# The tests other than comparisons, and how many some_test_can_fail reads.
_TESTS = frozenset(("shape", "shape_block", "hascard"))
_MOST_TESTS_LOOKED_AT = 10_000


class Value:
    """What an expression can be in a state."""

    __slots__ = ("_args", "_if_false", "_later", "high", "if_true", "is_truth", "linear",
                 "low", "origin", "reported", "split", "varies")

    def __init__(self, low: int, high: int, linear: Linear | None = None) -> None:
        self.low, self.high = low, high
        # Whether it is 0 or 1 on every deal (a truth value).
        self.is_truth = low >= 0 and high <= 1
        self.linear = linear
        # The states where it is not 0 and where it is 0, once ``split``
        # (a test splits at once, a number when used as a truth value).
        self.if_true: State | None = None
        self._if_false: State | None = None
        # How to work out if_false when first asked (most are never asked):
        # ``_later(*_args)``, a function and its arguments rather than a
        # closure (cheaper to make, and most are never called).
        self._later: Callable[..., State | None] | None = None
        self._args: tuple[Any, ...] = ()
        self.split = False
        # An `and`/`or`/`not` applied to a number: its operator (for "truth
        # value used as a number").
        self.origin: Token | None = None
        # A finding already made about this value or a part of it.
        self.reported = False
        # Whether it depends on the deal at all (a constant proves nothing).
        self.varies = bool(linear[0]) if linear is not None else True

    @property
    def if_false(self) -> State | None:
        later = self._later
        if later is not None:
            self._later = None
            self._if_false = later(*self._args)
            self._args = ()  # (what it was worked out from is freed now, not at the end)
        return self._if_false

    @if_false.setter
    def if_false(self, state: State | None) -> None:
        self._later = None
        self._if_false = state




def _fails_where(*parts: Value) -> State | None:
    """Where an `and` or `or` fails, worked out when asked: where any of
    ``parts`` fails (the left and right of an `and`, the right of an `or`).
    ``can_fail`` follows it without working out the states."""
    # (Each part's if_false, worked out as the property would, without its call.)
    part = parts[0]
    later = part._later
    if later is not None:
        part._later = None
        part._if_false = later(*part._args)
        part._args = ()
    found = part._if_false
    for index in range(1, len(parts)):
        part = parts[index]
        later = part._later
        if later is not None:
            part._later = None
            part._if_false = later(*part._args)
            part._args = ()
        other = part._if_false
        if other is not None:
            found = join(found, other) if found is not None else other
    return found


def can_fail(value: Value) -> bool:
    """Whether ``value.if_false`` is a state, working out no more than it
    takes: an `and` fails where either side does."""
    later = value._later
    if later is None:
        return value._if_false is not None
    if later is _fails_where:
        return any(can_fail(part) for part in value._args)
    value._later = None  # (the if_false property, without its call)
    value._if_false = later(*value._args)
    value._args = ()
    return value._if_false is not None


def test(if_true: State | None, if_false: State | None) -> Value:
    """A truth value that holds in ``if_true`` and fails in ``if_false``."""
    value = _new_value(Value)  # every field set here, once (the analysis makes many)
    value.low = 0 if if_false is not None else 1
    value.high = 1 if if_true is not None else 0
    value.is_truth = value.split = value.varies = True
    value.linear = value.origin = value._later = None
    value.if_true = if_true
    value._if_false = if_false
    value._args = ()
    value.reported = False
    return value


def lazy_test(if_true: State | None, later: Callable[..., State | None],
              args: tuple[Any, ...]) -> Value:
    """A truth value that holds in ``if_true`` and fails in what
    ``later(*args)`` works out when asked (``test`` otherwise)."""
    value = _new_value(Value)
    value.low = 0
    value.high = 1 if if_true is not None else 0
    value.is_truth = value.split = value.varies = True
    value.linear = value.origin = value._if_false = None
    value.if_true = if_true
    value._later = later
    value._args = args
    value.reported = False
    return value


def _undecided_logic(left: Value, holds: State | None, operator: Token,
                     conjunction: bool) -> Value:
    """An `and` whose left operand never holds, or an `or` whose left
    operand always holds: the right one is not evaluated."""
    value = lazy_test(None, _fails_where, (left,)) if conjunction else test(holds, None)
    value.reported, value.varies = left.reported, left.varies
    if not left.is_truth:
        value.origin = operator
    return value


_new_value = object.__new__


def number(low: int, high: int, linear: Linear | None = None) -> Value:
    """``Value(low, high, linear)``, made without the class call (every
    field set here, as __init__ sets it: the analysis makes thousands)."""
    value = _new_value(Value)
    value.low = low
    value.high = high
    value.is_truth = low >= 0 and high <= 1
    value.linear = linear
    value.if_true = value._if_false = value._later = value.origin = None
    value._args = ()
    value.split = value.reported = False
    value.varies = bool(linear[0]) if linear is not None else True
    return value


class Finding:
    """Something the analysis proved, for the semantic pass to say."""

    __slots__ = ("code", "data", "node")

    def __init__(self, code: str, node: Any, **data: Any) -> None:
        self.code = code
        self.node = node
        self.data = data


class Analysis:
    """The analysis of one script: its deck and what each variable can be."""

    def __init__(self, deck: Deck, text: str, emit: Callable[[Finding], None]) -> None:
        self.deck = deck
        self.text = text
        self.emit = emit
        self.variables: dict[str, Value] = {}
        # Each variable's expression (for messages that name what it holds).
        self.definitions: dict[str, Any] = {}
        self.quiet = 0
        self.depth = 0

    # -- entry points ----------------------------------------------------------------

    def define(self, name: str, tree: Any) -> None:
        self.definitions[name] = tree
        value = self.evaluate(tree, self.deck.base)
        if value.linear is None and not value.is_truth:
            atom = canonical(("var", name))
            self.deck.set_range(atom, (value.low, value.high))
            linear: Linear = ({atom: 1}, 0)
            fresh = number(value.low, value.high, linear)
            fresh.origin, fresh.reported = value.origin, value.reported
            fresh.varies = value.varies
            value = fresh
        self.variables[name] = value

    def condition(self, tree: Any) -> Value:
        value = self.evaluate(tree, self.deck.base)
        self.split_truth(value, self.deck.base)
        return value

    def expression(self, tree: Any) -> Value:
        return self.evaluate(tree, self.deck.base)

    # -- evaluation ----------------------------------------------------------------------

    def evaluate(self, tree: Any, state: State) -> Value:
        """What ``tree`` can be in ``state`` (a state, never None: the
        callers evaluate nothing where no deal is left)."""
        depth = self.depth
        if tree.__class__ is not Tree or depth > MAX_DEPTH:
            return Value(*TOP)
        data = tree.data
        # (A binary node's second child is its operator, a var has one: a
        # placeholder for a repaired seat is never there.)
        if data == "binary":  # the commonest node: eval_binary, without its call
            kind = tree.children[1].type
            self.depth = depth + 1
            if kind == "AND" or kind == "OR":
                value = self.logic(tree, state, kind == "AND")
            else:
                value = self.operation(tree, kind, state)
            self.depth = depth
            return value
        if data == "var":  # it evaluates nothing below it: no depth to keep
            return self.eval_var(tree, state)
        children = tree.children
        if len(children) > 1 and children[1].__class__ is Placeholder:
            value = Value(*TOP)  # a repaired seat: an error says so
            value.reported = True
            return value
        method = _EVALUATORS.get(data)
        if method is None:
            return Value(*TOP)
        self.depth = depth + 1
        value = method(self, tree, state)
        self.depth = depth
        return value

    def eval_number(self, tree: Tree, state: State) -> Value:
        children = tree.children
        linear = _NUMBERS.get(children[-1]) if len(children) == 1 else None
        if linear is None or type(children[0]) is Placeholder:
            value = number_value(tree)
            if value is None:
                return Value(*TOP)
            linear = ({}, value)
            if len(children) == 1:
                if len(_NUMBERS) > 4096:
                    _NUMBERS.clear()
                _NUMBERS[str(children[0])] = linear
        return number(linear[1], linear[1], linear)

    def eval_var(self, tree: Tree, state: State) -> Value:
        known = self.variables.get(tree.children[0])
        if known is None:  # unknown, or its definition did not parse: an error says so
            value = Value(*TOP)
            value.reported = True
            return value
        # (Made here with each field set once: a call to make it and the
        # variable's flags set again cost more than the reading.)
        value = _new_value(Value)
        value.origin = known.origin
        value.reported = known.reported
        value.varies = known.varies
        linear = known.linear
        if linear is not None:
            low, high = self.linear_range(linear[0], linear[1], state)
            value.low = low
            value.high = high
            value.is_truth = low >= 0 and high <= 1
            value.linear = linear
            value.if_true = value._if_false = value._later = None
            value._args = ()
            value.split = False
            return value
        holds = known.if_true
        deck = self.deck
        base = deck.base
        if state is base:  # meet(deck, base, x) is x, or base if x is base's like
            if holds is not None and holds is not base and (
                    not holds[0] and not holds[2] and holds[1] is base[1]):
                holds = base
            value._later = _fails_in_base
            value._args = (known, base)
        else:
            holds = meet(deck, state, holds)
            value._later = _meet_fails
            value._args = (deck, state, known)
        value.low = 0
        value.high = 1 if holds is not None else 0
        value.is_truth = value.split = True
        value.linear = value._if_false = None
        value.if_true = holds
        return value

    def eval_suit_length(self, tree: Tree, state: State) -> Value:
        children = tree.children
        seat, suit = _SEAT_INDEX[children[1]], _SUIT_INDEX[children[0]]
        low, high = length_range(state[1][seat], suit)
        value = _new_value(Value)  # (number(), without its call)
        value.low = low
        value.high = high
        value.is_truth = low >= 0 and high <= 1
        value.linear = _LENGTHS[seat][suit]
        value.if_true = value._if_false = value._later = value.origin = None
        value._args = ()
        value.split = value.reported = False
        value.varies = True
        return value

    def eval_count(self, tree: Tree, state: State) -> Value:
        children = tree.children
        word = _count_word(children[0])
        seat = _SEAT_INDEX[children[1]]
        suit = _SUIT_INDEX[children[2]] if len(children) > 2 else -1
        if word in _FIXED_RANGES:
            low, high = _FIXED_RANGES[word][suit >= 0]
            return Value(low, high, ({("other", word, seat, suit): 1}, 0))
        table = _PT_ALIASES.get(word, word)
        if table not in self.deck.tables:
            return Value(*TOP)
        return self.unit_value(("tbl", table, seat, suit), state)

    def unit_value(self, atom: Atom, state: State) -> Value:
        """The value of one atom in ``state``."""
        linear = _UNITS.get(atom)
        if linear is None:
            if len(_UNITS) > 4096:
                _UNITS.clear()
            atom = canonical(atom)
            linear = _UNITS[atom] = ({atom: 1}, 0)
        low, high = atom_range(self.deck, state, atom)
        return number(low, high, linear)

    def eval_tricks(self, tree: Tree, state: State) -> Value:
        return Value(0, 13)

    def eval_hascard(self, tree: Tree, state: State) -> Value:
        text = str(tree.children[2])
        card = SUIT_LETTERS.index(text[1]) * 13 + RANKS.index(text[0])
        atom = canonical(("card", SEATS.index(str(tree.children[1])), card))
        value = self.linear_value(({atom: 1}, 0), state)
        self.split_truth(value, state)
        return value

    def eval_shape(self, tree: Tree, state: State) -> Value:
        seat = SEATS.index(str(tree.children[1]))
        return self.shape_test(seat, _shape_list_mask(tree.children[2]), tree, state)

    def eval_shape_block(self, tree: Tree, state: State) -> Value:
        """A shape{} block means what the compiler makes of it: the same
        test as the shape() list the preprocessor writes for it."""
        compiled = _block_shapes(str(tree.children[0]))
        if compiled is None:
            return self.shape_test(0, None, tree, state)
        seat, shapes = compiled
        return self.shape_test(seat, shapes, tree, state)

    def shape_test(self, seat: int, shapes: int | None, tree: Tree, state: State) -> Value:
        if not shapes:  # a placeholder, or a list of no shape (the compiler says so)
            value = test(state, state)
            value.reported = True
            return value
        masks = state[1]
        holds = _with_mask(state, seat, masks[seat] & shapes)
        fails = _with_mask(state, seat, masks[seat] & ~shapes)
        if state[0]:  # the points narrowed for the seat need shapes that hold them
            if holds is not None and not points_fit(self.deck, holds, seat, holds[1][seat]):
                holds = None
            if fails is not None and not points_fit(self.deck, fails, seat, fails[1][seat]):
                fails = None
        deck = self.deck
        value = test(settle_seat(deck, holds, seat), settle_seat(deck, fails, seat))
        self.constant_test(value, tree, state)
        return value

    def eval_not_expr(self, tree: Tree, state: State) -> Value:
        operand = self.evaluate(tree.children[1], state)
        holds, fails = self.truth_states(operand, state)
        value = test(fails, holds)
        value.reported, value.varies = operand.reported, operand.varies
        if not operand.is_truth:
            value.origin = tree.children[0]
        return value

    def eval_if_expr(self, tree: Tree, state: State) -> Value:
        tested = self.evaluate(tree.children[0], state)
        holds, fails = self.truth_states(tested, state)
        if not tested.reported and tested.varies and holds is None:
            self.test_verdict(tested, tree.children[0], state, "test")
        if holds is not None and fails is not None:
            # `t ? 1 : 0`, the commonest form: two literals, worked out here.
            one, other = self.literal(tree.children[1]), self.literal(tree.children[2])
            if one is not None and other is not None:
                return _literal_choice(tested, holds, fails, one, other)
        first = self.evaluate(tree.children[1], holds) if holds is not None else None
        second = self.evaluate(tree.children[2], fails) if fails is not None else None
        if first is None or second is None:
            chosen = first or second
            return chosen if chosen is not None else Value(*TOP)
        if first.is_truth and second.is_truth:
            first_holds, first_fails = self.truth_states(first, holds)
            second_holds, second_fails = self.truth_states(second, fails)
            value = test(join(first_holds, second_holds), join(first_fails, second_fails))
        else:
            value = number(min(first.low, second.low), max(first.high, second.high))
        value.reported = tested.reported or first.reported or second.reported
        value.varies = tested.varies or first.varies or second.varies
        value.origin = first.origin or second.origin
        return value

    def literal(self, tree: Any) -> int | None:
        """The number a literal ``tree`` stands for, where evaluate() would
        give it from the literals met before (as a plain number: not 0 on
        every deal or on none, varying nowhere, no finding); None otherwise."""
        if tree.__class__ is not Tree or tree.data != "number" or self.depth > MAX_DEPTH:
            return None
        children = tree.children
        if len(children) != 1 or children[0].__class__ is Placeholder:
            return None
        linear = _NUMBERS.get(children[0])
        return None if linear is None else linear[1]

    def eval_binary(self, tree: Tree, state: State) -> Value:
        kind = tree.children[1].type
        if kind == "AND" or kind == "OR":
            return self.logic(tree, state, kind == "AND")
        return self.operation(tree, kind, state)

    def operation(self, tree: Tree, kind: str, state: State) -> Value:
        """A comparison or arithmetic (a binary node but `and` and `or`)."""
        children = tree.children
        left_tree, right_tree = children[0], children[2]
        # A literal operand (most are) as evaluate() gives it, made once: a
        # comparison or arithmetic reads its operands and never changes them.
        right = None
        if right_tree.__class__ is Tree and right_tree.data == "number":
            digits = right_tree.children
            if (len(digits) == 1 and self.depth <= MAX_DEPTH
                    and digits[0].__class__ is not Placeholder):
                right = _LITERALS.get(digits[0])
                if right is not None and kind in _COMPARISONS and left_tree.__class__ is Tree:
                    # The commonest test, a value read from the deal against a number.
                    value = self.compare_literal(tree, left_tree, right.low, kind, state)
                    if value is not None:
                        return value
        left = self.evaluate(left_tree, state)
        if right is None:
            right = self.evaluate(right_tree, state)
            if right_tree.__class__ is Tree and right_tree.data == "number" and len(
                    right_tree.children) == 1 and right.linear is not None:
                if len(_LITERALS) > 4096:
                    _LITERALS.clear()
                _LITERALS[str(right_tree.children[0])] = right
        if kind in _COMPARISONS:
            return self.comparison(tree, left, right, state)
        return self.arithmetic(tree, left, right)

    def compare_literal(self, tree: Tree, left_tree: Tree, literal: int, kind: str,
                        state: State) -> Value | None:
        """``comparison`` of a suit length, a point count or a variable
        holding a linear form with a literal, where evaluate() would give the
        left operand plainly (no finding about it to carry along): none of the
        slips can be it, only a test that never holds. None for any other left
        operand. (The operand is read and the test made here, without the
        calls evaluate() and comparison() would make: it is the commonest node.)"""
        children = left_tree.children
        data = left_tree.data
        atom: Atom | None
        if data == "suit_length":
            if children[1].__class__ is Placeholder:
                return None
            seat, suit = _SEAT_INDEX[children[1]], _SUIT_INDEX[children[0]]
            linear, atom, varies = _LENGTHS[seat][suit], _LENGTH_ATOMS[seat][suit], True
        elif data == "var":
            known = self.variables.get(children[0])
            if (known is None or known.linear is None or known.origin is not None
                    or known.reported):
                return None
            linear, varies = known.linear, known.varies
            terms = linear[0]
            atom = next(iter(terms)) if len(terms) == 1 else None
            if atom is not None and terms[atom] != 1:
                atom = None
        elif data == "count":
            if len(children) > 1 and children[1].__class__ is Placeholder:
                return None
            word = _COUNT_WORDS.get(children[0]) or _count_word(children[0])
            table = _PT_ALIASES.get(word, word)
            if word in _FIXED_RANGES or table not in self.deck.tables:
                return None
            suit = _SUIT_INDEX[children[2]] if len(children) > 2 else -1
            found = _UNITS.get(("tbl", table, _SEAT_INDEX[children[1]], suit))
            if found is None:
                return None
            linear, varies = found, True
            atom = next(iter(linear[0]))
        else:
            return None
        const = linear[1] - literal
        bounds = _ONE_ATOM.get(kind) if atom is not None else None
        value = _new_value(Value)  # every field set here, once (lazy_test inline)
        if bounds is None or atom is None:  # more than one atom, or != 0
            difference = (linear[0], const)
            value.if_true = holds = self.holds_where(difference, kind, state)
            value._later, value._args = self.holds_where, (difference, _NEGATED[kind], state)
        else:
            deck = self.deck
            value.if_true = holds = narrow(deck, state, atom, bounds[0] - const,
                                           bounds[1] - const)
            if bounds[2] is None:  # == 0: fails where != 0
                value._later = self.holds_where
                value._args = ((linear[0], const), "NE", state)
            else:
                value._later = narrow
                value._args = (deck, state, atom, bounds[2] - const, bounds[3] - const)
        value.low = 0
        value.high = 1 if holds is not None else 0
        value.is_truth = value.split = True
        value.varies = varies
        value.linear = value.origin = value._if_false = None
        value.reported = False
        if holds is None and varies:
            self.constant_test(value, tree, state)
        return value

    # -- logic -------------------------------------------------------------------------------

    def logic(self, tree: Tree, state: State, conjunction: bool) -> Value:
        left_tree, operator, right_tree = tree.children
        # A variable or a comparison operand (the commonest) read without
        # evaluate()'s call, which would only pass it on (a comparison one
        # level deeper).
        depth = self.depth
        plain = depth <= MAX_DEPTH
        data = left_tree.data if plain and left_tree.__class__ is Tree else None
        if data == "var":
            left = self.eval_var(left_tree, state)
        elif data == "binary" and left_tree.children[1].type in _COMPARISONS:
            self.depth = depth + 1
            left = self.operation(left_tree, left_tree.children[1].type, state)
            self.depth = depth
        else:
            left = self.evaluate(left_tree, state)
        if not left.split:
            self.split_truth(left, state)
        holds = left.if_true
        context = (holds if conjunction else left._if_false if left._later is None
                   else left.if_false)
        if context is None:
            return _undecided_logic(left, holds, operator, conjunction)
        data = right_tree.data if plain and right_tree.__class__ is Tree else None
        if data == "var":
            right = self.eval_var(right_tree, context)
        elif data == "binary" and right_tree.children[1].type in _COMPARISONS:
            self.depth = depth + 1
            right = self.operation(right_tree, right_tree.children[1].type, context)
            self.depth = depth
        else:
            right = self.evaluate(right_tree, context)
        if not right.split:
            self.split_truth(right, context)
        right_holds = right.if_true
        # The value (_logic_value's, made here without its call).
        value = _new_value(Value)
        value.low = 0
        value.is_truth = value.split = True
        value.linear = value._if_false = None
        value._later = _fails_where
        value.varies = left.varies or right.varies
        value.origin = operator if not left.is_truth or not right.is_truth else None
        reported = value.reported = left.reported or right.reported
        if conjunction:
            value.if_true = right_holds
            value.high = 1 if right_holds is not None else 0
            value._args = (left, right)
            decided = right_holds is None
        else:
            either = value.if_true = (holds if right_holds is None else right_holds
                                      if holds is None else join(holds, right_holds))
            value.high = 1 if either is not None else 0
            value._args = (right,)
            decided = not can_fail(right)  # (an `and` on the right: no state worked out)
        if decided and not reported and right.varies and (
                state is self.deck.base or self.decided_alone(tree, conjunction)):
            # Decided by what the operand meets here (its own verdict is
            # reported where it is made).
            self.report(Finding("never-holds" if conjunction else "always-holds",
                                right_tree, context=left_tree, operator=operator,
                                atoms=self.atoms_narrowed(context, right_tree)))
            value.reported = True
        return value

    def decided_alone(self, tree: Tree, conjunction: bool) -> bool:
        """Whether the `and` (`or`) ``tree`` never (always) holds on its own,
        not only where it stands."""
        alone = self.alone(tree)
        return (alone.if_true if conjunction else alone.if_false) is None

    def atoms_narrowed(self, context: State, tree: Any) -> list[tuple[Atom, Interval]]:
        """The ranges, in ``context``, of the atoms ``tree`` reads."""
        out = []
        for atom in _atoms_read(self, tree):
            out.append((atom, atom_range(self.deck, context, atom)))
        return out

    # -- comparisons -----------------------------------------------------------------------------

    def comparison(self, tree: Tree, left: Value, right: Value, state: State) -> Value:
        kind = tree.children[1].type
        left_linear, right_linear = left.linear, right.linear
        if left_linear is not None and right_linear is not None and not right_linear[0]:
            difference: Linear | None = (left_linear[0], left_linear[1] - right_linear[1])
        else:
            difference = _difference(left, right)
        if difference is None:
            spread = (left.low - right.high, left.high - right.low)
            value = lazy_test(state if _may_hold(spread, kind) else None,
                         _state_if_may_hold, (state, spread, _NEGATED[kind]))
        else:
            value = lazy_test(self.holds_where(difference, kind, state),
                         self.holds_where, (difference, _NEGATED[kind], state))
        value.reported = left.reported or right.reported
        value.varies = left.varies or right.varies
        if value.reported:
            return value
        left_tree, operator, right_tree = tree.children
        # (An operand that is a comparison is a truth value unless cut off
        # by the depth: only then can it be a chained comparison.)
        deep = self.depth > MAX_DEPTH
        if (left.origin is None and right.origin is None
                and not ((left.is_truth or deep) and _is_comparison(left_tree))
                and not ((right.is_truth or deep) and _is_comparison(right_tree))):
            # The common case: none of the slips below can be it.
            if value.if_true is None and value.varies:
                self.constant_test(value, tree, state)
            return value
        chained = self.chained(left_tree, operator, right_tree, left, right)
        if chained is not None:
            written = self.parenthesized(chained, operator, before=chained is left_tree)
            self.report(Finding("chained-comparison", tree, inner=chained, value=value,
                                parenthesized=written))
            value.reported = True
        elif (_kind(left_tree) == "not_expr" and left.origin is not None
              and not self.parenthesized(left_tree, operator, before=True)):
            self.report(Finding("not-binds-tighter", tree, value=value))
            value.reported = True
        elif (left.origin is not None and not right.is_truth) or (
                right.origin is not None and not left.is_truth):
            side = left_tree if left.origin is not None else right_tree
            origin = left.origin if left.origin is not None else right.origin
            self.report(Finding("truth-as-number", tree, operand=side, origin=origin,
                                value=value, compared=True))
            value.reported = True
        else:
            self.constant_test(value, tree, state)
        return value

    def chained(self, left_tree: Any, operator: Token, right_tree: Any, left: Value,
                right: Value) -> Any:
        """The inner comparison of `a < b < c` (or `a == b < c`), unparenthesized,
        compared with something not a truth value."""
        if _is_comparison(left_tree) and not right.is_truth:
            return left_tree
        if _is_comparison(right_tree) and not left.is_truth:
            return right_tree
        return None

    def parenthesized(self, tree: Any, operator: Token, before: bool) -> bool:
        """Whether ``tree``, an operand of ``operator``, is written in parentheses."""
        first = first_token(tree)
        text = self.text
        position = (first.start_pos or 0) - 1
        while position >= 0 and text[position] in " \t\r\n":
            position -= 1
        if position < 0 or text[position] != "(":
            return False
        if not before:
            return position >= (operator.end_pos or 0)
        depth = 0
        limit = operator.start_pos or 0
        for index in range(position, limit):
            char = text[index]
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    return True
        return False

    def holds_where(self, linear: Linear, kind: str, state: State) -> State | None:
        """``state`` where `linear KIND 0`."""
        span = _SPANS[kind]
        terms, const = linear
        if span is None:  # != 0: both sides of 0, or trim an end
            if len(terms) == 1:
                for atom in terms:
                    if terms[atom] == 1:
                        return self.nonzero(atom, const, state)
            above = self.holds_where(linear, "GT", state)
            below = self.holds_where(linear, "LT", state)
            return join(above, below)
        low, high = span[0] - const, span[1] - const
        if len(terms) == 1:
            for atom in terms:
                coeff = terms[atom]
                if coeff == 1:
                    return narrow(self.deck, state, atom, low, high)
                if coeff == -1:
                    return narrow(self.deck, state, atom, -high, -low)
        elif not terms:
            return state if low <= 0 <= high else None
        seat = _one_seat_lengths(terms)
        if seat is not None:
            mask = shapes_where(state[1][seat], ((atom[2], c) for atom, c in terms.items()),
                                0, low, high)
            return settle_seat(self.deck, _with_mask(state, seat, mask), seat)
        coeffs = set(terms.values())
        if coeffs in ({1}, {-1}):
            if coeffs == {-1}:
                low, high = -high, -low
            return narrow_group(self.deck, state, frozenset(terms), low, high)
        interval = self.linear_range(terms, 0, state)
        return state if interval[1] >= low and interval[0] <= high else None

    def nonzero(self, atom: Atom, const: int, state: State) -> State | None:
        """``state`` where `atom + const != 0`: holds_where's join of the
        states above and below 0, without narrowing to a side that ``atom``'s
        range leaves no room for (that narrowing gives no deal)."""
        deck = self.deck
        low, high = atom_range(deck, state, atom)
        if low + const >= 0:  # never below 0
            if high + const <= 0:
                return None  # always 0
            return narrow(deck, state, atom, 1 - const, INT_MAX - const)
        if high + const <= 0:  # never above 0
            return narrow(deck, state, atom, INT_MIN - const, -1 - const)
        return join(narrow(deck, state, atom, 1 - const, INT_MAX - const),
                    narrow(deck, state, atom, INT_MIN - const, -1 - const))

    def linear_value(self, linear: Linear, state: State) -> Value:
        low, high = self.linear_range(linear[0], linear[1], state)
        return number(low, high, linear)

    def linear_range(self, terms: dict[Atom, int], const: int, state: State) -> Interval:
        if len(terms) > 1 and set(terms.values()) == {1}:
            low, high = group_range(self.deck, state, frozenset(terms))
            return _clamp(low + const, high + const)
        low = high = const
        deck, narrowed = self.deck, state[0]
        for atom, coeff in terms.items():
            # (atom_range, without its call: most forms are one atom)
            if atom[0] == "len":
                a, b = length_range(state[1][atom[1]], atom[2])
            else:
                found = narrowed.get(atom)
                if found is None:
                    found = deck._ranges.get(atom)
                    if found is None:
                        found = deck.range(atom)
                a, b = found
            if coeff >= 0:
                low, high = low + coeff * a, high + coeff * b
            else:
                low, high = low + coeff * b, high + coeff * a
        if low < INT_MIN or high > INT_MAX:
            return TOP  # (_clamp's test)
        return low, high

    # -- arithmetic ------------------------------------------------------------------------------

    def arithmetic(self, tree: Tree, left: Value, right: Value) -> Value:
        kind = tree.children[1].type
        value = _arithmetic(kind, left, right)
        value.reported = left.reported or right.reported
        value.varies = left.varies or right.varies
        suspect = left if left.origin is not None else right if right.origin is not None else None
        if suspect is not None and not value.reported:
            side = tree.children[0] if suspect is left else tree.children[2]
            self.report(Finding("truth-as-number", tree, operand=side, origin=suspect.origin,
                                compared=False))
            value.reported = True
        return value

    # -- truth -------------------------------------------------------------------------------------

    def truth_states(self, value: Value, state: State | None) -> tuple[State | None, State | None]:
        """The states where ``value`` is not 0, and where it is 0."""
        if state is None:
            return None, None
        self.split_truth(value, state)
        return value.if_true, (value._if_false if value._later is None else value.if_false)

    def split_truth(self, value: Value, state: State | None) -> None:
        """Work out where ``value`` is not 0 (and how to tell where it is 0)."""
        if value.split:
            return
        value.split = True
        if state is None:
            value.if_true = value.if_false = None
            return
        linear = value.linear
        if linear is not None:
            value.if_true = self.holds_where(linear, "NE", state)
            value._later, value._args = self.holds_where, (linear, "EQ", state)
        else:
            value.if_true = state if (value.low, value.high) != (0, 0) else None
            value.if_false = state if value.low <= 0 <= value.high else None

    def constant_test(self, value: Value, tree: Any, state: State) -> None:
        """A test that never or always holds where it is evaluated, and on its own."""
        if value.reported or value.if_true is not None or not value.varies:
            return  # only "never": a test that always holds is mostly meant so
        self.test_verdict(value, tree, state, "operand")

    def test_verdict(self, value: Value, tree: Any, state: State, role: str) -> None:
        if state is not self.deck.base:
            alone = self.alone(tree)
            if alone.if_true is not None:
                return  # it depends on where it is: the `and`/`or` decides
        code = "never-holds" if value.if_true is None else "always-holds"
        self.report(Finding(code, tree, alone=True, role=role,
                            atoms=self.atoms_narrowed(self.deck.base, tree)))
        value.reported = True

    def alone(self, tree: Any) -> Value:
        """``tree`` evaluated on its own, quietly."""
        self.quiet += 1
        try:
            value = self.evaluate(tree, self.deck.base)
            self.split_truth(value, self.deck.base)
        finally:
            self.quiet -= 1
        return value

    def some_test_can_fail(self, tree: Any) -> bool:
        """Whether a test inside ``tree`` (a comparison, shape() or hascard,
        through the variables it reads) fails on some deal on its own."""
        pending, seen, looked = [tree], set(), 0
        while pending and looked < _MOST_TESTS_LOOKED_AT:
            node = pending.pop()
            if node.__class__ is not Tree:
                continue
            looked += 1
            data = node.data
            if data == "var":
                name = str(node.children[0])
                if name not in seen and name in self.definitions:
                    seen.add(name)
                    pending.append(self.definitions[name])
            elif data in _TESTS or _is_comparison(node):
                if self.alone(node).if_false is not None:
                    return True
            else:
                pending.extend(node.children)
        return False

    def report(self, finding: Finding) -> None:
        if not self.quiet:
            self.emit(finding)


# The eval_* method of each kind of node.
_EVALUATORS: dict[str, Callable[[Analysis, Any, State], Value]] = {
    name[len("eval_"):]: method for name, method in vars(Analysis).items()
    if name.startswith("eval_")}


# -- helpers ------------------------------------------------------------------------------


def _arithmetic(kind: str, left: Value, right: Value) -> Value:
    if kind in ("PLUS", "MINUS"):
        sign = 1 if kind == "PLUS" else -1
        low, high = ((left.low + right.low, left.high + right.high) if sign == 1
                     else (left.low - right.high, left.high - right.low))
        linear = None
        if left.linear is not None and right.linear is not None:
            terms = dict(left.linear[0])
            for atom, coeff in right.linear[0].items():
                terms[atom] = terms.get(atom, 0) + sign * coeff
                if not terms[atom]:
                    del terms[atom]
            linear = (terms, left.linear[1] + sign * right.linear[1])
        return _bounded(low, high, linear)
    corners: list[int] = []
    for a in (left.low, left.high):
        for b in (right.low, right.high):
            corners.append(a * b if kind == "STAR" else 0)
    if kind == "STAR":
        linear = None
        for one, other in ((left, right), (right, left)):
            if one.linear is not None and other.low == other.high and other.linear is not None:
                factor = other.low
                linear = ({a: c * factor for a, c in one.linear[0].items() if c * factor},
                          one.linear[1] * factor)
                break
        return _bounded(min(corners), max(corners), linear)
    if right.low <= 0 <= right.high:
        return Value(*TOP)  # dividing by zero crashes dealer; other checks say so
    if kind == "SLASH":
        quotients = [_c_div(a, b) for a in (left.low, left.high) for b in (right.low, right.high)]
        return _bounded(min(quotients), max(quotients), None)
    most = max(abs(right.low), abs(right.high)) - 1
    if left.low >= 0:
        return Value(0, min(most, left.high))
    if left.high <= 0:
        return Value(max(-most, left.low), 0)
    return Value(-most, most)


def _difference(left: Value, right: Value) -> Linear | None:
    """`left - right` as a linear form, if both have one."""
    if left.linear is None or right.linear is None:
        return None
    left_terms, right_terms = left.linear[0], right.linear[0]
    const = left.linear[1] - right.linear[1]
    if not right_terms:
        return (left_terms, const)  # shared: linear forms are never changed
    terms = dict(left_terms)
    for atom, coeff in right_terms.items():
        terms[atom] = terms.get(atom, 0) - coeff
        if not terms[atom]:
            del terms[atom]
    return (terms, const)


def _one_seat_lengths(terms: dict[Atom, int]) -> int | None:
    """The seat, if every atom of ``terms`` is one seat's suit length."""
    seat = None
    for atom in terms:
        if atom[0] != "len" or (seat is not None and atom[1] != seat):
            return None
        seat = atom[1]
    return seat


def _c_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _bounded(low: int, high: int, linear: Linear | None) -> Value:
    if low < INT_MIN or high > INT_MAX:
        return Value(*TOP)  # C int arithmetic wraps: anything
    return number(low, high, linear)


def _clamp(low: int, high: int) -> Interval:
    if low < INT_MIN or high > INT_MAX:
        return TOP
    return low, high


def _literal_choice(tested: Value, holds: State, fails: State, one: int,
                   other: int) -> Value:
    """``tested ? one : other`` with two literals, ``tested`` holding in
    ``holds`` and failing in ``fails``: what eval_if_expr works out from the
    literals evaluated there (a literal is 0 in no state or in all)."""
    if 0 <= one <= 1 and 0 <= other <= 1:
        value = test(join(holds if one else None, fails if other else None),
                     join(None if one else holds, None if other else fails))
    else:
        value = number(min(one, other), max(one, other))
    value.reported = tested.reported
    value.varies = tested.varies
    return value


def _meet_fails(deck: Deck, state: State, known: Value) -> State | None:
    """Where the truth value ``known`` fails, within ``state``."""
    later = known._later  # (the if_false property, without its call)
    if later is not None:
        known._later = None
        known._if_false = later(*known._args)
        known._args = ()
    return meet(deck, state, known._if_false)


def _fails_in_base(known: Value, base: State) -> State | None:
    """Where the truth value ``known`` fails, within the deck's base state
    (``_meet_fails`` there, without the meet)."""
    later = known._later  # (the if_false property, without its call)
    if later is not None:
        known._later = None
        known._if_false = later(*known._args)
        known._args = ()
    fails = known._if_false
    if fails is not None and fails is not base and (
            not fails[0] and not fails[2] and fails[1] is base[1]):
        return base
    return fails


def _state_if_may_hold(state: State, difference: Interval, kind: str) -> State | None:
    return state if _may_hold(difference, kind) else None


def _may_hold(difference: Interval, kind: str) -> bool:
    low, high = difference
    if kind == "NE":
        return (low, high) != (0, 0)
    span = _SPANS[kind]
    assert span is not None
    return high >= span[0] and low <= span[1]


def _with_mask(state: State, seat: int, mask: int) -> State | None:
    if not mask:
        return None
    if mask == state[1][seat]:
        return state
    return (state[0], with_mask(state[1], seat, mask), state[2])


def _suit(token: Any) -> int:
    return SUIT_WORDS.index(str(token).rstrip("s"))


def _count_word(token: Any) -> str:
    """The table a count function reads (kings -> king, tens -> ten)."""
    word = _COUNT_WORDS.get(token)
    if word is None:
        text = str(token)
        word = _COUNT_WORDS[text] = text.rstrip("s") if text != "tens" else "ten"
    return word


# The seat, suit and point-count words a script writes (tokens are looked
# up as the strings they are).
_SEAT_INDEX = {seat: index for index, seat in enumerate(SEATS)}
_SUIT_INDEX = {word + ending: index for index, word in enumerate(SUIT_WORDS)
               for ending in ("", "s")}
_COUNT_WORDS: dict[str, str] = {}
# Each suit length's linear form, by seat and suit (shared: never changed).
_LENGTHS = tuple(tuple(({canonical(("len", seat, suit)): 1}, 0) for suit in range(4))
                 for seat in range(4))
_LENGTH_ATOMS = tuple(tuple(canonical(("len", seat, suit)) for suit in range(4))
                      for seat in range(4))
# Each atom's linear form, and each literal's (shared: never changed).
_UNITS: dict[Atom, Linear] = {}
_NUMBERS: dict[str, Linear] = {}
# The value of each literal met as a right operand, by its text: the same
# on any deal and in any script, and never changed once made (a comparison
# or arithmetic reads its operands), so made once like the linear forms.
_LITERALS: dict[str, Value] = {}


def _kind(tree: Any) -> str | None:
    return tree.data if isinstance(tree, Tree) else None


def _is_comparison(tree: Any) -> bool:
    return (tree.__class__ is Tree and tree.data == "binary"
            and tree.children[1].type in _COMPARISONS)




def _atoms_read(analysis: Analysis, tree: Any) -> list[Atom]:
    """The atoms a small expression reads, in order (for messages)."""
    found: list[Atom] = []
    pending = [tree]
    while pending and len(found) < 4:
        node = pending.pop()
        if not isinstance(node, Tree):
            continue
        if node.data in ("suit_length", "count", "var", "hascard"):
            value = analysis.evaluate(node, analysis.deck.base) if node.data != "var" else None
            if node.data == "var":
                known = analysis.variables.get(str(node.children[0]))
                linear = known.linear if known is not None else None
            else:
                linear = value.linear if value is not None else None
            if linear is not None:
                found.extend(atom for atom in linear[0] if atom not in found)
            continue
        pending.extend(reversed(node.children))
    return found


_SHAPE_LISTS: dict[tuple[str, ...], int | None] = {}
_BLOCKS: dict[str, tuple[int, int] | None] = {}


def _block_shapes(text: str) -> tuple[int, int] | None:
    """The seat and the shapes of a shape{} block's text; None when it does
    not compile (the lexical pass reports why) or names no seat."""
    if text in _BLOCKS:
        return _BLOCKS[text]
    from dealerpp.diagnostics import DppError
    from dealerpp.script.lexer import regions
    from dealerpp.script.shape_blocks import blanked
    from dealerpp.shapes.compiler import compile_shape

    found: tuple[int, int] | None = None
    block = next(iter(regions(text)), None)
    try:  # its comments become spaces, as the preprocessor compiles it
        compiled = None if block is None else compile_shape(blanked(text, block))
    except (DppError, RecursionError):
        compiled = None
    if compiled is not None and compiled.compass in SEATS:
        found = (SEATS.index(compiled.compass), compiled.shapes.mask)
    if len(_BLOCKS) > 1024:
        _BLOCKS.clear()
    _BLOCKS[text] = found
    return found


def _shape_list_mask(tree: Tree) -> int | None:
    """The shapes a dealer shape list denotes (None for a placeholder);
    a list met before is looked up."""
    # Its words (each item ends with its pattern, so they tell the items apart).
    key = tuple([child for item in tree.children for child in item.children])
    if key in _SHAPE_LISTS:
        return _SHAPE_LISTS[key]
    found = _list_mask(tree)
    if len(_SHAPE_LISTS) > 1024:
        _SHAPE_LISTS.clear()
    _SHAPE_LISTS[key] = found
    return found


def _list_mask(tree: Tree) -> int | None:
    from itertools import permutations

    from dealerpp.shapes.universe import FULL_MASK, LENGTH_MASK

    mask = 0
    for item in tree.children:
        children = item.children
        sign = "+"
        permute = False
        pattern = None
        for child in children:
            kind = getattr(child, "type", None)
            if kind == "MINUS":
                sign = "-"
            elif kind == "ANY":
                permute = True
            elif kind in ("DISTR", "DISTR_OR_NUMBER"):
                pattern = str(child)
        if pattern is None or len(pattern) != 4:
            return None
        digits = [int(c) for c in pattern if c != "x"]
        if sum(digits) > 13 or ("x" not in pattern and sum(digits) != 13):
            return None  # an error reported elsewhere
        term = 0
        for order in set(permutations(pattern)) if permute else (tuple(pattern),):
            one = FULL_MASK
            for suit, char in enumerate(order):
                if char != "x":
                    one &= LENGTH_MASK[suit][int(char)]
            term |= one
        mask = mask | term if sign == "+" else mask & ~term
    return mask
