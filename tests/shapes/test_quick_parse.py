"""The hand-written reader (``shapes/quick_parse.py``) against the LALR
parser, the second reader of the same grammar: wherever the quick reader
answers, its AST equals the LALR parser's, positions and all; wherever the
LALR parser finds an error, the quick reader leaves the text to it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dealerpp.diagnostics import DppError
from dealerpp.shapes.parser import parse_call, parse_lalr
from dealerpp.shapes.quick_parse import parse_quick
from tests.conftest import examples

SETTINGS = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces of the language, and near misses drawn now and then: every token
# kind, spaced and unspaced signs, labels of both cases, words the lexer knows.
def _mostly(good: list[str], near: list[str]) -> st.SearchStrategy[str]:
    return st.integers(0, 9).flatmap(lambda k: st.sampled_from(near if k == 9 else good))


SLOTS = _mostly(["5", "0", "T", "K", "x", "x", "4+", "7-", "[3-5]", "[35]", "9", "Q+"],
                ["[5-3]", "[]", "[3 -5]", "x+", "[1+]", "t"])
LABELS = _mostly(["", "", "", "", "s", "h", "d", "c", "M", "m", "S", "D"], ["M+", "s-", "Ms", "x"])
BLANKS = _mostly(["", "", "", " "], ["  ", "\t", "\n"])
SIGNS = _mostly(["+", "-", " + ", " - "], [" +", "- ", "\t+ ", "+-"])
ATOMS = _mostly(["s", "h", "d", "c", "M", "m", "H", "10", "7", "0"],
                ["007", "4294967306", "x", "sh", "4h", "-1", "!s", "not s", "T"])
OPERATORS = _mostly(["+", "-", " + ", " - ", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=",
                     "&&", "||", ","], [" and ", " or ", "=", "?", "! ", ":"])


@st.composite
def conditions(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 5)) == 0:
            parts.append("(" + draw(conditions(depth + 1)) + ")")
        else:
            parts.append(draw(ATOMS))
    text = parts[0]
    for part in parts[1:]:
        text += draw(BLANKS) + draw(OPERATORS) + draw(BLANKS) + part
    return text


@st.composite
def patterns(draw: st.DrawFn) -> str:
    items = [draw(SLOTS) + draw(LABELS) for _ in range(draw(st.integers(1, 5)))]
    text = draw(BLANKS).join(items)
    if draw(st.booleans()):
        group = [draw(SLOTS) + draw(_mostly([""], ["s"])) for _ in range(draw(st.integers(1, 4)))]
        text = text * draw(st.integers(0, 1)) + draw(BLANKS) + "(" + draw(BLANKS).join(group) + ")"
    if draw(st.integers(0, 6)) == 0:
        text = "any" + draw(BLANKS) + "".join(draw(SLOTS) for _ in range(4))
    if draw(st.integers(0, 2)) == 0:
        text += draw(BLANKS) + ":" + draw(BLANKS) + draw(conditions())
    return text


@st.composite
def shape_lists(draw: st.DrawFn) -> str:
    text = draw(_mostly([""], ["+", " - ", "-"])) + draw(patterns())
    for _ in range(draw(st.integers(0, 3))):
        text += draw(SIGNS) + draw(patterns())
    return text


@st.composite
def calls(draw: st.DrawFn) -> str:
    compass = draw(_mostly(["north", "south", "east", "west"], ["North", "any", "n0rth", "x"]))
    blank = draw(BLANKS)
    closer = draw(_mostly(["}", "} "], ["}}", "", "} x", ")"]))
    return f"{blank}shape{draw(BLANKS)}{{{compass}{blank},{draw(BLANKS)}{draw(shape_lists())}{closer}"


def _lalr(text: str, start: str) -> object:
    try:
        return parse_lalr(text, start)
    except (DppError, RecursionError) as error:
        return error


def _agree(text: str, start: str) -> None:
    quick = parse_quick(text, start)
    if quick is not None:
        assert quick == _lalr(text, start), text


@SETTINGS
@given(calls())
@example("shape{north, 5+M4+m(xx):s>h,c+d>=7 - x(x[3-8]) + 5M+xxx}")
@example("shape{north, xxxx:(s + h) - 7 > d - 5xxx}")
@example("shape{north, 5xxx:s>h +4333}")
def test_the_readers_agree_on_calls(text: str) -> None:
    _agree(text, "call")


@SETTINGS
@given(shape_lists())
@example("4333+5xxx")
@example("any 4432 + 5xxx:s*2>=h%3||c!=0&&d<4")
def test_the_readers_agree_on_bodies(text: str) -> None:
    _agree(text, "body")


@SETTINGS
@given(st.text(alphabet="5x+- ()[]:,shdcMm{}<>=!&|any", max_size=30))
def test_the_readers_agree_on_any_text(text: str) -> None:
    _agree(text, "body")
    _agree(f"shape{{north, {text}}}", "call")


@pytest.mark.parametrize("text", [
    "shape{north, 5+M(xxx)}", "shape{south, 4+c3+d(2+2+)}", "shape{north, any 4432}",
    "shape{east, x[3-5]x[13]:s>h,c+d>=7 - (4333)}", "shape{west, 5M5m(xx) + 6m(322)}",
])
def test_everyday_text_takes_the_quick_path(text: str) -> None:
    quick = parse_quick(text, "call")
    assert quick is not None
    assert quick == parse_lalr(text, "call") == parse_call(text)
