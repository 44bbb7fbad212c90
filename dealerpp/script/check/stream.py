"""Tokens on their way from the lexer to the parser: a stream that can be
peeked into, and the placeholders the checker puts in place of mistakes."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from dealerpp.lalr import Token


class Placeholder(Token):
    """A token the checker put in place of a mistake it has reported, so
    that the parse goes on; it has no value, and no check looks at it."""

    __slots__ = ()

    @classmethod
    def instead_of(cls, kind: str, value: str, first: Token, last: Token | None = None) -> Placeholder:
        """A placeholder of ``kind`` spanning ``first`` to ``last``."""
        last = last or first
        return cls(kind, value, first.start_pos, first.line, first.column, last.end_line,
                   last.end_column, last.end_pos)


class Problem(Token):
    """A mistake the lexical pass found, on its way to the syntax pass,
    which reports it in its place among the other errors (one per line).
    Its position is where to report it; ``replacement``, if any, goes on to
    the parser in its place."""

    __slots__ = ("hint", "message", "replacement", "severity")

    message: str
    hint: str | None
    severity: str
    replacement: Token | None

    @classmethod
    def at(cls, line: int, column: int, message: str, hint: str | None = None,
           replacement: Token | None = None, severity: str = "error") -> Problem:
        problem = cls("PROBLEM", "", None, line, column, line, column, None)
        problem.message, problem.hint = message, hint
        problem.severity, problem.replacement = severity, replacement
        return problem


class TokenStream:
    """Tokens read one at a time, with a look at the ones ahead."""

    def __init__(self, tokens: Iterator[Token]) -> None:
        self._tokens = tokens
        self._ahead: deque[Token] = deque()

    def peek(self, distance: int = 0) -> Token | None:
        """The token ``distance`` places ahead of the next one (None: the end)."""
        while len(self._ahead) <= distance:
            token = next(self._tokens, None)
            if token is None:
                return None
            self._ahead.append(token)
        return self._ahead[distance]

    def next(self) -> Token | None:
        if self._ahead:
            return self._ahead.popleft()
        return next(self._tokens, None)


def adjacent(first: Token | None, second: Token | None) -> bool:
    """Whether ``second`` follows ``first`` with nothing between them."""
    return first is not None and second is not None and first.end_pos == second.start_pos


def same_line(first: Token | None, second: Token | None) -> bool:
    return first is not None and second is not None and first.end_line == second.line
