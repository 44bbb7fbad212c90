"""The logic findings of a script, worded and placed.

``LogicPass`` runs the analysis of ``logic.py`` over each definition,
condition and action of the script as the semantic pass meets them, and
says what it proved, each kind with its own code (``CODES``) so that an
editor can tell them apart. The findings wait for the end of the script: a
``pointcount`` or ``altcount`` after an expression changes what it counted,
and then the analysis of what came before proves nothing, so it is dropped.
"""

from __future__ import annotations

from dealerpp.diagnostics import quote
from dealerpp.lalr import Token, Tree
from dealerpp.script.check.arithmetic import constant_value
from dealerpp.script.check.domain import SEATS, SUIT_WORDS, TABLE_ROWS, Deck, default_tables
from dealerpp.script.check.logic import Analysis, Finding, Value, can_fail
from dealerpp.script.check.report import Report
from dealerpp.script.check.trees import first_token, last_token

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

    Fix = tuple[int, int, int, int, str]

NEVER_HOLDS = "never-holds"
ALWAYS_HOLDS = "always-holds"
CONDITION_NEVER_HOLDS = "condition-never-holds"
CONDITION_ALWAYS_HOLDS = "condition-always-holds"
TRUTH_AS_NUMBER = "truth-as-number"
CHAINED_COMPARISON = "chained-comparison"
NOT_BINDS_TIGHTER = "not-binds-tighter"
CODES = (NEVER_HOLDS, ALWAYS_HOLDS, CONDITION_NEVER_HOLDS, CONDITION_ALWAYS_HOLDS,
         TRUTH_AS_NUMBER, CHAINED_COMPARISON, NOT_BINDS_TIGHTER)
_SHOWN = 60  # characters of an expression quoted in a message
_COMPARISON_TYPES = frozenset({"EQ", "NE", "LT", "LE", "GT", "GE"})
_ARITHMETIC_TYPES = frozenset({"PLUS", "MINUS", "STAR", "SLASH", "PERCENT"})
_TRUTH_CALLS = {"shape": "shape()", "shape_block": "shape{}", "hascard": "hascard()",
                "not_expr": "`not`"}
_OPERATOR_WORDS = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
_TABLE_NAMES = {"hcp": "hcp", "control": "control", "pt0": "tens", "pt1": "jacks",
                "pt2": "queens", "pt3": "kings", "pt4": "aces", "pt5": "top2", "pt6": "top3",
                "pt7": "top4", "pt8": "top5", "pt9": "c13"}


class LogicPass:
    """The logic analysis of one script, fed statement by statement."""

    def __init__(self, report: Report, point_tables: dict[int, tuple[int, ...]],
                 predealt: dict[int, list[int]], enabled: bool = True) -> None:
        self.report = report
        self.point_tables = point_tables
        self.predealt = predealt
        self.found: list[tuple[str, Token, str, str | None, Fix | None]] = []
        self.tables_late = False
        self.deck_stale = False
        self.analysis: Analysis | None = self.fresh_analysis(None) if enabled else None

    def fresh_analysis(self, previous: Analysis | None) -> Analysis | None:
        if -1 in self.point_tables or any(len(c) > 13 for c in self.predealt.values()):
            return None  # a table or hand the analysis cannot follow
        tables = default_tables()
        for name, row in TABLE_ROWS.items():
            if row in self.point_tables:
                tables[name] = self.point_tables[row]
        deck = Deck(tables, {seat: list(cards) for seat, cards in self.predealt.items()})
        analysis = Analysis(deck, self.report.text, self.finding)
        if previous is not None:
            analysis.variables = previous.variables
            analysis.definitions = previous.definitions
        return analysis

    def tables_changed(self) -> None:
        # What was analysed counted with other tables: none of it proves anything.
        self.tables_late = True
        self.release()

    def deck_changed(self) -> None:
        """More predealt cards: later expressions know them (earlier ones
        were analysed over more deals, which proves as much)."""
        self.deck_stale = True

    def current(self) -> Analysis | None:
        """The analysis, with the deck as the script has set it so far."""
        if self.deck_stale and self.analysis is not None and not self.tables_late:
            self.analysis = self.fresh_analysis(self.analysis)
        self.deck_stale = False
        return self.analysis

    # -- statements ------------------------------------------------------------------

    def define(self, name: str, tree: Any) -> None:
        analysis = self.analysis if not self.deck_stale else self.current()
        if analysis is not None:
            analysis.define(name, tree)

    def condition(self, keyword: Token, tree: Any, judged: bool = True) -> None:
        """Analyse a condition; ``judged``: say whether it can hold at all (not
        for one with an error: dealer rejects the script, it selects nothing)."""
        analysis = self.current()
        if analysis is None:
            return
        value = analysis.condition(tree)
        if not judged:
            return
        if value.if_true is None and value.split:
            self.add(CONDITION_NEVER_HOLDS, keyword,
                     "this condition can never hold: dealer would deal until its generate "
                     "limit and produce nothing", None)
        elif (value.split and value.varies and not can_fail(value)
              and analysis.some_test_can_fail(tree)):
            # Only where its tests together always hold: a test that always
            # holds on its own (hcp(north) >= 0) is taken as meant so.
            self.add(CONDITION_ALWAYS_HOLDS, keyword,
                     "this condition always holds: dealer accepts every deal it makes, so "
                     "the condition selects nothing", None)

    def expression(self, tree: Any) -> None:
        analysis = self.current()
        if analysis is not None:
            analysis.expression(tree)

    def finish(self) -> None:
        self.release()
        if self.tables_late:
            return
        for code, token, message, hint, fix in self.found:
            self.report.at("warning", token, message, hint, code, fix)

    def release(self) -> None:
        """Drop the analysis, and the values of its variables with it. They
        reach each other (a value's lazy state is worked out by the
        analysis' bound method; the analysis reports through this pass's),
        so left as they are they would wait for the collector, which walks
        them more than once before freeing them: about a tenth of what the
        analysis costs. The findings are worded already."""
        analysis = self.analysis
        self.analysis = None
        if analysis is not None:
            # (shared by the analyses made before it, on a deck change)
            analysis.variables.clear()

    def add(self, code: str, token: Token, message: str, hint: str | None,
            fix: Fix | None = None) -> None:
        self.found.append((code, token, message, hint, fix))

    def fix(self, tree: Any, text: str) -> Fix:
        """Replace the expression ``tree`` (as ``source`` spans it) by ``text``."""
        start, end = self.span(tree)
        lines = self.report.lines
        line, column = lines.line_col(start)
        end_line, end_column = lines.line_col(end)
        return (line, column, end_line, end_column, text)

    # -- wording -------------------------------------------------------------------------

    def finding(self, finding: Finding) -> None:
        word = getattr(self, "word_" + finding.code.replace("-", "_"))
        word(finding)

    def source(self, tree: Any) -> str:
        """The text of an expression, as written (parentheses balanced)."""
        start, end = self.span(tree)
        return " ".join(self.report.text[start:end].split())

    def span(self, tree: Any) -> tuple[int, int]:
        """Where an expression is written (its parentheses balanced)."""
        text = self.report.text
        first, last = first_token(tree), last_token(tree)
        start, end = first.start_pos or 0, last.end_pos or 0
        closing, opening = _unbalanced(text, start, end)
        while closing:
            before = text.rfind("(", 0, start)
            if before < 0 or text[before + 1:start].strip():
                break
            start, closing = before, closing - 1
        while opening:
            following = text.find(")", end)
            if following < 0 or text[end:following].strip():
                break
            end, opening = following + 1, opening - 1
        return start, end

    def quoted(self, tree: Any) -> str:
        """An expression quoted; a variable with what it holds."""
        shown = quote(self.source(tree), _SHOWN)
        if isinstance(tree, Tree) and tree.data == "var" and self.analysis is not None:
            definition = self.analysis.definitions.get(str(tree.children[0]))
            if definition is not None:
                line = first_token(definition).line
                shown += f" (line {line}: {quote(self.source(definition), _SHOWN)})"
        return shown

    def ranges(self, finding: Finding) -> str:
        """What the atoms of the finding can be, where it says so; else the
        total that ties them."""
        analysis = self.analysis
        if analysis is None:
            return ""
        atoms = [(atom, low, high, self.base_range(atom))
                 for atom, (low, high) in finding.data.get("atoms", ())]
        alone = finding.data.get("alone")
        lengths = [atom for atom, *_ in atoms if atom[0] == "len"]
        if (alone and len(atoms) > 1 and all((low, high) == base for _, low, high, base in atoms)
                and _tied(analysis.deck, [atom for atom, *_ in atoms])
                and _sum_compared(finding.node) and not self.ranges_decide(finding.node)):
            # A sum of values none of which is narrowed (hcp(north) + hcp(south)
            # > 40): each alone could, the total that ties them cannot.
            alone = False
        parts = []
        totals = []
        for atom, low, high, base in atoms:
            if low <= high and ((low, high) != base or alone):
                parts.append(f"{_atom_name(atom)} is {_span(low, high)}")
            elif atom[0] in ("len", "tbl"):
                totals.append(_total_name(atom, analysis.deck, lengths))
        if parts:
            return "; ".join(parts)
        return " and ".join(dict.fromkeys(totals))

    def ranges_decide(self, tree: Tree) -> bool:
        """Whether the comparison of sums ``tree`` holds, or fails, on every
        deal for the ranges of what it adds alone, with no total tying them
        (``hcp(north) - hcp(south) > 37``: hcp(north) is 37 at most)."""
        left, right = self.sum_range(tree.children[0]), self.sum_range(tree.children[2])
        spread = (left[0] - right[1], left[1] - right[0])
        kind = tree.children[1].type
        return not (_may_be(spread, kind) and _may_be(spread, _NEGATED[kind]))

    def sum_range(self, tree: Any) -> tuple[int, int]:
        """The range of a sum of counts, lengths and numbers (_sum_compared),
        each taken on its own on any deal the script's predeal leaves."""
        analysis = self.analysis
        assert analysis is not None
        low = high = 0
        pending = [(tree, 1)]
        while pending:
            node, sign = pending.pop()
            if node.data == "binary":
                negated = -sign if node.children[1].type == "MINUS" else sign
                pending += [(node.children[0], sign), (node.children[2], negated)]
                continue
            value = constant_value(node)
            if value is not None:
                least = most = value
            else:
                found = analysis.evaluate(node, analysis.deck.base)
                least, most = found.low, found.high
            low, high = (low + least, high + most) if sign > 0 else (low - most, high - least)
        return low, high

    def base_range(self, atom: tuple[Any, ...]) -> tuple[int, int] | None:
        """What ``atom`` can be on any deal the script's predeal leaves."""
        analysis = self.analysis
        if analysis is None:
            return None
        if atom[0] == "len":
            from dealerpp.script.check.domain import length_range

            return length_range(analysis.deck.base[1][atom[1]], atom[2])
        return analysis.deck.range(atom)

    def word_never_holds(self, finding: Finding) -> None:
        self.holds(finding, never=True)

    def word_always_holds(self, finding: Finding) -> None:
        self.holds(finding, never=False)

    def holds(self, finding: Finding, never: bool) -> None:
        node = finding.node
        verdict = "can never hold" if never else "always holds"
        ranges = self.ranges(finding)
        hint = None
        if finding.data.get("alone"):
            truth = _truth_operand(node)
            if truth is not None:  # (spades(north) > 4) * 3 > 5: the 1 or 0 decides
                why = f": {truth} gives 1 or 0"
            else:
                why = f": {ranges}" + self.predeal_note(finding) if ranges else " on any deal"
            message = f"{self.quoted(node)} {verdict}{why}"
        else:
            context = finding.data["context"]
            operator = str(finding.data["operator"])
            where = "after" if never else "when this fails:"
            why = f" ({ranges} there)" if ranges else ""
            if never:
                message = (f"{self.quoted(node)} {verdict} after {self.quoted(context)}{why}, "
                           f"so this `{operator}` never holds")
                if " there" in why and " and " not in ranges:
                    hint = ("two ranges joined by `and` leave nothing: to accept either, "
                            "join them with `or`")
            else:
                message = (f"{self.quoted(node)} {verdict} {where} {self.quoted(context)}"
                           f"{why}, so this `{operator}` always holds")
        self.add(finding.code, first_token(node), message, hint)

    def predeal_note(self, finding: Finding) -> str:
        analysis = self.analysis
        if analysis is None or not analysis.deck.owner:
            return ""
        return " (with the predealt cards)"

    def word_truth_as_number(self, finding: Finding) -> None:
        node, operand, origin = finding.node, finding.data["operand"], finding.data["origin"]
        word = str(origin)
        shown = self.quoted(operand)
        gives = f"`{word}` gives 1 or 0, not a number"
        if finding.data.get("compared"):
            value: Value = finding.data["value"]
            message = (f"{shown} is a truth value ({gives}), so {self.quoted(node)} "
                       f"{_outcome(value)}")
        else:
            operator = str(node.children[1])
            message = (f"{shown} is a truth value ({gives}), so `{operator}` here "
                       "works on 0 or 1")
        if word in ("or", "||"):
            hint = "to add the values, use `+` instead of `or`"
        elif word in ("and", "&&"):
            hint = ("`and` gives 1 or 0, not its last operand: compare each value "
                    "(e.g. `x and y > 4`)")
        else:
            hint = "`not` gives 1 or 0: compare with 0 instead (x == 0)"
        self.add(TRUTH_AS_NUMBER, first_token(operand), message, hint)

    def word_chained_comparison(self, finding: Finding) -> None:
        node, inner = finding.node, finding.data["inner"]
        value: Value = finding.data["value"]
        outcome = _outcome(value)
        outer = str(node.children[1])
        shown = self.source(node)
        written = finding.data.get("parenthesized")
        if inner is node.children[0]:
            reading = f"({self.source(inner)}) {outer} {self.source(node.children[2])}"
            middle = self.source(inner.children[2])
            fix = f"{self.source(inner)} and {middle} {outer} {self.source(node.children[2])}"
        else:
            reading = f"{self.source(node.children[0])} {outer} ({self.source(inner)})"
            fix = None
        reads = (f"in {quote(shown, _SHOWN)}" if written else
                 f"dealer reads {quote(shown, _SHOWN)} as {quote(reading, _SHOWN)}:")
        message = f"{reads} the comparison inside gives 1 or 0, so this {outcome}"
        hint = f"write {quote(fix, _SHOWN)}" if fix else "compare each pair, joined by `and`"
        self.add(CHAINED_COMPARISON, first_token(node), message, hint,
                 self.fix(node, fix) if fix and not written else None)

    def word_not_binds_tighter(self, finding: Finding) -> None:
        node = finding.node
        value: Value = finding.data["value"]
        negated = node.children[0]
        operand_tree = negated.children[1]
        operand = self.source(operand_tree)
        rest = f"{node.children[1]} {self.source(node.children[2])}"
        # an operation keeps its parentheses: 'not (a + 1) > b' is read
        # '(not (a + 1)) > b'; '(not a + 1)' would be (not a) + 1
        taken = (f"({operand})" if isinstance(operand_tree, Tree)
                 and operand_tree.data in ("binary", "if_expr") else operand)
        reading = f"(not {taken}) {rest}"
        message = (f"dealer reads {quote(self.source(node), _SHOWN)} as "
                   f"{quote(reading, _SHOWN)}: `not` binds tighter than a comparison and "
                   f"gives 1 or 0, so this {_outcome(value)}")
        intended = f"{negated.children[0]} ({operand} {rest})"
        hint = (f"write {quote(intended, _SHOWN)} "
                "(Dealer3 reads it that way, Debian's dealer and DealerV2 do not)")
        self.add(NOT_BINDS_TIGHTER, first_token(node), message, hint,
                 self.fix(node, intended))


def _outcome(value: Value) -> str:
    if value.if_true is None:
        return "never holds"
    if value.if_false is None:
        return "always holds"
    return "compares 1 or 0 with a number"


def _truth_operand(tree: Any) -> str | None:
    """What gives 1 or 0 in ``tree`` where arithmetic or a comparison takes
    it as a number, named; None if nothing does, or if anything but such
    truth values and constants takes part: then a value's range may be what
    decides (in ``(hcp(north) > 10) + hcp(south) > 50``, hcp(south)'s 37)."""
    named = None
    stack = [tree]
    while stack:
        node = stack.pop()
        if not (isinstance(node, Tree) and node.data == "binary"
                and node.children[1].type in _COMPARISON_TYPES | _ARITHMETIC_TYPES):
            if constant_value(node) is None:
                return None
            continue
        for side in (node.children[0], node.children[2]):
            name = _truth_name(side)
            if name is None:
                stack.append(side)
            elif named is None:
                named = name
    return named


def _truth_name(tree: Any) -> str | None:
    if not isinstance(tree, Tree):
        return None
    if tree.data in _TRUTH_CALLS:
        return _TRUTH_CALLS[tree.data]
    if tree.data == "binary":
        operator = tree.children[1]
        if operator.type in _COMPARISON_TYPES:
            return "a comparison"
        if operator.type in ("AND", "OR"):
            return f"`{operator}`"
    return None


_NEGATED = {"EQ": "NE", "NE": "EQ", "LT": "GE", "GE": "LT", "LE": "GT", "GT": "LE"}


def _may_be(spread: tuple[int, int], kind: str) -> bool:
    """Whether ``left KIND right`` may hold, ``left - right`` within ``spread``."""
    low, high = spread
    return {"EQ": low <= 0 <= high, "NE": not low == high == 0, "LT": low < 0,
            "LE": low <= 0, "GT": high > 0, "GE": high >= 0}[kind]


def _sum_compared(tree: Any) -> bool:
    """Whether ``tree`` compares sums of counts, lengths and numbers only."""
    if not (isinstance(tree, Tree) and tree.data == "binary"
            and tree.children[1].type in _COMPARISON_TYPES):
        return False
    stack = [tree.children[0], tree.children[2]]
    while stack:
        node = stack.pop()
        if not isinstance(node, Tree):
            return False
        if node.data == "binary" and node.children[1].type in ("PLUS", "MINUS"):
            stack += [node.children[0], node.children[2]]
        elif node.data not in ("count", "suit_length", "number"):
            return False
    return True


def _tied(deck: Deck, atoms: list[tuple[Any, ...]]) -> bool:
    """Whether one total ties ``atoms``: suit lengths of one hand or of one
    suit, or one point table's counts (hcp(north) + hcp(south))."""
    if all(atom[0] == "len" for atom in atoms):
        return len({atom[1] for atom in atoms}) == 1 or len({atom[2] for atom in atoms}) == 1
    if all(atom[0] == "tbl" for atom in atoms):
        totals = [deck.totals(atom) for atom in atoms]
        return totals[0] is not None and all(total == totals[0] for total in totals)
    return False


def _total_name(atom: tuple[Any, ...], deck: Deck, lengths: list[tuple[Any, ...]]) -> str:
    """The total that ties ``atom`` to the others; ``lengths``: the finding's
    suit lengths (of one hand and several suits, the hand's 13 ties them)."""
    if atom[0] == "len":
        one_hand = len({length[1] for length in lengths}) == 1
        one_suit = len({length[2] for length in lengths}) == 1
        return "a hand has 13 cards" if one_hand and not one_suit else "a suit has 13 cards"
    total = deck.totals(atom)
    name = _TABLE_NAMES[atom[1]]
    amount = total[1] if total is not None else "?"
    return f"a deal holds {amount} {name} points" + (
        f" in {SUIT_WORDS[atom[3]]}s" if atom[3] >= 0 else "")


def _unbalanced(text: str, start: int, end: int) -> tuple[int, int]:
    """The ``)`` of ``text[start:end]`` without their ``(`` in it, and the
    ``(`` without their ``)``: counted in order, as ``a) < (b`` has one of
    each, which the counts alone would balance."""
    depth = lowest = 0
    for char in text[start:end]:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            lowest = min(lowest, depth)
    return -lowest, depth - lowest


def _span(low: int, high: int) -> str:
    if low == high:
        return str(low)
    return f"{low} to {high}"


def _atom_name(atom: tuple[Any, ...]) -> str:
    kind = atom[0]
    if kind == "len":
        return f"{SUIT_WORDS[atom[2]]}s({SEATS[atom[1]]})"
    if kind == "tbl":
        name = _TABLE_NAMES[atom[1]]
        suit = f", {SUIT_WORDS[atom[3]]}s" if atom[3] >= 0 else ""
        return f"{name}({SEATS[atom[2]]}{suit})"
    if kind == "card":
        return f"hascard({SEATS[atom[1]]}, {'AKQJT98765432'[atom[2] % 13]}{'SHDC'[atom[2] // 13]})"
    if kind == "var":
        return str(atom[1])
    if kind == "other":
        suit = f", {SUIT_WORDS[atom[3]]}s" if atom[3] >= 0 else ""
        return f"{atom[1]}({SEATS[atom[2]]}{suit})"
    return "it"



__all__ = ["CODES", "LogicPass", "Tree"]
