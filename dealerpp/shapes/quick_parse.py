"""A hand-written reader for the everyday shape{} text, beside the LALR parser.

``parse_quick(text, start)`` returns the very AST ``parser.parse_call`` /
``parse_body`` would (same nodes, same positions), or None for anything it
does not take: an error of any kind, a line break, a leading sign, a
ternary, a unary operator, ``and``/``or`` words, whitespace inside ``[...]``
or between a length and its label, a label inside ``(...)`` or after
``any``. Those go to the LALR parser, which gives every error its message;
this reader only ever says "not mine". It exists for speed: a 1,000-line
script spends about a third of its time parsing (issue 28), and the LALR
runtime costs ~9 us a token where this costs ~1.

Its rules mirror the grammar (``grammar/shape.lark``) and its lexer's
choices: a length directly followed by ``+``/``-`` is one token (``5+``);
a sign with whitespace on both sides ends a condition, except inside its
parentheses, where it is arithmetic placed at the whitespace. The test
``tests/shapes/test_quick_parse.py`` holds the two readers equal on
generated texts.
"""

from __future__ import annotations

from dealerpp.shapes import ast

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from dealerpp.shapes.ast import Sign

_LENGTHS = "0123456789TJQK"
_VALUE = {c: n for n, c in enumerate(_LENGTHS)}
_MAX = 13
_LABELS = "shdcSHDCMm"
_LABELS_ONLY = frozenset(_LABELS)  # (a str would also hold "")
_LENGTHS_OR_X = frozenset(_LENGTHS + "x")
_SIGNS = frozenset("+-")
_BLANK = frozenset(" \t\f\r")  # the lexer's whitespace but the line break (never taken here)
_COMPASSES = ("north", "east", "south", "west")
_MAX_SLOTS = 8  # more is an error: the LALR parser says which
_MAX_DEPTH = 32  # deeper conditions go to the LALR parser (no recursion limits here)

# Operator precedence of a condition's binary operators, loosest first
# (``,`` is C's ``&&`` written dealer.dpp's way, folded as ``and_all``).
_LEVELS: tuple[tuple[str, ...], ...] = (
    (",",), ("||",), ("&&",), ("==", "!="), ("<=", ">=", "<", ">"), ("+", "-"), ("*", "/", "%"))
_OPERATORS = sorted({op for level in _LEVELS for op in level}, key=len, reverse=True)
_LEVEL_OF = {op: level for level, ops in enumerate(_LEVELS) for op in ops}


class _NotMine(Exception):
    """The text is for the LALR parser."""


# Nodes met before, by what makes them: a script repeats the same slots at
# the same columns. Read-only records, so sharing them is safe.
_POS: dict[int, ast.Pos] = {}
_ITEMS: dict[tuple[str, int], ast.Item] = {}
_KEPT = 4096


def parse_quick(text: str, start: str) -> ast.ShapeCall | ast.ShapeList | None:
    """The AST of ``text`` (``start``: "call" or "body"), or None."""
    if "\n" in text or len(text) > 2000:
        return None
    if len(_POS) > _KEPT or len(_ITEMS) > _KEPT:
        _POS.clear()
        _ITEMS.clear()
    reader = _Reader(text)
    try:
        found = reader.call() if start == "call" else reader.shape_list("")
        reader.blanks()
        if reader.at != len(text):
            return None
        return found
    except _NotMine:
        return None


def _pos(offset: int) -> ast.Pos:
    found = _POS.get(offset)
    if found is None:
        found = _POS[offset] = ast.Pos(1, offset + 1)
    return found


class _Reader:
    __slots__ = ("at", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    # -- characters ----------------------------------------------------------
    def blanks(self) -> None:
        text, at = self.text, self.at
        while at < len(text) and text[at] in _BLANK:
            at += 1
        self.at = at

    def peek(self) -> str:
        """The next character after whitespace ("" at the end)."""
        self.blanks()
        return self.text[self.at:self.at + 1]

    def spaced_sign(self) -> str | None:
        """``+`` or ``-`` with whitespace on both sides from here (the
        lexer's SPACED_PLUS / SPACED_MINUS), or None; read past if found."""
        text, at = self.text, self.at
        if at >= len(text) or text[at] not in _BLANK:
            return None
        end = at
        while end < len(text) and text[end] in _BLANK:
            end += 1
        if text[end:end + 1] not in ("+", "-") or text[end + 1:end + 2] not in _BLANK:
            return None
        self.at = end + 1
        self.blanks()
        return text[end]

    # -- lists ---------------------------------------------------------------
    def call(self) -> ast.ShapeCall:
        self.blanks()
        text, at = self.text, self.at
        if not text.startswith("shape", at) or _word_char(text[at + 5:at + 6]):
            raise _NotMine
        self.at = at + 5
        self.expect("{")
        self.blanks()
        word_at = self.at
        end = word_at
        while end < len(text) and _word_char(text[end]):
            end += 1
        if text[word_at:end] not in _COMPASSES:
            raise _NotMine  # another word is an error, or a keyword to the lexer
        self.at = end
        self.expect(",")
        shapes = self.shape_list("}")
        self.expect("}")
        return ast.ShapeCall(text[word_at:end], _pos(word_at), shapes, _pos(at))

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise _NotMine
        self.at += 1

    def shape_list(self, closer: str) -> ast.ShapeList:
        """Terms joined by signs, up to ``closer`` or the end of the text."""
        self.blanks()
        first = self.at
        terms = []
        sign: Sign = "+"
        while True:
            term, conditioned = self.term()
            terms.append(ast.SignedTerm(sign, term))
            spaced = self.spaced_sign()
            if spaced is not None:
                sign = "+" if spaced == "+" else "-"
                continue
            following = self.peek()
            if following in ("+", "-") and not conditioned:
                self.at += 1
                sign = "+" if following == "+" else "-"
                continue
            if following != closer:
                raise _NotMine
            return ast.ShapeList(tuple(terms), _pos(first))

    def term(self) -> tuple[ast.Term, bool]:
        self.blanks()
        at = self.at
        pattern = self.pattern()
        if self.peek() != ":":
            return ast.Term(pattern, None, _pos(at)), False
        self.at += 1
        condition = self.expression(0, 0)
        return ast.Term(pattern, condition, _pos(at)), True

    # -- patterns ------------------------------------------------------------
    def pattern(self) -> ast.Pattern:
        text, at = self.text, self.at
        if text.startswith("any", at):
            self.at = at + 3
            items = self.items(labels=False)
            if not items:
                raise _NotMine
            return ast.Pattern((), tuple(items), _pos(at))
        items = self.items(labels=True)
        group = None
        if self.peek() == "(":
            self.at += 1
            group = tuple(self.items(labels=False))
            if not group:
                raise _NotMine
            self.expect(")")
        if not items and group is None:
            raise _NotMine
        return ast.Pattern(tuple(items), group, _pos(at))

    def items(self, labels: bool) -> list[ast.Item]:
        found: list[ast.Item] = []
        while True:
            self.blanks()
            item = self.item(labels)
            if item is None:
                return found
            found.append(item)
            if len(found) > _MAX_SLOTS:
                raise _NotMine

    def item(self, labels: bool) -> ast.Item | None:
        """The item from here: a slot and maybe a label, found again by its
        text and column when met before."""
        text, at = self.text, self.at
        char = text[at:at + 1]
        if char == "[":
            end = text.find("]", at) + 1
            if end == 0:
                raise _NotMine
        elif char and char in _LENGTHS_OR_X:
            end = at + 2 if char != "x" and text[at + 1:at + 2] in _SIGNS else at + 1
        else:
            return None
        if text[end:end + 1] in _LABELS_ONLY:
            end += 1
            if text[end:end + 1] in _SIGNS:  # the lexer's LABEL_MOD (5M+)
                if end - at != 2 or char == "x" or char == "[":
                    raise _NotMine  # a slot that takes no LABEL_MOD: lexed otherwise
                end += 1
            if not labels:
                raise _NotMine  # a label inside (...) or after 'any': an error
        self.at = end
        key = (text[at:end], at)
        found = _ITEMS.get(key)
        if found is None:
            found = _ITEMS[key] = _make_item(key[0], at)
        return found

    # -- conditions ----------------------------------------------------------
    def expression(self, level: int, depth: int) -> ast.Expr:
        """The operators of ``_LEVELS[level:]``, left to right: an atom, then
        each operator of those levels with what binds tighter on its right
        (precedence climbing: the tree the grammar's level-by-level rules
        give, with one look for the operator after an operand, not one a
        level)."""
        left = self.atom(depth)
        while True:
            found = self.operator(depth)
            if found is None:
                return left
            op, op_at, before = found
            op_level = _LEVEL_OF[op]
            if op_level < level:
                self.at = before  # a looser operator: the caller's
                return left
            right = self.expression(op_level + 1, depth)
            if op_level <= 2:  # ',' '||' '&&' sit at their left operand
                left = ast.Binary("&&" if op == "," else op, left, right, left.pos)
            else:
                left = ast.Binary(op, left, right, _pos(op_at))

    def operator(self, depth: int) -> tuple[str, int, int] | None:
        """The next binary operator, where it is, and where it was looked
        for (to put it back); None at anything else, left unread."""
        before = self.at
        spaced = self.spaced_sign()
        if spaced is not None:
            if depth == 0:  # ends the condition: leave it to the list
                self.at = before
                return None
            return spaced, before, before
        self.blanks()
        text, at = self.text, self.at
        for op in _OPERATORS:
            if text.startswith(op, at):
                self.at = at + len(op)
                return op, at, before
        self.at = before
        return None

    def atom(self, depth: int) -> ast.Expr:
        self.blanks()
        text, at = self.text, self.at
        char = text[at:at + 1]
        if char == "(":
            if depth >= _MAX_DEPTH:
                raise _NotMine
            self.at = at + 1
            inner = self.expression(0, depth + 1)
            self.expect(")")
            return inner
        if char in _LABELS and char != "":
            if _word_char(text[at + 1:at + 2]):
                raise _NotMine
            self.at = at + 1
            return ast.Variable(_label(char), _pos(at))
        end = at
        while end < len(text) and text[end].isdigit() and text[end] in "0123456789":
            end += 1
        if end == at or _word_char(text[end:end + 1]):
            raise _NotMine
        self.at = end
        digits = text[at:end]
        # (imported here: a term without a condition, the console script's
        # everyday case, never loads the condition evaluator, issue 28)
        from dealerpp.shapes.condition import dealer_literal

        value = dealer_literal(digits)
        written = None if digits.lstrip("0") == str(value).lstrip("0") else digits
        return ast.Number(value, _pos(at), written)


def _word_char(char: str) -> bool:
    return char != "" and (char.isascii() and (char.isalnum() or char == "_"))


def _label(char: str) -> str:
    return char if char in ("M", "m") else char.lower()


def _make_item(written: str, at: int) -> ast.Item:
    """The item written ``written`` at offset ``at``: ``5``, ``5+M``, ``5M+``, ``[3-5]s``."""
    if written[-1] in _SIGNS and written[1] in _LABELS_ONLY:  # 5M+
        slot = _make_slot(written[0] + written[2], _pos(at))
        return ast.Item(slot, _label(written[1]), _pos(at), _pos(at + 1))
    label = written[-1] if written[-1] in _LABELS_ONLY else None
    if label is not None:
        written = written[:-1]
    slot = _ranged(written, _pos(at)) if written[0] == "[" else _make_slot(written, _pos(at))
    label_pos = None if label is None else _pos(at + len(written))
    return ast.Item(slot, None if label is None else _label(label), _pos(at), label_pos)


def _ranged(written: str, pos: ast.Pos) -> ast.Slot:
    """``[3-5]``, ``[35]``, ``[2-46]`` (no whitespace inside)."""
    inside = written[1:-1]
    lengths: set[int] = set()
    k = 0
    while k < len(inside):
        low = _VALUE.get(inside[k])
        if low is None:
            raise _NotMine
        if inside[k + 1:k + 2] == "-":
            high = _VALUE.get(inside[k + 2:k + 3] or "?")
            if high is None or high < low:
                raise _NotMine
            lengths.update(range(low, high + 1))
            k += 3
        else:
            lengths.add(low)
            k += 1
    if not inside:
        raise _NotMine
    return ast.Slot("range", frozenset(lengths), "[...]", pos)


def _make_slot(written: str, pos: ast.Pos) -> ast.Slot:
    if written == "x":
        return ast.Slot("any", frozenset(range(_MAX + 1)), "x", pos)
    n = _VALUE[written[0]]
    if len(written) == 1:
        return ast.Slot("exact", frozenset([n]), written, pos)
    if written[1] == "+":
        return ast.Slot("at_least", frozenset(range(n, _MAX + 1)), written, pos)
    return ast.Slot("at_most", frozenset(range(0, n + 1)), written, pos)
