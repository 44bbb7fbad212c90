"""The plain call (``compiler._plain_call``: a one-pattern ``shape{...}``
read and expanded with no AST) against the reader and the expander, the
second way to the same answer: wherever the plain path answers, its compass
and set are the ones the reader and the expander give, with no warning and
no error; everything else is left to them."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dealerpp.diagnostics import DppError
from dealerpp.shapes import compiler
from dealerpp.shapes.expand import expand_mask
from dealerpp.shapes.parser import parse_call
from dealerpp.shapes.universe import INDEX
from tests.conftest import examples
from tests.shapes.oracle import all_shapes, random_pattern
from tests.shapes.test_quick_parse import calls

SETTINGS = settings(max_examples=examples(500), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _reference(text: str) -> object:
    """What the reader and the expander make of ``text``: (compass, mask,
    warnings), or the error."""
    try:
        call = parse_call(text)
        compiler._check_compass(call, text)
        mask, warnings = expand_mask(call.shapes, text)
    except (DppError, RecursionError) as error:
        return error
    return call.compass, mask, warnings


def _agree(text: str) -> None:
    plain = compiler._plain_call(text)
    if plain is not None:
        assert (*plain, []) == _reference(text), text


# Plain patterns, mostly: slots, labels of every kind, a group, and now and
# then a piece the plain path must leave alone (a blank, a sign after a
# label, a condition, a bad range, a label inside the group).
SLOTS = st.sampled_from(["5", "0", "3", "4", "T", "K", "x", "x", "4+", "7-", "0-", "K+", "[3-5]",
                         "[35]", "[0-2]", "[2-46]", "9", "Q+", "2-", "[5-3]", "[5-34]", "[]", "[3-]", "[", "[3"])
LABELS = st.sampled_from(["", "", "", "", "s", "h", "d", "c", "M", "m", "M", "m", "S", "D",
                          "M+", "s-", " "])
ODD = st.sampled_from(["", "", "", "", "", "", " ", ":s>h", "s", "+", ")", "(", "x:c<4"])


@st.composite
def plain_calls(draw: st.DrawFn) -> str:
    items = "".join(draw(SLOTS) + draw(LABELS) for _ in range(draw(st.integers(0, 4))))
    if draw(st.booleans()):
        items += "(" + "".join(draw(SLOTS) for _ in range(draw(st.integers(1, 4)))) + ")"
    compass = draw(st.sampled_from(["north", "south", "east", "west", "North", "nord"]))
    blank = draw(st.sampled_from(["", " ", "  ", "\t", "\n"]))
    return f"shape{{{compass},{blank}{items}{draw(ODD)}{draw(st.sampled_from(['', ' ']))}}}"


@SETTINGS
@given(plain_calls())
@example("shape{north, 5+M1m(7-[1-8])}")
@example("shape{west, xc4-d7x}")
@example("shape{east, 4s(xxx):h<5}")
@example("shape{north, MMxx}")
@example("shape{north, 5Mh(xx)}")
@example("shape{north, 4333}")
def test_the_plain_path_agrees_on_plain_calls(text: str) -> None:
    _agree(text)


@SETTINGS
@given(calls())
def test_the_plain_path_agrees_on_any_call(text: str) -> None:
    _agree(text)


@pytest.mark.parametrize("text", [
    "shape{north, 5+x(x[3-8])}", "shape{south, 1+M1m(7-[1-8])}", "shape{east, xM(1-42)}",
    "shape{west, xc4-d7x}", "shape{north, (4432)}", "shape{north, 5M5m(xx)}",
    "shape{north,\t5s4h(xx) }", "shape{north, 4+s4+h(xx)}", "shape{north, [2-46]sxMxx}",
])
def test_everyday_calls_take_the_plain_path(text: str) -> None:
    """The plain path answers these (the tests above would pass if it never
    answered), as the reader and the expander do."""
    plain = compiler._plain_call(text)
    assert plain is not None
    assert (*plain, []) == _reference(text)


def test_the_plain_path_matches_the_oracle() -> None:
    """Patterns drawn by the oracle (tests/shapes/oracle.py), whose sets it
    finds shape by shape: the plain path answers most (not ``5M+``, which
    it leaves to the reader), and every answer is the oracle's set."""
    rng = random.Random(2028)
    shapes = all_shapes()
    answered = 0
    for _ in range(examples(300)):
        spec = random_pattern(rng)
        text = f"shape{{north, {spec.text(rng)}}}"
        plain = compiler._plain_call(text)
        expected = sum(1 << INDEX[shape] for shape in shapes
                       if spec.matches(shape))
        if plain is not None:
            answered += 1
            assert plain == ("north", expected), text
    assert answered >= examples(300) // 2


@pytest.mark.parametrize("text", [
    "shape{north, 5+x(x[3-8]):s>h}", "shape{north, 5xxx + 4333}", "shape{north, 4432 }x",
    "shape{north, 5s5s(xx)}", "shape{north, MMMx}", "shape{north, 9xxx(x)}", "shape{north, 7+x7+x}",
    "shape{north, 4333 }", "shape{North, 4333}", "shape{north, 4 333}", "shape{north, 5M+xxx}",
    "shape{north, 0000}", "shape{north, any 4333}", "shape {north, 4333}", "shape{north, xx(xs)}",
    "shape{north, 5x(xx}", "shape{north, 5x(xxx}", "shape{north, 5xxx()}", "shape{north, [5-34]xxx}",
    "shape{north, sMMx}", "shape{north, x[]xx}", "shape{north, 6[+xxx}", "shape{north, xxx[3}",
])
def test_anything_else_is_left_to_the_reader(text: str) -> None:
    """Texts that warn, fail or need the reader's rules are not answered here
    ("4333 " with a blank before the brace is, and is the reader's too)."""
    if text == "shape{north, 4333 }":
        assert compiler._plain_call(text) == ("north", compiler.compile_shape(text).shapes.mask)
        return
    assert compiler._plain_call(text) is None
