"""Semantic checks: definitions, uses, and what each statement makes dealer do.

``SemanticPass`` walks the parsed statements in order, with a ``stmt_*``
handler per statement, ``action_*`` per action item and ``expr_*`` per
expression node. It reports what dealer itself rejects while parsing
(unknown or redefined variables, bad shapes, cards predealt twice, too many
shape() calls, ...), what makes dealer crash at run time (division by
zero, bad altcount rows, reversed frequency ranges, tricks() without its
solver), and what dealer accepts but does not do as meant (statements that
replace or ignore others, predeal lengths it ignores, a `-` that removes
nothing). It is separate because it needs whole statement
trees, not tokens, and keeps its own picture of the script: which variables
exist, which ones the final condition and action reach.
"""

from __future__ import annotations

from dealerpp.diagnostics import TOO_MANY_SHAPES
from dealerpp.lalr import Token, Tree
from dealerpp.script.check.arithmetic import (
    constant_value,
    dealer_reads,
    literal_value,
    number_value,
    traps,
)
from dealerpp.script.check.facts import SEATS, STATEMENT_WORDS, SUIT_NAMES
from dealerpp.script.check.report import Report
from dealerpp.script.check.stream import Placeholder
from dealerpp.script.check.trees import first_token, last_token

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

    from dealerpp.script.check.findings import LogicPass

_UNKNOWN = object()
SEAT_INDEX = {"north": 0, "east": 1, "south": 2, "west": 3}
# Whether the logic analysis runs (bench/bench_check_corpus.py times it off).
ANALYSE_LOGIC = True
# What Debian's dealer 20211121 does with tricks(), measured (docs/check.md).
_TRICKS_MESSAGE = ("tricks() needs GIB's double-dummy solver, which Debian's dealer cannot "
                   "run: where it first evaluates tricks() it mostly stops (exit 10, \"Can't "
                   "open temporary file\" or \"Can't read output of analysis\"), and now and "
                   "then goes on with meaningless trick counts")
_TRICKS_HINT = ("it names its temporary files from uninitialised memory (they may be left in "
                "the current directory) and runs whatever `bridge` is on the PATH (on Linux "
                "usually iproute2's network tool)")
_DEFINE_IT = "define it with NAME = EXPR before its first use"
# How many variables are compared with an unknown name, at most.
_HINT_CANDIDATES = 500
# altcount N writes the table that, in this build, pt(N-2) reads.
_ALTCOUNT_TARGET = {0: "hcp()", 1: "control()"} | {n: f"pt{n - 2}()" for n in range(2, 12)}
# The row top3 counts from (AKQ), which dealer's analysis also uses as
# "winners" and asserts to be under 4 per suit.
_WINNERS_ROW = 8


class Definition:
    """A variable, condition or action: its line and what it refers to
    (small: a script may define a great many variables)."""

    __slots__ = ("line", "uses", "zero_divisions")

    def __init__(self, line: int | None) -> None:
        self.line = line
        self.uses: set[str] | None = None
        self.zero_divisions: list[Token] | None = None

    def use(self, name: str) -> None:
        if self.uses is None:
            self.uses = set()
        self.uses.add(name)

    def divides_by_zero(self, operator: Token) -> None:
        if self.zero_divisions is None:
            self.zero_divisions = []
        self.zero_divisions.append(operator)


class SemanticPass:
    """The semantic pass: one walk over the statements of one script, in
    order, as the syntax pass completes them."""

    def __init__(self, report: Report, broken_names: set[str], assigned: set[str],
                 dpp: bool) -> None:
        self.report = report
        # What the syntax pass learns as it goes: names whose assignment did
        # not parse, and every name assigned (complete at the end).
        self.broken_names = broken_names
        self.assigned = assigned
        self.dpp = dpp
        self.variables: dict[str, Definition] = {}
        self.shape_count = 0
        self.last: dict[str, Token] = {}
        self.predealt: dict[tuple[str, str], Token] = {}
        self.hand_sizes: dict[str, int] = {}
        self.lengths: dict[tuple[str, str], int] = {}
        # What the last condition and the last action evaluate; zero
        # divisions in conditions and actions replaced later.
        self.live: dict[str, Definition] = {}
        self.dead_zero_divisions: list[Token] = []
        self.action_failures: list[tuple[Token, str]] = []
        self.winners_overflow: Token | None = None
        # Unknown names reported with the plain hint: the hint says "defined
        # later" at the end if an assignment further on defines the name.
        self.unknown_names: list[tuple[int, str]] = []
        self.hand_analysed = False
        # While walking an expression: whose definition collects what it sees,
        # and whether dealer may skip the node at hand.
        self.current: Definition | None = None
        self.guarded = False
        # The expr_* method of each kind of node, looked up once.
        self.expression_handlers: dict[str, Any] = {}
        # What each expression can be (see logic.py), built at the first
        # expression: the point tables and predealt cards so far.
        self.logic: LogicPass | None = None
        # Definitions met before the first condition or action: a script
        # without them (a shape{} alone) never loads the analysis.
        self.pending_definitions: list[tuple[str, Any]] = []
        self.point_tables: dict[int, tuple[int, ...]] = {}
        self.predealt_to: dict[int, list[int]] = {}

    def warn(self, token: Token, message: str, hint: str | None = None,
             related_line: int | None = None) -> None:
        self.report.at("warning", token, message, hint, related_line=related_line)

    def error(self, token: Token, message: str, hint: str | None = None,
              code: str | None = None, related_line: int | None = None) -> None:
        self.report.at("error", token, message, hint, code, related_line=related_line)

    def statement(self, statement: Tree) -> None:
        handler = getattr(self, f"stmt_{statement.data}", None)
        if handler is not None:
            handler(statement)

    def finish(self) -> None:
        """What only the whole script tells."""
        if self.logic is not None:
            self.logic.finish()
        self.report_zero_divisions()
        self.settle_action_failures(replaced=False)
        self.report_winners_overflow()
        self.complete_unknown_name_hints()

    def complete_unknown_name_hints(self) -> None:
        found = self.report.found
        for index, name in self.unknown_names:
            if name in self.assigned and index < len(found):
                diagnostic = found[index]
                found[index] = diagnostic.replace(hint=f"{diagnostic.hint} (it is defined later)")

    def literal(self, tree: Any) -> None:
        """A number literal dealer does not read as written (it keeps a C int)."""
        if isinstance(tree, Token):
            tokens = [tree]
        elif isinstance(tree, Tree) and tree.data == "number":
            tokens = list(tree.children)
        else:
            return
        digits = tokens[-1]
        if isinstance(digits, Placeholder):
            return
        value = dealer_reads(str(digits), negative=len(tokens) == 2)
        if value is None:
            return
        written = "".join(str(t) for t in tokens)
        if len(written) > 24:
            written = f"{written[:12]}... ({len(str(digits))} digits)"
        self.warn(tokens[0], f"dealer reads {written} as {value}",
                  "dealer keeps numbers in a C int, from -2147483648 to 2147483647, and reads "
                  "longer ones modulo 2^32 (past 2^63: -1)")

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
            if self.report.has_error_on(token.line):
                continue  # dealer rejects the line before it runs anything
            if replaced:
                self.warn(token, f"{message}, but a later action replaces this one")
            else:
                self.error(token, message)
        self.action_failures = []

    # -- statements ---------------------------------------------------------
    def stmt_generate(self, tree: Tree) -> None:
        self.literal(tree.children[1])
        self.first_wins(tree, "generate")

    def stmt_produce(self, tree: Tree) -> None:
        self.literal(tree.children[1])
        self.first_wins(tree, "produce")

    def first_wins(self, tree: Tree, name: str) -> None:
        keyword = tree.children[0]
        if self.has_error(tree):
            return  # dealer rejects it: it is not the first, nor ignored
        if name in self.last:
            self.warn(keyword, f"this {name} is ignored: dealer keeps the first one "
                      f"(line {self.last[name].line})", related_line=self.last[name].line)
        else:
            self.last[name] = keyword

    def last_wins(self, keyword: Token, name: str, tree: Tree | None = None) -> None:
        if tree is not None and self.has_error(tree):
            return  # dealer rejects it: it replaces nothing, nothing replaces it
        earlier = self.last.get(name)
        # Two conditions on one line are a mistake already reported (a
        # misspelt `condition` reads as a variable).
        if earlier is not None and earlier.line != keyword.line:
            self.warn(keyword, f"this {name} replaces the one on line {earlier.line}: "
                      "dealer keeps only the last",
                      "join conditions with && in one condition" if name == "condition" else None,
                      earlier.line)
        self.last[name] = keyword

    def has_error(self, tree: Tree) -> bool:
        """Whether a line of statement ``tree`` has an error."""
        lines = self.report.error_lines
        if not lines:
            return False
        first, last = first_token(tree).line or 0, last_token(tree).end_line or 0
        return any(line in lines for line in range(first, last + 1))

    def stmt_dealer(self, tree: Tree) -> None:
        self.last_wins(tree.children[0], "dealer", tree)
        self.note_analysis()

    def stmt_vulnerable(self, tree: Tree) -> None:
        first, side = tree.children
        if str(first) != "vulnerable":
            self.warn(first, f"dealer reads `{first} {side}` as `vulnerable {side}`",
                      "a vulnerability word alone is not a statement")
        if str(side) == "vulnerable":
            self.warn(side, "`vulnerable` is not a vulnerability: dealer keeps whatever "
                      "the word before it set", "use none, NS, EW or all")
        self.last_wins(first, "vulnerable", tree)

    def stmt_condition(self, tree: Tree) -> None:
        self.replace_live("condition", tree.children[0])
        self.live_expression(tree.children[1], "condition")
        self.last_wins(tree.children[0], "condition", tree)
        self.analysis().condition(tree.children[0], tree.children[1], not self.has_error(tree))

    def stmt_bare_condition(self, tree: Tree) -> None:
        self.definition_typed_as_comparison(tree.children[0])
        self.replace_live("condition", first_token(tree))
        self.live_expression(tree.children[0], "condition")
        self.last_wins(first_token(tree), "condition", tree)
        self.analysis().condition(first_token(tree), tree.children[0], not self.has_error(tree))

    def definition_typed_as_comparison(self, expression: Any) -> None:
        """`lp1 == spades(south) - 4` starting a line, `lp1` unknown: a
        definition typed with `==`. One error, which says so; the later uses
        of the name are its echo (dealer stops at the first anyway)."""
        node = expression  # down the left side to the statement's first name
        while isinstance(node, Tree) and node.data in ("binary", "if_expr"):
            left = node.children[0]
            if (node.data == "binary" and node.children[1].type == "EQ"
                    and isinstance(left, Tree) and left.data == "var"):
                break
            node = left
        else:
            return
        name = left.children[0]
        text, start = self.report.text, name.start_pos or 0
        if (str(name) in self.variables or str(name) in self.broken_names
                or text[text.rfind("\n", 0, start) + 1:start].strip()):
            return  # known, or not where a definition starts: `(z == 1)`
        self.error(name, f"unknown variable `{name}` (dealer: unknown variable)",
                   f"to define it, write `{name} = ...`: `==` compares")
        self.broken_names.add(str(name))

    def analysis(self) -> LogicPass:
        """The logic analysis, with the deck as the script has set it so far."""
        if self.logic is None:
            from dealerpp.script.check.findings import LogicPass

            self.logic = LogicPass(self.report, self.point_tables, self.predealt_to,
                                   ANALYSE_LOGIC)
            for name, expression in self.pending_definitions:
                self.logic.define(name, expression)
            self.pending_definitions = []
        return self.logic

    def stmt_assignment(self, tree: Tree) -> None:
        name, expression = tree.children[0], tree.children[1]
        definition = Definition(name.line)
        self.current = definition
        self.expression(expression)
        self.current = None
        earlier = self.variables.get(str(name))
        if earlier is not None:
            self.error(name, f"redefined variable `{name}` (first defined on line "
                       f"{earlier.line}; dealer: redefined variable)", related_line=earlier.line)
            return
        self.variables[str(name)] = definition
        if self.logic is None:
            self.pending_definitions.append((str(name), expression))
        else:
            self.logic.define(str(name), expression)

    def stmt_pointcount(self, tree: Tree) -> None:
        for value in tree.children[1:]:
            self.literal(value)
        self.count_values(tree.children[1:], "pointcount")
        self.set_point_table(0, tree.children[1:])

    def set_point_table(self, row: int | None, values: list[Any]) -> None:
        """A pointcount or altcount: row ``row`` of dealer's tables, from the
        ace down, the rest cleared (None: a row the analysis cannot follow)."""
        read = [number_value(value) for value in values[:13]]
        if row is None or None in read or len(values) > 13:
            self.point_tables[-1] = ()
        else:
            self.point_tables[row] = tuple(v for v in read if v is not None) + (0,) * (13 - len(read))
        if self.logic is not None:
            self.logic.tables_changed()

    def stmt_altcount(self, tree: Tree) -> None:
        for value in tree.children[1:]:
            self.literal(value)
        self.count_values(tree.children[2:], "altcount")
        index_tree = tree.children[1]
        index = number_value(index_tree)
        token = first_token(index_tree)
        self.set_point_table(index if index is not None and 0 <= index < 12 else None,
                             tree.children[2:])
        read = [number_value(value) for value in tree.children[2:]]
        values = [value for value in read if value is not None]
        if index is None or len(values) < len(read):
            return  # a placeholder for a mistake already reported
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

    def count_values(self, values: list[Any], name: str) -> None:
        if len(values) > 13:
            self.error(first_token(values[13]), f"too many {name} values: at most 13, "
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
                           f"{earlier.line}; dealer: Card predealt twice)",
                           related_line=earlier.line)
                return
            self.predealt[card] = holding
            self.predealt_to.setdefault(SEAT_INDEX[seat], []).append(
                "SHDC".index(suit) * 13 + "AKQJT98765432".index(rank))
            if self.logic is not None:
                self.logic.deck_changed()
            self.hand_sizes[seat] = self.hand_sizes.get(seat, 0) + 1
            if self.hand_sizes[seat] == 14:
                self.error(holding, f"more than 13 cards predealt to {seat} "
                           "(dealer: More than 13 cards for one player)")

    def predeal_length(self, tree: Tree) -> None:
        suit_token, seat_token, _eq, number = tree.children
        suit = str(suit_token)[0].upper()
        seat = str(seat_token)
        self.literal(number)
        if isinstance(number, Placeholder):
            return
        length = literal_value(str(number))
        key = (seat, suit)
        suit_name = SUIT_NAMES[suit]
        if key in self.lengths:
            self.error(suit_token, f"{SEATS[seat]}'s {suit_name.lower()} length is already "
                       f"set to {self.lengths[key]} (dealer: {SEATS[seat]}'s {suit_name} suit "
                       "has length already set)")
            return
        self.lengths[key] = length
        seat_total = sum(n for (s, _), n in self.lengths.items() if s == seat)
        suit_total = sum(n for (_, s), n in self.lengths.items() if s == suit)
        if seat_total > 13:
            self.error(suit_token, f"suit lengths add up to more than 13 for {seat} "
                       f"(dealer: Suit lengths too long for {SEATS[seat]})")
        elif suit_total > 13:
            self.error(suit_token, f"more than 13 {suit_name.lower()}s predealt "
                       f"(dealer: Too many {suit_name}s)")
        else:
            self.warn(suit_token, "dealer parses `predeal SUIT(SEAT) == N` but ignores it "
                      "when dealing", f"use a condition such as {suit_token}({seat}) == {length}")

    def stmt_action(self, tree: Tree) -> None:
        self.replace_live("action", tree.children[0])
        self.settle_action_failures(replaced=True)
        for item in tree.children[1:]:
            handler = getattr(self, f"action_{item.data}", None)
            if handler is not None:
                handler(item)
            for child in item.children:
                if isinstance(child, Tree) and child.data == "number":
                    self.literal(child)
                elif not isinstance(child, str):
                    self.live_expression(child, "action")
                    self.analysis().expression(child)
        self.last_wins(tree.children[0], "action", tree)

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
        start = first_token(argument)
        # The argument's "(" is not kept in the tree: look for it in the text.
        opening = self.report.text.find("(", keyword.end_pos, start.start_pos)
        line = self.report.lines.line_col(opening)[0] if opening >= 0 else start.line
        if line > keyword.line:
            self.warn(keyword, f"the parenthesised expression on line {line} becomes "
                      f"{keyword}'s argument (dealer prints its value after each deal)",
                      f"put a comma after {keyword} if it is meant as a separate statement", line)

    def action_evalcontract(self, tree: Tree) -> None:
        self.action_failure(tree.children[0], "evalcontract makes this dealer abort at run time")

    # dealer sizes a frequency table from its bounds without checking them:
    # hi - lo + 1 cells, or (hi1 - lo1 + 3) * (hi2 - lo2 + 3) in two dimensions
    # (measured); a negative size makes it stop with "Out of memory".
    def action_frequency(self, tree: Tree) -> None:
        low_tree, high_tree = tree.children[-2:]
        low, high = number_value(low_tree), number_value(high_tree)
        if low is None or high is None:
            return
        if high - low + 1 < 0:
            self.action_failure(first_token(low_tree), f"frequency range {low} to {high} is "
                                "reversed (dealer fails: Out of memory)")
        elif low > high:
            self.warn(first_token(low_tree), f"frequency range {low} to {high} is empty "
                      "(dealer counts everything as High)")

    def action_frequency2d(self, tree: Tree) -> None:
        children = tree.children
        ranges = [(children[-5], children[-4]), (children[-2], children[-1])]
        values = [(number_value(low), number_value(high)) for low, high in ranges]
        bounds = [(low, high) for low, high in values if low is not None and high is not None]
        if len(bounds) < 2:
            return
        (low1, high1), (low2, high2) = bounds
        if (high1 - low1 + 3) * (high2 - low2 + 3) < 0:
            self.action_failure(first_token(ranges[0][0]), "reversed frequency ranges make "
                                "dealer's table size negative (dealer fails: Out of memory)")
            return
        for (low_tree, _), (low, high) in zip(ranges, bounds, strict=True):
            if low > high:
                self.warn(first_token(low_tree), f"frequency range {low} to {high} is empty "
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
            self.dead_zero_divisions.extend(replaced.zero_divisions or ())
        self.live[kind] = Definition(keyword.line)

    def expression(self, tree: Any) -> None:
        # Iterative: `a + b + ... + z` nests as deep as it is long. Each node
        # carries whether dealer may skip it: the right side of && and ||
        # and the branches of ?: are evaluated only when needed.
        pending: list[tuple[Any, bool]] = [(tree, False)]
        handlers = self.expression_handlers
        while pending:
            node, guarded = pending.pop()
            if isinstance(node, str):
                continue
            self.guarded = guarded
            data = node.data
            handler = handlers.get(data, _UNKNOWN)
            if handler is _UNKNOWN:
                # The function, not a bound method: that would make a cycle.
                handler = handlers[data] = getattr(type(self), f"expr_{data}", None)
            if handler is not None:
                handler(self, node)
            children = node.children
            for index in range(len(children) - 1, -1, -1):
                child = children[index]
                if not isinstance(child, str):
                    pending.append((child, guarded or _skippable(node, index)))

    def expr_var(self, tree: Tree) -> None:
        name = tree.children[0]
        if str(name) in self.broken_names and str(name) not in self.variables:
            return
        if str(name) not in self.variables:
            hint = self.unknown_name_hint(str(name))
            if hint == _DEFINE_IT:
                self.unknown_names.append((len(self.report.found), str(name)))
            self.error(name, f"unknown variable `{name}` (dealer: unknown variable)", hint)
        elif self.current is not None:
            self.current.use(str(name))

    def unknown_name_hint(self, name: str) -> str:
        """A likely intended spelling: a variable defined so far, or one of
        dealer's statement words (a misspelt `condition` reads as a name)."""
        from difflib import get_close_matches  # only for a misspelt word

        close = get_close_matches(name, self.similar_names(name), n=1, cutoff=0.75)
        if close:
            return f"did you mean {close[0]}?"
        close = get_close_matches(name, list(STATEMENT_WORDS), n=1, cutoff=0.75)
        if close:
            return f"did you mean the statement `{close[0]}`?"
        return _DEFINE_IT

    def similar_names(self, name: str) -> list[str]:
        """Variables worth comparing with ``name`` (a bounded number: a close
        spelling has about the same length)."""
        found = []
        for other in self.variables:
            if abs(len(other) - len(name)) <= 2:
                found.append(other)
                if len(found) == _HINT_CANDIDATES:
                    break
        return found

    def expr_binary(self, tree: Tree) -> None:
        operator = tree.children[1]
        if operator.type not in ("SLASH", "PERCENT") or self.current is None:
            return
        right = constant_value(tree.children[2])
        if right in (0, -1) and traps(constant_value(tree.children[0]), right):
            if self.guarded:
                self.warn(operator, "division by zero: dealer crashes (floating point "
                          "exception) if it ever evaluates this")
            else:
                self.current.divides_by_zero(operator)
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
        self.warn(tree.children[0], _TRICKS_MESSAGE, _TRICKS_HINT)

    def expr_shape(self, tree: Tree) -> None:
        self.shape_call(tree.children[0])
        items = tree.children[2].children
        for item in items:
            self.shape_item(item)
        first = items[0].children[0]
        if getattr(first, "type", None) == "MINUS":
            self.warn(first, "this `-` removes nothing: dealer removes only shapes added "
                      "earlier in the same list", "add the shapes first, e.g. xxxx - 5xxx")

    def shape_call(self, keyword: Token) -> None:
        self.note_analysis()
        self.shape_count += 1
        if self.shape_count == 32:
            self.error(keyword, "too many shape() calls: dealer allows 31 "
                       "(dealer: Too many shapes -- only 32 allowed!)",
                       "reuse a variable that holds the shape() test", TOO_MANY_SHAPES)

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
        # After preprocessing, a shape{} block is one shape() call.
        if self.dpp:
            self.shape_call(tree.children[0])

    def expr_number(self, tree: Tree) -> None:
        self.literal(tree)

    # -- after the whole script ----------------------------------------------
    def report_zero_divisions(self) -> None:
        live = self.reachable_variables()
        crash = ("division by zero: dealer crashes (floating point exception) "
                 "when it evaluates this")
        for definition in self.live.values():
            for token in definition.zero_divisions or ():
                self.error(token, crash)
        for token in self.dead_zero_divisions:
            self.warn(token, "division by zero in a condition or action that a later one "
                      "replaces (dealer would crash evaluating it)")
        for name, definition in self.variables.items():
            for token in definition.zero_divisions or ():
                if name in live:
                    self.error(token, crash)
                else:
                    self.warn(token, f"division by zero in `{name}`, which no condition or "
                              "action uses (dealer would crash evaluating it)")

    def reachable_variables(self) -> set[str]:
        seen: set[str] = set()
        pending = [name for definition in self.live.values() for name in definition.uses or ()]
        while pending:
            name = pending.pop()
            if name in seen or name not in self.variables:
                continue
            seen.add(name)
            pending.extend(self.variables[name].uses or ())
        return seen


# ---------------------------------------------------------------------------
# Small tree helpers



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
