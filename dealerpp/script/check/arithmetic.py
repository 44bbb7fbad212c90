"""dealer's integer arithmetic: number literals and constant expressions.

dealer computes with C ints: ``_atoi`` reads a literal the way its scanner
does (saturating, then wrapping), ``_constant`` folds a constant expression
with C semantics, and ``_traps`` says when a division raises SIGFPE. The
semantic pass uses these to decide whether a divisor is surely zero and
what a number in altcount, predeal or frequency really is. It is separate
because it is pure arithmetic on trees, independent of any check.
"""

from __future__ import annotations

from typing import Any

from dealerpp.lalr import Tree

_INT_MIN, _LONG_MAX = -(2**31), 2**63 - 1


def _int32(value: int) -> int:
    """``value`` as a C int on dealer's platform (two's complement wrap)."""
    return (value - _INT_MIN) % 2**32 + _INT_MIN


def _atoi(text: str) -> int:
    """What dealer's atoi makes of a digit string: strtol saturates at
    LONG_MAX, then the cast to int wraps (4294967296 reads as 0)."""
    return _int32(min(int(text), _LONG_MAX))


def _number_value(tree: Tree) -> int:
    """The value of a `number` node (`5`, `-5` or `4333`)."""
    children = tree.children
    if len(children) == 2:
        return _int32(-_atoi(str(children[1])))
    return _atoi(str(children[0]))


def _constant(tree: Any, depth: int = 0) -> int | None:
    """The value of a constant expression (C integer arithmetic), else None
    (also for absurdly deep ones)."""
    if depth > 200:
        return None
    if isinstance(tree, str):
        return None
    kind = tree.data
    if kind == "number":
        return _number_value(tree)
    if kind == "binary":
        left = _constant(tree.children[0], depth + 1)
        right = _constant(tree.children[2], depth + 1)
        if left is None or right is None:
            return None
        return _apply(str(tree.children[1]), left, right)
    if kind == "not_expr":
        value = _constant(tree.children[1], depth + 1)
        return None if value is None else int(not value)
    if kind == "if_expr":
        test = _constant(tree.children[0], depth + 1)
        if test is None:
            return None
        return _constant(tree.children[1] if test else tree.children[2], depth + 1)
    return None


def _apply(operator: str, left: int, right: int) -> int | None:
    """C int arithmetic; None where the CPU traps (x / 0, INT_MIN / -1)."""
    if operator in ("/", "%"):
        if _traps(left, right):
            return None
        quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
        return _int32(quotient if operator == "/" else left - quotient * right)
    table = {
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "<": lambda: int(left < right), "<=": lambda: int(left <= right),
        ">": lambda: int(left > right), ">=": lambda: int(left >= right),
        "&&": lambda: int(bool(left and right)), "and": lambda: int(bool(left and right)),
        "||": lambda: int(bool(left or right)), "or": lambda: int(bool(left or right)),
    }
    compute = table.get(operator)
    return None if compute is None else _int32(compute())


def _traps(left: int | None, right: int | None) -> bool:
    """Whether integer division left / right raises SIGFPE."""
    return right == 0 or (right == -1 and left == _INT_MIN)
