"""What a script says, statement by statement: for go to definition, find
references, document symbols, hover and completion.

It reads the one lexer's tokens (``script.lexer.tokens``), not a parse, so
it has something to say about half-typed text too: a statement starts at a
statement keyword or at ``NAME =``, and runs to the next one.
"""

from __future__ import annotations

from bisect import bisect_right

from dealerpp.lalr import Token
from dealerpp.script.check.facts import STATEMENT_KEYWORDS
from dealerpp.script.lexer import tokens

FENCE = "`" * 3
# Tokens that are not code.
COMMENTS = frozenset(("LINE_COMMENT", "BLOCK_COMMENT", "HASH_COMMENT"))
# After one of these, a word cannot start an assignment (it is an operand).
_OPERATORS = frozenset((
    "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "AND", "OR", "NOT", "LT", "LE", "GT", "GE",
    "EQ", "NE", "LPAR", "COMMA", "EQUAL", "QMARK", "COLON",
))


class Statement:
    """One statement: its kind (``assignment``, or the keyword in lower
    case), its first and last token, and for an assignment the name."""

    __slots__ = ("first", "kind", "last", "name")

    def __init__(self, kind: str, first: Token, name: Token | None = None) -> None:
        self.kind, self.first, self.last, self.name = kind, first, first, name

    @property
    def start(self) -> int:
        return self.first.start_pos or 0

    @property
    def end(self) -> int:
        return self.last.end_pos or 0


class Outline:
    """The statements of a text, its definitions and its uses of names."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[Token] = []  # every token, comments too, in order
        self.statements: list[Statement] = []
        self.definitions: dict[str, list[Statement]] = {}
        self.uses: dict[str, list[Token]] = {}
        self._read()
        self._starts = [token.start_pos or 0 for token in self.tokens]
        self._statement_starts: list[int] | None = None

    def _read(self) -> None:
        code: list[Token] = []
        for token in tokens(self.text):
            self.tokens.append(token)
            if token.type not in COMMENTS:
                code.append(token)
        current: Statement | None = None
        previous: Token | None = None
        for index, token in enumerate(code):
            following = code[index + 1] if index + 1 < len(code) else None
            started = self._starts_statement(token, previous, following)
            if started is not None:
                current = started
                self.statements.append(current)
            elif current is not None:
                current.last = token
            if token.type == "IDENT" and (started is None or started.name is not token):
                self.uses.setdefault(str(token), []).append(token)
            previous = token

    def _starts_statement(self, token: Token, previous: Token | None,
                          following: Token | None) -> Statement | None:
        kind = token.type
        if kind in STATEMENT_KEYWORDS or (kind == "VULNERABLE" and str(token) == "vulnerable"):
            return Statement(kind.lower(), token)
        if (kind == "IDENT" and following is not None and following.type == "EQUAL"
                and (previous is None or previous.type not in _OPERATORS)):
            statement = Statement("assignment", token, token)
            self.definitions.setdefault(str(token), []).append(statement)
            return statement
        return None

    def token_at(self, offset: int) -> Token | None:
        """The token whose text holds ``offset`` or ends right at it."""
        index = bisect_right(self._starts, offset) - 1
        for candidate in (index, index - 1):
            if 0 <= candidate < len(self.tokens):
                token = self.tokens[candidate]
                if (token.start_pos or 0) <= offset <= (token.end_pos or 0):
                    return token
        return None

    def tokens_from(self, offset: int) -> list[Token]:
        """The tokens from the one at or after ``offset`` to the end."""
        index = max(bisect_right(self._starts, offset) - 1, 0)
        while index < len(self.tokens) and (self.tokens[index].end_pos or 0) <= offset:
            index += 1
        return self.tokens[index:]

    def code_tokens(self, start: int, end: int) -> list[Token]:
        """The code tokens (no comments) that start in ``[start, end)``."""
        index = bisect_right(self._starts, start - 1)
        found = []
        while index < len(self.tokens) and (self.tokens[index].start_pos or 0) < end:
            if self.tokens[index].type not in COMMENTS:
                found.append(self.tokens[index])
            index += 1
        return found

    def token_before(self, offset: int) -> Token | None:
        """The last code token that ends at or before ``offset``."""
        index = bisect_right(self._starts, offset) - 1
        while index >= 0:
            token = self.tokens[index]
            if (token.end_pos or 0) <= offset and token.type not in COMMENTS:
                return token
            index -= 1
        return None

    def statement_at(self, offset: int) -> Statement | None:
        """The statement whose text holds ``offset`` (or that it follows)."""
        if self._statement_starts is None:
            self._statement_starts = [statement.start for statement in self.statements]
        index = bisect_right(self._statement_starts, offset) - 1
        return self.statements[index] if index >= 0 else None

    def definition_of(self, name: str) -> Statement | None:
        """The statement that defines ``name`` (dealer keeps the first)."""
        found = self.definitions.get(name)
        return found[0] if found else None

    def statement_text(self, statement: Statement, limit: int = 400) -> str:
        """The source text of ``statement``, cut at ``limit`` characters."""
        # (no Markdown fence inside the fenced block hover shows it in)
        text = self.text[statement.start:statement.end].replace(FENCE, "'" * 3)
        return text if len(text) <= limit else text[:limit - 3] + "..."

    def names(self) -> list[str]:
        """The names the script defines, in the order of their definitions."""
        return list(self.definitions)
