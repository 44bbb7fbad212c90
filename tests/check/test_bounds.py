"""check's output stays in proportion to its input, whatever the input: one
error a line at most (more are counted), each warning once a line, at most
100 errors a file by default, and no recursion limit however deep."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.diagnostics import Diagnostic
from dealerpp.script.check import DEFAULT_MAX_ERRORS, check_text
from tests.conftest import examples, sized


def output_bytes(found: list[Diagnostic]) -> int:
    return sum(len(d.format()) + 1 for d in found)


def errors(found: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in found if d.severity == "error"]


def test_a_flood_of_stray_characters_is_one_error() -> None:
    text = "x = " + "@ " * 20_000 + "\n"
    found = check_text(text)
    assert [(d.line, d.column) for d in errors(found)] == [(1, 5)]
    assert output_bytes(found) < 3 * len(text)


def test_further_runs_of_bad_characters_are_counted() -> None:
    found = check_text("x = @ 1 @@ 2 @\n")
    assert [d.format().splitlines()[0] for d in found] == [
        "<stdin>:1:5: error: dealer does not accept the character '@' here",
        "<stdin>:1: note: 2 more errors on this line",
    ]


def test_at_most_max_errors_then_a_note() -> None:
    lines = 3 * DEFAULT_MAX_ERRORS
    text = "".join(f"x{i} = = {i}\n" for i in range(lines))
    found = check_text(text)
    assert len(errors(found)) == DEFAULT_MAX_ERRORS
    assert found[-1].message == "too many errors, stopping" and found[-1].severity == "note"
    assert len(errors(check_text(text, max_errors=5))) == 5
    assert len(errors(check_text(text, max_errors=0))) == lines


def test_a_warning_repeated_on_a_line_is_shown_once() -> None:
    text = "h = hcp(north)\ncondition " + " + ".join(["1 / h"] * 300) + " > 1\n"
    found = check_text(text)
    assert [d.severity for d in found] == ["warning", "note"]
    assert found[1].message == "299 more warnings like this one on this line"


# Locally a fifth of the depth or length (still well past Python's recursion
# limit), in full under CI.
@pytest.mark.parametrize("text", [
    "condition " + "!" * 5000 + "1\n",
    "condition " + "not " * 5000 + "1\n",
    pytest.param("s = 1\ncondition " + "s+" * 200_000 + "s > 3\n", marks=pytest.mark.slow),
    "condition " + "(" * sized(30_000, 6_000) + "1" + ")" * sized(30_000, 6_000) + "\n",
    "condition " + "1 ? " * sized(20_000, 4_000) + "1" + " : 0" * sized(20_000, 4_000) + "\n",
    "action " + ", ".join(["printall"] * sized(30_000, 6_000)) + "\n",
    "condition shape(north, " + " + ".join(["4333"] * sized(50_000, 10_000)) + ")\n",
], ids=["not-5000", "not-words-5000", "plus-200000", "parens", "ternary", "actions",
        "shape-list"])
def test_deep_and_long_expressions_never_hit_a_recursion_limit(text: str) -> None:
    for diagnostic in check_text(text):
        assert "internal error" not in diagnostic.message
        assert diagnostic.severity != "error" or "dealer's parser" in diagnostic.message


@pytest.mark.slow
def test_a_long_line_of_terms_is_read_whole() -> None:
    """Its time is measured in bench/bench_floods.py (a quadratic cost would
    also make this test take minutes)."""
    found = check_text("x = " + " + ".join(["hcp(north)"] * 100_000) + "\ncondition x > 10\n")
    assert [d for d in found if d.severity == "error"] == []


# Pieces of lines: good tokens, mistakes, DealerV2's constructs, comments.
PIECES = ["x", "y", "=", "==", "1", "13", "+", "/", "0", "(", ")", ",", "hcp(north)",
          "shape(north, 5xxx)", "condition", "action", "printall", "@", ";", "}", "$1", "1.5",
          "NS", "usereval(1, NS, 2)", "hpc(south)", 'title "t"', "seed 4", "# c", "// c",
          '"s"', "4294967306", "predeal", "north", "SA"]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=12), min_size=1, max_size=30),
       st.sampled_from([0, 3, DEFAULT_MAX_ERRORS]))
def test_diagnostics_are_bounded_per_line_and_per_file(lines: list[list[str]],
                                                         max_errors: int) -> None:
    text = "".join(" ".join(line) + "\n" for line in lines)
    found = check_text(text, "t.dl", max_errors=max_errors)
    found_errors = errors(found)
    assert all("internal error" not in d.message for d in found)
    if max_errors:
        assert len(found_errors) <= max_errors
    # Each message once a line; one syntax error a line at most.
    for severity in ("error", "warning"):
        shown = [(d.line, d.message) for d in found if d.severity == severity]
        assert len(shown) == len(set(shown))
    syntax_lines = [d.line for d in found_errors if d.message.startswith("syntax error")]
    assert len(syntax_lines) == len(set(syntax_lines))
    # Each line's diagnostics quote that line only: the output is linear in it.
    line_count = text.count("\n")
    assert all(d.line is None or 1 <= d.line <= line_count + 1 for d in found)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12))
def test_output_grows_linearly_with_repeated_lines(line: list[str]) -> None:
    """Ten times the lines, about ten times the output (longer line numbers
    make it a little more); a quadratic output would be a hundred times."""
    once = " ".join(line) + "\n"
    small = output_bytes(check_text(once * 20, "t.dl", max_errors=0))
    large = output_bytes(check_text(once * 200, "t.dl", max_errors=0))
    assert large <= 11 * small + 2000
