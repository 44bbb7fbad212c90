"""Text → AST for the shape{} language (grammar: ``grammar/shape.lark``).

``parse_body("5+M(xxx)")`` and ``parse_call("shape{north, 5+M(xxx)}")``
return typed nodes from ``dealerpp.shapes.ast``; any problem is a
``DppError`` with the line, column and source line of the culprit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from dealerpp import lalr
from dealerpp.diagnostics import DppError, line_col, source_line_of
from dealerpp.lalr import ParseError, Token, UnexpectedCharacters, UnexpectedToken
from dealerpp.lalr.runtime import Callback
from dealerpp.shapes import ast

LENGTH_VALUE = {**{str(n): n for n in range(10)}, "T": 10, "J": 11, "Q": 12, "K": 13}
MAX = 13

# What each terminal is called in an error message.
TERMINAL_NAMES = {
    "LEN": "a suit length (0-9, T J Q K)",
    "LEN_MOD": "a length with + or -",
    "LABEL": "a suit label (s h d c M m)",
    "LABEL_MOD": "a suit label",
    "ANY": "'any'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "X": "'x'",
    "COLON": "':'",
    "COMMA": "','",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "SPACED_PLUS": "' + '",
    "SPACED_MINUS": "' - '",
    "NUMBER": "a number",
    "VAR": "a suit variable (s h d c M m)",
    "WORD": "a compass (north, east, south, west)",
    "SHAPE": "'shape'",
    "$END": "the end of the shape list",
}


class ConditionSigns:
    """Post-lexer for the one whitespace rule of the language.

    Inside a condition, a sign with whitespace on both sides ends the
    condition, except inside parentheses, where it is plain arithmetic.
    The lexer produces SPACED_PLUS/SPACED_MINUS; this turns the ones inside
    a condition's parentheses back into arithmetic operators.
    """

    always_accept = ("SPACED_PLUS", "SPACED_MINUS")

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        in_condition = False
        depth = 0
        for token in stream:
            kind = token.type
            if not in_condition:
                if kind == "COLON":
                    in_condition, depth = True, 0
            elif kind == "LPAR":
                depth += 1
            elif kind == "RPAR":
                depth -= 1
            elif kind in ("SPACED_PLUS", "SPACED_MINUS"):
                if depth > 0:
                    token = Token.new_borrow_pos("ADD_OP", token.value.strip(), token)
                else:
                    in_condition = False
            yield token


@cache
def _callbacks() -> dict[str, Callback]:
    """Rule name → the method of ``_ToAst`` that builds its node."""
    builder = _ToAst()
    return {name: getattr(builder, name) for name in dir(builder) if not name.startswith("_")}


def _pos(meta_or_token: Any) -> ast.Pos:
    return ast.Pos(meta_or_token.line, meta_or_token.column)


class _Fail(Exception):
    """A semantic error found while building the AST."""

    def __init__(self, message: str, pos: ast.Pos, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.pos, self.hint = message, pos, hint


class _ToAst:
    """Builds ``dealerpp.shapes.ast`` nodes as the parser reduces each rule:
    ``rule(meta, children)``, where meta is where the rule's text lies."""

    # -- lists ---------------------------------------------------------------
    def call(self, meta: Any, children: list[Any]) -> ast.ShapeCall:
        word, shapes = children
        return ast.ShapeCall(str(word), _pos(word), shapes, _pos(meta))

    def body(self, meta: Any, children: list[Any]) -> ast.ShapeList:
        return children[0]

    def shape_list(self, meta: Any, children: list[Any]) -> ast.ShapeList:
        sign = "+"
        if len(children) == 2:
            sign, chain = children[0], children[1]
        else:
            chain = children[0]
        terms: list[ast.SignedTerm] = []
        for item in chain if isinstance(chain, list) else [chain]:
            if isinstance(item, str):
                sign = item
            else:
                terms.append(ast.SignedTerm(sign, item))  # type: ignore[arg-type]
                sign = "+"
        return ast.ShapeList(tuple(terms), _pos(meta))

    def chain(self, meta: Any, children: list[Any]) -> list[Any]:
        head, sign, rest = children
        return [head, sign, *(rest if isinstance(rest, list) else [rest])]

    def sign(self, meta: Any, children: list[Token]) -> str:
        return children[0].value.strip()

    spaced_sign = sign

    def plain_term(self, meta: Any, children: list[Any]) -> ast.Term:
        return ast.Term(children[0], None, _pos(meta))

    def cond_term(self, meta: Any, children: list[Any]) -> ast.Term:
        return ast.Term(children[0], children[1], _pos(meta))

    # -- patterns ------------------------------------------------------------
    def pattern(self, meta: Any, children: list[Any]) -> ast.Pattern:
        items = tuple(c for c in children if isinstance(c, ast.Item))
        groups = [c for c in children if isinstance(c, tuple)]
        return ast.Pattern(items, groups[0] if groups else None, _pos(meta))

    def any_pattern(self, meta: Any, children: list[Any]) -> ast.Pattern:
        items = tuple(children[1:])
        for item in items:
            if item.label is not None:
                raise _Fail(
                    "a suit label cannot follow 'any': any permutes all four suits",
                    item.label_pos or item.pos,
                )
        return ast.Pattern((), items, _pos(meta), is_any=True)

    def group(self, meta: Any, children: list[ast.Item]) -> tuple[ast.Item, ...]:
        for item in children:
            if item.label is not None:
                what = "M (a major)" if item.label == "M" else (
                    "m (a minor)" if item.label == "m" else f"the suit label {item.label!r}")
                raise _Fail(
                    f"{what} cannot stand inside the parentheses",
                    item.label_pos or item.pos,
                    "the parenthesised group takes the suits left over; "
                    "put labelled lengths before it, as in 5M(xxx)",
                )
        return tuple(children)

    def item(self, meta: Any, children: list[Any]) -> ast.Item:
        slot = children[0]
        label = children[1] if len(children) > 1 else None
        return ast.Item(slot, _label(label), _pos(meta), _pos(label) if label else None)

    def item_label_mod(self, meta: Any, children: list[Token]) -> ast.Item:
        length, label_mod = children
        slot = _bounded(str(length) + label_mod.value[1], length)
        return ast.Item(slot, _label(label_mod.value[0]), _pos(meta), _pos(label_mod))

    def exact(self, meta: Any, children: list[Token]) -> ast.Slot:
        token = children[0]
        return ast.Slot("exact", frozenset([LENGTH_VALUE[token.value]]), token.value, _pos(token))

    def bounded(self, meta: Any, children: list[Token]) -> ast.Slot:
        return _bounded(children[0].value, children[0])

    def ranged(self, meta: Any, children: list[frozenset[int]]) -> ast.Slot:
        lengths = frozenset().union(*children)
        return ast.Slot("range", lengths, "[...]", _pos(meta))

    def range_part(self, meta: Any, children: list[Token]) -> frozenset[int]:
        return frozenset([LENGTH_VALUE[children[0].value]])

    def range_span(self, meta: Any, children: list[Token]) -> frozenset[int]:
        low, high = (LENGTH_VALUE[t.value] for t in children)
        if low > high:
            raise _Fail(
                f"the range {children[0]}-{children[1]} is empty: write the smaller length first",
                _pos(children[0]),
            )
        return frozenset(range(low, high + 1))

    def any_length(self, meta: Any, children: list[Token]) -> ast.Slot:
        return ast.Slot("any", frozenset(range(MAX + 1)), "x", _pos(meta))

    # -- conditions ----------------------------------------------------------
    def condition(self, meta: Any, children: list[Any]) -> ast.Expr:
        return children[0]

    def or_all(self, meta: Any, children: list[Any]) -> ast.Expr:
        return _fold("||", children)

    def and_all(self, meta: Any, children: list[Any]) -> ast.Expr:
        return _fold("&&", children)

    def ternary(self, meta: Any, children: list[Any]) -> ast.Expr:
        test, if_true, if_false = children
        return ast.Conditional(test, if_true, if_false, _pos(meta))

    def logical_or(self, meta: Any, children: list[Any]) -> ast.Expr:
        return ast.Binary("||", children[0], children[1], children[0].pos)

    def logical_and(self, meta: Any, children: list[Any]) -> ast.Expr:
        return ast.Binary("&&", children[0], children[1], children[0].pos)

    def binary(self, meta: Any, children: list[Any]) -> ast.Expr:
        left, op, right = children
        return ast.Binary(op.value.strip(), left, right, _pos(op))

    def unary(self, meta: Any, children: list[Any]) -> ast.Expr:
        op, operand = children
        symbol = "!" if op.value == "not" else op.value.strip()
        return ast.Unary(symbol, operand, _pos(op))

    def number(self, meta: Any, children: list[Token]) -> ast.Expr:
        token = children[0]
        return ast.Number(int(token.value), _pos(token))

    def variable(self, meta: Any, children: list[Token]) -> ast.Expr:
        token = children[0]
        return ast.Variable(_label(token.value) or "", _pos(token))


def _label(token: Token | str | None) -> str | None:
    if token is None:
        return None
    text = str(token)
    return text if text in ("M", "m") else text.lower()


def _bounded(text: str, where: Any) -> ast.Slot:
    n = LENGTH_VALUE[text[0]]
    if text[1] == "+":
        return ast.Slot("at_least", frozenset(range(n, MAX + 1)), text, _pos(where))
    return ast.Slot("at_most", frozenset(range(0, n + 1)), text, _pos(where))


def _fold(op: str, children: list[ast.Expr]) -> ast.Expr:
    result = children[0]
    for child in children[1:]:
        result = ast.Binary(op, result, child, result.pos)
    return result


# --- entry points -----------------------------------------------------------


def parse_body(text: str) -> ast.ShapeList:
    """Parse a shape list: ``5+M(xxx) - (4333)``."""
    return _parse(text, "body")


def parse_call(text: str) -> ast.ShapeCall:
    """Parse a whole ``shape{COMPASS, LIST}``."""
    return _parse(text, "call")


def _parse(text: str, start: str) -> Any:
    _check_brackets(text, start)
    try:
        return lalr.load("shape").parse(text, start, _callbacks(), ConditionSigns().process)
    except _Fail as error:
        raise _error(text, error.message, error.pos.line, error.pos.column, error.hint) from None
    except ParseError as error:
        raise _syntax_error(text, error) from None


_CLOSERS = {")": "(", "]": "[", "}": "{"}


def _check_brackets(text: str, start: str) -> None:
    """Unbalanced brackets get a message pointing at the culprit before
    the parser would stumble somewhere later."""
    stack: list[tuple[str, int]] = []
    for offset, char in enumerate(text):
        if char in "([{":
            stack.append((char, offset))
        elif char in _CLOSERS:
            if not stack or stack[-1][0] != _CLOSERS[char]:
                if char == "}" and start == "call" and not stack:
                    continue
                line, column = line_col(text, offset)
                raise _error(text, f"unmatched {char!r}", line, column)
            stack.pop()
    if stack:
        char, offset = stack[-1]
        if char == "{" and start == "call" and len(stack) == 1:
            line, column = line_col(text, offset)
            raise _error(text, "unclosed 'shape{': no '}' ends it", line, column)
        if char != "{" or start == "body":
            line, column = line_col(text, offset)
            closer = {"(": ")", "[": "]", "{": "}"}[char]
            raise _error(text, f"{char!r} is never closed: {closer!r} expected", line, column)


def _error(text: str, message: str, line: int, column: int, hint: str | None = None) -> DppError:
    return DppError(message, line, column, None, source_line_of(text, line), hint)


def _syntax_error(text: str, error: ParseError) -> DppError:
    line, column = max(error.line, 1), max(error.column, 1)
    if isinstance(error, UnexpectedCharacters):
        offset = error.pos_in_stream
        char = text[offset] if offset < len(text) else "?"
        return _error(text, f"unexpected character {char!r}", line, column,
                      _char_hint(text, offset, char))
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        line, column = _end_position(text)
        return _error(text, "the shape list ends too early" + _expected(error), line, column)
    assert isinstance(error, UnexpectedToken)
    token = error.token
    if token.type == "WORD":
        # Only the compass is a word; elsewhere the word's first letter is the culprit.
        char = token.value[0]
        return _error(text, f"unexpected character {char!r}", line, column,
                      _char_hint(text, token.start_pos or 0, char))
    shown = token.value.strip() or token.value
    return _error(text, f"unexpected {shown!r}" + _expected(error), line, column,
                  _token_hint(token))


def _end_position(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line, column = line_col(text, len(stripped))
    return line, column


def _expected(error: ParseError) -> str:
    expected = sorted({TERMINAL_NAMES.get(t, t) for t in getattr(error, "expected", ()) or ()
                       if not t.startswith("__") and t in TERMINAL_NAMES})
    if not expected or len(expected) > 6:
        return ""
    return "; expected " + (" or ".join(expected))


def _char_hint(text: str, offset: int, char: str) -> str | None:
    if char == "X":
        return "'x' (any length) is written in lower case"
    if char in "shdcSHDCMm":
        return _label_hint(text[:offset])
    if char in "ABEFGILNOPRUVWYZabefgijklnopqrtuvwyz":
        return "lengths are 0-9 or T J Q K, labels s h d c M m, and x means any length"
    if char == "#":
        return "a '#' comment cannot stand inside shape{...}"
    return None


def _label_hint(before: str) -> str:
    """Why a suit letter is out of place, judged by the text before it."""
    if before.rstrip()[-1:] in tuple("shdcSHDCMm"):
        return "a slot takes at most one suit label"
    if ":" in before and re.search(r"\s[+-]\s+$", before):
        return ("inside a condition, a sign with spaces on both sides starts the next term: "
                "write h+s, or (h + s)")
    if before.count("(") > before.count(")"):
        return ("a suit label cannot stand inside the parentheses, which take the suits "
                "left over; put labelled lengths before them, as in 5M(xxx)")
    return "a suit label follows a length, as in 5M or 4+s"


def _token_hint(token: Token) -> str | None:
    if token.type in ("SPACED_PLUS", "SPACED_MINUS"):
        return "inside a condition, a sign with spaces on both sides starts the next term"
    if token.type == "LABEL":
        return "a slot takes at most one suit label"
    return None
