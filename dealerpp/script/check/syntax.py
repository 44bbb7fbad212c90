"""The syntax pass: statements parsed with recovery, one error per mistake.

``SyntaxPass.statements`` runs the grammar's LALR tables
(``dealerpp.lalr``) over the parser's tokens and yields each statement as
soon as it is complete, so a script of any size is checked in a bounded
amount of memory.

The tokens are cut into *segments* at the points where a statement surely
starts (``starts_statement``): a statement keyword, or ``NAME =``, or a
DealerV2 statement, at the start of a line. Each segment gets a fresh
parser, so a mistake never reaches past the segment it is in. Within one:

- a mistake the checker recognises is reported once and repaired, and
  the parse goes on: a misspelt or unknown function called (the call
  becomes a placeholder number), DealerV2's calls and actions, a seat pair
  where dealer wants one seat, a misspelt statement keyword;
- any other syntax error is reported at its token, and the rest of the
  segment is skipped; bad characters met while skipping on the same line
  are counted ("N more errors on this line"), those on later lines
  reported;
- a statement cut short by a new line is reported at its end, and parsing
  goes on with that new line.

``StackDepth`` reports scripts nested too deeply, or action lists too
long, for dealer's bison stack. ``explain`` turns a parse error into a
message a script author can act on.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence

from dealerpp.diagnostics import Severity, quote
from dealerpp.lalr import ParserState, Token, Tree, UnexpectedToken
from dealerpp.script.check.facts import (
    DEALERV2_ACTIONS,
    DEALERV2_FUNCTIONS,
    DEALERV2_SEAT_PAIR_HINT,
    DEALERV2_STATEMENTS,
    FUNCTIONS,
    RESERVED_WORDS,
    SEAT_PAIRS,
    STATEMENT_KEYWORDS,
    STATEMENT_WORDS,
    WORD_TOKENS,
    dealer_grammar,
)
from dealerpp.script.check.report import Report
from dealerpp.script.check.stream import Placeholder, Problem, TokenStream, same_line

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

# How an expected terminal reads in a message.
DISPLAY = {
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
# Tokens after which a word cannot be a misspelt statement keyword.
_OPERATORS = frozenset({
    "EQUAL", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "EQ", "NE", "LT", "LE", "GT", "GE",
    "AND", "OR", "QMARK", "COLON", "COMMA", "RPAR",
})
_STATEMENT_RULES = frozenset((
    "generate", "produce", "dealer", "vulnerable", "predeal", "pointcount", "altcount",
    "condition", "assignment", "bare_condition", "action",
))
_STATEMENT_LIST = "__start_star_0"
# The words that start an item of an action list (grammar/dealer.lark's action_item).
_ACTION_ITEM_WORDS = frozenset({
    "PRINTALL", "PRINTEW", "PRINTPBN", "PRINT", "PRINTCOMPACT", "PRINTONELINE", "PRINTES",
    "EVALCONTRACT", "AVERAGE", "FREQUENCY",
})
# A single `&` or `|`, and the operator it stands for.
_SINGLE_LOGIC = {"&": "AND", "|": "OR"}
_SEAT_WORDS = frozenset({"north", "east", "south", "west"})
# Tokens kept to explain an error (the ones just before it).
_RECENT = 64


class SyntaxPass:
    """The statements of one script, parsed with recovery."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.grammar = dealer_grammar()
        # Names assigned at the start of a line so far: `name(` is a call of
        # an unknown function unless the name is one of these.
        self.assigned: set[str] = set()
        # Names whose assignment did not parse: not "unknown" later.
        self.broken_names: set[str] = set()

    def statements(self, tokens: Iterator[Token], at_end: bool = True) -> Iterator[Tree]:
        """The statements of ``tokens``, each as soon as it is complete.
        ``at_end``: the tokens run to the end of the script (False: they are
        a stretch of it after which a statement surely starts, as the
        language server checks a script a stretch at a time)."""
        stream = TokenStream(tokens)
        segment: Segment | None = None
        previous: Token | None = None
        while (token := stream.next()) is not None:
            if isinstance(token, Problem):
                self.problem(token)
                if token.replacement is None:
                    continue
                token = token.replacement
            starts = self.starts_statement(token, previous, stream)
            if segment is None or starts is not None:
                if segment is not None:
                    yield from segment.close(at_end=False)
                if starts == "dealerv2":
                    self.dealerv2_statement(token, stream)
                    segment, previous = None, token
                    continue
                if starts == "bboalert":
                    previous = self.bboalert_line(token, stream)
                    segment = None
                    continue
                name = str(token) if starts == "assignment" else None
                if name is not None:
                    self.assigned.add(name)
                segment = Segment(self, name)
            done = segment.feed(token, stream)
            if done:
                yield from done
            previous = token
        if segment is None:
            segment = Segment(self, None)
        yield from segment.close(at_end=at_end)

    def problem(self, problem: Problem) -> None:
        if problem.severity == "error":
            self.report.error_once(problem.line, problem.column, problem.message, problem.hint)
        else:
            self.report.add("warning", problem.message, problem.line, problem.column,
                            problem.hint)

    def starts_statement(self, token: Token, previous: Token | None,
                         stream: TokenStream) -> str | None:
        """How ``token`` surely starts a statement ("keyword", "assignment",
        "dealerv2"), or None."""
        kind = token.type
        if kind in STATEMENT_KEYWORDS:
            return "keyword"
        if previous is not None and token.line == previous.end_line:
            return None
        following = stream.peek()
        if kind == "VULNERABLE" and str(token) == "vulnerable":
            return "keyword"
        if following is not None and following.type == "EQUAL" and _is_word(token):
            return "assignment"
        if self.is_dealerv2_statement(token, following):
            return "dealerv2"
        if (str(token) == "Import" and following is not None and following.type == "COMMA"
                and same_line(token, following)):
            return "bboalert"
        return None

    def bboalert_line(self, word: Token, stream: TokenStream) -> Token:
        """`Import,URL`: a line of BBOalert's (Practice-Bidding-Scenarios'
        wrapper files), one error; the script goes on at the next line."""
        last = word
        while (following := stream.peek()) is not None and same_line(last, following):
            last = following
            stream.next()
        self.report.error_once(word.line, word.column,
                               "`Import,URL` is a BBOalert line, which dealer cannot read",
                               "keep BBOalert's lines out of the script dealer reads")
        return last

    def is_dealerv2_statement(self, token: Token, following: Token | None) -> bool:
        """`title "..."` or `seed N` (not when seed is a variable of the script)."""
        if token.type != "IDENT" or following is None or not same_line(token, following):
            return False
        word = str(token)
        if word == "title":
            return following.type == "STRING"
        return word == "seed" and word not in self.assigned and following.type in (
            "NUMBER", "DISTR_OR_NUMBER")

    def dealerv2_statement(self, keyword: Token, stream: TokenStream) -> None:
        stream.next()  # its argument
        word = str(keyword)
        self.report.error_once(keyword.line, keyword.column, f"`{word}` is a DealerV2 statement",
                               DEALERV2_STATEMENTS[word])


class Segment:
    """One stretch of statements, from one sure statement start to the next,
    under one parser."""

    def __init__(self, owner: SyntaxPass, name: str | None) -> None:
        self.owner = owner
        self.report = owner.report
        self.name = name  # the variable the segment starts assigning, if any
        self.state = _parser(owner)
        self.depth = StackDepth(self.report)
        self.recent: deque[Token] = deque(maxlen=_RECENT)
        self.yielded = False
        # After an error: skipping to the next segment, and where.
        self.skipping = False
        self.error_line: int | None = None
        self.last_skipped: Token | None = None
        self.line_word: Token | None = None
        # Lines where a mistake was repaired: later errors there are its echo.
        self.repaired_lines: set[int] = set()

    # -- feeding ------------------------------------------------------------------

    def feed(self, token: Token, stream: TokenStream) -> Sequence[Tree]:
        """Feed one token; the statements it completes."""
        if self.skipping:
            self.skip(token)
            return ()
        kind = token.type
        if kind == "IDENT":
            following = stream.peek()
            if (following is not None and following.type == "LPAR"
                    and same_line(token, following)
                    and str(token) not in self.owner.assigned):
                return self.unknown_call(token, stream)
            token = self.misspelt_keyword(token, following)
            token = self.capital_seat(token)
            kind = token.type
        elif kind == "BAD_CHAR" and str(token) in _SINGLE_LOGIC:
            token = self.single_logic(token)
            kind = token.type
        elif kind == "EVALCONTRACT":
            self.evalcontract_call(token, stream)
        elif isinstance(token, Placeholder):
            self.repaired_lines.add(token.line or 0)
        state = self.state
        try:
            state.feed_token(token)
        except UnexpectedToken as error:
            return self.syntax_error(token, error, stream)
        depth = len(state.state_stack)
        if (kind in STATEMENT_KEYWORDS or depth >= StackDepth.WARNING_DEPTH
                or self.depth.in_action):
            self.depth.after(token, depth)
        self.recent.append(token)
        return self.drain()

    def feed_placeholder(self, placeholder: Token) -> bool:
        """Feed a token standing for a repaired mistake; False if even that fails."""
        try:
            self.state.feed_token(placeholder)
        except UnexpectedToken:
            return False
        self.recent.append(placeholder)
        self.repaired_lines.add(placeholder.line or 0)
        return True

    def drain(self) -> Sequence[Tree]:
        """The statements completed so far, taken off the parser's stack."""
        values = self.state.value_stack
        if values:
            bottom = values[0]
            if type(bottom) is Tree and bottom.data == _STATEMENT_LIST and bottom.children:
                done, bottom.children = bottom.children, []
                self.yielded = True
                return done
        return ()

    def close(self, at_end: bool) -> Sequence[Tree]:
        """The rest of the segment's statements; an unfinished one reported."""
        self.depth.finish()
        if self.skipping:
            return ()
        last = self.recent[-1] if self.recent else None
        end = (Token("$END", "", 0, 1, 1) if last is None
               else Token.new_borrow_pos("$END", "", last))
        try:
            tree: Tree = self.state.feed_token(end, True)
        except UnexpectedToken as error:
            done = self.completed()
            self.abandon()
            self.unfinished(last, _expected(error), at_end)
            return done
        self.yielded = True
        return tree.children

    # -- recognised mistakes ----------------------------------------------------------

    def unknown_call(self, name: Token, stream: TokenStream) -> Sequence[Tree]:
        """`hpc(north)`, `usereval(24, NS, 3)`: a call of a function dealer does
        not have. Reported once; the whole call becomes a placeholder."""
        last = _skip_call(stream)
        word = str(name)
        hint: str | None
        if word in DEALERV2_FUNCTIONS:
            message, hint = f"`{word}` is a DealerV2 function", DEALERV2_FUNCTIONS[word]
        elif word in DEALERV2_ACTIONS:
            message, hint = f"`{word}` is a DealerV2 action", DEALERV2_ACTIONS[word]
        else:
            from difflib import get_close_matches  # only for a misspelt word

            close = get_close_matches(word, FUNCTIONS, n=1)
            message = f"`{word}` is not a function dealer knows"
            hint = f"did you mean {close[0]}?" if close else None
        self.report_error(name, message, hint)
        expected = self.expected()
        # An action where one may stand, else a number.
        kind = "PRINTALL" if "PRINTALL" in expected else "NUMBER" if "NUMBER" in expected else None
        if kind is None or not self.feed_placeholder(
                Placeholder.instead_of(kind, "0" if kind == "NUMBER" else "printall", name, last)):
            done = self.completed()
            self.abandon()
            return done
        return self.drain()

    def single_logic(self, char: Token) -> Token:
        """`a > 1 & b > 2`: a single `&` (or `|`) where `&&` (`||`) may
        stand is that operator mistyped: one error, and the parse goes on
        (a statement written over several lines is checked to its end)."""
        kind = _SINGLE_LOGIC[str(char)]
        if kind not in self.state_actions():
            return char
        # after a repair on its line, an echo: not reported, but still read
        # as the operator (else it ended the statement, and its next line
        # went unchecked)
        if not self.echo(char):
            self.report_error(char, *bad_char_message(str(char)))
            self.repaired_lines.add(char.line or 0)
        return Placeholder.instead_of(kind, "&&" if kind == "AND" else "||", char)

    def capital_seat(self, word: Token) -> Token:
        """`hcp(South)`: a seat written with a capital where dealer wants one
        (its seats are lower-case words): one error, then read as the seat."""
        seat = str(word).lower()
        if (word.type != "IDENT" or seat not in _SEAT_WORDS or str(word) == seat
                or "COMPASS" not in self.state_actions()):
            return word
        self.report_error(word, f"`{word}` is not a seat to dealer: its seats are lower-case words",
                          f"write `{seat}`")
        self.repaired_lines.add(word.line or 0)
        return Placeholder.instead_of("COMPASS", seat, word)

    def evalcontract_call(self, keyword: Token, stream: TokenStream) -> None:
        """`evalcontract(north, z3N, vul)`: DealerV2's action, one error before
        its statement is complete (so it counts for nothing: a later action
        does not replace it); the arguments are skipped, the parse goes on.
        Only where a seat or side follows the `(`: `action evalcontract (x)`
        is dealer's action and then a condition."""
        opening, first = stream.peek(), stream.peek(1)
        if (opening is None or opening.type != "LPAR" or not same_line(keyword, opening)
                or first is None or first.type not in ("COMPASS", "VULNERABLE")):
            return
        message, hint = dealerv2_spelling(opening, keyword, set()) or ("", None)
        self.report_error(opening, message, hint)
        self.repaired_lines.add(keyword.line or 0)
        _skip_call(stream)

    def misspelt_keyword(self, word: Token, following: Token | None) -> Token:
        """`conditon hcp(north) > 10`: a word where a statement starts, close
        to a statement keyword and followed by more on its line, is that
        keyword misspelt (dealer would read two conditions). So is such a
        word close to `action` alone on its line when an action starts the
        next (`acton` then `average ...`, as action lists are often laid out)."""
        name = str(word)
        if (following is None or following.type in _OPERATORS or name in self.owner.assigned
                or "CONDITION" not in self.state_actions()):
            return word
        if same_line(word, following):
            words: Iterable[str] = STATEMENT_WORDS
        elif following.type in _ACTION_ITEM_WORDS:
            words = ("action",)
        else:
            return word
        from difflib import get_close_matches  # only for a misspelt word

        close = get_close_matches(name, words, n=1, cutoff=0.75)
        if not close:
            return word
        self.report_error(word, f"`{name}` is not a statement dealer knows",
                          f"did you mean the statement `{close[0]}`?")
        self.repaired_lines.add(word.line or 0)
        return Placeholder.instead_of(STATEMENT_WORDS[close[0]], close[0], word)

    # -- errors -------------------------------------------------------------------------

    def syntax_error(self, token: Token, error: UnexpectedToken,
                     stream: TokenStream) -> Sequence[Tree]:
        expected = _expected(error)
        previous = self.recent[-1] if self.recent else None
        if (token.type == "VULNERABLE" and str(token) in SEAT_PAIRS and "COMPASS" in expected
                and not self.echo(token)):
            self.report_error(token, f"`{token}` is a pair of seats: Debian's dealer and DealerV2 "
                              "both want one seat here",
                              DEALERV2_SEAT_PAIR_HINT)
            if self.feed_placeholder(Placeholder.instead_of("COMPASS", "north", token)):
                return self.drain()
        done = self.completed()
        self.abandon()
        if self.echo(token):
            self.begin_skip(token)
            return done
        if (previous is not None and token.line != previous.end_line
                and "$END" not in expected and token.type != "BAD_CHAR"):
            # The statement before this line is unfinished: say so there, and
            # go on with this line if it can start a statement.
            self.unfinished(previous, expected, at_end=False)
            if token.type in self.owner.grammar.actions[self.owner.grammar.start_states["start"]]:
                self.restart(token)
            else:
                self.begin_skip(token)
            return done
        message, hint, culprit, related_line = self.explain(
            token, previous, stream.peek(), expected)
        self.report_error(culprit, message, hint, related_line)
        self.begin_skip(token)
        return done

    def explain(self, token: Token, previous: Token | None, following: Token | None,
                expected: set[str]) -> tuple[str, str | None, Token, int | None]:
        """The message, hint and token to report an unexpected ``token`` at,
        and the other line the message names, if it names one."""
        if token.type == "BAD_CHAR":
            return (*bad_char_message(str(token)), token, None)
        recent = self.recent
        if (len(recent) >= 2 and recent[-1].type == "LPAR" and recent[-2].type == "EVALCONTRACT"
                and same_line(recent[-2], recent[-1])):
            message, hint = dealerv2_spelling(recent[-1], recent[-2], expected) or ("", None)
            return message, hint, recent[-1], None
        if (token.type == "EQUAL" and previous is not None and len(self.recent) == 1
                and (previous.type in RESERVED_WORDS or previous.type in WORD_TOKENS)):
            # `all = 1`: the name, not the `=`, is the mistake.
            message, hint = explain(previous, None, token, expected)
            return message, hint, previous, None
        run_on = self.run_on(token, expected)
        if run_on is not None:
            return run_on
        if (token.type in _ACTION_ITEM_WORDS and "COMMA" in expected
                and self.in_action_list()):
            return (f"syntax error: `{token}` follows an action without a `,` between them",
                    "the actions of an action list are separated by commas", token, None)
        message, hint = explain(token, previous, following, expected,
                                parenthesis_open=self.has_open_parenthesis())
        compass = self.open_shape_call()
        if compass is not None and hint is None:
            hint = (f"dealer's shape() takes plain shapes such as 5xxx or any 4432; "
                    f"dealerpp's shape language (5M(xxx), ranges, labels) is written "
                    f"in braces: shape{{{compass}, ...}}")
        return message, hint, token, None

    def open_shape_call(self) -> str | None:
        """The compass of the ``shape(COMPASS, ...`` whose list the parser is
        in (its keyword shifted and not yet reduced), or None."""
        values = [value for value in self.state.value_stack if type(value) is Token]
        for index in range(len(values) - 2):
            keyword, opening, compass = values[index:index + 3]
            if (keyword.type, opening.type, compass.type) == ("SHAPE", "LPAR", "COMPASS"):
                return str(compass)
        return None

    def in_action_list(self) -> bool:
        """Whether the parser is in an action statement's list, outside any
        parentheses: its `action` keyword is shifted and not yet reduced."""
        values = self.state.value_stack
        return (not self.has_open_parenthesis()
                and any(type(value) is Token and value.type == "ACTION" for value in values))

    def has_open_parenthesis(self) -> bool:
        """Whether a `(` of this statement is still open: a `(` shifted and
        not yet reduced stays on the parser's value stack (and so may its
        `)`, until the token after it lets the parser reduce the pair)."""
        depth = 0
        for value in self.state.value_stack:
            if type(value) is Token:
                depth += (value.type == "LPAR") - (value.type == "RPAR")
        return depth > 0

    def run_on(self, token: Token, expected: set[str]) -> tuple[str, str, Token, int | None] | None:
        """A statement that swallowed the start of the next one: predeal reads
        `spades(north)` as another `SUIT(SEAT) == N`, pointcount and altcount
        read a leading number as one more value."""
        recent = list(self.recent)
        if expected == {"EQ"} and len(recent) >= 4 and recent[-4].type == "SUIT":
            suit = recent[-4]
            return (f"after a predeal, `{suit}(...)` is read as another predeal argument, "
                    f"`{suit}(SEAT) == N`", "begin the condition with `condition`", token, None)
        index = len(recent) - 1
        while index >= 0 and recent[index].type in ("NUMBER", "DISTR_OR_NUMBER", "MINUS"):
            index -= 1
        if index < 0 or recent[index].type not in ("POINTCOUNT", "ALTCOUNT"):
            return None
        keyword = recent[index]
        later = [t for t in recent[index + 1:] if t.line != keyword.line]
        if not later:
            return None  # all on one line: an ordinary syntax error
        first = later[0]
        value = str(first)
        if first.type == "MINUS" and len(later) > 1:
            value += str(later[1])
        return (f"`{value}` on line {first.line} was read as one more {keyword} value, so "
                "what follows it starts no statement", "begin the condition with `condition`",
                token, first.line)

    def unfinished(self, last: Token | None, expected: set[str], at_end: bool) -> None:
        wanted = wanted_text(expected - {"$END"})
        if last is None:
            self.report.add("error", "unexpected end of file", 1, 1)
            return
        line, column = last.end_line or last.line, last.end_column or last.column
        if self.report.has_error_on(line) or line in self.repaired_lines:
            return
        start = "the file ends in the middle of a statement" if at_end else (
            "the statement is unfinished")
        self.report.add("error", start + (f" (expected {wanted})" if wanted else ""),
                        line, column)

    def report_error(self, token: Token, message: str, hint: str | None,
                     related_line: int | None = None) -> None:
        self.report.error_once(token.line, token.column, message, hint, related_line)

    def echo(self, token: Token) -> bool:
        """Whether an error at ``token`` most likely follows from one already
        reported on its line (after a repair, or a lexical error)."""
        return token.line in self.repaired_lines or self.report.has_error_on(token.line)

    # -- recovery -------------------------------------------------------------------

    def abandon(self) -> None:
        """Give the segment up: its assignment, if unfinished, is broken."""
        if self.name is not None and not self.yielded:
            self.owner.broken_names.add(self.name)
        self.skipping = True

    def begin_skip(self, token: Token) -> None:
        self.error_line = token.line
        self.last_skipped = token
        # The word that starts the error's line, in case an `=` follows:
        # `opener @ = ...` meant to define opener.
        self.line_word = token if _is_word(token) else None
        for earlier in reversed(self.recent):
            if earlier.end_line != token.line:
                break
            self.line_word = earlier if _is_word(earlier) else None

    def skip(self, token: Token) -> None:
        """A token of an abandoned segment: only bad characters matter; one
        run of them on the error's line is one more error there."""
        previous, self.last_skipped = self.last_skipped, token
        if previous is None or token.line != previous.end_line:
            self.line_word = token if _is_word(token) else None
        elif token.type == "EQUAL" and self.line_word is not None:
            self.owner.broken_names.add(str(self.line_word))
        if token.type != "BAD_CHAR" or (previous is not None and previous.type == "BAD_CHAR"):
            return
        if token.line == self.error_line:
            if token.line not in self.repaired_lines:
                self.report.count_more(token.line)
        elif not self.report.has_error_on(token.line):
            self.report.at("error", token, *bad_char_message(str(token)))
            self.error_line = token.line

    def restart(self, token: Token) -> None:
        """Parse on from ``token`` with a fresh parser, in this segment."""
        self.state = _parser(self.owner)
        self.name = None
        try:
            self.state.feed_token(token)
        except UnexpectedToken:
            self.begin_skip(token)
            return
        self.skipping = False
        self.recent.append(token)

    def completed(self) -> list[Tree]:
        """Statements already complete on the parser's stack when an error struck."""
        found: list[Tree] = []

        def collect(value: Any) -> None:
            if isinstance(value, Tree):
                if value.data in _STATEMENT_RULES:
                    found.append(value)
                elif str(value.data).startswith("_") or value.data == "start":
                    for child in value.children:
                        collect(child)

        for value in self.state.value_stack:
            collect(value)
        if found:
            self.yielded = True
        return found

    def expected(self) -> set[str]:
        return {kind for kind in self.state_actions() if kind.isupper()}

    def state_actions(self) -> dict[str, int]:
        return self.owner.grammar.actions[self.state.state_stack[-1]]


class StackDepth:
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

    def __init__(self, report: Report) -> None:
        self.report = report
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
            self.report.at(*self.finding)
            self.finding = None


# -- the parser ---------------------------------------------------------------------


def _parser(owner: SyntaxPass) -> ParserState:
    """A fresh parser; the checker reads positions from tokens only, so the
    trees skip them."""
    return owner.grammar.parser_state("start", {}, positions=False)


def _expected(error: UnexpectedToken) -> set[str]:
    expected = set(getattr(error, "expected", ()) or ())
    expected.discard("NEVER")
    return expected


def _is_word(token: Token) -> bool:
    return token.type == "IDENT" or token.type in RESERVED_WORDS or token.type in WORD_TOKENS


def _skip_call(stream: TokenStream) -> Token:
    """Read a call's parenthesised arguments, balanced, up to a sure
    statement start; the last token read."""
    opening = stream.next()
    if opening is None:  # cannot happen: the caller saw the `(`
        raise ValueError("no call to read")
    last: Token = opening
    depth = 1
    while depth:
        token = stream.peek()
        if token is None or token.type in STATEMENT_KEYWORDS:
            break
        if token.line != last.end_line:
            following = stream.peek(1)
            if following is not None and following.type == "EQUAL" and _is_word(token):
                break
        stream.next()
        last = token
        if token.type == "LPAR":
            depth += 1
        elif token.type == "RPAR":
            depth -= 1
    return last


# -- messages ------------------------------------------------------------------------


def bad_char_message(char: str) -> tuple[str, str | None]:
    """What to say about a character dealer's scanner rejects."""
    known = {
        "&": ("dealer has no `&`; logical and is `&&` or `and`", None),
        "|": ("dealer has no `|`; logical or is `||` or `or`", None),
        "\r": ("a carriage return not followed by a newline", None),
        "$": ("dealer does not accept `$` (DealerV2's parameters are `$0` to `$9`)", None),
        ";": ("dealer does not accept `;`: statements end at the end of a line", None),
        "{": ("dealer does not accept `{` here", "dealerpp's shape{...} starts with the word "
              "shape"),
    }
    return known.get(char, (f"dealer does not accept the character {quote(char)} here", None))


def wanted_text(expected: set[str]) -> str:
    names = sorted({DISPLAY.get(name, name.lower()) for name in expected})
    if not names:
        return ""
    # Where an expression may start, say so rather than list 30 tokens.
    if len(names) > 6 or {"IDENT", "NUMBER"} <= expected:
        if "IDENT" in expected:
            return "an expression"
        return "one of " + ", ".join(names[:6]) + ", ..."
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# DealerV2's vulnerabilities, as Debian's dealer spells them.
_DEALERV2_VULNERABILITIES = {"both": "all", "Both": "all", "BOTH": "all", "All": "all",
                             "ALL": "all", "None": "none", "NONE": "none"}


def dealerv2_spelling(token: Token, previous: Token | None,
                      expected: set[str]) -> tuple[str, str] | None:
    """DealerV2's way of writing what Debian's dealer writes otherwise."""
    text = str(token)
    if token.type == "IDENT" and text in _DEALERV2_VULNERABILITIES and "VULNERABLE" in expected:
        return (f"`vulnerable {text}` is DealerV2's spelling",
                f"Debian's dealer writes `vulnerable {_DEALERV2_VULNERABILITIES[text]}`")
    if (token.type == "IDENT" and "CONTRACT" in expected and len(text) == 3
            and text[0] == "z" and text[1] in "1234567" and text[2] in "CDHSN"):
        return (f"`{text}` is DealerV2's way of writing a contract",
                f"Debian's dealer writes `x{text[1:]}`")
    if token.type == "LPAR" and previous is not None and previous.type == "EVALCONTRACT":
        return ("`evalcontract(...)` is a DealerV2 action",
                "Debian's dealer has `evalcontract` without arguments, and it aborts at "
                "run time: use score(VULN, CONTRACT, tricks(...)) with average")
    return None


def explain(token: Token, previous: Token | None, following: Token | None,
            expected: set[str], *, parenthesis_open: bool = False) -> tuple[str, str | None]:
    """A message for an unexpected token, and a hint; ``parenthesis_open``:
    a `(` before ``token`` is still open."""
    text = str(token)
    shown = text if len(text) <= 30 else text[:27] + "..."
    shown = shown.replace("\n", "\\n")
    dealerv2 = dealerv2_spelling(token, previous, expected)
    if dealerv2 is not None:
        return dealerv2
    if previous is not None and previous.type == "MINUS" and expected == {"NUMBER"}:
        if token.type == "DISTR_OR_NUMBER":
            return ("unary minus applies only to a plain number, and dealer reads a "
                    "four-digit number as a shape", "write `0 - N`")
        return ("unary minus applies only to a number literal in dealer",
                "write `0 - EXPR` to negate an expression")
    if following is not None and following.type == "EQUAL" and token.type != "IDENT":
        if token.type in RESERVED_WORDS:
            return (f"`{text}` is a reserved word in dealer and cannot name a variable", None)
        if token.type in WORD_TOKENS:
            return (f"`{text}` reads as {WORD_TOKENS[token.type]}, not a name; "
                    "it cannot name a variable", None)
    if token.type == "STRING" and "IDENT" in expected:
        return ("a string is allowed only in printes, or as the label of average or "
                "frequency", None)
    if token.type == "EQUAL" and "EQ" in expected:
        return ("`=` is not a comparison in dealer", "use `==`")
    if token.type == "RPAR" and "RPAR" not in expected and not parenthesis_open:
        return ("this `)` has no matching `(`", None)
    if ("CONDITION" in expected and previous is not None
            and token.line == previous.end_line):
        # A new statement may start here, so the one before is whole: the
        # many tokens that could start one are not what the author meant.
        return (f"syntax error: unexpected `{shown}` after a complete statement", None)
    wanted = wanted_text(expected - {"$END"})
    message = f"syntax error: unexpected `{shown}`" + (f", expected {wanted}" if wanted else "")
    return message, None
