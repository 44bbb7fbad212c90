"""Conditions (``:h>s,h>=d``) evaluated over suit lengths with C integer
semantics, the way dealer evaluates its own expressions.

A condition is compiled into a Python closure for one binding of ``M``/``m``
to a suit; nothing is ever passed to eval or exec.
"""

from __future__ import annotations

from collections.abc import Callable

from dealerpp.shapes import ast

SUIT_INDEX = {"s": 0, "h": 1, "d": 2, "c": 3}

Lengths = tuple[int, int, int, int]
Evaluator = Callable[[Lengths], int]


class DivisionByZero(Exception):
    """Raised by an evaluator when a ``/`` or ``%`` meets a zero divisor."""

    def __init__(self, pos: ast.Pos) -> None:
        super().__init__("division by zero")
        self.pos = pos


def c_div(a: int, b: int) -> int:
    """C's ``/``: truncates toward zero (-7/2 == -3)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def c_mod(a: int, b: int) -> int:
    """C's ``%``: the remainder takes the sign of the dividend."""
    return a - b * c_div(a, b)


_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
}


def variables(expr: ast.Expr) -> set[str]:
    """The variable names a condition uses."""
    if isinstance(expr, ast.Variable):
        return {expr.name}
    if isinstance(expr, ast.Unary):
        return variables(expr.operand)
    if isinstance(expr, ast.Binary):
        return variables(expr.left) | variables(expr.right)
    if isinstance(expr, ast.Conditional):
        return variables(expr.test) | variables(expr.if_true) | variables(expr.if_false)
    return set()


def compile_condition(expr: ast.Expr, binding: dict[str, int]) -> Evaluator:
    """A closure computing ``expr`` for a shape; ``binding`` maps 'M'/'m' to a suit index."""
    if isinstance(expr, ast.Number):
        value = expr.value
        return lambda lengths: value
    if isinstance(expr, ast.Variable):
        index = binding[expr.name] if expr.name in ("M", "m") else SUIT_INDEX[expr.name]
        return lambda lengths: lengths[index]
    if isinstance(expr, ast.Unary):
        return _compile_unary(expr, binding)
    if isinstance(expr, ast.Binary):
        return _compile_binary(expr, binding)
    test = compile_condition(expr.test, binding)
    if_true = compile_condition(expr.if_true, binding)
    if_false = compile_condition(expr.if_false, binding)
    return lambda lengths: if_true(lengths) if test(lengths) else if_false(lengths)


def _compile_unary(expr: ast.Unary, binding: dict[str, int]) -> Evaluator:
    operand = compile_condition(expr.operand, binding)
    if expr.op == "!":
        return lambda lengths: int(not operand(lengths))
    if expr.op == "-":
        return lambda lengths: -operand(lengths)
    return operand


def _compile_binary(expr: ast.Binary, binding: dict[str, int]) -> Evaluator:
    left = compile_condition(expr.left, binding)
    right = compile_condition(expr.right, binding)
    op = expr.op
    if op == "&&":
        return lambda lengths: int(bool(left(lengths)) and bool(right(lengths)))
    if op == "||":
        return lambda lengths: int(bool(left(lengths)) or bool(right(lengths)))
    if op in ("/", "%"):
        divide = c_div if op == "/" else c_mod
        pos = expr.pos

        def checked(lengths: Lengths) -> int:
            divisor = right(lengths)
            if divisor == 0:
                raise DivisionByZero(pos)
            return divide(left(lengths), divisor)

        return checked
    apply = _ARITHMETIC[op]
    return lambda lengths: apply(left(lengths), right(lengths))
