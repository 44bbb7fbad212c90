"""check and the preprocessor read a script with the one lexer and compile
its shape{} blocks with the one compiler, so they agree: where preprocessing
fails, check reports the same error at the same place, and the compiler's
warnings are the same; where it succeeds, check finds no error in the
block."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import DppError
from dealerpp.diagnostics import Diagnostic
from dealerpp.script.check import check_text
from dealerpp.script.check.findings import CODES as LOGIC_CODES
from dealerpp.script.check.report import ERROR_LIMIT, MORE_ERRORS
from dealerpp.script.rewrite import preprocess_script
from tests.conftest import examples

SLOTS = st.sampled_from(["0", "1", "3", "4", "5", "x", "5+", "2-", "[2-4]", "13", "9"])
TERM = st.builds(lambda slots, condition: "".join(slots) + condition,
                 st.lists(SLOTS, min_size=3, max_size=5),
                 st.sampled_from(["", ":s>h", ":13/s>3", ":h>=d,c<3", ":s+h>=9"]))
JOIN = st.sampled_from([" + ", " - ", "+", ", "])
BODY = st.builds(lambda first, rest: first + "".join(join + term for join, term in rest),
                 TERM, st.lists(st.tuples(JOIN, TERM), max_size=4))
SCRIPT = st.builds(
    lambda before, seat, body, comment, after: (
        before + f"x = shape{{{seat}, {body}{comment}}}\n" + after),
    st.sampled_from(["", "generate 100\n", "a = 1\n\n"]),
    st.sampled_from(["north", "south", "up", "North"]),
    BODY,
    st.sampled_from(["", " /* note */", "  # note\n"]),
    st.sampled_from(["", "condition x\n", "y = shape{east, (4333)}\n"]),
)


def _errors_and_warnings(text: str) -> tuple[list[tuple], list[tuple]]:
    found = check_text(text, "s.dpp", max_errors=0)
    return ([(d.line, d.column, d.message) for d in found if d.severity == "error"],
            [(d.line, d.column, d.message) for d in found if d.severity == "warning"])


@settings(max_examples=examples(300), deadline=None)
@given(SCRIPT)
def test_check_reports_what_preprocessing_reports(text: str) -> None:
    errors, warnings = _errors_and_warnings(text)
    try:
        result = preprocess_script(text, "s.dpp")
    except DppError as error:
        assert errors[:1] == [(error.line, error.column, error.message)]
        return
    assert errors == []
    compiled = [(w.line, w.column, w.message) for w in result.warnings
                if w.severity == "warning" and w.code is None]
    assert sorted(compiled) == sorted(w for w in warnings if w in compiled)
    assert set(compiled) <= set(warnings)


def test_the_issues_example() -> None:
    text = "x = shape{north, 4432+5332}\n"
    errors, _ = _errors_and_warnings(text)
    assert errors == [(1, 18, "a pattern needs exactly 4 suit lengths, this one has 8")]


def test_a_too_deep_shape_is_the_same_clear_error_in_both() -> None:
    text = "x = shape{north, xxxx:" + "s+" * 3000 + "s>3}\n"
    errors, _ = _errors_and_warnings(text)
    try:
        preprocess_script(text, "s.dpp")
    except DppError as error:
        assert errors == [(error.line, error.column, error.message)]
    else:
        assert errors == []


# Statements around the blocks with the mistakes the checker finds outside them.
STATEMENT = st.sampled_from([
    "condition x\n", "condition x && undefined_name\n", "generate 100\n", "generate 10 20\n",
    "action printall\n", "action print(nort)\n", "producer 5\n", "a = hcp(north) + + 1\n",
    "  # a note\n", "// note\n", "b = shape{west, 5xxx} || shape{east, xxx5} && c\n",
    "d = 1.5\n", "predeal north SAK, SAQ\n", "x = shape{north, 4333} y\n",
])
CHECKED_SCRIPT = st.builds(lambda parts: "".join(parts),
                           st.lists(st.one_of(STATEMENT, SCRIPT), min_size=1, max_size=6))


@settings(max_examples=examples(200), deadline=None)
@given(CHECKED_SCRIPT)
def test_the_preprocessors_check_finds_what_checking_its_output_finds(text: str) -> None:
    """The preprocessor checks the script as written, each shape{} one
    expression it does not compile twice; checking the lists it wrote finds
    the same problems on the same lines (columns differ after a shape{},
    which is as long as its list in one and not the other)."""
    from dealerpp.script.rewrite import check_preprocessed

    try:
        result = preprocess_script(text, "s.dpp")
    except DppError:
        return
    on_input = {_found(d) for d in check_preprocessed(text, "s.dpp")}
    on_output = {_found(d) for d in check_text(result.text, "s.dpp", max_errors=0)}
    rewriter = {_found(w) for w in result.warnings}
    assert on_input == on_output - rewriter


def _found(diagnostic: Diagnostic) -> tuple[int | None, str]:
    """A finding's line and what it says, however the preprocessor words it:
    its errors are warnings, and a note summing up counts the same."""
    if diagnostic.code in (MORE_ERRORS, ERROR_LIMIT):
        return diagnostic.line, f"{diagnostic.code} {diagnostic.message.split(' ', 1)[0]}"
    if diagnostic.code in LOGIC_CODES:  # it quotes the shape{} or the shape() written there
        return diagnostic.line, diagnostic.code
    return diagnostic.line, diagnostic.message.removeprefix("dealer will reject this: ")


def test_the_checkers_summaries_are_worded_for_the_preprocessor() -> None:
    """Its findings are warnings and it has no --max-errors: the notes
    summing them up say so, and point at the command that has it."""
    text = "x = 1.5 + 2.5 + 3.5\n" + "condition hcp(north) >> 1\n" * 101
    checked = check_text(text, "s.dl")
    assert [d.message for d in checked if d.severity == "note"] == [
        "2 more errors on this line", "too many errors, stopping"]
    notes = [d for d in preprocess_script(text, "s.dpp", check=True).findings
             if d.severity == "note"]
    assert [d.message for d in notes] == [
        "2 more problems dealer will reject on this line",
        "too many problems dealer will reject; the check stopped here"]
    assert notes[-1].hint == "`dealerpp check --max-errors 0 FILE` shows them all"
    assert not [d for d in preprocess_script(text, "s.dpp", check=True).findings
                if d.severity == "error"]
