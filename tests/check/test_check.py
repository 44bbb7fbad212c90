"""check_text and the grammar: the examples check clean, every diagnostic has
a case, recovery reports several errors, and nothing ever raises."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dealerpp import lalr
from dealerpp.script.check import check_text
from dealerpp.script.lexer import is_column_one
from tests.conftest import sized

from .mutate import DEALER_EXAMPLES, base_scripts, mutate

EXAMPLES = sorted(DEALER_EXAMPLES.glob("Descr.*")) if DEALER_EXAMPLES.exists() else []


def errors(text: str, **options: object) -> list[str]:
    return [f"{d.line}:{d.column}: {d.message}" for d in check_text(text, "t.dl", **options)
            if d.severity == "error"]


def warnings(text: str) -> list[str]:
    return [f"{d.line}:{d.column}: {d.message}" for d in check_text(text, "t.dl")
            if d.severity == "warning"]


@pytest.mark.skipif(not EXAMPLES, reason="dealer's examples are not installed")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_check_clean(path: Path) -> None:
    # One real slip: `(diamonds(west)==clubs(west))==4` compares 1 or 0 with
    # 4 (tests/check/test_logic.py has dealer confirm it never holds).
    expected = [(16, "chained-comparison")] if path.name == "Descr.you_hold" else []
    assert [(d.line, d.code) for d in check_text(path.read_text(), str(path))] == expected


@pytest.mark.parametrize("name", sorted(base_scripts()))
def test_bases_parse_and_check_without_errors(name: str) -> None:
    text = base_scripts()[name]
    lalr.load("dealer").parse(text, "start")
    assert errors(text) == []


def test_grammar_builds_a_tree_with_statements() -> None:
    tree = lalr.load("dealer").parse("x = 1 + 2 * 3\ncondition x > 2\n", "start")
    assert [child.data for child in tree.children] == ["assignment", "condition"]
    product = tree.children[0].children[1].children[2]
    assert product.data == "binary" and str(product.children[1]) == "*"


@pytest.mark.parametrize("text", [
    "x = a ? b : c ? d : e\n",
    "x = !a * b\n",
    "x = a || b && c == d < e + f * g\n",
])
def test_precedence_shapes(text: str) -> None:
    prefix = "a=1\nb=1\nc=1\nd=1\ne=1\nf=1\ng=1\n"
    assert errors(prefix + text) == []


def test_several_errors_are_reported() -> None:
    found = errors("x = (1 +\ncondition hcp(north) >\ny = 2 ]\naction printall,,\n")
    # One error per mistake, each on its own line: an unfinished statement
    # is reported where it stops, not at the next line.
    assert [line.split(":")[:2] for line in found] == [["1", "9"], ["2", "23"], ["3", "7"],
                                                       ["4", "17"]]


def test_errors_have_columns_and_source_lines() -> None:
    (diagnostic,) = check_text("x = 1 + * 2\n", "f.dl")
    assert (diagnostic.line, diagnostic.column) == (1, 9)
    assert diagnostic.format().splitlines() == [
        "f.dl:1:9: error: syntax error: unexpected `*`, expected an expression",
        "x = 1 + * 2",
        "        ^",
    ]


@pytest.mark.parametrize(("text", "expected"), [
    ("x = y\n", "unknown variable `y`"),
    ("x = 1\nx = 2\n", "redefined variable `x`"),
    ("x = shape(north, 4442)\n", "shape 4442 has 14 cards"),
    ("x = shape(north, 77xx)\n", "shape 77xx already has 14 cards"),
    ("predeal north SA, SA\n", "card AS is predealt twice"),
    ("predeal north SAKQJT98765432, HA\n", "more than 13 cards predealt to north"),
    ("pointcount 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n", "too many pointcount values"),
    ("x = -hcp(north)\n", "unary minus applies only to a number literal"),
    ("x = 1 # no\n", "# starts a comment only in column 1"),
    ("condition 2 / 0\n", "division by zero"),
    ("condition 2 % (3 - 3)\n", "division by zero"),
    ("condition 2 / 4294967296\n", "division by zero"),  # atoi wraps it to 0
    ("condition 2 / (2147483647 + 1 + 2147483647 + 1)\n", "division by zero"),
    ("altcount 12 1\n", "altcount 12 writes outside dealer's tables and makes"),
    ("altcount 8 1 1 1 1\ncondition hcp(north) > 0\n", "aborts (assertion failure"),
    ("altcount 8 1 1 1 1\nx = shape(north, 5xxx)\n", "aborts (assertion"),
    ("altcount 8 1 1 1 1\ndealer west\n", "aborts (assertion"),
    ("altcount -20 1\n", "altcount -20 writes outside dealer's tables and makes"),
    ("action evalcontract\n", "evalcontract"),
    ("action frequency (1, 5, 3)\n", "frequency range 5 to 3 is reversed"),
    ("action frequency (1, 0, 3, 1, 5, 1)\n", "table size negative"),
    ("x = shape{north, 4333}\n", "shape{...} is dealerpp syntax"),
    ("all = 1\n", "`all` is a reserved word"),
    ("x = 1 = 2\n", "`=` is not a comparison"),
    ('x = "s"\n', "a string is allowed only in printes"),
    ("x = 1 //", "// comment on the last line needs a newline"),
    ("x = 1\n# c", "# comment on the last line needs a newline"),
    ("x = 1 /* c\n", "never closed"),
    ("x = hpc(north) > 10\n", "`hpc` is not a function dealer knows"),
    ("x = (1 + 2))\n", "this `)` has no matching `(`"),
    ("predeal north SA\nspades(north) > 3\n", "is read as another predeal argument"),
    ("pointcount 4 3 2 1\n-5 < hcp(north)\n", "`-5` on line 2 was read as one more pointcount"),
])
def test_error_diagnostics(text: str, expected: str) -> None:
    assert any(expected in message for message in errors(text)), errors(text)


@pytest.mark.parametrize(("text", "column", "expected"), [
    ("x = shape(north, 5xxx + )\n", 25, "expected `any`, a shape such as 4333"),
    ("x = shape(north, )\n", 18, "expected"),
    ("condition (hcp(north) + )\n", 25, "expected an expression"),
])
def test_a_closing_parenthesis_too_early_is_not_called_unmatched(
        text: str, column: int, expected: str) -> None:
    # Its `(` is there: the mistake is what is missing before the `)`.
    (found,) = errors(text)
    assert found.startswith(f"1:{column}: ") and expected in found, found
    assert "no matching" not in found


@pytest.mark.parametrize(("text", "where"), [
    ('action printoneline,\n  average "hcp" hcp(north)\n  frequency "s" (spades(north), 0, 13)\n',
     "3:3"),
    ("action printall\nprintoneline\n", "2:1"),
    ("action average hcp(north)\n  printes(\"x\")\n", "2:3"),
])
def test_an_action_list_missing_a_comma_is_told_so(text: str, where: str) -> None:
    # dealer: a syntax error at the second action; the fix is the `,` before it.
    (found,) = errors(text)
    assert found.startswith(where + ": ") and "`,`" in found, found
    assert "expected an expression" not in found


@pytest.mark.parametrize(("text", "column", "word"), [
    ("weak = hcp(north) < 6,\n", 22, "`,`"),
    ("dealer north east\n", 14, "`east`"),
    ("x = 1 printall\n", 7, "`printall`"),
])
def test_a_token_after_a_complete_statement_is_told_so(text: str, column: int,
                                                       word: str) -> None:
    # Not "expected an expression": the statement before it is whole.
    (found,) = errors(text)
    assert found == f"1:{column}: syntax error: unexpected {word} after a complete statement"


def test_thirty_one_shapes_are_fine_and_the_thirty_second_is_not() -> None:
    script = "".join(f"s{i} = shape(north, 5xxx)\n" for i in range(31))
    assert errors(script) == []
    assert errors(script + "s31 = shape(south, 5xxx)\n") == [
        "32:7: too many shape() calls: dealer allows 31 "
        "(dealer: Too many shapes -- only 32 allowed!)"
    ]


@pytest.mark.parametrize(("text", "expected"), [
    ("/* EOF */\n", "dealer prints the characters E, O, F, < and >"),
    ("action printcompact\n(1)\n", "becomes printcompact's argument"),
    ("action printoneline\n(1)\n", "becomes printoneline's argument"),
    ("condition 1\ncondition 0\n", "replaces the one on line 1"),
    ("dealer north\ndealer east\n", "replaces the one on line 1"),
    ("vulnerable NS\nvulnerable EW\n", "replaces the one on line 1"),
    ("action printall\naction printew\n", "replaces the one on line 1"),
    ("generate 1\ngenerate 2\n", "dealer keeps the first one"),
    ("x = 1 / 0\n", "division by zero in `x`, which no condition or action uses"),
    ("altcount 4 1\n", "altcount 4 changes what pt2() counts"),
    ("altcount 8 1 1 1\n", "altcount 8 changes what pt6() counts"),
    ("condition 10 / (hcp(north) > 10)\n", "this divisor is a test"),
    ("altcount 8 4\ncondition hascard(north, AS)\n", "once the script names a seat"),
    ("condition 10 / hcp(north) > 1\n", "on the first deal where this divisor is 0"),
    ("condition hcp(north) > 40 ? 1 / 0 : 1\n", "if it ever evaluates this"),
    ("condition 0 && 1 / 0\n", "if it ever evaluates this"),
    ("predeal hearts(north) == 4\n", "ignores it when dealing"),
    ("x = 1\n\u00e9\n", "dealer stops reading"),
    ("action frequency (1, 0, 1, 1, 1, 0)\n", "frequency range 1 to 0 is empty"),
    ("action frequency (1, 1, 0)\n", "frequency range 1 to 0 is empty"),
    ("action frequency (1, 5, 1, 1, 5, 1)\n", "frequency range 5 to 1 is empty"),
    ("x = tricks(north, notrumps)\n", "double-dummy solver"),
    ("x = shape(south, -any 4333 + 5xxx)\n", "this `-` removes nothing"),
])
def test_warning_diagnostics(text: str, expected: str) -> None:
    assert errors(text) == []
    assert any(expected in message for message in warnings(text)), warnings(text)


def test_shape_block_and_trailing_hash_are_fine_in_dpp_mode() -> None:
    assert errors("x = shape{north, 4333 + 5xxx}\n", dpp=True) == []
    assert errors("x = 1   # one\n", dpp=True) == []
    assert check_text("n = shape{north, 5xxx}\n", "script.dpp") == []


def test_printcompact_argument_on_the_same_line_is_fine() -> None:
    assert check_text("action printcompact (hcp(north))\n") == []


def test_resync_does_not_cascade_into_unknown_variables() -> None:
    found = errors("a = (1 +\nb = 2\nc = a + b\n")
    assert found == ["1:9: the statement is unfinished (expected an expression)"]


@pytest.mark.parametrize("text", ["", "\n", "(", ")", "\x00", "#", "/*", '"', "shape{",
                                  "action", "predeal", "x =", "\r", "é", "\udcff"])
def test_odd_inputs_never_raise(text: str) -> None:
    for diagnostic in check_text(text):
        assert "internal error" not in diagnostic.message


def test_random_mutations_never_raise() -> None:
    rng = random.Random(20261122)
    bases = list(base_scripts().values())
    for _ in range(300):
        text = mutate(rng.choice(bases), rng)
        for diagnostic in check_text(text):
            assert "internal error" not in diagnostic.message, text


def _where_dealer_and_dealerpp_cut_alike(text: str) -> bool:
    """Whether ``text`` avoids the places where dealerpp's regions differ from
    the grammar's terminals on purpose: a # comment after column 1, a last
    comment without its newline, an unclosed string or comment, a shape{}
    block holding comments or nested braces."""
    from dealerpp.script.lexer import regions

    for region in regions(text):
        if not region.closed or region.comments:
            return False
        if region.kind == "hash_comment" and not is_column_one(text, region.start):
            return False
        if region.kind == "shape" and not re.fullmatch(r"shape[ \t]*\{[^{}]*\}",
                                                        region.text(text)):
            return False
    return True


def test_the_lexer_gives_exactly_the_grammars_tokens() -> None:
    """The one lexer cuts code with a faster loop than Lark's lexer, and
    comments, strings and shape{} blocks as regions; it must agree with the
    grammar's own lexer token for token, positions included (comments by
    kind and start: the grammar's keep their newline)."""
    from copy import copy

    from lark.lexer import BasicLexer, LexerThread

    from dealerpp.script.lexer import tokens
    from tools.export_tables import lark_parser

    conf = copy(lark_parser("dealer").lexer_conf)
    conf.ignore = ()
    lexer = BasicLexer(conf)
    comments = {"LINE_COMMENT", "HASH_COMMENT", "BLOCK_COMMENT"}

    def key(token: object) -> tuple:
        if getattr(token, "type", None) in comments:
            return (token.type, token.start_pos)  # type: ignore[attr-defined]
        return tuple(getattr(token, name) for name in (
            "type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos"))

    rng = random.Random(sized(7, None))  # 400 of the same under CI, 130 drawn anew locally
    bases = list(base_scripts().values())
    samples = bases + [mutate(rng.choice(bases), rng) for _ in range(sized(400, 130))]
    samples += ["shape{north, 4333} shape (", "2S 12345x 5xxxa x3NT SAKQx 4333 43330", "é\x00",
                "45shape{north, 5xxx} xshape{ 2Sshape{north, 5xxx} \\nshape{north, 5xxx}\n"]
    compared = 0
    for text in samples:
        if not _where_dealer_and_dealerpp_cut_alike(text):
            continue
        compared += 1
        theirs = [key(t) for t in LexerThread.from_text(lexer, text).lex(None)
                  if t.type not in ("WS", "NEWLINE")]
        assert [key(t) for t in tokens(text)] == theirs, text
    assert compared > sized(200, 100)


def test_a_misspelt_function_is_one_error_with_a_suggestion() -> None:
    (found,) = check_text("condition hpc(north) > 10\n")
    assert found.column == 11 and found.hint == "did you mean hcp?"


def test_a_guarded_division_is_fine() -> None:
    assert check_text("x = hcp(north)\ncondition x > 0 ? 20 / x > 2 : 0\n") == []


def test_numbers_are_c_ints() -> None:
    # strtol saturates, then the int cast gives -1: no division by zero.
    assert errors("condition 1 / 99999999999999999999\n") == []
    assert errors("condition 1 / 2147483648\n") == []


def test_zero_division_in_a_replaced_condition_is_only_a_warning() -> None:
    assert errors("condition 1 / 0\ncondition 1\n") == []
    assert any("a later one replaces" in w for w in warnings("condition 1 / 0\ncondition 1\n"))


def test_very_long_expressions_do_not_overflow_the_stack() -> None:
    text = "a = " + " + ".join(["hcp(north)"] * 5000) + "\ncondition a > 1\n"
    assert check_text(text) == []


def test_random_garbage_never_raises() -> None:
    rng = random.Random(99)
    alphabet = "abcxyzSHDCAKQJT0123456789 \t\n\r(){}[];,=+-*/%<>!&|?:#\"\\'.\x00é€\ufeff"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 80)))
        for diagnostic in check_text(text):
            assert "internal error" not in diagnostic.message, repr(text)


@pytest.mark.parametrize(("text", "severity"), [
    ("x = " + "(" * 9993 + "1" + ")" * 9993 + "\n", "warning"),
    ("x = " + "(" * 9994 + "1" + ")" * 9994 + "\n", "error"),
    ("x = " + "1 ? 1 : " * 2499 + "1\n", "error"),
    ("action " + ", ".join(["printall"] * 4998) + "\n", None),
    ("action " + ", ".join(["printall"] * 4999) + "\n", "error"),
], ids=["parens-9993", "parens-9994", "ternary-2499", "actions-4998", "actions-4999"])
def test_dealers_parser_stack_limit(text: str, severity: str | None) -> None:
    found = [d.severity for d in check_text(text) if "dealer's parser" in d.message]
    assert found == ([severity] if severity else [])


def test_failures_of_a_replaced_action_are_only_warnings() -> None:
    text = "action frequency (1, 10, 0), evalcontract\naction printall\n"
    assert errors(text) == []
    assert len([w for w in warnings(text) if "a later action replaces this one" in w]) == 2


def test_unknown_names_get_spelling_hints() -> None:
    found = check_text("opener = hcp(north) > 11\nconditon openr\nx = y\ny = 1\n")
    assert [d.hint for d in found if d.severity == "error"] == [
        "did you mean the statement `condition`?",
        "did you mean opener?",
        "define it with NAME = EXPR before its first use (it is defined later)",
    ]
    assert [d for d in found if d.severity == "warning"] == []


@pytest.mark.dealer
def test_dealer_cannot_run_tricks_as_the_warning_says(dealer_bin: str, tmp_path: Path) -> None:
    """Debian's dealer stops at a tricks() every deal evaluates, with one of
    the two messages the warning names (its temporary files' names come from
    uninitialised memory, so which one varies from run to run)."""
    import subprocess

    script = "generate 50\nproduce 3\ncondition tricks(north, notrumps) > 6\naction printoneline\n"
    (tmp_path / "t.dl").write_text(script)
    warning = [d.message for d in check_text(script, "t.dl") if d.severity == "warning"]
    assert any("tricks() needs GIB's double-dummy solver" in m for m in warning), warning
    for seed in ("1", "2", "3"):
        done = subprocess.run([dealer_bin, "-s", seed, "t.dl"], cwd=tmp_path, capture_output=True,
                              timeout=60)
        said = done.stderr.decode("latin-1")
        assert done.returncode == 10, (done.returncode, said)
        assert ("Can't open temporary file" in said or "Can't read output of analysis" in said), said
        assert not any(line.startswith(b"n ") for line in done.stdout.splitlines())
        assert all(quoted in warning[0] for quoted in
                   ("Can't open temporary file", "Can't read output of analysis"))
