"""Syntax checks: parsing with recovery, stack-depth limits, syntax errors.

``_Syntax.parse`` runs the grammar's LALR tables (``dealerpp.lalr``) over
the tokens statement by statement: after an error it keeps the statements
already complete, resynchronises at the next token that surely starts a
statement (``_resync``) and goes on, so one mistake does not hide the
others. ``_StackDepth`` reports scripts nested too deeply, or action lists
too long, for dealer's bison stack. ``_explain`` and ``_wanted`` turn a parse
error into a message a script author can act on. It is separate because it
is the only pass that knows the parser's state; the semantic pass gets only
the statement trees, plus the names it noted (``half_defined``,
``called_names``).
"""

from __future__ import annotations

from difflib import get_close_matches
from typing import Any

from dealerpp.diagnostics import Severity
from dealerpp.lalr import ParseError, ParserState, Token, Tree
from dealerpp.script.check.facts import (
    _FUNCTIONS,
    _RESERVED_WORDS,
    _WORD_TOKENS,
    STATEMENT_KEYWORDS,
    _grammar,
)
from dealerpp.script.check.report import _Report

# How an expected terminal reads in a message.
_DISPLAY = {
    "LPAR": "`(`", "RPAR": "`)`", "COMMA": "`,`", "EQUAL": "`=`", "QMARK": "`?`",
    "COLON": "`:`", "EQ": "`==`", "NE": "`!=`", "LT": "`<`", "LE": "`<=`", "GT": "`>`",
    "GE": "`>=`", "PLUS": "`+`", "MINUS": "`-`", "STAR": "`*`", "SLASH": "`/`",
    "PERCENT": "`%`", "AND": "`&&`", "OR": "`||`", "NOT": "`!`",
    "NUMBER": "a number", "IDENT": "a variable", "STRING": "a string",
    "COMPASS": "a seat (north, east, south, west)",
    "SUIT": "a suit (clubs, diamonds, hearts, spades)",
    "HOLDING": "a holding such as SAKQ", "CARD": "a card such as AS",
    "CONTRACT": "a contract such as x3N", "VULN": "nv or vul",
    "VULNERABLE": "none, NS, EW or all", "NOTRUMPS": "notrumps",
    "DISTR": "a shape such as 5xxx", "DISTR_OR_NUMBER": "a shape such as 4333",
    "ANY": "`any`", "$END": "the end of the file",
}


class _Syntax(_Report):
    """The syntax pass (a part of ``_Checker``)."""

    def parse(self, tokens: list[Token]) -> list[Tree]:
        """Parse statement by statement, resynchronising after each error."""
        statements: list[Tree] = []
        start = 0
        while start <= len(tokens):
            state = _new_parser_state()
            position = start
            depth = _StackDepth(self)
            try:
                for position in range(start, len(tokens)):
                    state.feed_token(tokens[position])
                    depth.after(tokens[position], len(state.state_stack))
                tree = state.feed_token(_end_token(tokens), True)
                statements.extend(tree.children)
                depth.finish()
                break
            except ParseError as error:
                depth.finish()
                statements.extend(_completed_statements(state))
                at_end = _is_end_error(error)
                self.syntax_error(tokens, len(tokens) if at_end else position, error)
                self.remember_names(tokens, start, position)
                if at_end:
                    break
                # The token before the error may begin the next statement (`b` in
                # `a = (1 +` / `b = 2`).
                resume = _resync(tokens, max(position - 1, start + 1))
                if resume is None:
                    break
                start = resume
        return statements

    def remember_names(self, tokens: list[Token], start: int, stop: int) -> None:
        """Names a broken stretch of statements meant to define."""
        for index in range(start, min(stop + 1, len(tokens) - 1)):
            if tokens[index].type == "IDENT" and tokens[index + 1].type == "EQUAL":
                self.half_defined.add(str(tokens[index]))

    def syntax_error(self, tokens: list[Token], position: int, error: ParseError) -> None:
        expected = set(getattr(error, "expected", ()) or ())
        expected.discard("NEVER")
        if position >= len(tokens):
            self.end_error(tokens, expected)
            return
        token = tokens[position]
        previous = tokens[position - 1] if position > 0 else None
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        if (token.type == "EQUAL" and previous is not None
                and (previous.type in _RESERVED_WORDS or previous.type in _WORD_TOKENS)
                and (position < 2 or tokens[position - 2].line < previous.line)):
            # `all = 1`: the name, not the `=`, is the mistake.
            token, previous, following = previous, None, token
        if self.unknown_function(tokens, position) or self.run_on(tokens, position, expected):
            return
        message, hint = _explain(token, previous, following, expected)
        self.at("error", token, message, hint)

    def run_on(self, tokens: list[Token], position: int, expected: set[str]) -> bool:
        """A statement that swallowed the start of the next one: predeal reads
        `spades(north)` as another `SUIT(SEAT) == N`, pointcount and altcount
        read a leading number as one more value."""
        token = tokens[position]
        if expected == {"EQ"} and position >= 4 and tokens[position - 4].type == "SUIT":
            suit = tokens[position - 4]
            self.at("error", token, f"after a predeal, `{suit}(...)` is read as another predeal "
                    f"argument, `{suit}(SEAT) == N`", "begin the condition with `condition`")
            return True
        index = position - 1
        while index >= 0 and tokens[index].type in ("NUMBER", "DISTR_OR_NUMBER", "MINUS"):
            index -= 1
        if index < 0 or tokens[index].type not in ("POINTCOUNT", "ALTCOUNT"):
            return False
        keyword = tokens[index]
        later = [i for i in range(index + 1, position) if tokens[i].line > keyword.line]
        if not later:
            return False  # all on one line: an ordinary syntax error
        first = tokens[later[0]]
        value = str(first)
        if first.type == "MINUS" and later[0] + 1 < position:
            value += str(tokens[later[0] + 1])
        self.at("error", token, f"`{value}` on line {first.line} was read as one more "
                f"{keyword} value, so what follows it starts no statement",
                "begin the condition with `condition`")
        return True

    def unknown_function(self, tokens: list[Token], position: int) -> bool:
        """`hpc(north)`: a name called like a function. dealer reads the name
        as a variable and the parenthesis as a new statement, and fails
        inside it; say what was meant instead."""
        if position < 2:
            return False
        name, opening = tokens[position - 2], tokens[position - 1]
        if name.type != "IDENT" or opening.type != "LPAR":
            return False
        self.called_names.add(name.start_pos)
        close = get_close_matches(str(name), _FUNCTIONS, n=1)
        self.at("error", name, f"`{name}` is not a function dealer knows",
                f"did you mean {close[0]}?" if close else None)
        return True

    def end_error(self, tokens: list[Token], expected: set[str]) -> None:
        if not tokens:
            self.report("error", "unexpected end of file", 1, 1)
            return
        last = tokens[-1]
        line = (last.end_line or last.line)
        column = (last.end_column or last.column)
        wanted = _wanted(expected)
        self.report("error", "the file ends in the middle of a statement"
                    + (f" (expected {wanted})" if wanted else ""), line, column)


class _StackDepth:
    """dealer's bison parser fails with `memory exhausted` when its stack
    passes 10000 entries: deep nesting, or a very long action list (dealer's
    action list is right-recursive, so each item stays on the stack).

    The LALR stack (Lark's tables, run by dealerpp.lalr) tracks bison's to
    within a level or two; the limits below were measured against dealer
    (nested parentheses, `!`, `?:`, in assignments, conditions and actions,
    and action lists of 5000 items).
    """

    ERROR_DEPTH = 9998     # deeper than this: dealer always fails
    WARNING_DEPTH = 9996   # from here on: dealer may fail, depending on context
    ACTION_LIMIT = 10000   # LALR depth + 2 per top-level comma in an action list

    def __init__(self, checker: _Report) -> None:
        self.checker = checker
        self.commas = 0
        self.parentheses = 0
        self.in_action = False
        self.finding: tuple[Severity, Token, str] | None = None

    def after(self, token: Token, depth: int) -> None:
        kind = token.type
        if kind in STATEMENT_KEYWORDS:
            self.in_action, self.commas, self.parentheses = kind == "ACTION", 0, 0
        elif self.in_action:
            if kind == "LPAR":
                self.parentheses += 1
            elif kind == "RPAR":
                self.parentheses -= 1
            elif kind == "COMMA" and self.parentheses == 0:
                self.commas += 1
        if depth < self.WARNING_DEPTH and not self.in_action:
            return
        if self.in_action and depth + 2 * self.commas > self.ACTION_LIMIT:
            self.note("error", token, "this action list is too long for dealer's parser "
                      "(its stack of 10000 entries overflows; dealer: memory exhausted)")
        elif depth > self.ERROR_DEPTH:
            self.note("error", token, "nested too deeply for dealer's parser (its stack "
                      "of 10000 entries overflows; dealer: memory exhausted)")
        elif depth >= self.WARNING_DEPTH:
            self.note("warning", token, "nested almost too deeply for dealer's parser "
                      "(its stack of 10000 entries may overflow)")

    def note(self, severity: Severity, token: Token, message: str) -> None:
        # Keep the first place of the worst finding.
        if self.finding is None or (severity == "error" and self.finding[0] != "error"):
            self.finding = (severity, token, message)

    def finish(self) -> None:
        if self.finding is not None:
            self.checker.at(*self.finding)


def _is_end_error(error: Exception) -> bool:
    token = getattr(error, "token", None)
    return token is not None and getattr(token, "type", None) == "$END"


def _resync(tokens: list[Token], begin: int) -> int | None:
    """The next token from ``begin`` on that surely starts a statement: a
    statement keyword, or `WORD =` at the start of a line (an assignment,
    even to a name dealer will reject)."""
    for index in range(begin, len(tokens)):
        token = tokens[index]
        if token.type in STATEMENT_KEYWORDS:
            return index
        if (index + 1 < len(tokens) and tokens[index + 1].type == "EQUAL"
                and (index == 0 or tokens[index - 1].line < token.line)):
            return index
    return None


def _new_parser_state() -> ParserState:
    """A fresh parser; the checker reads positions from tokens only, so the
    trees skip them (filling them in costs a third of the parse)."""
    return _grammar().parser_state("start", positions=False)


def _end_token(tokens: list[Token]) -> Token:
    if tokens:
        return Token.new_borrow_pos("$END", "", tokens[-1])
    return Token("$END", "", 0, 1, 1)


def _completed_statements(state: ParserState) -> list[Tree]:
    """Statements already reduced on the parser's stack when an error struck."""
    found: list[Tree] = []

    def collect(value: Any) -> None:
        if isinstance(value, Tree):
            if value.data in _STATEMENT_RULES:
                found.append(value)
            elif str(value.data).startswith("_") or value.data == "start":
                for child in value.children:
                    collect(child)

    for value in state.value_stack:
        collect(value)
    return found


_STATEMENT_RULES = frozenset((
    "generate", "produce", "dealer", "vulnerable", "predeal", "pointcount", "altcount",
    "condition", "assignment", "bare_condition", "action",
))


def _wanted(expected: set[str]) -> str:
    names = sorted({_DISPLAY.get(name, name.lower()) for name in expected})
    if not names:
        return ""
    # Where an expression may start, say so rather than list 30 tokens.
    if len(names) > 6 or {"IDENT", "NUMBER"} <= expected:
        if "IDENT" in expected:
            return "an expression"
        return "one of " + ", ".join(names[:6]) + ", ..."
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _explain(token: Token, previous: Token | None, following: Token | None,
             expected: set[str]) -> tuple[str, str | None]:
    """A message for an unexpected token, and a hint."""
    text = str(token)
    shown = text if len(text) <= 30 else text[:27] + "..."
    shown = shown.replace("\n", "\\n")
    if previous is not None and previous.type == "MINUS" and expected == {"NUMBER"}:
        if token.type == "DISTR_OR_NUMBER":
            return ("unary minus applies only to a plain number, and dealer reads a "
                    "four-digit number as a shape", "write `0 - N`")
        return ("unary minus applies only to a number literal in dealer",
                "write `0 - EXPR` to negate an expression")
    if following is not None and following.type == "EQUAL" and token.type != "IDENT":
        if token.type in _RESERVED_WORDS:
            return (f"`{text}` is a reserved word in dealer and cannot name a variable", None)
        if token.type in _WORD_TOKENS:
            return (f"`{text}` reads as {_WORD_TOKENS[token.type]}, not a name; "
                    "it cannot name a variable", None)
    if token.type == "STRING" and "IDENT" in expected:
        return ("a string is allowed only in printes, or as the label of average or "
                "frequency", None)
    if token.type == "EQUAL" and "EQ" in expected:
        return ("`=` is not a comparison in dealer", "use `==`")
    if token.type == "RPAR" and "RPAR" not in expected:
        return ("this `)` has no matching `(`", None)
    wanted = _wanted(expected)
    message = f"syntax error: unexpected `{shown}`" + (f", expected {wanted}" if wanted else "")
    return message, None
