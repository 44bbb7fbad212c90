"""dealer's integer arithmetic: number literals and constant expressions.

dealer computes with C ints. Its scanner reads a literal with ``atoi``,
that is C ``strtol`` into a ``long`` (saturating at LONG_MAX), then an
``int`` (wrapping): 4294967306 means 10, 2147483648 means -2147483648,
anything past 2^63 means -1 (measured on Debian's dealer).
``literal_value`` reads a literal that way, from its length alone when it
is too long for ``int()``; ``constant_value`` folds a constant expression
with C semantics, and ``traps`` says when a division raises SIGFPE.
"""

from __future__ import annotations

from dealerpp.lalr import Tree
from dealerpp.script.check.stream import Placeholder

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

INT_MIN, INT_MAX, LONG_MAX = -(2**31), 2**31 - 1, 2**63 - 1
_LONG_DIGITS = len(str(LONG_MAX))
# Deeper constant expressions are not folded (their value is "unknown").
_FOLD_DEPTH = 200


def to_int32(value: int) -> int:
    """``value`` as a C int on dealer's platform (two's complement wrap)."""
    return (value - INT_MIN) % 2**32 + INT_MIN


def literal_value(digits: str) -> int:
    """What dealer's atoi makes of a digit string."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > _LONG_DIGITS:
        return to_int32(LONG_MAX)  # never int(): it may be too long for Python
    return to_int32(min(int(significant), LONG_MAX))


def dealer_reads(digits: str, negative: bool = False) -> int | None:
    """What dealer makes of a literal (``-`` and digits), or None when that
    is the number written."""
    value = literal_value(digits)
    if negative:
        value = to_int32(-value)
    significant = digits.lstrip("0") or "0"
    if len(significant) <= _LONG_DIGITS + 1:
        written = int(significant)
        if (-written if negative else written) == value:
            return None
    return value


def number_value(tree: Tree) -> int | None:
    """The value of a `number` node (`5`, `-5` or `4333`); None for a placeholder."""
    children = tree.children
    if any(isinstance(child, Placeholder) for child in children):
        return None
    if len(children) == 2:
        return to_int32(-literal_value(str(children[1])))
    return literal_value(str(children[0]))


def constant_value(tree: Any) -> int | None:
    """The value of a constant expression (C integer arithmetic), else None
    (also for very deep ones)."""
    return _fold(tree, 0)


def _fold(tree: Any, depth: int) -> int | None:
    if depth > _FOLD_DEPTH or isinstance(tree, str):
        return None
    kind = tree.data
    if kind == "number":
        return number_value(tree)
    if kind == "binary":
        left = _fold(tree.children[0], depth + 1)
        right = _fold(tree.children[2], depth + 1)
        if left is None or right is None:
            return None
        return apply(str(tree.children[1]), left, right)
    if kind == "not_expr":
        value = _fold(tree.children[1], depth + 1)
        return None if value is None else int(not value)
    if kind == "if_expr":
        test = _fold(tree.children[0], depth + 1)
        if test is None:
            return None
        return _fold(tree.children[1] if test else tree.children[2], depth + 1)
    return None


def apply(operator: str, left: int, right: int) -> int | None:
    """C int arithmetic; None where the CPU traps (x / 0, INT_MIN / -1)."""
    if operator in ("/", "%"):
        if traps(left, right):
            return None
        quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
        return to_int32(quotient if operator == "/" else left - quotient * right)
    table = {
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "<": lambda: int(left < right), "<=": lambda: int(left <= right),
        ">": lambda: int(left > right), ">=": lambda: int(left >= right),
        "&&": lambda: int(bool(left and right)), "and": lambda: int(bool(left and right)),
        "||": lambda: int(bool(left or right)), "or": lambda: int(bool(left or right)),
    }
    compute = table.get(operator)
    return None if compute is None else to_int32(compute())


def traps(left: int | None, right: int | None) -> bool:
    """Whether integer division left / right raises SIGFPE."""
    return right == 0 or (right == -1 and left == INT_MIN)
