"""Conditions (``:h>s,h>=d``) evaluated over suit lengths with C integer
semantics, the way dealer evaluates its own expressions: 32-bit ints that
wrap around, ``/`` truncating toward zero, and integer literals read as
dealer reads them (``dealer_literal``).

A condition is evaluated for many shapes at once: each node of the
expression gives a column of values, one per shape. The walk over the
expression keeps its own stack, so no depth of nesting reaches Python's
recursion limit, and its cost is the number of nodes times the number of
shapes. ``&&``, ``||`` and ``?:`` evaluate their right side (or branch)
only for the shapes that need it, as C does, so a division by zero there
counts only where C would reach it. Nothing is ever passed to eval or exec.
"""

from __future__ import annotations

# operator's C half: the module ``operator`` is Python code that loads it
# (a tenth of a millisecond the console script's front door need not pay).
from _operator import add, eq, ge, gt, itemgetter, le, lt, mul, ne, sub

from dealerpp.shapes import ast

TYPE_CHECKING = False  # typing and collections.abc stay unimported at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterator, Sequence
    from typing import Any

SUIT_INDEX = {"s": 0, "h": 1, "d": 2, "c": 3}

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MAX = 2**63 - 1
_LONG_MAX_DIGITS = len(str(LONG_MAX))  # 19

Lengths = tuple[int, int, int, int]
# One value per shape; None where evaluating it divided by zero.
Column = list[int | None]

DIVISION_BY_ZERO = "division by zero: the condition is false for shapes where the divisor is 0"
DIVISION_OVERFLOW = ("-2147483648 / -1 overflows a 32-bit int (dealer would stop with a "
                     "floating-point exception): the condition is false for those shapes")


def dealer_literal(digits: str) -> int:
    """The int dealer makes of a decimal literal: C's ``strtol`` reads it
    into a long, saturating at LONG_MAX, and the long is stored into an int,
    keeping its low 32 bits (measured on Debian's dealer).

    >>> dealer_literal("10"), dealer_literal("4294967306"), dealer_literal("2147483648")
    (10, 10, -2147483648)
    >>> dealer_literal("9" * 5000), dealer_literal("0" * 5000 + "7")
    (-1, 7)
    """
    significant = digits.lstrip("0")
    # Never convert more digits than a long holds: past them, strtol saturates.
    value = LONG_MAX if len(significant) > _LONG_MAX_DIGITS else min(int(significant or "0"),
                                                                     LONG_MAX)
    return wrap(value)


def wrap(value: int) -> int:
    """``value`` as a 32-bit two's complement int (C's wrap-around)."""
    return ((value - INT_MIN) & 0xFFFFFFFF) + INT_MIN


def c_div(a: int, b: int) -> int:
    """C's ``/``: truncates toward zero (-7/2 == -3)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def c_mod(a: int, b: int) -> int:
    """C's ``%``: the remainder takes the sign of the dividend."""
    return a - b * c_div(a, b)


def walk(expr: ast.Expr) -> Iterator[ast.Expr]:
    """Every node of ``expr``, parents before children (no recursion)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Unary):
            stack.append(node.operand)
        elif isinstance(node, ast.Binary):
            stack += (node.right, node.left)
        elif isinstance(node, ast.Conditional):
            stack += (node.if_false, node.if_true, node.test)


def variables(expr: ast.Expr) -> set[str]:
    """The variable names a condition uses."""
    return {node.name for node in walk(expr) if isinstance(node, ast.Variable)}


# --- evaluation -------------------------------------------------------------

# A comparison gives a bool, which is the int 0 or 1 in all later arithmetic.
_OPERATORS: dict[str, Callable[[int, int], int]] = {
    "+": add, "-": sub, "*": mul, "<": lt, "<=": le, ">": gt, ">=": ge, "==": eq, "!=": ne,
}
_WRAPPING = frozenset("+-*")


class Evaluation:
    """The values of one condition over a list of shapes, for one binding of
    ``M``/``m`` to suits; ``traps`` maps each division that met a zero divisor
    (or overflowed) on a shape where C would reach it to what went wrong.

    The condition is evaluated once per distinct combination of the suit
    lengths it uses (14 for a condition on spades alone, not 560).
    """

    def __init__(self, expr: ast.Expr, binding: dict[str, int],
                 shapes: Sequence[Lengths]) -> None:
        suits = sorted({self._suit(node.name, binding) for node in walk(expr)
                        if isinstance(node, ast.Variable)})
        # Variables read position ``column[suit]`` of a row: a row holds the used lengths.
        self.column = {suit: position for position, suit in enumerate(suits)}
        self.binding = binding
        self.traps: dict[ast.Pos, str] = {}
        # Each shape's key: its one used length, or the tuple of them.
        keys: Sequence[Hashable]
        distinct: Sequence[Hashable]
        rows: list[tuple[int, ...]]
        if len(suits) == 1:
            lengths = [shape[suits[0]] for shape in shapes]
            unique = list(dict.fromkeys(lengths))
            keys, distinct, rows = lengths, unique, [(length,) for length in unique]
        else:
            used: list[tuple[int, ...]] = (list(map(itemgetter(*suits), shapes))
                                           if suits else [()] * len(shapes))
            rows = list(dict.fromkeys(used))
            keys, distinct = used, rows
        value_of = dict(zip(distinct, self._run(expr, rows), strict=True))
        self.values: Column = [value_of[key] for key in keys]

    @staticmethod
    def _suit(name: str, binding: dict[str, int]) -> int:
        return binding[name] if name in ("M", "m") else SUIT_INDEX[name]

    def _run(self, expr: ast.Expr, shapes: list[tuple[int, ...]]) -> Column:
        # Work items: ("eval", node, rows) computes a node's column for
        # those rows and pushes it on ``results``; the others combine the
        # columns their node's children pushed.
        work: list[tuple[Any, ...]] = [("eval", expr, shapes)]
        results: list[Column] = []
        while work:
            item = work.pop()
            step = item[0]
            if step == "eval":
                self._eval(item[1], item[2], work, results)
            elif step == "unary":
                results.append(_unary(item[1].op, results.pop()))
            elif step == "binary":
                right, left = results.pop(), results.pop()
                results.append(self._binary(item[1], left, right))
            elif step == "logic":
                self._logic(item[1], item[2], results.pop(), work)
            elif step == "logic_join":
                results.append(_logic_join(item[1], item[2], item[3], results.pop()))
            elif step == "choose":
                self._choose(item[1], item[2], results.pop(), work)
            else:  # "choose_join"
                if_false, if_true = results.pop(), results.pop()
                results.append(_merge(item[1], item[2], if_true, item[3], if_false))
        return results[0]

    def _eval(self, node: ast.Expr, rows: list[tuple[int, ...]], work: list[tuple[Any, ...]],
              results: list[Column]) -> None:
        if isinstance(node, ast.Number):
            results.append([node.value] * len(rows))
        elif isinstance(node, ast.Variable):
            position = self.column[self._suit(node.name, self.binding)]
            results.append([row[position] for row in rows])
        elif isinstance(node, ast.Unary):
            work += (("unary", node), ("eval", node.operand, rows))
        elif isinstance(node, ast.Binary) and node.op in ("&&", "||"):
            work += (("logic", node, rows), ("eval", node.left, rows))
        elif isinstance(node, ast.Binary):
            work += (("binary", node), ("eval", node.right, rows), ("eval", node.left, rows))
        else:
            work += (("choose", node, rows), ("eval", node.test, rows))

    def _binary(self, node: ast.Binary, left: Column, right: Column) -> Column:
        op = node.op
        if op in ("/", "%"):
            return self._divide(node, left, right)
        apply = _OPERATORS[op]
        if None in left or None in right:
            return [None if a is None or b is None else wrap(apply(a, b))
                    for a, b in zip(left, right, strict=True)]
        apply_known: Callable[[Any, Any], int] = apply  # no None in either column here
        values: Column = list(map(apply_known, left, right))
        return _wrapped(values) if op in _WRAPPING else values

    def _divide(self, node: ast.Binary, left: Column, right: Column) -> Column:
        divide = c_div if node.op == "/" else c_mod
        values: Column = []
        for a, b in zip(left, right, strict=True):
            if a is None or b is None:
                values.append(None)
            elif b == 0 or (b == -1 and a == INT_MIN):
                self.traps.setdefault(node.pos, DIVISION_BY_ZERO if b == 0 else DIVISION_OVERFLOW)
                values.append(None)
            else:
                values.append(divide(a, b))
        return values

    def _logic(self, node: ast.Binary, rows: list[tuple[int, ...]], left: Column,
               work: list[tuple[Any, ...]]) -> None:
        """After ``&&``/``||``'s left side: its right side, only where C needs it."""
        needs_right = node.op == "&&"  # && needs it where the left is true, || where false
        reached = [i for i, value in enumerate(left)
                   if value is not None and bool(value) == needs_right]
        work += (("logic_join", node.op, left, reached),
                 ("eval", node.right, [rows[i] for i in reached]))

    def _choose(self, node: ast.Conditional, rows: list[tuple[int, ...]], test: Column,
                work: list[tuple[Any, ...]]) -> None:
        """After ``?:``'s test: each branch for the shapes that take it."""
        true_rows = [i for i, value in enumerate(test) if value]
        false_rows = [i for i, value in enumerate(test) if value == 0]
        work += (("choose_join", len(rows), true_rows, false_rows),
                 ("eval", node.if_false, [rows[i] for i in false_rows]),
                 ("eval", node.if_true, [rows[i] for i in true_rows]))


def _wrapped(values: Column) -> Column:
    """``values``, none of them None, wrapped to C's int where they overflowed."""
    known: list[Any] = values  # (no None: the caller made sure)
    if known and (min(known) < INT_MIN or max(known) > INT_MAX):
        return [wrap(value) for value in known]
    return values


def _unary(op: str, operand: Column) -> Column:
    if op == "!":
        return [None if value is None else int(not value) for value in operand]
    if op == "-":
        return [None if value is None else wrap(-value) for value in operand]
    return operand


def _logic_join(op: str, left: Column, reached: list[int], right: Column) -> Column:
    """``&&``/``||`` from the left column and the right one where it was reached."""
    unreached = 0 if op == "&&" else 1
    values: Column = [None if value is None else unreached for value in left]
    for i, value in zip(reached, right, strict=True):
        values[i] = None if value is None else int(bool(value))
    return values


def _merge(size: int, true_rows: list[int], if_true: Column, false_rows: list[int],
           if_false: Column) -> Column:
    """``?:``'s column from its branches (None where the test itself trapped)."""
    values: Column = [None] * size
    for i, value in zip(true_rows, if_true, strict=True):
        values[i] = value
    for i, value in zip(false_rows, if_false, strict=True):
        values[i] = value
    return values
