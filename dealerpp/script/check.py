"""The dealer-script linter behind ``dealerpp check``.

``check_text`` lexes and parses a script with ``grammar/dealer.lark`` and
reports every problem it can find: syntax errors (recovering at the next
statement so one mistake does not hide the others), the errors dealer itself
raises while parsing (unknown or redefined variables, bad shapes, cards
predealt twice, ...), what makes dealer crash at run time, and mistakes dealer
silently accepts but then misbehaves on (warnings).

Severity follows real dealer: an *error* is something dealer rejects or
crashes on; a *warning* is something dealer accepts but does not do what the
script most likely means. Every fact used here was confirmed by running
Debian's dealer 20211121; see docs/check.md.

The preprocessor runs this on its output, so ``check_text`` never raises and
stays fast: the grammar's LALR tables run by ``dealerpp.lalr`` (no Lark
import), no heavy imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import cache, lru_cache
from pathlib import PurePath
from typing import Any

from dealerpp import lalr
from dealerpp.diagnostics import INTERNAL_ERROR, TOO_MANY_SHAPES, Diagnostic, Severity
from dealerpp.lalr import ParseError, ParserState, Token, Tree

__all__ = ["check_text"]

# Tokens that only ever start a statement: where the parser resynchronises.
STATEMENT_KEYWORDS = frozenset((
    "GENERATE", "PRODUCE", "DEALER", "VULNERABLE", "PREDEAL", "POINTCOUNT", "ALTCOUNT",
    "CONDITION", "ACTION",
))
# Comment tokens; the parser never sees them.
_COMMENTS = frozenset({"LINE_COMMENT", "HASH_COMMENT", "BLOCK_COMMENT"})
_BLANKS = frozenset({"NEWLINE", "WS"})
_IGNORED = _COMMENTS | _BLANKS
# Word-like tokens dealer's scanner reserves: they cannot name a variable.
_RESERVED_WORDS = STATEMENT_KEYWORDS | frozenset((
    "PRINT", "PRINTALL", "PRINTEW", "PRINTPBN", "PRINTCOMPACT", "PRINTONELINE", "PRINTES",
    "EVALCONTRACT", "AVERAGE", "FREQUENCY", "COMPASS", "SUIT", "NOTRUMPS", "VULN", "ANY",
    "HCP", "PT", "LOSER", "CONTROL", "CCCC", "QUALITY", "SHAPE", "HASCARD", "TRICKS",
    "SCORE", "IMPS", "RND", "AND", "OR", "NOT",
))
_WORD_TOKENS = {
    "HOLDING": "a holding (suit letter and cards)",
    "CARD": "a card",
    "CONTRACT": "a contract",
    "DISTR": "a shape",
    "DISTR_OR_NUMBER": "a shape or number",
}
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
# altcount N writes the table that, in this build, pt(N-2) reads.
_ALTCOUNT_TARGET = {0: "hcp()", 1: "control()"} | {n: f"pt{n - 2}()" for n in range(2, 12)}
# The row top3 counts from (AKQ), which dealer's analysis also uses as
# "winners" and asserts to be under 4 per suit.
_WINNERS_ROW = 8
_STATEMENT_WORDS = ("generate", "produce", "dealer", "vulnerable", "predeal", "pointcount",
                    "altcount", "condition", "action")
# Function names, for "did you mean" hints.
_FUNCTIONS = (
    "hcp", "spades", "hearts", "diamonds", "clubs", "loser", "control", "cccc", "quality",
    "shape", "hascard", "tricks", "score", "imps", "rnd", "tens", "jacks", "queens", "kings",
    "aces", "top2", "top3", "top4", "top5", "c13", *(f"pt{n}" for n in range(10)),
)
_SEATS = {"north": "North", "east": "East", "south": "South", "west": "West"}
_SUIT_NAMES = {"S": "Spade", "H": "Heart", "D": "Diamond", "C": "Club"}


def _grammar() -> lalr.Grammar:
    return lalr.load("dealer")


@cache
def _scanner() -> re.Pattern[str]:
    """The grammar's terminals as one regex, tried in the order Lark's basic
    lexer tries them (priority, then longest possible match, then the
    longer pattern, then name).

    Lark's own lexer gives the same tokens but builds a rich object per
    token, whitespace included; this is several times faster and lets the
    checker keep comments, which the parser ignores.
    """
    terminals = sorted(
        _grammar().terminals,
        key=lambda t: (-t["priority"], -t["max_width"], -len(t["value"]), t["name"]),
    )
    return re.compile("|".join(f"(?P<{t['name']}>{t['regexp']})" for t in terminals))


# The common case, blanks and whole words, found without trying every
# terminal; a word is then classified once per distinct spelling. (shape{ is
# left to the full scanner.)
_FAST = re.compile(
    r"(?P<WS>[ \t]+)|(?P<NEWLINE>\r*\n)|(?P<WORD>(?!shape[ \t]*\{)[A-Za-z]\w*)"
    # Punctuation that never starts a longer token, and plain numbers.
    r"|(?P<PUNCT>[(),+*%?:])|(?P<DIGITS>[0-9]+)(?![0-9xCDHS])",
    re.ASCII,
)


@cache
def _punctuation() -> dict[str, str]:
    """Terminal names of the one-character tokens _FAST finds."""
    return {t["value"]: t["name"] for t in _grammar().terminals
            if t["type"] == "str" and len(t["value"]) == 1}


@lru_cache(maxsize=4096)
def _word_kind(word: str) -> str:
    """The terminal a whole word is: a keyword, holding, card, ... or IDENT."""
    found = _scanner().fullmatch(word)
    return (found.lastgroup or "IDENT") if found else "IDENT"


def check_text(
    text: str, filename: str = "<stdin>", *, dpp: bool | None = None
) -> list[Diagnostic]:
    """Every problem found in dealer script ``text``, in source order.

    ``dpp`` allows dealerpp's ``shape{...}`` (a script before expansion);
    by default it is allowed when ``filename`` ends in ``.dpp``.
    Never raises.
    """
    if dpp is None:
        dpp = PurePath(filename).suffix == ".dpp"
    try:
        return _Checker(text, filename, dpp).run()
    except Exception as exc:  # a linter must never take its caller down
        return [Diagnostic("error", f"internal error in the checker ({type(exc).__name__}: {exc})",
                           filename=filename, code=INTERNAL_ERROR)]


# ---------------------------------------------------------------------------
# Lexing and parsing with recovery

def _lex(text: str) -> list[Token]:
    """Every token but blanks and newlines, with lines and columns."""
    match, fast, punctuation = _scanner().match, _FAST.match, _punctuation()
    tokens: list[Token] = []
    position, line, line_start = 0, 1, 0
    while position < len(text):
        found = fast(text, position) or match(text, position)
        if found is None:  # cannot happen: BAD_CHAR matches any character
            break
        kind, value, end = found.lastgroup or "BAD_CHAR", found.group(), found.end()
        if kind == "WORD":
            kind = _word_kind(value)
        elif kind == "PUNCT":
            kind = punctuation[value]
        elif kind == "DIGITS":
            kind = "DISTR_OR_NUMBER" if len(value) == 4 else "NUMBER"
        newlines = value.count("\n")
        end_line, end_start = line, line_start
        if newlines:
            end_line, end_start = line + newlines, position + value.rfind("\n") + 1
        if kind not in _BLANKS:
            tokens.append(Token(kind, value, position, line, position - line_start + 1,
                                end_line, end - end_start + 1, end))
        position, line, line_start = end, end_line, end_start
    return tokens


# Control characters in a quoted source line shown as their Unicode pictures
# (one column each, so the caret stays aligned); tabs stay tabs.
_VISIBLE_CONTROLS = {code: 0x2400 + code for code in range(32) if code != 9}


@dataclass
class _Definition:
    """A variable, condition or action: where it is and what it refers to."""

    token: Token
    uses: set[str] = field(default_factory=set)
    zero_divisions: list[Token] = field(default_factory=list)


class _Checker:
    def __init__(self, text: str, filename: str, dpp: bool) -> None:
        self.text = text
        self.filename = filename
        self.dpp = dpp
        # Lines as dealer counts them: only "\n" ends one (not a lone "\r" or
        # a form feed, which str.splitlines would split at).
        self.lines = [line.rstrip("\r") for line in text.split("\n")]
        self.found: list[Diagnostic] = []
        # Names assigned by statements that failed to parse: not "unknown" later.
        self.half_defined: set[str] = set()
        # Positions of names already reported as unknown functions.
        self.called_names: set[int] = set()

    # -- reporting ----------------------------------------------------------
    def report(self, severity: Severity, message: str, line: int | None, column: int | None,
               hint: str | None = None, code: str | None = None) -> None:
        source = None
        if line is not None and 0 < line <= len(self.lines):
            source = self.lines[line - 1].translate(_VISIBLE_CONTROLS)
        elif line is not None:
            source = ""
        self.found.append(Diagnostic(severity, message, line, column, self.filename, source,
                                     hint, code))

    def at(self, severity: Severity, token: Token, message: str,
           hint: str | None = None, code: str | None = None) -> None:
        self.report(severity, message, token.line, token.column, hint, code)

    def run(self) -> list[Diagnostic]:
        tokens = self.lexical_pass(_lex(self.text))
        statements = self.parse(tokens)
        _Semantics(self).run(statements)
        self.found.sort(key=lambda d: (d.line or 0, d.column or 0))
        return self.found

    # -- lexical layer ------------------------------------------------------
    def lexical_pass(self, tokens: list[Token]) -> list[Token]:
        """Report lexical problems; return the tokens the parser should see."""
        kept: list[Token] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "BLOCK_COMMENT":
                self.comment_echo(token)
            elif kind == "UNTERMINATED_COMMENT":
                self.at("error", token, "this /* comment is never closed "
                        "(dealer: EOF found in comment)")
                break
            elif kind == "BAD_CHAR":
                skip_line = self.bad_char(token)
                if skip_line is None:
                    break  # dealer stops reading here
                if skip_line:
                    index = _next_line(tokens, index)
                    continue
            elif kind == "SLASH" and self.unterminated_line_comment(tokens, index):
                index = _next_line(tokens, index)
                continue
            elif kind not in _IGNORED:
                kept.append(token)
            index += 1
        return kept

    def comment_echo(self, token: Token) -> None:
        body = str(token)
        for offset, char in enumerate(body):
            if char in "EOF<>":
                line = token.line + body.count("\n", 0, offset)
                start = body.rfind("\n", 0, offset)
                column = token.column + offset if start < 0 else offset - start
                self.report("warning", "dealer prints the characters E, O, F, < and > of a "
                            "/* */ comment to its output", line, column,
                            "reword the comment or use // comments")
                return

    def bad_char(self, token: Token) -> bool | None:
        """Report a character dealer's scanner rejects.

        Returns None when dealer treats it as the end of the file, True when
        the rest of the line should be skipped, False to skip just it.
        """
        char = str(token)
        if char == "\x00" or ord(char) >= 0x80:
            self.at("warning", token, "dealer stops reading at a non-ASCII character or NUL "
                    "outside strings and comments: the rest of the file is ignored")
            return None
        if char == "#":
            if self.dpp:
                return True  # dealer.dpp deletes trailing # comments before dealer runs
            if token.column == 1:
                self.at("error", token, "a # comment on the last line needs a newline after it")
            else:
                self.at("error", token, "# starts a comment only in column 1",
                        "use // for a comment after code")
            return True
        if char == '"':
            self.at("error", token, "this string is never closed")
            return True  # what follows on the line was meant as text
        message = {
            "&": "dealer has no `&`; logical and is `&&` or `and`",
            "|": "dealer has no `|`; logical or is `||` or `or`",
            "\r": "a carriage return not followed by a newline",
        }.get(char, f"dealer does not accept the character {char!r} here")
        self.at("error", token, message)
        return False

    def unterminated_line_comment(self, tokens: list[Token], index: int) -> bool:
        """`//` on a last line without newline: two divisions to dealer."""
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or following.type != "SLASH":
            return False
        if following.start_pos != token.start_pos + 1:
            return False
        if "\n" in self.text[token.start_pos:]:
            return False
        self.at("error", token, "a // comment on the last line needs a newline after it")
        return True

    # -- syntax -------------------------------------------------------------
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

    def __init__(self, checker: _Checker) -> None:
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


def _next_line(tokens: list[Token], index: int) -> int:
    line = tokens[index].line
    while index < len(tokens) and tokens[index].line == line:
        index += 1
    return index


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


# ---------------------------------------------------------------------------
# Semantics: what dealer checks while parsing, and what it gets wrong.

class _Semantics:
    def __init__(self, checker: _Checker) -> None:
        self.checker = checker
        self.variables: dict[str, _Definition] = {}
        self.shape_count = 0
        self.last: dict[str, Token] = {}
        self.predealt: dict[tuple[str, str], Token] = {}
        self.hand_sizes: dict[str, int] = {}
        self.lengths: dict[tuple[str, str], int] = {}
        # What the last condition and the last action evaluate; zero
        # divisions in conditions and actions replaced later.
        self.live: dict[str, _Definition] = {}
        self.dead_zero_divisions: list[Token] = []
        self.action_failures: list[tuple[Token, str]] = []
        self.winners_overflow: Token | None = None
        # Every name some assignment defines, for "defined later" hints.
        self.defined_later: set[str] = set()
        self.hand_analysed = False
        # While walking an expression: whose definition collects what it sees,
        # and whether dealer may skip the node at hand.
        self.current: _Definition | None = None
        self.guarded = False

    def warn(self, token: Token, message: str, hint: str | None = None) -> None:
        self.checker.at("warning", token, message, hint)

    def error(self, token: Token, message: str, hint: str | None = None,
              code: str | None = None) -> None:
        self.checker.at("error", token, message, hint, code)

    def run(self, statements: list[Tree]) -> None:
        self.defined_later = {str(st.children[0]) for st in statements
                              if st.data == "assignment"}
        for statement in statements:
            handler = getattr(self, f"stmt_{statement.data}", None)
            if handler is not None:
                handler(statement)
        self.report_zero_divisions()
        self.settle_action_failures(replaced=False)
        self.report_winners_overflow()

    def report_winners_overflow(self) -> None:
        token = self.winners_overflow
        if token is None:
            return
        message = ("with this altcount a suit can count 4 or more, and this dealer aborts "
                   "(assertion failure in its hand analysis) when one does")
        hint = "keep the positive values of altcount 8 under 4 in total"
        if self.hand_analysed:
            self.error(token, message, hint)
        else:
            self.warn(token, message + ", once the script names a seat in a hand function "
                      "or a dealer statement", hint)

    def action_failure(self, token: Token, message: str) -> None:
        """Something that makes dealer fail when it runs this action list; it
        only matters if no later action statement replaces the list."""
        self.action_failures.append((token, message))

    def settle_action_failures(self, replaced: bool) -> None:
        for token, message in self.action_failures:
            if replaced:
                self.warn(token, f"{message}, but a later action replaces this one")
            else:
                self.error(token, message)
        self.action_failures = []

    # -- statements ---------------------------------------------------------
    def stmt_generate(self, tree: Tree) -> None:
        self.first_wins(tree, "generate")

    def stmt_produce(self, tree: Tree) -> None:
        self.first_wins(tree, "produce")

    def first_wins(self, tree: Tree, name: str) -> None:
        keyword = tree.children[0]
        if name in self.last:
            self.warn(keyword, f"this {name} is ignored: dealer keeps the first one "
                      f"(line {self.last[name].line})")
        else:
            self.last[name] = keyword

    def last_wins(self, keyword: Token, name: str) -> None:
        earlier = self.last.get(name)
        # Two conditions on one line are a mistake already reported (a
        # misspelt `condition` reads as a variable).
        if earlier is not None and earlier.line != keyword.line:
            self.warn(keyword, f"this {name} replaces the one on line {earlier.line}: "
                      "dealer keeps only the last",
                      "join conditions with && in one condition" if name == "condition" else None)
        self.last[name] = keyword

    def stmt_dealer(self, tree: Tree) -> None:
        self.last_wins(tree.children[0], "dealer")
        self.note_analysis()

    def stmt_vulnerable(self, tree: Tree) -> None:
        first, side = tree.children
        if str(first) != "vulnerable":
            self.warn(first, f"dealer reads `{first} {side}` as `vulnerable {side}`",
                      "a vulnerability word alone is not a statement")
        if str(side) == "vulnerable":
            self.warn(side, "`vulnerable` is not a vulnerability: dealer keeps whatever "
                      "the word before it set", "use none, NS, EW or all")
        self.last_wins(first, "vulnerable")

    def stmt_condition(self, tree: Tree) -> None:
        self.last_wins(tree.children[0], "condition")
        self.replace_live("condition", tree.children[0])
        self.live_expression(tree.children[1], "condition")

    def stmt_bare_condition(self, tree: Tree) -> None:
        self.last_wins(_first_token(tree), "condition")
        self.replace_live("condition", _first_token(tree))
        self.live_expression(tree.children[0], "condition")

    def stmt_assignment(self, tree: Tree) -> None:
        name, expression = tree.children[0], tree.children[1]
        definition = _Definition(name)
        self.current = definition
        self.expression(expression)
        self.current = None
        earlier = self.variables.get(str(name))
        if earlier is not None:
            self.error(name, f"redefined variable `{name}` (first defined on line "
                       f"{earlier.token.line}; dealer: redefined variable)")
            return
        self.variables[str(name)] = definition

    def stmt_pointcount(self, tree: Tree) -> None:
        self.count_values(tree.children[1:], "pointcount")

    def stmt_altcount(self, tree: Tree) -> None:
        index_tree = tree.children[1]
        index = _number_value(index_tree)
        token = _first_token(index_tree)
        values = [_number_value(value) for value in tree.children[2:]]
        if index == _WINNERS_ROW and sum(v for v in values if v > 0) >= 4:
            # dealer's hand analysis asserts that a suit holds at most 3
            # "winners"; it runs only if some hand function is evaluated.
            self.winners_overflow = token
        elif index in _ALTCOUNT_TARGET:
            self.warn(token, f"in this dealer, altcount {index} changes what "
                      f"{_ALTCOUNT_TARGET[index]} counts, not pt{index}()",
                      "this build reads ptN from altcount N+2; altcount 0 and 1 "
                      "change hcp and control")
        elif _altcount_crashes(index):
            self.error(token, f"altcount {index} writes outside dealer's tables and makes "
                       "this dealer crash (segmentation fault); it handles 0 to 11")
        else:
            self.warn(token, f"altcount {index} writes outside dealer's tables, silently "
                      "corrupting other data; this dealer handles 0 to 11")
        self.count_values(tree.children[2:], "altcount")

    def count_values(self, values: list[Any], name: str) -> None:
        if len(values) > 13:
            self.error(_first_token(values[13]), f"too many {name} values: at most 13, "
                       "from the ace down to the 2 (dealer: too many pointcount values)")

    def stmt_predeal(self, tree: Tree) -> None:
        for argument in tree.children[1:]:
            if argument.data == "predeal_hand":
                self.predeal_hand(argument)
            else:
                self.predeal_length(argument)

    def predeal_hand(self, tree: Tree) -> None:
        seat = str(tree.children[0])
        for holding in tree.children[1:]:
            self.predeal_holding(seat, holding)

    def predeal_holding(self, seat: str, holding: Token) -> None:
        suit = str(holding)[0]
        for rank in str(holding)[1:]:
            card = (suit, rank)
            earlier = self.predealt.get(card)
            if earlier is not None:
                self.error(holding, f"card {rank}{suit} is predealt twice (also on line "
                           f"{earlier.line}; dealer: Card predealt twice)")
                return
            self.predealt[card] = holding
            self.hand_sizes[seat] = self.hand_sizes.get(seat, 0) + 1
            if self.hand_sizes[seat] == 14:
                self.error(holding, f"more than 13 cards predealt to {seat} "
                           "(dealer: More than 13 cards for one player)")

    def predeal_length(self, tree: Tree) -> None:
        suit_token, seat_token, _eq, number = tree.children
        suit = str(suit_token)[0].upper()
        seat = str(seat_token)
        length = _atoi(str(number))
        key = (seat, suit)
        suit_name = _SUIT_NAMES[suit]
        if key in self.lengths:
            self.error(suit_token, f"{_SEATS[seat]}'s {suit_name.lower()} length is already "
                       f"set to {self.lengths[key]} (dealer: {_SEATS[seat]}'s {suit_name} suit "
                       "has length already set)")
            return
        self.lengths[key] = length
        seat_total = sum(n for (s, _), n in self.lengths.items() if s == seat)
        suit_total = sum(n for (_, s), n in self.lengths.items() if s == suit)
        if seat_total > 13:
            self.error(suit_token, f"suit lengths add up to more than 13 for {seat} "
                       f"(dealer: Suit lengths too long for {_SEATS[seat]})")
        elif suit_total > 13:
            self.error(suit_token, f"more than 13 {suit_name.lower()}s predealt "
                       f"(dealer: Too many {suit_name}s)")
        else:
            self.warn(suit_token, "dealer parses `predeal SUIT(SEAT) == N` but ignores it "
                      "when dealing", f"use a condition such as {suit_token}({seat}) == {length}")

    def stmt_action(self, tree: Tree) -> None:
        self.last_wins(tree.children[0], "action")
        self.replace_live("action", tree.children[0])
        self.settle_action_failures(replaced=True)
        for item in tree.children[1:]:
            handler = getattr(self, f"action_{item.data}", None)
            if handler is not None:
                handler(item)
            for child in item.children:
                if not isinstance(child, str) and child.data != "number":
                    self.live_expression(child, "action")

    # -- actions ------------------------------------------------------------
    def action_printcompact(self, tree: Tree) -> None:
        self.swallowed_argument(tree)

    def action_printoneline(self, tree: Tree) -> None:
        self.swallowed_argument(tree)

    def swallowed_argument(self, tree: Tree) -> None:
        if len(tree.children) < 2:
            return
        keyword = tree.children[0]
        argument = tree.children[1]
        start = _first_token(argument)
        # The argument's "(" is not kept in the tree: look for it in the text.
        opening = self.checker.text.find("(", keyword.end_pos, start.start_pos)
        line = self.checker.text.count("\n", 0, opening) + 1 if opening >= 0 else start.line
        if line > keyword.line:
            self.warn(keyword, f"the parenthesised expression on line {line} becomes "
                      f"{keyword}'s argument (dealer prints its value after each deal)",
                      f"put a comma after {keyword} if it is meant as a separate statement")

    def action_evalcontract(self, tree: Tree) -> None:
        self.action_failure(tree.children[0], "evalcontract makes this dealer abort at run time")

    # dealer sizes a frequency table from its bounds without checking them:
    # hi - lo + 1 cells, or (hi1 - lo1 + 3) * (hi2 - lo2 + 3) in two dimensions
    # (measured); a negative size makes it stop with "Out of memory".
    def action_frequency(self, tree: Tree) -> None:
        low_tree, high_tree = tree.children[-2:]
        low, high = _number_value(low_tree), _number_value(high_tree)
        if high - low + 1 < 0:
            self.action_failure(_first_token(low_tree), f"frequency range {low} to {high} is "
                                "reversed (dealer fails: Out of memory)")
        elif low > high:
            self.warn(_first_token(low_tree), f"frequency range {low} to {high} is empty "
                      "(dealer counts everything as High)")

    def action_frequency2d(self, tree: Tree) -> None:
        children = tree.children
        ranges = [(children[-5], children[-4]), (children[-2], children[-1])]
        bounds = [(_number_value(low), _number_value(high)) for low, high in ranges]
        (low1, high1), (low2, high2) = bounds
        if (high1 - low1 + 3) * (high2 - low2 + 3) < 0:
            self.action_failure(_first_token(ranges[0][0]), "reversed frequency ranges make "
                                "dealer's table size negative (dealer fails: Out of memory)")
            return
        for (low_tree, _), (low, high) in zip(ranges, bounds, strict=True):
            if low > high:
                self.warn(_first_token(low_tree), f"frequency range {low} to {high} is empty "
                          "(dealer prints a meaningless table)")

    # -- expressions --------------------------------------------------------
    def live_expression(self, tree: Any, kind: str) -> None:
        """An expression of the current condition or action: dealer evaluates
        it unless a later condition or action replaces this one."""
        self.current = self.live[kind]
        self.expression(tree)
        self.current = None

    def replace_live(self, kind: str, keyword: Token) -> None:
        replaced = self.live.get(kind)
        if replaced is not None:
            self.dead_zero_divisions.extend(replaced.zero_divisions)
        self.live[kind] = _Definition(keyword)

    def expression(self, tree: Any) -> None:
        # Iterative: `a + b + ... + z` nests as deep as it is long. Each node
        # carries whether dealer may skip it: the right side of && and ||
        # and the branches of ?: are evaluated only when needed.
        pending: list[tuple[Any, bool]] = [(tree, False)]
        while pending:
            node, guarded = pending.pop()
            if isinstance(node, str):
                continue
            self.guarded = guarded
            handler = getattr(self, f"expr_{node.data}", None)
            if handler is not None:
                handler(node)
            pending.extend((child, guarded or _skippable(node, index))
                           for index, child in reversed(list(enumerate(node.children))))

    def expr_var(self, tree: Tree) -> None:
        name = tree.children[0]
        if name.start_pos in self.checker.called_names:
            return
        if str(name) in self.checker.half_defined and str(name) not in self.variables:
            return
        if str(name) not in self.variables:
            self.error(name, f"unknown variable `{name}` (dealer: unknown variable)",
                       self.unknown_name_hint(str(name)))
        elif self.current is not None:
            self.current.uses.add(str(name))

    def unknown_name_hint(self, name: str) -> str:
        """A likely intended spelling: a variable defined so far, or one of
        dealer's statement words (a misspelt `condition` reads as a name)."""
        close = get_close_matches(name, list(self.variables), n=1, cutoff=0.75)
        if close:
            return f"did you mean {close[0]}?"
        close = get_close_matches(name, _STATEMENT_WORDS, n=1, cutoff=0.75)
        if close:
            return f"did you mean the statement `{close[0]}`?"
        later = " (it is defined later)" if name in self.defined_later else ""
        return "define it with NAME = EXPR before its first use" + later

    def expr_binary(self, tree: Tree) -> None:
        operator = tree.children[1]
        if operator.type not in ("SLASH", "PERCENT") or self.current is None:
            return
        right = _constant(tree.children[2])
        if right in (0, -1) and _traps(_constant(tree.children[0]), right):
            if self.guarded:
                self.warn(operator, "division by zero: dealer crashes (floating point "
                          "exception) if it ever evaluates this")
            else:
                self.current.zero_divisions.append(operator)
        elif right is None and self.guarded:
            return  # most likely guarded by the test that protects it
        elif right is None and _is_test(tree.children[2]):
            self.warn(operator, "this divisor is a test, 0 or 1: dealer crashes (floating "
                      "point exception) on the first deal where it is 0")
        elif right is None:
            self.warn(operator, "dealer crashes (floating point exception) on the first deal "
                      "where this divisor is 0", "guard it, as in d > 0 ? n / d : 0 "
                      "(dealer evaluates only the branch it needs)")

    def expr_suit_length(self, tree: Tree) -> None:
        self.note_analysis()

    def expr_count(self, tree: Tree) -> None:
        self.note_analysis()

    def expr_cccc(self, tree: Tree) -> None:
        self.note_analysis()

    def expr_quality(self, tree: Tree) -> None:
        self.note_analysis()

    def note_analysis(self) -> None:
        # dealer analyses every seat the script names in a hand function (or
        # a dealer statement), used or not; hascard and predeal do not count.
        self.hand_analysed = True

    def expr_tricks(self, tree: Tree) -> None:
        self.note_analysis()
        self.warn(tree.children[0], "tricks() runs GIB's double-dummy solver, which must be "
                  "installed; without it dealer stops when it first evaluates tricks()")

    def expr_shape(self, tree: Tree) -> None:
        self.note_analysis()
        self.shape_count += 1
        keyword = tree.children[0]
        if self.shape_count == 32:
            self.error(keyword, "too many shape() calls: dealer allows 31 "
                       "(dealer: Too many shapes -- only 32 allowed!)",
                       "reuse a variable that holds the shape() test", TOO_MANY_SHAPES)
        items = tree.children[2].children
        for item in items:
            self.shape_item(item)
        first = items[0].children[0]
        if getattr(first, "type", None) == "MINUS":
            self.warn(first, "this `-` removes nothing: dealer removes only shapes added "
                      "earlier in the same list", "add the shapes first, e.g. xxxx - 5xxx")

    def shape_item(self, item: Tree) -> None:
        pattern = item.children[-1]
        text = str(pattern)
        total = sum(int(c) for c in text if c.isdigit())
        if "x" not in text and total != 13:
            self.error(pattern, f"shape {text} has {total} cards, not 13 "
                       "(dealer: wrong number of cards in shape)")
        elif "x" in text and total > 13:
            self.error(pattern, f"shape {text} already has {total} cards before its x "
                       "(dealer: too many cards in ambiguous shape)")

    def expr_shape_block(self, tree: Tree) -> None:
        if not self.checker.dpp:
            self.error(tree.children[0], "shape{...} is dealerpp syntax; dealer rejects `{`",
                       "run the script through dealerpp first")


    # -- after the whole script ----------------------------------------------
    def report_zero_divisions(self) -> None:
        live = self.reachable_variables()
        crash = ("division by zero: dealer crashes (floating point exception) "
                 "when it evaluates this")
        for definition in self.live.values():
            for token in definition.zero_divisions:
                self.error(token, crash)
        for token in self.dead_zero_divisions:
            self.warn(token, "division by zero in a condition or action that a later one "
                      "replaces (dealer would crash evaluating it)")
        for name, definition in self.variables.items():
            for token in definition.zero_divisions:
                if name in live:
                    self.error(token, crash)
                else:
                    self.warn(token, f"division by zero in `{name}`, which no condition or "
                              "action uses (dealer would crash evaluating it)")

    def reachable_variables(self) -> set[str]:
        seen: set[str] = set()
        pending = [name for definition in self.live.values() for name in definition.uses]
        while pending:
            name = pending.pop()
            if name in seen or name not in self.variables:
                continue
            seen.add(name)
            pending.extend(self.variables[name].uses)
        return seen


# ---------------------------------------------------------------------------
# Small tree helpers

def _first_token(tree: Any) -> Token:
    while not isinstance(tree, Token):
        tree = tree.children[0]
    return tree


_TEST_OPERATORS = frozenset({"EQ", "NE", "LT", "LE", "GT", "GE", "AND", "OR"})


def _skippable(node: Tree, index: int) -> bool:
    """Whether dealer may skip child ``index`` of ``node`` (short-circuit)."""
    if node.data == "if_expr":
        return index > 0
    if node.data == "binary" and index == 2:
        return getattr(node.children[1], "type", None) in ("AND", "OR")
    return False


def _is_test(tree: Any) -> bool:
    """Whether an expression is a truth value (0 or 1): a comparison, a
    logical operator, shape() or hascard()."""
    if isinstance(tree, str):
        return False
    if tree.data == "binary":
        return getattr(tree.children[1], "type", None) in _TEST_OPERATORS
    return tree.data in ("not_expr", "shape", "hascard")


def _altcount_crashes(index: int) -> bool:
    """Whether `altcount INDEX` crashes Debian's dealer 20211121 (amd64).

    altcount clears and fills row INDEX of a 12-row table with no bounds
    check: undefined behaviour. The rows listed here crashed dealer when
    measured index by index from -300 to 1500, with and without hand
    analysis and with several value lists; the others overwrite unrelated
    data, which did not crash it then but may with other values.
    """
    crashed = (-10, -9, 12, 1275, 1290, 1291, 1292, 1295, 1328, 1330)
    return index in crashed or index <= -17 or index >= 1394


_INT_MIN, _INT_MAX, _LONG_MAX = -(2**31), 2**31 - 1, 2**63 - 1


def _int32(value: int) -> int:
    """``value`` as a C int on dealer's platform (two's complement wrap)."""
    return (value - _INT_MIN) % 2**32 + _INT_MIN


def _atoi(text: str) -> int:
    """What dealer's atoi makes of a digit string: strtol saturates at
    LONG_MAX, then the cast to int wraps (4294967296 reads as 0)."""
    return _int32(min(int(text), _LONG_MAX))


def _number_value(tree: Tree) -> int:
    """The value of a `number` node (`5`, `-5` or `4333`)."""
    children = tree.children
    if len(children) == 2:
        return _int32(-_atoi(str(children[1])))
    return _atoi(str(children[0]))


def _constant(tree: Any, depth: int = 0) -> int | None:
    """The value of a constant expression (C integer arithmetic), else None
    (also for absurdly deep ones)."""
    if depth > 200:
        return None
    if isinstance(tree, str):
        return None
    kind = tree.data
    if kind == "number":
        return _number_value(tree)
    if kind == "binary":
        left = _constant(tree.children[0], depth + 1)
        right = _constant(tree.children[2], depth + 1)
        if left is None or right is None:
            return None
        return _apply(str(tree.children[1]), left, right)
    if kind == "not_expr":
        value = _constant(tree.children[1], depth + 1)
        return None if value is None else int(not value)
    if kind == "if_expr":
        test = _constant(tree.children[0], depth + 1)
        if test is None:
            return None
        return _constant(tree.children[1] if test else tree.children[2], depth + 1)
    return None


def _apply(operator: str, left: int, right: int) -> int | None:
    """C int arithmetic; None where the CPU traps (x / 0, INT_MIN / -1)."""
    if operator in ("/", "%"):
        if _traps(left, right):
            return None
        quotient = abs(left) // abs(right) * (1 if (left >= 0) == (right >= 0) else -1)
        return _int32(quotient if operator == "/" else left - quotient * right)
    table = {
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "<": lambda: int(left < right), "<=": lambda: int(left <= right),
        ">": lambda: int(left > right), ">=": lambda: int(left >= right),
        "&&": lambda: int(bool(left and right)), "and": lambda: int(bool(left and right)),
        "||": lambda: int(bool(left or right)), "or": lambda: int(bool(left or right)),
    }
    compute = table.get(operator)
    return None if compute is None else _int32(compute())


def _traps(left: int | None, right: int | None) -> bool:
    """Whether integer division left / right raises SIGFPE."""
    return right == 0 or (right == -1 and left == _INT_MIN)
