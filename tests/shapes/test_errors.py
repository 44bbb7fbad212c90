"""Every error case of the spec: a one-line message naming the problem,
with its line, column and a caret; and a fuzz test that only DppError
ever comes out."""

from __future__ import annotations

import random

import pytest

from dealerpp import DppError, expand

ERRORS = [
    # (input, words the message must contain, line, column)
    ("4432+5332", "exactly 4 suit lengths, this one has 8", 1, 1),
    ("443", "this one has 3", 1, 1),
    ("5554", "total 19 cards, more than 13", 1, 1),
    ("3333", "total 12 cards, fewer than 13", 1, 1),
    ("shape{north, (4333) + 3s3h3d3c}", "total 12 cards, fewer than 13", 1, 23),
    ("44%2", "unexpected '%'", 1, 3),
    ("[3-5xxx", "'[' is never closed", 1, 1),
    ("(443", "'(' is never closed", 1, 1),
    ("4432)", "unmatched ')'", 1, 5),
    ("5(4M31)", "M (a major) cannot stand inside the parentheses", 1, 4),
    ("5(M43)", "unexpected character 'M'", 1, 3),
    ("5s4s(xx)", "the suit 's' is named twice", 1, 4),
    ("5M4M3M(x)", "'M' needs a major", 1, 6),
    ("5s5h4M(x)", "'M' needs a major", 1, 6),
    ("shape{nord, 4432}", "unknown compass 'nord': expected north, east, south or west", 1, 7),
    ("shape{North, 4432}", "unknown compass 'North'", 1, 7),
    ("shape{north, 4432", "unclosed 'shape{'", 1, 6),
    ("[5-3]xxx", "the range 5-3 is empty", 1, 2),
    ("Xxxx", "unexpected character 'X'", 1, 1),
    ("xxxx:h>", "ends too early", 1, 8),
    ("xxxx:h>s - 1", "this one has 1", 1, 12),
    ("5M5M(xx):M>3", "ambiguous", 1, 11),
    ("4432 +", "ends too early", 1, 7),
    ("4432\n+ 5x", "this one has 2", 2, 3),
]


@pytest.mark.parametrize(("text", "words", "line", "column"), ERRORS)
def test_error_messages(text: str, words: str, line: int, column: int) -> None:
    with pytest.raises(DppError) as caught:
        expand(text)
    error = caught.value
    assert words in error.message
    assert (error.line, error.column) == (line, column)
    rendered = str(error).splitlines()
    assert rendered[0] == f"{line}:{column}: error: {error.message}"
    assert rendered[1] == text.splitlines()[line - 1]  # caret may sit just past the end
    assert rendered[2] == " " * (column - 1) + "^"


def test_hint_for_tight_plus() -> None:
    with pytest.raises(DppError) as caught:
        expand("4432+5332")
    assert "4432 + 5332" in (caught.value.hint or "")


@pytest.mark.parametrize(("text", "hint"), [
    ("44333", "one length a suit"),
    ("10xxx", "a length of 10-13 is written T J Q K"),
    ("(4333):s=h", "compares with =="),
])
def test_hints_for_usual_slips(text: str, hint: str) -> None:
    with pytest.raises(DppError) as caught:
        expand(text)
    assert hint in (caught.value.hint or "")


def test_empty_set_is_a_warning_not_an_error() -> None:
    from dealerpp.shapes.compiler import compile_shape

    compiled = compile_shape("7+7+xx")
    assert not compiled.shapes
    assert any("matches no shape" in w.message for w in compiled.warnings)


def test_division_by_zero_warns_once() -> None:
    from dealerpp.shapes.compiler import compile_shape

    compiled = compile_shape("xxxx:13/s>3")
    assert [w.message for w in compiled.warnings if "division" in w.message] == [
        "division by zero: the condition is false for shapes where the divisor is 0"
    ]


ALPHABET = "0123456789TJQKxshdcSHDCMm+-[]():,<>=!?*/%&| \nanyorshape{}north"
VALID = ["5+xx5+", "4+c3+d(2+2+)", "5+M3+c(31) - (4333)", "x5+xx:h>s,h>=d or c==2 + 6+xxx",
         "shape{north, 5M5m(xx)}", "any 4432 + [2-4]x[013-5]x:(h + s == 10)"]


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        position = rng.randrange(len(chars) + 1)
        if roll < 0.4:
            chars.insert(position, rng.choice(ALPHABET))
        elif roll < 0.8 and chars:
            del chars[min(position, len(chars) - 1)]
        elif chars:
            chars[min(position, len(chars) - 1)] = rng.choice(ALPHABET)
    return "".join(chars)


def test_fuzz_only_dpp_errors() -> None:
    rng = random.Random(20261122)
    inputs = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30))) for _ in range(1500)]
    inputs += [_mutate(rng, rng.choice(VALID)) for _ in range(1500)]
    for text in inputs:
        try:
            expand(text)
        except DppError as error:
            assert error.line is not None and error.column is not None, text
            assert "\n" not in error.message, text


@pytest.mark.parametrize("value", [None, b"4333", 4333, ["4333"]])
def test_the_library_names_a_text_of_the_wrong_type(value: object) -> None:
    from dealerpp import compile_shape, expand, preprocess

    for function in (compile_shape, expand, preprocess):
        with pytest.raises(TypeError, match=f"is a str, not {type(value).__name__}"):
            function(value)  # type: ignore[arg-type]


def test_a_byte_that_is_not_utf8_is_named_as_that_byte() -> None:
    """Read with surrogateescape, a latin-1 byte is a lone surrogate: the
    message shows the byte (as the quoted line does), not '\\udce9'."""
    text = b"5xx\xe9x".decode("utf-8", "surrogateescape")
    with pytest.raises(DppError) as caught:
        expand(text)
    assert "'\\xe9'" in caught.value.message and "udce9" not in str(caught.value)
