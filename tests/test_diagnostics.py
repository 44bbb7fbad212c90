"""Messages quote input safely and boundedly (issue 11 point 4, issue 18
point 2), and ``LineIndex`` agrees with a plain reading of the text.

The form of a message is pinned by snapshots; everything else is checked
against an independent reading: the character above the caret is the one
the column names, and no shown line is long or holds a control character.
"""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.diagnostics import (
    LINE_LIMIT,
    MESSAGE_LIMIT,
    Diagnostic,
    DppError,
    LineExcerpt,
    LineIndex,
    escape,
    line_col,
    quote,
    quoted_line,
    source_line_of,
)
from tests.conftest import examples

# What no shown line may hold: C0 controls but tab, DEL, C1, surrogates.
FORBIDDEN = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)]} - {"\t"}
SHOWN_LIMIT = 300  # characters per shown line, whatever the input


# Shown escaped too: they can reorder or break what a terminal shows.
INVISIBLE = {"\u2028", "\u2029", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}


def forbidden_in(text: str) -> set[str]:
    return {c for c in text if c in FORBIDDEN or c in INVISIBLE or 0xD800 <= ord(c) <= 0xDFFF}


def expected_escape(char: str) -> str:
    """How one character must be shown, written out independently."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return "\\x" + format(code & 0xFF, "02x")
    if char in FORBIDDEN:
        return "\\x" + format(code, "02x")
    if 0xD800 <= code <= 0xDFFF or char in INVISIBLE:
        return "\\u" + format(code, "04x")
    return char


def width(text: str) -> int:
    """Terminal columns of escaped text (the only wide character used here: 中)."""
    return len(text) + text.count("中")


# --- the form of messages (snapshots) -----------------------------------------


def test_escape_sequence_is_shown_escaped(snapshot) -> None:
    line = "x = shape{north, 44\x1b[2J32}"
    shown = Diagnostic("error", "unmatched '}'", 1, 26, "s.dpp", line).format()
    assert "\x1b" not in shown
    assert shown == snapshot


def test_long_line_is_cut_around_the_caret(snapshot) -> None:
    line = "x = shape{north, 44" + "1" * 1000 + "%" + "2" * 1000 + "}"
    column = line.index("%") + 1
    shown = Diagnostic("error", "unexpected '%'", 1, column, "s.dpp", line,
                       "a hint").format()
    assert shown == snapshot


def test_caret_near_each_end_of_a_long_line(snapshot) -> None:
    line = "".join(chr(ord("a") + i % 26) for i in range(500))
    shown = [Diagnostic("error", "here", 1, column, None, line).format()
             for column in (1, 2, 250, 500, 501)]
    assert shown == snapshot


def test_undecodable_bytes_tabs_and_wide_characters(snapshot) -> None:
    line = "\tx = \udcff\udcfe shape{north, 中文 4432\x7f}"
    shown = Diagnostic("warning", "bytes \udcff in the message too", 1, 24, "f\x1b.dpp",
                       line, "hint with \x9b").format()
    assert not forbidden_in(shown.replace("\n", ""))  # no control character but line breaks
    assert shown == snapshot


# --- escaping -----------------------------------------------------------------


@given(st.text(alphabet=st.characters(exclude_categories=())))
def test_escape_leaves_no_control_character(text: str) -> None:
    shown = escape(text)
    assert not forbidden_in(shown)
    assert shown == "".join(expected_escape(c) for c in text)


def test_message_and_hint_are_escaped_and_bounded() -> None:
    message = "unexpected '" + "\x1b" * 10 + "9" * 100_000 + "'"
    shown = Diagnostic("error", message, hint="see \x07").format().splitlines()
    assert not forbidden_in("".join(shown))
    assert len(shown[0]) < MESSAGE_LIMIT * 4 and shown[0].startswith("error: unexpected '\\x1b")
    assert shown[-1] == "hint: see \\x07"


def test_quote_is_repr_when_short_and_cut_when_long() -> None:
    assert quote("abc") == repr("abc")
    assert quote("\x1b") == repr("\x1b")
    long = quote("7" * 10_000)
    assert long.startswith("'777") and long.endswith("777'") and "..." in long
    assert len(long) <= 42


# --- the quoted line: bounded, escaped, caret under the right character -------

# Lines built from runs, so that long lines (and long runs of one kind of
# character) are cheap to draw and shrink well.
PIECES = st.sampled_from(["a", "1", " ", "\t", "\x1b", "\x00", "\x7f", "\x85", "\udcff",
                          "\ud800", "é", "中", "\u202e"])
RUNS = st.lists(st.tuples(PIECES, st.integers(1, 400)), max_size=12)


def line_of(runs: list[tuple[str, int]]) -> str:
    return "".join(piece * count for piece, count in runs)


@settings(max_examples=examples(300), deadline=None)
@given(RUNS, st.data())
def test_any_line_any_column_is_bounded_and_clean(runs: list[tuple[str, int]],
                                                  data: st.DataObject) -> None:
    line = line_of(runs)
    column = data.draw(st.integers(1, len(line) + 2))
    shown, caret = quoted_line(line, column)
    assert len(shown) <= SHOWN_LIMIT and len(caret) <= SHOWN_LIMIT
    assert not forbidden_in(shown + caret)
    assert caret.strip(" \t") == "^"
    # The caret's string index equals the shown index of the column's character,
    # when every shown character is one column wide (escapes pad one space a character).
    if "中" not in line:
        at = caret.index("^")
        if column <= len(line):
            assert shown[at:].startswith(expected_escape(line[column - 1]))
        else:
            assert at == len(shown)  # just past the end, which is never cut then


@given(RUNS)
def test_a_short_line_is_shown_whole(runs: list[tuple[str, int]]) -> None:
    line = line_of(runs)
    shown, _ = quoted_line(line, 1)
    whole = "".join(expected_escape(c) for c in line)
    if width(whole) <= LINE_LIMIT:
        assert shown == whole
    else:
        assert shown.endswith("...") and whole.startswith(shown.removesuffix("..."))


def test_excerpt_of_a_huge_line_keeps_the_caret_in_place() -> None:
    line = "a" * 3_000_000 + "X" + "b" * 3_000_000
    text = "first\n" + line + "\r\nlast"
    index = LineIndex(text)
    excerpt = index.excerpt(2, 3_000_001)
    assert isinstance(excerpt, LineExcerpt) and len(excerpt) <= 2_000
    shown, caret = quoted_line(excerpt, 3_000_001)
    assert shown.startswith("...") and shown.endswith("...")
    assert shown[caret.index("^")] == "X"


def test_formatting_a_huge_line_copies_only_a_window() -> None:
    line = "\x1b" * 20_000_000  # 20 MB: escaping it whole would take 80 MB
    error = DppError("stray", 1, 10_000_000, "s.dpp", line)
    tracemalloc.start()
    shown = str(error)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000
    assert len(shown) < 1_000


def test_excerpt_pickles_with_its_place() -> None:
    import pickle

    excerpt = LineExcerpt("abc", 100, 5000)
    again = pickle.loads(pickle.dumps(excerpt))
    assert (again, again.start, again.line_length) == ("abc", 100, 5000)


# --- LineIndex against a plain reading -----------------------------------------

TEXTS = st.text(alphabet=st.sampled_from("ab\n\r\x0c\x1c\u2028 "), max_size=60)


@given(TEXTS, st.data())
def test_line_col_matches_counting(text: str, data: st.DataObject) -> None:
    offset = data.draw(st.integers(0, len(text)))
    expected = (text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1)
    assert LineIndex(text).line_col(offset) == expected
    assert line_col(text, offset) == expected
    line, column = expected
    assert LineIndex(text).offset(line, column) == offset


@given(TEXTS)
def test_line_text_matches_splitting_on_newlines(text: str) -> None:
    lines = text.split("\n")
    index = LineIndex(text)
    assert index.line_count == len(lines)
    for number, expected in enumerate(lines, start=1):
        expected = expected.removesuffix("\r")
        assert index.line_text(number) == expected
        assert source_line_of(text, number) == expected
        assert source_line_of(text, number, 1) == expected
    assert source_line_of(text, len(lines) + 1) == ""
    assert source_line_of(text, len(lines) + 2) is None
    assert source_line_of(text, 0) is None and source_line_of(text, None) is None


def test_relocated_error_quotes_a_window_of_the_larger_text() -> None:
    script = "x = 1\ny = shape{north, " + "1" * 50_000 + "}\n"
    inner = DppError("too long", 1, 3, None, "111")
    moved = inner.relocated(script, 1, 17, "s.dpp")
    assert (moved.line, moved.column) == (2, 20)
    assert isinstance(moved.source_line, LineExcerpt)
    shown = str(moved).splitlines()
    assert shown[0] == "s.dpp:2:20: error: too long"
    assert len(shown[1]) <= SHOWN_LIMIT and shown[1][shown[2].index("^")] == "1"


@pytest.mark.parametrize("severity", ["error", "warning", "note"])
def test_headline_form(severity: str) -> None:
    diagnostic = Diagnostic(severity, "msg", 3, 4, "f.dpp")  # type: ignore[arg-type]
    assert diagnostic.format() == f"f.dpp:3:4: {severity}: msg"


# --- the records, written by hand, behave as the dataclasses they replace -------


def test_diagnostic_is_a_read_only_value() -> None:
    import copy
    import pickle

    found = Diagnostic("warning", "msg", 3, 4, "f.dpp", "line", "hint", code="c")
    assert pickle.loads(pickle.dumps(found)) == found == copy.deepcopy(found)
    assert hash(found) == hash(Diagnostic("warning", "msg", 3, 4, "f.dpp", "line", "hint", "c"))
    assert found != found.replace(code=None)
    assert found.replace(severity="error").severity == "error" and found.severity == "warning"
    with pytest.raises(TypeError):
        found.replace(colour="red")
    with pytest.raises(AttributeError):
        found.line = 5  # type: ignore[misc]
    assert repr(found).startswith("Diagnostic(severity='warning', message='msg', line=3,")


def test_dpp_error_compares_by_value_and_pickles() -> None:
    import pickle

    error = DppError("bad", 1, 2, "f.dpp", "text", "hint")
    assert error == DppError("bad", 1, 2, "f.dpp", "text", "hint") != DppError("bad", 1, 3)
    assert error.notes == [] and error.args == ("bad",)
    again = pickle.loads(pickle.dumps(error))
    assert again == error and str(again) == str(error)
    with pytest.raises(TypeError):
        hash(error)


def test_an_error_carries_where_it_is_as_data() -> None:
    """Byte, deal and board are fields, put into words in one place; a
    writer's error says the output is at fault."""
    from dealerpp.diagnostics import DppError

    error = DppError("card SA is given twice", filename="in.bri", byte=130, board=2)
    assert error.message == "card SA is given twice"
    assert (error.byte, error.board, error.deal, error.output) == (130, 2, None, False)
    # the byte where a line would stand (as the commands print it), the rest after 'error:'
    assert str(error).startswith("in.bri: byte 130: error: board 2: card SA is given twice")
    assert error.text == "byte 130: board 2: card SA is given twice"
    assert error.diagnostic.byte == 130 and error.diagnostic.board == 2
    moved = error.replace(byte=error.byte + 128)
    assert moved.byte == 258 and moved.message == error.message
    written = DppError("a partial deal", deal=3, output=True)
    assert written.text == "deal 3: a partial deal" and written.output


def test_an_unclosed_shape_is_told_by_its_kind() -> None:
    import pytest

    from dealerpp import preprocess
    from dealerpp.diagnostics import UNCLOSED_SHAPE, DppError

    with pytest.raises(DppError) as raised:
        preprocess("condition shape{north, 5xxx\n")
    assert raised.value.kind == UNCLOSED_SHAPE
