"""What completion offers where: statements at the start of a statement,
actions in an action list, functions, variables and a shape{} snippet in
an expression, seats where a seat goes, suits where a suit goes."""

from __future__ import annotations

import re

from dealerpp.editor import knowledge
from dealerpp.editor.outline import COMMENTS, Outline

# Kinds of completion items (the protocol's CompletionItemKind numbers are
# the server's business; these are ours).
KEYWORD, FUNCTION, VARIABLE, VALUE, SNIPPET = "keyword", "function", "variable", "value", "snippet"

# Functions whose first argument is a seat, and those with a suit after it.
_SEAT_FIRST = frozenset(("HCP", "PT", "LOSER", "CONTROL", "CCCC", "QUALITY", "SHAPE", "HASCARD",
                         "TRICKS", "SUIT", "PRINT"))
_SUIT_SECOND = frozenset(("HCP", "PT", "LOSER", "CONTROL", "QUALITY", "TRICKS"))
# After these a statement is complete, so a new line may start another.
_ENDS_OPERAND = frozenset(("NUMBER", "DISTR_OR_NUMBER", "IDENT", "RPAR", "COMPASS", "SHAPE_BLOCK",
                           "STRING", "HOLDING", "VULNERABLE", "PRINTALL", "PRINTEW", "PRINTPBN",
                           "PRINTCOMPACT", "PRINTONELINE", "EVALCONTRACT", "DISTR", "CARD",
                           "CONTRACT"))
_WORD_BEFORE = re.compile(r"[A-Za-z0-9_]*\Z")
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
SHAPE_SNIPPET = "shape{${1|north,east,south,west|}, ${2:5+M(xxx)}}"
SHAPE_PLAIN = "shape{north, }"


class Item:
    """One completion: what it shows, what it inserts, its kind and its line."""

    __slots__ = ("detail", "insert", "kind", "label", "snippet")

    def __init__(self, label: str, kind: str, detail: str | None = None,
                 insert: str | None = None, snippet: bool = False) -> None:
        self.label, self.kind, self.detail = label, kind, detail
        self.insert, self.snippet = insert, snippet


def completions(outline: Outline, offset: int) -> tuple[int, list[Item]]:
    """The items for the word being typed at ``offset``, and where that word
    starts (the items replace it)."""
    text = outline.text
    line_start = text.rfind("\n", 0, offset) + 1
    typed = _WORD_BEFORE.search(text, max(line_start, offset - 200), offset)
    word_start = typed.start() if typed else offset
    inside = outline.token_at(word_start)
    if inside is not None and inside.type in COMMENTS | {"STRING"} and \
            (inside.start_pos or 0) < word_start < (inside.end_pos or 0) + (
                0 if inside.type == "STRING" else 1):
        return word_start, []
    if inside is not None and inside.type == "SHAPE_BLOCK" and \
            (inside.start_pos or 0) < word_start < (inside.end_pos or 0):
        body = text[inside.start_pos or 0:word_start]
        return word_start, _seats() if "," not in body else []
    return word_start, _for_context(outline, word_start, line_start)


def _for_context(outline: Outline, offset: int, line_start: int) -> list[Item]:
    before = outline.token_before(offset)
    if before is None:
        return _statements()
    kind = before.type
    call = _open_call(outline, offset)
    if kind in ("DEALER", "PREDEAL"):
        return _seats()
    if kind == "VULNERABLE" and str(before) == "vulnerable":
        return [Item(word, VALUE, knowledge.OTHER_WORDS[word]) for word in ("none", "NS", "EW",
                                                                             "all")]
    if call is not None:
        function, argument = call
        if function in _SEAT_FIRST and argument == 0:
            return _seats()
        if function in _SUIT_SECOND and argument == 1:
            suits = [*SUIT_WORDS, "notrump"] if function == "TRICKS" else list(SUIT_WORDS)
            return [Item(suit, VALUE, f"{suit}: a suit") for suit in suits]
        if function == "SCORE" and argument == 0:
            return [Item(word, VALUE, knowledge.OTHER_WORDS[word]) for word in ("nv", "vul")]
    statement = outline.statement_at(offset)
    in_action = statement is not None and statement.kind == "action"
    if in_action and (kind == "ACTION" or (kind == "COMMA" and call is None)):
        return _actions()
    if kind in _ENDS_OPERAND and (before.end_pos or 0) <= line_start:
        # A complete statement on an earlier line: a new one may start here.
        return [*_statements(), *(_actions() if in_action else [])]
    if kind in _ENDS_OPERAND:
        return []
    return _expression(outline, offset)


def _open_call(outline: Outline, offset: int) -> tuple[str, int] | None:
    """The function whose parentheses ``offset`` stands in, and the index of
    the argument being written, or None outside a call."""
    depth, commas = 0, 0
    code = [t for t in outline.tokens if (t.end_pos or 0) <= offset and t.type not in COMMENTS]
    for index in range(len(code) - 1, max(-1, len(code) - 400), -1):
        kind = code[index].type
        if kind == "RPAR":
            depth += 1
        elif kind == "LPAR":
            if depth == 0:
                name = code[index - 1].type if index > 0 else None
                return (name, commas) if name else None
            depth -= 1
        elif kind == "COMMA" and depth == 0:
            commas += 1
        elif kind in ("CONDITION", "ACTION", "EQUAL") and depth == 0:
            return None
    return None


def _statements() -> list[Item]:
    return [Item(word, KEYWORD, line) for word, line in knowledge.STATEMENTS.items()]


def _actions() -> list[Item]:
    return [Item(word, KEYWORD, line) for word, line in knowledge.ACTIONS.items()]


def _seats() -> list[Item]:
    return [Item(seat, VALUE, "a seat") for seat in knowledge.SEATS]


def _expression(outline: Outline, offset: int) -> list[Item]:
    items = [Item(name, FUNCTION, line, insert=f"{name}($1)", snippet=True)
             for name, line in knowledge.FUNCTIONS.items()]
    current = outline.statement_at(offset)
    for name in outline.names():
        statement = outline.definition_of(name)
        if statement is not None and statement.start < offset and statement is not current:
            items.append(Item(name, VARIABLE, outline.statement_text(statement, 80)))
    items.append(Item("shape{}", SNIPPET, knowledge.SHAPE_BLOCK, insert=SHAPE_SNIPPET,
                      snippet=True))
    items.append(Item("not", KEYWORD, knowledge.OTHER_WORDS["not"]))
    return items
