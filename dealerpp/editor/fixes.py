"""Quick fixes for what check reports: each looks at the text where a
diagnostic points (never at its message) and, when the mistake there is
one it knows, offers the edit check's hint describes.

- a misspelt statement, function or variable: the close word, found with
  the same vocabulary (``check.facts``) and the same closeness as check's
  "did you mean";
- ``#`` where dealer takes no comment: ``//``;
- ``=`` in a condition: ``==``;
- a seat written with capitals (``North``): in lower case;
- DealerV2's ``title`` or ``seed``: the line made a comment;
- ``or`` where a truth value is used as a number (check's
  ``truth-as-number``): ``+``;
- ``a <= b <= c`` (check's ``chained-comparison``): ``a <= b && b <= c``.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

from dealerpp.editor.outline import COMMENTS, Outline
from dealerpp.script.check.facts import DEALERV2_STATEMENTS, FUNCTIONS, SEATS, STATEMENT_WORDS

TRUTH_AS_NUMBER = "truth-as-number"  # check's code for a truth value used as a number
CHAINED_COMPARISON = "chained-comparison"  # check's code for `a < b < c`
_COMPARISONS = frozenset(("LT", "LE", "GT", "GE", "EQ", "NE"))
# The closeness check asks of a misspelt statement word or variable.
_CLOSE = 0.75
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Fix:
    """A title and the edits (start, end, new text) that make the fix."""

    __slots__ = ("edits", "preferred", "title")

    def __init__(self, title: str, edits: list[tuple[int, int, str]],
                 preferred: bool = True) -> None:
        self.title, self.edits, self.preferred = title, edits, preferred


def fixes_at(outline: Outline, start: int, code: str | None) -> list[Fix]:
    """The fixes for a diagnostic of ``code`` that points at offset ``start``."""
    if code == TRUTH_AS_NUMBER:
        return _truth_as_number(outline, start)
    if code == CHAINED_COMPARISON:
        return _chained_comparison(outline, start)
    token = outline.token_at(start)
    if token is not None and token.type == "SHAPE_BLOCK":
        return _in_shape_block(outline, start)
    if token is None or (token.start_pos or 0) != start:
        return []
    where = (start, token.end_pos or start)
    word = str(token)
    if (token.type == "BAD_CHAR" and word == "#") or token.type == "HASH_COMMENT":
        return [Fix("Write the comment with // (dealer takes # only in column 1)",
                    [(start, start + 1, "//")])]
    if token.type == "EQUAL" and not _is_assignment(outline, token.start_pos or 0):
        return [Fix("Compare with ==", [(*where, "==")])]
    if word in DEALERV2_STATEMENTS:
        line_start = outline.text.rfind("\n", 0, start) + 1
        return [Fix(f"Make the `{word}` line a comment", [(line_start, line_start, "// ")])]
    if not word.isidentifier():
        return []
    if word.lower() in SEATS and word != word.lower():
        return [Fix(f"Write `{word.lower()}`", [(*where, word.lower())])]
    close = _close_word(outline, token.start_pos or 0, word)
    return [Fix(f"Change `{word}` to `{close}`", [(*where, close)])] if close else []


def _in_shape_block(outline: Outline, start: int) -> list[Fix]:
    """In a shape{} block, a seat written with capitals."""
    found = _WORD.match(outline.text, start)
    word = found.group() if found else ""
    if word.lower() in SEATS and word != word.lower():
        return [Fix(f"Write `{word.lower()}`", [(start, start + len(word), word.lower())])]
    return []


def _close_word(outline: Outline, start: int, word: str) -> str | None:
    following = _next_code(outline, start)
    before = outline.token_before(start)
    if following is not None and following.type == "LPAR":
        found = get_close_matches(word, FUNCTIONS, n=1)
    elif before is None or (before.end_line or 0) < outline.text.count("\n", 0, start) + 1:
        found = get_close_matches(word, list(STATEMENT_WORDS), n=1, cutoff=_CLOSE)
        if not found:
            found = get_close_matches(word, _defined_before(outline, start), n=1, cutoff=_CLOSE)
    else:
        found = get_close_matches(word, _defined_before(outline, start), n=1, cutoff=_CLOSE)
    return found[0] if found and found[0] != word else None


def _defined_before(outline: Outline, start: int) -> list[str]:
    return [name for name, statements in outline.definitions.items()
            if statements[0].start < start]


def _next_code(outline: Outline, start: int):  # type: ignore[no-untyped-def]
    token = outline.token_at(start)
    if token is None:
        return None
    found = False
    for candidate in outline.tokens_from(token.start_pos or 0):
        if found and candidate.type not in COMMENTS:
            return candidate
        found = found or candidate is token
    return None


def _is_assignment(outline: Outline, offset: int) -> bool:
    statement = outline.statement_at(offset)
    return (statement is not None and statement.kind == "assignment"
            and statement.name is not None and statement.name.end_pos is not None
            and outline.text[statement.name.end_pos:offset].strip() == "")


def _truth_as_number(outline: Outline, start: int) -> list[Fix]:
    """The ``or`` whose truth value is used as a number: in the statement
    check points at, or else in the definitions of the variables it uses
    (``lp = lp1 or lp2`` then ``i = hcp(south) + lp``); offered when there
    is exactly one, so that the fix is never a guess."""
    statement = outline.statement_at(start)
    if statement is None:
        return []
    tokens = outline.code_tokens(start, statement.end)
    found = [token for token in tokens if token.type == "OR"]
    if not found:
        for name in dict.fromkeys(str(t) for t in tokens if t.type == "IDENT"):
            definition = outline.definition_of(name)
            if definition is not None and definition is not statement:
                found += [token for token in outline.code_tokens(definition.start,
                                                                 definition.end)
                          if token.type == "OR"]
    if len(found) != 1:
        return []
    (word,) = found
    line = outline.text.count("\n", 0, word.start_pos or 0) + 1
    return [Fix(f"Add with + instead of `{word}` (line {line})",
                [(word.start_pos or 0, word.end_pos or 0, "+")])]


def _chained_comparison(outline: Outline, start: int) -> list[Fix]:
    """``10 <= hcp(north) <= 12`` from ``start``: the middle operand said
    twice, joined by ``&&`` (which binds less tightly than a comparison)."""
    statement = outline.statement_at(start)
    if statement is None:
        return []
    depth, operators = 0, []
    for token in outline.code_tokens(start, statement.end):
        depth += (token.type == "LPAR") - (token.type == "RPAR")
        if depth < 0 or (depth == 0 and token.type in ("AND", "OR", "QMARK", "COLON", "COMMA")):
            break
        if depth == 0 and token.type in _COMPARISONS:
            operators.append(token)
    if len(operators) != 2:
        return []
    first, second = operators
    middle = outline.text[first.end_pos or 0:second.start_pos or 0].strip()
    if not middle:
        return []
    where = second.start_pos or 0
    return [Fix(f"Compare twice: `... {first} {middle} && {middle} {second} ...`",
                [(where, where, f"&& {middle} ")])]
