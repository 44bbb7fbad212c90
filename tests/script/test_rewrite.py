"""The rewriter: shape{} expanded, every other byte untouched."""

from __future__ import annotations

import pytest

from dealerpp import DppError, expand, preprocess
from dealerpp.script.lexer import regions
from dealerpp.script.rewrite import preprocess_script
from dealerpp.shapes.dealer_list import read_dealer_list


def only_call(output: str) -> str:
    start = output.index("shape(")
    return output[start:output.index(")", start) + 1]


def test_body_becomes_a_dealer_list_meaning_the_same_set() -> None:
    out = preprocess("a = shape{north, 5+M3+c(31)}\n")
    assert out.startswith("a = shape(north, ") and out.endswith(")\n")
    assert read_dealer_list(only_call(out)[len("shape(north, "):-1]) == expand("5+M3+c(31)")


def test_any_spacing_and_several_on_a_line() -> None:
    out = preprocess("x = shape { west , (4432)} || shape{east,5xxx}&&shape{south, x5xx}\n")
    assert out == ("x = shape(west, any 4432) || shape(east, 5xxx)&&shape(south, x5xx)\n")


def test_text_outside_shape_is_untouched() -> None:
    text = ("generate   10000\r\n/* shape{north, 5xxx} in a comment */\r\n"
            '// shape{south, 4333}\r\nprintes "shape{north, 5xxx} # in a string"\r\n'
            "# column one\r\nx=hcp(north)>=12\r\n")
    assert preprocess(text) == text


def test_trailing_hash_comment_becomes_slash_slash() -> None:
    assert preprocess("generate 100 # try\n") == "generate 100 // try\n"
    assert preprocess("# stays\n") == "# stays\n"
    assert preprocess('printes "a # b" # note\n') == 'printes "a # b" // note\n'


def test_multiline_shape_keeps_line_numbers_and_comments() -> None:
    text = ("a = shape{north,   # opener\n"
            "   5+xxx            # five spades\n"
            "   + (4333) /* or flat */ }  and hcp(north) > 10\n"
            "b = 1\n")
    out = preprocess(text)
    lines = out.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("a = shape(north, ") and lines[0].endswith(" // opener")
    assert lines[1] == "// five spades"
    assert lines[2] == "/* or flat */  and hcp(north) > 10"
    assert lines[3] == "b = 1"
    assert read_dealer_list(only_call(out)[len("shape(north, "):-1]) == expand("5+xxx + (4333)")


def test_crlf_inside_a_multiline_shape() -> None:
    out = preprocess("a = shape{north,\r\n 5xxx}\r\nb\r\n")
    assert out == "a = shape(north, 5xxx)\r\n\r\nb\r\n"


@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ("a = 1\nb = shape{north, 4432+5332}\n", "this one has 8", 2, 18),
    ("a = shape{north,\n  5xxx + 4%33}\n", "unexpected '%'", 2, 11),
    ("a = 1\nb = shape{north, 5xxx\n", "unclosed 'shape{'", 2, 5),
    ("b = shape{up, 5xxx}\n", "unknown compass 'up'", 1, 11),
    ('b = shape{north, "5xxx"}\n', "a string cannot stand inside shape{...}", 1, 18),
])
def test_errors_name_file_line_and_column(text: str, message: str, line: int,
                                          column: int) -> None:
    with pytest.raises(DppError) as caught:
        preprocess(text, "script.dpp")
    error = caught.value
    assert message in error.message
    assert (error.filename, error.line, error.column) == ("script.dpp", line, column)
    assert str(error).startswith(f"script.dpp:{line}:{column}: error: ")
    assert str(error).splitlines()[2] == " " * (column - 1) + "^"


def test_warnings_are_available_to_the_caller() -> None:
    warnings: list = []
    preprocess("a = shape{north, 7+7+xx}\n", "s.dpp", warnings)
    assert len(warnings) == 1
    assert warnings[0].severity == "warning" and "matches no shape" in warnings[0].message
    assert warnings[0].format().startswith("s.dpp:1:18: warning:")


def test_too_many_shape_calls_warns_with_count_and_lines() -> None:
    text = "".join(f"v{i} = shape{{north, {i % 9}xxx}}\n" for i in range(33))
    result = preprocess_script(text, "big.dpp")
    assert len(result.shape_lines) == 33
    (warning,) = [w for w in result.warnings if "shape() calls" in w.message]
    assert "33 shape() calls" in warning.message and "32, 33" in warning.message


def test_emit_list_gives_the_enumeration() -> None:
    out = preprocess("a = shape{north, 5s(431)}\n", emit="list")
    assert only_call(out).count("+") == 5


def test_regions_cover_the_text_exactly() -> None:
    text = 'a /* b */ "c // d" // e\n# f\ng "unclosed\nh shape{north, /* } */ 5xxx} i'
    found = list(regions(text))
    assert "".join(r.text(text) for r in found) == text
    assert [r.kind for r in found] == ["code", "block_comment", "code", "string", "code",
                                       "line_comment", "code", "hash_comment", "code", "string",
                                       "code", "shape", "code"]
    # An unclosed string ends with its line; the rest is code again.
    assert found[9].closed is False and found[9].text(text) == '"unclosed'
    # A shape{} block ends at the first } outside its comments.
    assert found[11].text(text) == "shape{north, /* } */ 5xxx}"
    assert [c.kind for c in found[11].comments] == ["block_comment"]
