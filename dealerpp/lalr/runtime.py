"""An LALR(1) parser that runs the tables ``tools/export_tables.py`` took from Lark.

It behaves as Lark's LALR parser does with ``propagate_positions=True`` and
``maybe_placeholders=False``, for the grammars dealerpp ships: the same
tokens (contextual or basic lexer, keywords matched by a regexp retyped),
the same tree shape (``?rule`` inlined when it has one child, ``_rule``
spliced into its parent, anonymous tokens dropped) and the same errors.
What it does not do is import Lark, which costs more at start-up than a
one-line script takes to compile.

Instead of building a tree and transforming it afterwards, a caller may
pass ``callbacks``: rule name → ``f(meta, children)``, called at each
reduction (as Lark does with an LALR ``transformer=``).
"""

from __future__ import annotations

from dealerpp.lalr.terminals import Terminals

TYPE_CHECKING = False  # typing and collections.abc stay unimported at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from types import ModuleType
    from typing import Any

    Callback = Callable[["Meta", list[Any]], Any]
    # origin, tree name, inline a single child?, length, kept children (or None: all)
    Rule = tuple[str, str, bool, int, "tuple[tuple[int, bool], ...] | None"]
    # terminals (name, regexp) in the order tried; keywords per regexp terminal; ignored
    LexerConfig = tuple[tuple[tuple[str, str], ...],
                        tuple[tuple[str, tuple[tuple[str, str], ...]], ...], tuple[str, ...]]
else:
    Callback = object  # a run-time stand-in: only annotations name it


class Token(str):
    """A token: its text (the str itself), its terminal's name and where it lies."""

    __slots__ = (
        "column",
        "end_column",
        "end_line",
        "end_pos",
        "line",
        "start_pos",
        "type",
        "value",
    )

    type: str
    value: str
    start_pos: int | None
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    end_pos: int | None

    def __new__(cls, type: str, value: str, start_pos: int | None = None,
                line: int | None = None, column: int | None = None,
                end_line: int | None = None, end_column: int | None = None,
                end_pos: int | None = None) -> Token:
        token = super().__new__(cls, value)
        token.type, token.value, token.start_pos = type, value, start_pos
        token.line, token.column = line, column
        token.end_line, token.end_column, token.end_pos = end_line, end_column, end_pos
        return token

    @classmethod
    def new_borrow_pos(cls, type: str, value: str, borrow: Token) -> Token:
        """A token of another kind at ``borrow``'s place."""
        return cls(type, value, borrow.start_pos, borrow.line, borrow.column,
                   borrow.end_line, borrow.end_column, borrow.end_pos)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __reduce__(self) -> Any:
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column,
                        self.end_line, self.end_column, self.end_pos))


class Meta:
    """Where a rule's text lies: from its first token to its last.

    It keeps the two tokens and reads positions from them when asked: a
    parse makes one per node, and most are never looked at.
    """

    __slots__ = ("first", "last")

    def __init__(self, first: Token | None = None, last: Token | None = None) -> None:
        self.first, self.last = first, last

    @property
    def empty(self) -> bool:
        return self.first is None

    line = property(lambda self: self.first.line)
    column = property(lambda self: self.first.column)
    start_pos = property(lambda self: self.first.start_pos)
    end_line = property(lambda self: self.last.end_line)
    end_column = property(lambda self: self.last.end_column)
    end_pos = property(lambda self: self.last.end_pos)


_NO_META = Meta()


class Tree:
    """A rule's node when no callback builds something else: ``data`` is the
    rule's name (or alias), ``children`` its kept tokens and nodes."""

    __slots__ = ("children", "data", "meta")

    def __init__(self, data: str, children: list[Any], meta: Meta = _NO_META) -> None:
        self.data, self.children, self.meta = data, children, meta

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Tree) and self.data == other.data
                and self.children == other.children)

    __hash__ = None  # type: ignore[assignment]


# --- errors -----------------------------------------------------------------


class ParseError(Exception):
    """Input the grammar does not accept."""

    line: int
    column: int


class UnexpectedCharacters(ParseError):
    """No terminal of the current state matches at ``pos_in_stream``."""

    def __init__(self, text: str, position: int, line: int, column: int,
                 allowed: set[str]) -> None:
        self.pos_in_stream, self.line, self.column = position, line, column
        self.char = text[position] if position < len(text) else ""
        self.allowed = allowed
        super().__init__(f"unexpected character {self.char!r} at line {line}, column {column}")


class UnexpectedToken(ParseError):
    """A token the parser's current state has no action for."""

    def __init__(self, token: Token, expected: set[str]) -> None:
        self.token, self.expected = token, expected
        self.line, self.column = token.line or 1, token.column or 1
        self.pos_in_stream = token.start_pos
        super().__init__(f"unexpected {token.type} {token.value!r} at line {self.line}, "
                         f"column {self.column}; expected one of {sorted(expected)}")


# --- lexing -----------------------------------------------------------------


class Lexer:
    """One lexer: terminals tried in order, the first that matches wins
    (``Terminals``: one regexp at a time for a short text, one compiled
    alternation once it has made ``UNION_AFTER`` tokens)."""

    UNION_AFTER = 32

    def __init__(self, config: LexerConfig, starts: Mapping[str, str | None] | None = None) -> None:
        terminals, keywords, ignore = config
        self._starts = starts
        self._terminals = Terminals(list(terminals), self.UNION_AFTER, starts)
        self._keyword_config = dict(keywords)
        self._keywords: dict[str, Terminals] = {}
        self.ignore = frozenset(ignore)
        self.allowed = {name for name, _ in terminals} - self.ignore or {"<END-OF-FILE>"}

    def _keyword(self, kind: str, value: str) -> str:
        """A regexp terminal whose whole match is a keyword becomes that keyword."""
        words = self._keyword_config.get(kind)
        if words is None:
            return kind
        keywords = self._keywords.get(kind)
        if keywords is None:
            keywords = self._keywords[kind] = Terminals(list(words), self.UNION_AFTER,
                                                        self._starts)
        return keywords.kind_of(value) or kind

    def next_token(self, text: str, where: list[int]) -> Token | None:
        """The next token from ``where`` = [position, line, column] on (which
        moves past it), skipping ignored ones; None at the end of the text."""
        position, line, column = where
        size = len(text)
        terminals, ignore, keywords = self._terminals, self.ignore, self._keyword_config
        while position < size:
            union = terminals.union  # the one alternation, once it is compiled
            if union is not None:
                matched = union.match(text, position)
                found = None if matched is None else (matched.lastgroup or "", matched.end())
            else:
                found = terminals.match(text, position, size)
            if found is None:
                where[:] = position, line, column
                raise UnexpectedCharacters(text, position, line, column, self.allowed)
            kind, end = found
            value = text[position:end]
            if "\n" in value:
                end_line = line + value.count("\n")
                end_column = end - text.rindex("\n", 0, end)
            else:
                end_line, end_column = line, column + end - position
            if kind not in ignore:
                if kind in keywords:
                    kind = self._keyword(kind, value)
                where[:] = end, end_line, end_column
                return Token(kind, value, position, line, column, end_line, end_column, end)
            position, line, column = end, end_line, end_column
        where[:] = position, line, column
        return None


# --- parsing ----------------------------------------------------------------


class Grammar:
    """Parse tables of one grammar, ready to run (see ``generated/NAME.py``)."""

    def __init__(self, tables: ModuleType) -> None:
        self.name: str = tables.GRAMMAR
        self.actions: dict[int, dict[str, int]] = _ActionRows(tables.ACTIONS)
        self.start_states: dict[str, int] = dict(tables.START_STATES)
        self.end_states: dict[str, int] = dict(tables.END_STATES)
        self.rules: tuple[Rule, ...] = tables.RULES
        self._terminals: tuple[tuple[Any, ...], ...] = tables.TERMINALS
        self._lexer_configs: tuple[LexerConfig, ...] = tables.LEXERS
        self._lexers: dict[int, Lexer] = {}
        self._by_state: tuple[int, ...] = tables.LEXER_OF_STATE
        self._root: int = tables.ROOT_LEXER
        # regexp -> the characters its match can start with (see Terminals)
        self.starts: dict[str, str | None] = dict(getattr(tables, "STARTS", ()))
        # (state below, state, token kind) -> where a run of `?a: b` reductions
        # ends (``ParserState._after_units``), found once a process
        self.unit_runs: dict[tuple[int, int, str], int] = {}
        self.ending_states = frozenset(self.end_states.values())

    @property
    def terminals(self) -> list[dict[str, Any]]:
        """Every terminal: name, regexp, priority, type ('str' or 're'),
        value (the pattern as written) and max_width (its longest match)."""
        keys = ("name", "regexp", "priority", "type", "value", "max_width")
        return [dict(zip(keys, row, strict=True)) for row in self._terminals]

    def lexer(self, state: int | None = None) -> Lexer:
        """The lexer for a parser state (the root lexer, all terminals, for None)."""
        number = self._root if state is None else self._by_state[state]
        found = self._lexers.get(number)
        if found is None:  # compiled on first use: most states share a few
            found = self._lexers[number] = Lexer(self._lexer_configs[number], self.starts)
        return found

    def parser_state(self, start: str, callbacks: Mapping[str, Callback] | None = None,
                     positions: bool = True) -> ParserState:
        return ParserState(self, start, callbacks or {}, positions)

    def parse(self, text: str, start: str, callbacks: Mapping[str, Callback] | None = None,
              postlex: Callable[[Iterator[Token]], Iterator[Token]] | None = None,
              positions: bool = True) -> Any:
        """Parse ``text`` from ``start``: a Tree, or what the callbacks built."""
        state = self.parser_state(start, callbacks, positions)
        stream = self._tokens(text, state)
        if postlex is not None:
            stream = postlex(stream)
        last = None
        for last in stream:
            state.feed_token(last)
        end = (Token("$END", "", 0, 1, 1) if last is None
               else Token.new_borrow_pos("$END", "", last))
        return state.feed_token(end, is_end=True)

    def _tokens(self, text: str, state: ParserState) -> Iterator[Token]:
        """Tokens lexed one at a time, each with the lexer of the parser's
        state at that moment (Lark's contextual lexer)."""
        where = [0, 1, 1]
        stack, lexer_of_state, lexers = state.state_stack, self._by_state, self._lexers
        while True:
            lexer = lexers.get(lexer_of_state[stack[-1]]) or self.lexer(stack[-1])
            try:
                token = lexer.next_token(text, where)
            except UnexpectedCharacters as error:
                raise self._known_elsewhere(text, where, error) from None
            if token is None:
                return
            yield token

    def _known_elsewhere(self, text: str, where: list[int],
                         error: UnexpectedCharacters) -> ParseError:
        """A terminal the state does not take may still be a terminal: then the
        error is that token, unexpected here, as Lark reports it."""
        try:
            token = self.lexer().next_token(text, list(where))
        except UnexpectedCharacters:
            return error
        return error if token is None else UnexpectedToken(token, error.allowed)


class _ActionRows(dict[int, dict[str, int]]):
    """Each state's actions (symbol -> action), a row made the first time its
    state is reached: a short parse visits a few of the hundreds."""

    def __init__(self, rows: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]) -> None:
        super().__init__()
        self._rows = rows

    def __missing__(self, state: int) -> dict[str, int]:
        symbols, actions = self._rows[state]
        row = self[state] = dict(zip(symbols, actions, strict=True))
        return row


class ParserState:
    """The LALR stacks: feed tokens one at a time; the end token returns the result."""

    __slots__ = (
        "callbacks",
        "end_state",
        "grammar",
        "positions",
        "span_stack",
        "state_stack",
        "value_stack",
    )

    def __init__(self, grammar: Grammar, start: str, callbacks: Mapping[str, Callback],
                 positions: bool) -> None:
        self.grammar, self.callbacks, self.positions = grammar, callbacks, positions
        self.state_stack = [grammar.start_states[start]]
        self.value_stack: list[Any] = []
        # Per value: its first and last tokens (None: it has no text).
        self.span_stack: list[tuple[Token, Token] | None] = []
        self.end_state = grammar.end_states[start]

    def feed_token(self, token: Token, is_end: bool = False) -> Any:
        states, stack, values = self.grammar.actions, self.state_stack, self.value_stack
        rules, kind = self.grammar.rules, token.type
        while True:
            action = states[stack[-1]].get(kind)
            if action is None:
                expected = {s for s in states[stack[-1]] if s.isupper()}
                raise UnexpectedToken(token, expected)
            if action >= 0:
                stack.append(action)
                values.append(token)
                self.span_stack.append((token, token))
                return None
            rule = rules[-1 - action]
            if rule[2] and rule[3] == 1 and rule[4] is None:
                # `?a: b`: b stands for a, as it is; only the state on top
                # changes, through a run of such rules (an expression's
                # precedence levels) decided by the state below and the kind
                key = (stack[-2], stack[-1], kind)
                top = self.grammar.unit_runs.get(key)
                stack[-1] = self._after_units(key) if top is None else top
            else:
                self._reduce(rule)
                stack.append(states[stack[-1]][rule[0]])
            if is_end and stack[-1] == self.end_state:
                return values[-1]

    def _after_units(self, key: tuple[int, int, str]) -> int:
        """The state on top after the run of `?a: b` reductions that ``kind``
        starts on ``top`` above ``below`` (``key``), kept for the grammar: it
        stops before any other action, or at an end state (where the caller
        checks for the end as after each reduction)."""
        below, top, kind = key
        grammar = self.grammar
        states, rules = grammar.actions, grammar.rules
        while True:
            rule = rules[-1 - states[top][kind]]
            top = states[below][rule[0]]
            if top in grammar.ending_states:
                break
            action = states[top].get(kind)
            if action is None or action >= 0:
                break
            rule = rules[-1 - action]
            if not (rule[2] and rule[3] == 1 and rule[4] is None):
                break
        grammar.unit_runs[key] = top
        return top

    def _reduce(self, rule: Rule) -> None:
        """Replace the rule's children on the stacks by its node."""
        _origin, name, expand1, size, kept = rule
        values, spans = self.value_stack, self.span_stack
        start = len(values) - size
        children = values[start:]
        meta = _meta_of(spans, start) if self.positions else _NO_META
        del values[start:], spans[start:], self.state_stack[start + 1:]
        if kept is not None:
            children = _kept(children, kept)
        if expand1 and len(children) == 1:
            value = children[0]
        else:
            callback = self.callbacks.get(name)
            value = Tree(name, children, meta) if callback is None else callback(meta, children)
        values.append(value)
        first, last = meta.first, meta.last
        spans.append(None if first is None or last is None else (first, last))


def _meta_of(spans: list[tuple[Token, Token] | None], start: int) -> Meta:
    """Where ``spans[start:]`` lie together: first to last non-empty one."""
    end = len(spans)
    while start < end and spans[start] is None:
        start += 1
    if start == end:
        return _NO_META
    end -= 1
    while spans[end] is None:
        end -= 1
    return Meta(spans[start][0], spans[end][1])  # type: ignore[index]


def _kept(children: list[Any], kept: tuple[tuple[int, bool], ...]) -> list[Any]:
    """The children a rule keeps, ``_rule`` children spliced in.

    A left-recursive ``_rule`` (``_items: _items item | item``) splices its
    own growing list at every reduction: the list of an inlined first child,
    which nothing else holds any more, is taken over rather than copied, or a
    long list would cost quadratic time (Lark does the same)."""
    result: list[Any] | None = None
    for index, inline in kept:
        if inline and result is None:
            result = children[index].children
        elif result is None:
            result = [children[index]]
        elif inline:
            result.extend(children[index].children)
        else:
            result.append(children[index])
    return [] if result is None else result
