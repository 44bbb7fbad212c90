"""A second reader of dealer scripts for the logic slips, written apart from
check's analysis (tests/check/test_real_scripts.py holds check to it).

It parses with Lark and grammar/dealer.lark (not dealerpp.lalr), inlines
variables, and finds two kinds of slip by its own small rules:

- an `and`-chain whose comparisons of one value (a suit length, hcp,
  controls or any other written expression) with constants leave no value,
  counting a suit length as 0 to 13, hcp as 0 to 37 (0 to 10 in one suit)
  and controls as 0 to 12 (0 to 3 in one suit);
- an `and` or `or` with an operand that is a number (not a comparison,
  `and`, `or`, `not`, shape() or hascard()), whose 1 or 0 is then added,
  subtracted, multiplied, divided or compared with a number other than 0
  and 1 (a `?:` whose branches are truth values or 1 or 0 is a truth value).

It proves less than check (no shapes, no totals over hands), and says
nothing where it cannot tell; it gives the lines each slip it finds spans.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

TRUTH_OPERATORS = {"and", "&&", "or", "||"}
COMPARISONS = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
ARITHMETIC = {"+", "-", "*", "/", "%"}
TRUTHS = {"not_expr", "shape", "shape_block", "hascard"}
UNBOUNDED = (-(2**31), 2**31 - 1)


@cache
def _parser() -> Any:
    from lark import Lark

    grammar = Path(__file__).resolve().parents[2] / "grammar" / "dealer.lark"
    return Lark(grammar.read_text(), parser="lalr", lexer="basic", propagate_positions=True)


def slips(text: str) -> list[tuple[int, int]]:
    """The first and last line of each slip this reader finds, in order."""
    from lark import Tree

    found: set[tuple[int, int]] = set()
    definitions: dict[str, Any] = {}
    for statement in _parser().parse(text).children:
        if not isinstance(statement, Tree):
            continue
        if statement.data == "assignment":
            definitions[str(statement.children[0])] = statement.children[1]
            _walk(statement.children[1], definitions, found)
        else:
            for child in statement.children:
                _walk(child, definitions, found)
    return sorted(found)


def _walk(tree: Any, definitions: dict[str, Any], found: set[tuple[int, int]]) -> None:
    from lark import Tree

    if not isinstance(tree, Tree):
        return
    if tree.data == "binary":
        left, operator, right = tree.children
        operator = str(operator)
        if operator in ("and", "&&") and _leaves_nothing(tree, definitions):
            found.add((tree.meta.line, tree.meta.end_line))
        for side, other in ((left, right), (right, left)):
            if _is_truth_of_numbers(side, definitions) and (
                    operator in ARITHMETIC
                    or (operator in COMPARISONS and _constant(other) not in (0, 1))):
                found.add((tree.meta.line, tree.meta.end_line))
    for child in tree.children:
        _walk(child, definitions, found)


def _resolve(tree: Any, definitions: dict[str, Any]) -> Any:
    from lark import Tree

    for _ in range(100):
        if not (isinstance(tree, Tree) and tree.data == "var"
                and str(tree.children[0]) in definitions):
            break
        tree = definitions[str(tree.children[0])]
    return tree


def _is_truth(tree: Any, definitions: dict[str, Any]) -> bool:
    from lark import Tree

    tree = _resolve(tree, definitions)
    if not isinstance(tree, Tree):
        return False
    if tree.data == "binary":
        operator = str(tree.children[1])
        return operator in TRUTH_OPERATORS or operator in COMPARISONS
    if tree.data == "if_expr":  # a ? b : c, each branch a truth value or 1 or 0
        return all(_is_truth(branch, definitions) or _constant(branch) in (0, 1)
                   for branch in tree.children[1:])
    return tree.data in TRUTHS


def _is_truth_of_numbers(tree: Any, definitions: dict[str, Any]) -> bool:
    """An `and` or `or` with an operand that is a number."""
    from lark import Tree

    tree = _resolve(tree, definitions)
    if not (isinstance(tree, Tree) and tree.data == "binary"
            and str(tree.children[1]) in TRUTH_OPERATORS):
        return False
    operands = [tree.children[0], tree.children[2]]
    while operands:
        operand = _resolve(operands.pop(), definitions)
        if (isinstance(operand, Tree) and operand.data == "binary"
                and str(operand.children[1]) in TRUTH_OPERATORS):
            operands += [operand.children[0], operand.children[2]]
        elif not _is_truth(operand, definitions) and _constant(operand) is None:
            return True
    return False


def _constant(tree: Any) -> int | None:
    from lark import Tree

    if isinstance(tree, Tree) and tree.data == "number":
        return int("".join(str(part) for part in tree.children))
    return None


def _range(tree: Any) -> tuple[int, int]:
    from lark import Tree

    if not isinstance(tree, Tree):
        return UNBOUNDED
    if tree.data == "suit_length":
        return (0, 13)
    if tree.data == "count":
        function, in_suit = str(tree.children[0]), len(tree.children) > 2
        if function.startswith("hcp"):
            return (0, 10) if in_suit else (0, 37)
        if function.startswith("control"):
            return (0, 3) if in_suit else (0, 12)
    return UNBOUNDED


def _text(tree: Any) -> str:
    from lark import Tree

    if isinstance(tree, Tree):
        return "(" + " ".join(_text(child) for child in tree.children) + ")"
    return str(tree)


def _chain(tree: Any, definitions: dict[str, Any]) -> list[Any]:
    """The operands of an `and`-chain, variables inlined."""
    from lark import Tree

    tree = _resolve(tree, definitions)
    if (isinstance(tree, Tree) and tree.data == "binary"
            and str(tree.children[1]) in ("and", "&&")):
        return _chain(tree.children[0], definitions) + _chain(tree.children[2], definitions)
    return [tree]


def _leaves_nothing(tree: Any, definitions: dict[str, Any]) -> bool:
    from lark import Tree

    ranges: dict[str, tuple[int, int]] = {}
    for test in _chain(tree, definitions):
        if not (isinstance(test, Tree) and test.data == "binary"
                and str(test.children[1]) in COMPARISONS):
            continue
        left, operator, right = test.children
        operator = str(operator)
        if _constant(right) is not None and _constant(left) is None:
            value, bound = _resolve(left, definitions), _constant(right)
        elif _constant(left) is not None and _constant(right) is None:
            value, bound, operator = _resolve(right, definitions), _constant(left), \
                COMPARISONS[operator]
        else:
            continue
        assert bound is not None
        key = _text(value)
        low, high = ranges.get(key, _range(value))
        if operator in ("<", "<="):
            high = min(high, bound - (operator == "<"))
        elif operator in (">", ">="):
            low = max(low, bound + (operator == ">"))
        elif operator == "==":
            low, high = max(low, bound), min(high, bound)
        ranges[key] = (low, high)
        if low > high:
            return True
    return False
