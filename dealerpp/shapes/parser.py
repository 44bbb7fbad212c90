"""Text → AST for the shape{} language (grammar: ``grammar/shape.lark``).

``parse_body("5+M(xxx)")`` and ``parse_call("shape{north, 5+M(xxx)}")``
return typed nodes from ``dealerpp.shapes.ast``; any problem is a
``DppError`` with the line, column and source line of the culprit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from dealerpp import lalr
from dealerpp.diagnostics import UNCLOSED_SHAPE, DppError, LineIndex, quote
from dealerpp.lalr import ParseError, Token, UnexpectedCharacters, UnexpectedToken
from dealerpp.lalr.runtime import Callback
from dealerpp.shapes import ast
from dealerpp.shapes.condition import dealer_literal
from dealerpp.shapes.quick_parse import parse_quick

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

LENGTH_VALUE = {**{str(n): n for n in range(10)}, "T": 10, "J": 11, "Q": 12, "K": 13}
MAX = 13
# A pattern has 4 slots and a range lists at most 14 lengths; past these
# counts the input is wrong anyway, and reading on would only cost time and
# memory (a line of a million digits), so the parse stops there.
MAX_PATTERN_SLOTS = 64
MAX_RANGE_PARTS = 64

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


# Tokens that end a pattern, and those that are one slot of it.
_PATTERN_ENDS = frozenset({"PLUS", "MINUS", "SPACED_PLUS", "SPACED_MINUS", "COMMA", "RBRACE"})
_SLOT_TOKENS = frozenset({"LEN", "LEN_MOD", "X", "LSQB"})


def limit_pattern_size(stream: Iterator[Token]) -> Iterator[Token]:
    """Pass tokens through, stopping at a pattern of more than
    ``MAX_PATTERN_SLOTS`` slots or a range of more than ``MAX_RANGE_PARTS``
    lengths (both errors), as soon as the count is passed.

    Runs after ``ConditionSigns``, so a spaced sign still here ends a term.
    """
    in_condition = in_range = False
    slots = parts = 0
    first: Token | None = None
    for token in stream:
        kind = token.type
        if in_condition:
            in_condition = kind not in ("SPACED_PLUS", "SPACED_MINUS")
        elif kind == "COLON":
            in_condition, slots, first = True, 0, None
        elif kind in _PATTERN_ENDS:
            slots, first = 0, None
        elif in_range:
            in_range = kind != "RSQB"
            parts += kind == "LEN"
            if parts > MAX_RANGE_PARTS:
                raise _Fail(f"this range lists more than {MAX_RANGE_PARTS} lengths; there are "
                            "only 14 (0-9, T, J, Q, K)", _pos(token))
        elif kind in _SLOT_TOKENS:
            first = first or token
            slots += 1
            in_range, parts = kind == "LSQB", 0
            if slots > MAX_PATTERN_SLOTS:
                raise _Fail(f"a pattern needs exactly 4 suit lengths, this one has more than "
                            f"{MAX_PATTERN_SLOTS}", _pos(first))
        else:
            first = first or token  # 'any' or '(' may open a pattern
        yield token


@cache
def _callbacks() -> dict[str, Callback]:
    """Rule name → the method of ``_ToAst`` that builds its node."""
    builder = _ToAst()
    return {name: getattr(builder, name) for name in dir(builder) if not name.startswith("_")}


# Positions already made, by (line, column): a parse makes one per node, most
# of them at the same few places of one line, and a Pos is read-only.
_POSITIONS: dict[tuple[int, int], ast.Pos] = {}
_POSITIONS_KEPT = 4096


def _pos(meta_or_token: Any) -> ast.Pos:
    first = getattr(meta_or_token, "first", meta_or_token)  # a Meta's first token
    key = (first.line, first.column)
    found = _POSITIONS.get(key)
    if found is None:
        if len(_POSITIONS) >= _POSITIONS_KEPT:
            _POSITIONS.clear()
        found = _POSITIONS[key] = ast.Pos(*key)
    return found


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
        shapes: ast.ShapeList = children[0]
        return shapes

    def shape_list(self, meta: Any, children: list[Any]) -> ast.ShapeList:
        sign = "+"
        if len(children) == 2:
            sign, chain = children[0], children[1]
        else:
            chain = children[0]
        terms: list[ast.SignedTerm] = []
        while isinstance(chain, _Link):  # walked, not recursed: a list may be long
            terms.append(ast.SignedTerm(sign, chain.head))  # type: ignore[arg-type]
            sign, chain = chain.sign, chain.rest
        terms.append(ast.SignedTerm(sign, chain))  # type: ignore[arg-type]
        return ast.ShapeList(tuple(terms), _pos(meta))

    def chain(self, meta: Any, children: list[Any]) -> _Link:
        # The grammar's chain is right-recursive: link each term to the rest
        # as it is reduced (copying the rest each time would be quadratic).
        head, sign, rest = children
        return _Link(head, sign, rest)

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
        return ast.Pattern((), items, _pos(meta))

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
        expr: ast.Expr = children[0]
        return expr

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
        value = dealer_literal(token.value)
        written = None if token.value.lstrip("0") == str(value).lstrip("0") else token.value
        return ast.Number(value, _pos(token), written)

    def variable(self, meta: Any, children: list[Token]) -> ast.Expr:
        token = children[0]
        return ast.Variable(_label(token.value) or "", _pos(token))


class _Link:
    """A term of a shape list, the sign after it, and the rest of the list."""

    __slots__ = ("head", "rest", "sign")

    def __init__(self, head: ast.Term, sign: str, rest: Any) -> None:
        self.head, self.sign = head, sign
        self.rest = rest  # another _Link, or the last term


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
    shapes: ast.ShapeList = _parse(text, "body")
    return shapes


def parse_call(text: str) -> ast.ShapeCall:
    """Parse a whole ``shape{COMPASS, LIST}``."""
    call: ast.ShapeCall = _parse(text, "call")
    return call


def _parse(text: str, start: str) -> Any:
    quick = parse_quick(text, start)  # the everyday text, read by hand (~10x faster)
    if quick is not None:
        return quick
    return parse_lalr(text, start)


def parse_lalr(text: str, start: str) -> Any:
    """The LALR parser's reading of ``text``, or its error (every text the
    quick reader leaves, and the tests' reference for that reader)."""
    _check_brackets(text, start)

    def postlex(stream: Iterator[Token]) -> Iterator[Token]:
        return limit_pattern_size(ConditionSigns().process(stream))

    try:
        return lalr.load("shape").parse(text, start, _callbacks(), postlex)
    except _Fail as error:
        raise _error(text, error.message, error.pos.line, error.pos.column, error.hint) from None
    except ParseError as error:
        raise _syntax_error(text, error) from None


_CLOSERS = {")": "(", "]": "[", "}": "{"}
_BRACKET = re.compile(r"[()\[\]{}]")


def _check_brackets(text: str, start: str) -> None:
    """Unbalanced brackets get a message pointing at the culprit before
    the parser would stumble somewhere later."""
    stack: list[tuple[str, int]] = []
    for found in _BRACKET.finditer(text):
        char, offset = found.group(), found.start()
        if char in "([{":
            stack.append((char, offset))
        elif not stack or stack[-1][0] != _CLOSERS[char]:
            if char == "}" and start == "call" and not stack:
                continue
            raise _error_at(text, f"unmatched {quote(char)}", offset)
        else:
            stack.pop()
    if stack:
        char, offset = stack[-1]
        if char == "{" and start == "call" and len(stack) == 1:
            raise _error_at(text, "unclosed 'shape{': no '}' ends it",
                            offset).replace(kind=UNCLOSED_SHAPE)
        if char != "{" or start == "body":
            closer = {"(": ")", "[": "]", "{": "}"}[char]
            raise _error_at(text, f"{quote(char)} is never closed: {quote(closer)} expected", offset)


def _error_at(text: str, message: str, offset: int) -> DppError:
    line, column = LineIndex(text).line_col(offset)
    return _error(text, message, line, column)


def _error(text: str, message: str, line: int, column: int, hint: str | None = None) -> DppError:
    return DppError(message, line, column, None, LineIndex(text).excerpt(line, column), hint)


def _syntax_error(text: str, error: ParseError) -> DppError:
    line, column = max(error.line, 1), max(error.column, 1)
    if isinstance(error, UnexpectedCharacters):
        offset = error.pos_in_stream
        char = text[offset] if offset < len(text) else "?"
        return _error(text, f"unexpected character {quote(char)}", line, column,
                      _char_hint(text, offset, char))
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        line, column = _end_position(text)
        return _error(text, "the shape list ends too early" + _expected(error), line, column)
    assert isinstance(error, UnexpectedToken)
    token = error.token
    if token.type == "WORD":
        # Only the compass is a word; elsewhere the word's first letter is the culprit.
        char = token.value[0]
        return _error(text, f"unexpected character {quote(char)}", line, column,
                      _char_hint(text, token.start_pos or 0, char))
    shown = token.value.strip() or token.value
    return _error(text, f"unexpected {quote(shown)}" + _expected(error), line, column,
                  _token_hint(token) or _round_brackets_hint(text, token))


def _end_position(text: str) -> tuple[int, int]:
    end = len(text)
    while end and text[end - 1].isspace():  # rstrip() would copy the text
        end -= 1
    return LineIndex(text).line_col(end)


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
    if char == "=" and ":" in text[:offset]:
        return "a condition compares with == != < <= > >= (as in s==h)"
    if char == "=" and text[offset - 1:offset].isdigit():
        return "a shape is its four lengths, spades first, without '=': 4432 (10-13 as T J Q K)"
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


def _round_brackets_hint(text: str, token: Token) -> str | None:
    """``shape(north, 5M(xxx))``: dealer's own round brackets around the
    shape language, which goes in braces."""
    start = token.start_pos or 0
    if token.value != "(" or text[:start].strip() != "shape":
        return None
    inside = text[start + 1:].rstrip()
    shown = inside.endswith(")") and inside.isprintable() and len(inside) <= 60
    written = f"shape{{{inside[:-1]}}}" if shown else "shape{COMPASS, ...}"
    return f"the shape language is written in braces: {written}"


def _token_hint(token: Token) -> str | None:
    if token.type in ("SPACED_PLUS", "SPACED_MINUS"):
        return "inside a condition, a sign with spaces on both sides starts the next term"
    if token.type == "LABEL":
        return "a slot takes at most one suit label"
    return None
