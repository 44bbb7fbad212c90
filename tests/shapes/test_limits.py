"""Deep, long and huge shape{} input (issue 11 point 3, issue 18 points 1-2):
a result or a DppError at the culprit, never a RecursionError, a ValueError
or an unbounded message; integer literals read as dealer reads them.

Expected sets come from brute force over the 560 shapes, with the
expression's value worked out here step by step; dealer's reading of
literals is checked against the real dealer.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp import DppError, ShapeSet, expand
from dealerpp.shapes.compiler import compile_shape
from dealerpp.shapes.condition import dealer_literal
from dealerpp.shapes.parser import MAX_PATTERN_SLOTS
from tests.conftest import examples, sized
from tests.shapes.oracle import all_shapes

SHAPES = all_shapes()
SUITS = "shdc"
INT_MIN = -(2**31)
DEEP = settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute(predicate) -> ShapeSet:
    return ShapeSet.of(shape for shape in SHAPES if predicate(shape))


def int32(value: int) -> int:
    """Written out independently of the code under test: C's int wrap-around."""
    value %= 2**32
    return value - 2**32 if value >= 2**31 else value


# --- deep and long conditions, built structurally -------------------------------


@DEEP
@given(st.lists(st.sampled_from("-!+"), min_size=1, max_size=3000),
       st.sampled_from(SUITS), st.integers(-2, 3))
def test_unary_chains_of_any_length(ops: list[str], suit: str, bound: int) -> None:
    def value(length: int) -> int:
        result = length
        for op in reversed(ops):  # the innermost operator applies first
            result = {"-": -result, "!": int(not result), "+": result}[op]
        return result

    holds = {length: value(length) > bound for length in range(14)}
    expected = brute(lambda shape: holds[shape[SUITS.index(suit)]])
    assert expand(f"xxxx:{''.join(ops)}{suit}>{bound}") == expected


@DEEP
@given(st.lists(st.tuples(st.sampled_from("+-"), st.sampled_from([*SUITS, "1", "7"])),
                max_size=2000),
       st.integers(0, 40), st.integers(0, 30))
def test_additive_chains_and_parentheses(steps: list[tuple[str, str]], bound: int,
                                         depth: int) -> None:
    # The sum is linear: a coefficient per suit plus a constant, added up once.
    coefficient, constant = {"s": 1, "h": 0, "d": 0, "c": 0}, 0
    for op, name in steps:
        sign = 1 if op == "+" else -1
        if name in SUITS:
            coefficient[name] += sign
        else:
            constant += sign * int(name)

    def value(shape: tuple[int, ...]) -> int:
        return constant + sum(coefficient[suit] * n for suit, n in zip(SUITS, shape, strict=True))

    chain = "s" + "".join(op + name for op, name in steps)
    text = "xxxx:" + "(" * depth + chain + ")" * depth + f">{bound}"
    assert expand(text) == brute(lambda shape: value(shape) > bound)


@pytest.mark.parametrize("count", [1_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_many_unary_minus_signs(count: int) -> None:
    # An even count cancels out (s > 0); an odd one gives -s > 0, never true.
    expected = brute(lambda shape: shape[0] > 0) if count % 2 == 0 else ShapeSet.of([])
    assert expand("xxxx:" + "-" * count + "s>0") == expected
    assert expand("xxxx:" + "-" * (count + 1) + "s>0") == (
        brute(lambda shape: shape[0] > 0) if count % 2 else ShapeSet.of([]))


@pytest.mark.parametrize("terms", [999, pytest.param(50_000, marks=pytest.mark.slow)])
def test_long_sums(terms: int) -> None:
    text = "xxxx:" + "+".join(["s"] * terms) + ">3"
    assert expand(text) == brute(lambda shape: terms * shape[0] > 3)


def test_deep_parentheses_and_ternaries() -> None:
    # Locally a few times Python's recursion limit, in full under CI.
    depth = sized(20_000, 4_000)
    assert expand("xxxx:" + "(" * depth + "h" + ")" * depth + ">5") == brute(
        lambda shape: shape[1] > 5)
    # s>3 ? (s>3 ? (... ? 1 : 0) : 0) : 0, nested 5,000 deep, is s>3.
    nested = "1"
    for _ in range(sized(5_000, 2_000)):
        nested = f"(s>3?{nested}:0)"
    assert expand("xxxx:" + nested) == brute(lambda shape: shape[0] > 3)


def test_long_conjunctions_and_disjunctions() -> None:
    conjunction = ",".join(f"{suit}<{9 + i % 3}"
                           for i, suit in enumerate(SUITS * sized(2_000, 500)))
    assert expand("xxxx:" + conjunction) == brute(lambda shape: max(shape) < 9)
    disjunction = " or ".join(f"{suit}=={n}" for n in range(7, 14) for suit in SUITS)
    assert expand("xxxx:" + disjunction) == brute(lambda shape: max(shape) >= 7)


def test_grouping_parentheses_in_a_union_are_an_error() -> None:
    # The language has no parentheses around terms: '((' is a clean error.
    with pytest.raises(DppError) as caught:
        expand("(" * 1_000 + "4432" + ")" * 1_000)
    assert (caught.value.line, caught.value.column) == (1, 2)


# --- integer literals, as dealer reads them -----------------------------------


@pytest.mark.parametrize(("literal", "value"), [
    ("10", 10),
    ("4294967306", 10),                     # past 32 bits: the low 32 bits
    ("2147483648", INT_MIN),
    ("4294967295", -1),
    ("9223372036854775807", -1),            # LONG_MAX: low 32 bits all ones
    ("9223372036854775808", -1),            # strtol saturates at LONG_MAX
    ("9" * 5_000, -1),
    ("0" * 5_000 + "4294967306", 10),       # leading zeros never overflow
    ("0", 0),
])
def test_dealer_literal(literal: str, value: int) -> None:
    assert dealer_literal(literal) == value


@given(st.integers(0, 2**70))
def test_dealer_literal_is_strtol_then_int(number: int) -> None:
    assert dealer_literal(str(number)) == int32(min(number, 2**63 - 1))


@pytest.mark.parametrize(("literal", "meaning"), [
    ("4294967306", lambda s: s < 10),
    ("2147483648", lambda s: s < INT_MIN),
    ("9" * 5_000, lambda s: s < -1),
    ("0" * 5_000 + "7", lambda s: s < 7),
])
def test_conditions_use_dealers_reading(literal: str, meaning) -> None:
    compiled = compile_shape(f"xxxx:s<{literal}")
    assert compiled.shapes == brute(lambda shape: meaning(shape[0]))
    warned = [w.message for w in compiled.warnings if "dealer reads" in w.message]
    if literal.lstrip("0") == str(dealer_literal(literal)):
        assert warned == []
    else:
        assert len(warned) == 1 and len(warned[0]) < 200
        assert warned[0].startswith("dealer reads the number '")
        assert warned[0].endswith(f"' as {dealer_literal(literal)} (a 32-bit int), "
                                  "and so does this condition")


def test_arithmetic_wraps_at_32_bits() -> None:
    # 65536 * 65536 is 0 in a 32-bit int, as dealer computes it.
    assert expand("xxxx:65536*65536+s==s") == brute(lambda shape: True)
    assert expand("xxxx:2147483647+1<0") == brute(lambda shape: True)


@pytest.mark.dealer
@pytest.mark.parametrize("literal", ["10", "4294967306", "2147483648", "2147483647",
                                     "4294967295", "9223372036854775807",
                                     "9223372036854775808", "99999999999999999999999",
                                     "0" * 50 + "4294967306"])
def test_dealer_literal_matches_the_real_dealer(dealer_bin: str, literal: str) -> None:
    """dealer prints 0 for LITERAL - (our value): our value is dealer's, exactly."""
    from tests.conftest import run_dealer

    ours = dealer_literal(literal)
    ours_text = f"({ours})" if ours >= 0 else f"(0 - {-(ours + 1)} - 1)"
    script = f"produce 1\naction average ({literal} - {ours_text})\n"
    done = run_dealer(dealer_bin, script, "-s", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].strip() == "0"


# --- division by zero, many times: one short warning ---------------------------


def test_repeated_division_by_zero_gives_one_bounded_warning() -> None:
    terms = sized(2_900, 700)
    text = " + ".join(["xxxx:13/s>3"] * terms)
    compiled = compile_shape(text)
    assert compiled.shapes == brute(lambda shape: shape[0] > 0 and 13 // shape[0] > 3)
    assert [w.message for w in compiled.warnings] == [
        "division by zero: the condition is false for shapes where the divisor is 0 "
        f"(and {terms - 1} more like this)"]
    assert len(compiled.warnings[0].format()) < 600


def test_division_reached_only_where_c_reaches_it() -> None:
    # s>0 && 13/s>3 never divides by zero: no warning.
    compiled = compile_shape("xxxx:s>0 && 13/s>3")
    assert compiled.warnings == []
    assert compiled.shapes == brute(lambda shape: shape[0] > 0 and 13 // shape[0] > 3)


# --- long patterns and ranges ----------------------------------------------------


@pytest.mark.parametrize("digits", [10_000, 100_000, 3_000_000])
def test_long_pattern_line_is_a_prompt_bounded_error(digits: int) -> None:
    text = "shape{north, 44" + "1" * digits + "}"
    with pytest.raises(DppError) as caught:
        compile_shape(text)
    error = caught.value
    assert (error.line, error.column) == (1, 14)
    assert error.message == ("a pattern needs exactly 4 suit lengths, this one has more than "
                             f"{MAX_PATTERN_SLOTS}")
    assert len(str(error)) < 800


def test_pattern_just_over_four_slots_still_counts_exactly() -> None:
    with pytest.raises(DppError) as caught:
        expand("4" + "1" * (MAX_PATTERN_SLOTS - 1))
    assert caught.value.message.endswith(f"this one has {MAX_PATTERN_SLOTS}")


def test_long_range_is_an_error() -> None:
    with pytest.raises(DppError) as caught:
        expand("[" + "3" * 100_000 + "]xxx")
    assert "range lists more than" in caught.value.message


# --- the command line: exit 1 and a short, clean message --------------------------


def run_expand(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dealerpp", "expand", *args],
                          capture_output=True, text=True, timeout=120,
                          errors="surrogateescape")


@pytest.mark.sampled(2)
@pytest.mark.parametrize("text", [
    "shape{north, 44" + "1" * 100_000 + "}",
    "xxxx:" + "(" * 30_000 + "s>3",
    "xxxx:s>" + "9" * 5_000 + "%",
    "44\x1b[2J" + "3" * 50_000 + "2",
    "4432 + " * 10_000 + "44%2",
])
def test_cli_rejects_huge_input_cleanly(text: str) -> None:
    done = run_expand(text)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.startswith("1:") and ": error: " in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert len(done.stderr) < 2_000
    assert "\x1b" not in done.stderr


# Through the command, a process a case; the two long ones (seconds of CPU)
# in the slow tier, as in-process tests above hold the compiler to them.
@pytest.mark.parametrize(("text", "holds"), [
    pytest.param("xxxx:" + "-" * 100_000 + "s>0", lambda s: s > 0, marks=pytest.mark.slow),
    pytest.param("xxxx:" + "+".join(["s"] * 50_000) + ">3", lambda s: s > 0,
                 marks=pytest.mark.slow),
    ("xxxx:s<" + "9" * 5_000, lambda s: s < -1),
])
def test_cli_accepts_deep_and_long_expressions(text: str, holds) -> None:
    done = run_expand("--count", text)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(len(brute(lambda shape: holds(shape[0]))))
    assert len(done.stderr) < 1_000
