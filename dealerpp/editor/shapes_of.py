"""The exact shapes a script's shape{} block, shape() call or variable
stands for, where the compiler can tell: for hover.

A variable has a set of shapes when its definition is made of shape{}
blocks and shape() calls of one seat, other such variables, ``!``, ``&&``,
``||`` and parentheses; then its probability is that of one hand's shape,
exact. Anything else (a number, hcp, two seats) has none.
"""

from __future__ import annotations

from dealerpp.diagnostics import DppError
from dealerpp.editor.outline import Outline, Statement
from dealerpp.lalr import Token
from dealerpp.script.lexer import RegionToken
from dealerpp.script.shape_blocks import blanked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dealerpp.shapes.compiler import Compiled
    from dealerpp.shapes.shapeset import ShapeSet

# How deep a chain of variables is followed.
_DEPTH = 50


class NotShapes(Exception):
    """The expression is not made of one seat's shapes alone."""


def block_compiled(token: RegionToken, text: str) -> Compiled:
    """The shape{} block ``token``, compiled (raises DppError)."""
    from dealerpp.shapes.compiler import compile_shape

    if not token.region.closed:
        raise DppError("this shape{} is not closed")
    return compile_shape(blanked(text, token.region))


def call_tokens(tokens: list[Token], index: int) -> tuple[int, int] | None:
    """For the ``shape`` token at ``index``: the indexes of the ``(`` and of
    its ``)``, or None when it is not a whole call."""
    if index + 1 >= len(tokens) or tokens[index + 1].type != "LPAR":
        return None
    depth = 0
    for end in range(index + 1, min(len(tokens), index + 5000)):
        kind = tokens[end].type
        depth += kind == "LPAR"
        depth -= kind == "RPAR"
        if depth == 0:
            return index + 1, end
    return None


def call_compiled(tokens: list[Token], index: int, text: str) -> tuple[str, ShapeSet] | None:
    """The seat and shapes of the dealer call ``shape(SEAT, LIST)`` at ``index``."""
    from dealerpp.shapes.dealer_list import read_dealer_list

    found = call_tokens(tokens, index)
    if found is None:
        return None
    open_index, close_index = found
    if (close_index - open_index < 4 or tokens[open_index + 1].type != "COMPASS"
            or tokens[open_index + 2].type != "COMMA"):
        return None
    listing = text[tokens[open_index + 2].end_pos or 0:tokens[close_index].start_pos or 0]
    try:
        return str(tokens[open_index + 1]), read_dealer_list(listing)
    except ValueError:
        return None


class VariableShapes:
    """The shapes of the variables of one outline, worked out on demand."""

    def __init__(self, outline: Outline) -> None:
        self.outline = outline
        self.known: dict[str, tuple[str, ShapeSet] | None] = {}

    def of(self, name: str, depth: int = 0) -> tuple[str, ShapeSet] | None:
        if name in self.known:
            return self.known[name]
        self.known[name] = None  # a definition that uses itself has none
        statement = self.outline.definition_of(name)
        if statement is not None and depth < _DEPTH:
            self.known[name] = self.of_statement(statement, depth)
        return self.known[name]

    def of_statement(self, statement: Statement, depth: int) -> tuple[str, ShapeSet] | None:
        tokens = self.outline.code_tokens(statement.start, statement.end)
        if len(tokens) < 3 or tokens[1].type != "EQUAL":
            return None
        reader = _Reader(self, tokens[2:], depth)
        try:
            found = reader.either()
            if reader.position != len(reader.tokens):
                return None
        except NotShapes:
            return None
        return found


class _Reader:
    """A descent over ``||``, ``&&``, ``!``, parentheses and shape terms."""

    def __init__(self, shapes: VariableShapes, tokens: list[Token], depth: int) -> None:
        self.shapes, self.tokens, self.depth, self.position = shapes, tokens, depth, 0

    def peek(self) -> str | None:
        return self.tokens[self.position].type if self.position < len(self.tokens) else None

    def either(self) -> tuple[str, ShapeSet]:
        seat, found = self.both()
        while self.peek() == "OR":
            self.position += 1
            other_seat, other = self.both()
            if other_seat != seat:
                raise NotShapes
            found = found | other
        return seat, found

    def both(self) -> tuple[str, ShapeSet]:
        seat, found = self.term()
        while self.peek() == "AND":
            self.position += 1
            other_seat, other = self.term()
            if other_seat != seat:
                raise NotShapes
            found = found & other
        return seat, found

    def term(self) -> tuple[str, ShapeSet]:
        kind = self.peek()
        if kind is None:
            raise NotShapes
        token = self.tokens[self.position]
        if kind == "NOT":
            self.position += 1
            seat, found = self.term()
            return seat, ~found
        if kind == "LPAR":
            self.position += 1
            found_pair = self.either()
            if self.peek() != "RPAR":
                raise NotShapes
            self.position += 1
            return found_pair
        if kind == "SHAPE_BLOCK" and isinstance(token, RegionToken):
            self.position += 1
            try:
                compiled = block_compiled(token, self.shapes.outline.text)
            except (DppError, RecursionError):
                raise NotShapes from None
            if compiled.compass is None:
                raise NotShapes
            return compiled.compass, compiled.shapes
        if kind == "SHAPE":
            call = call_tokens(self.tokens, self.position)
            called = call_compiled(self.tokens, self.position, self.shapes.outline.text)
            if call is None or called is None:
                raise NotShapes
            self.position = call[1] + 1
            return called
        if kind == "IDENT":
            self.position += 1
            known = self.shapes.of(str(token), self.depth + 1)
            if known is None:
                raise NotShapes
            return known
        raise NotShapes
