"""A number in a deal file longer than Python's int() takes (4,300 digits
since 3.11: ValueError) is a named error or a number, never an internal
error; leading zeros, however many, are still the number they pad.

The files are made by our writers from hands written here, then one
number in them is replaced by a digit string: the place it was written
at is known, so is what the reader must say about it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.cli import main
from dealerpp.deals.model import Deal
from dealerpp.deals.numbers import MAX_DIGITS, digits_value
from dealerpp.diagnostics import DppError

HANDS = ["N:AJ9.K9542.Q.AK93 KQ8.AQ.AK97.QJT2 7654.JT8.JT85.87 T32.763.6432.654",
         "N:T98.T98.T98.T987 AKQ.J76.5432.A32 J76.AKQ.AK7.J654 5432.5432.QJ6.KQ"]
LONG = "9" * 5000
PADDED_3 = "0" * 5000 + "3"


@given(st.text("0123456789", min_size=1, max_size=MAX_DIGITS), st.integers(0, 6000))
def test_digits_value_is_int_of_the_digits_leading_zeros_any_count(digits: str,
                                                                   zeros: int) -> None:
    assert digits_value("0" * zeros + digits) == int(digits)


@pytest.mark.parametrize("text", ["9" * (MAX_DIGITS + 1), "1" + "0" * MAX_DIGITS, "", " 7",
                                  "7 ", "-7", "+7", "\u00b2", "\u0663", "7a"])
def test_digits_value_refuses_what_is_not_ascii_digits_or_is_too_long(text: str) -> None:
    assert digits_value(text) is None


def written(fmt: str, boards: tuple[int, ...] = (1, 2)) -> str:
    deals = [Deal.from_pbn(HANDS[i % 2], board=board) for i, board in enumerate(boards)]
    data = deals_api.dumps(deals, fmt)
    return data.decode("utf-8") if isinstance(data, bytes) else data


def convert(tmp_path: Path, name: str, text: str) -> tuple[int, str]:
    """``dealerpp convert`` in this process: the exit status and stderr."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["convert", "-q", str(source), str(tmp_path / "out.pbn")], "dealerpp")
    return status, err.getvalue()


def replaced_once(text: str, pattern: str, digits: str) -> tuple[str, int, int]:
    """``text`` with the first match of ``pattern``'s group 1 replaced by
    ``digits``; the line and column (1-based) where the group was."""
    found = re.search(pattern, text, re.MULTILINE)
    assert found is not None, pattern
    start = found.start(1)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return text[:start] + digits + text[found.end(1):], line, column


# (format, file name, where the number is, what its error says): the
# number being a board's, the message names it as such
REFUSED = [
    ("csv", "in.csv", r'^(?:"[^"]*",){16}"(1)"', "deal 1: the board number has 5,000 digits"),
    ("html", "in.html", r'data-board="(1)"', "deal 1: the board number has 5,000 digits"),
    ("dlm", "in.dlm", r"^From board=(1)$", "a .dlm file needs a 'From board=' line with a "
                                           "number (this one has 5,000 digits"),
    ("dlm", "in.dlm", r"^To board=(2)$", "a .dlm file needs a 'To board=' line with a number"),
    ("dlm", "in.dlm", r"^Checksum=(\d+)$", "a .dlm file needs a 'Checksum=' line"),
    ("dlm", "in.dlm", r"^Board (01)=", "deal 1: the board number has 5,000 digits"),
]


@pytest.mark.parametrize(("fmt", "name", "pattern", "message"), REFUSED)
def test_a_number_too_long_is_an_error_at_its_place(fmt: str, name: str, pattern: str,
                                                     message: str, tmp_path: Path) -> None:
    text, line, column = replaced_once(written(fmt), pattern, LONG)
    with pytest.raises(DppError) as caught:
        deals_api.loads(text, fmt)
    error = caught.value
    assert error.text.startswith(message)
    assert "4,300" in error.message
    # the first record's number, or a header's (no record's)
    deal = 1 if message.startswith("deal 1: ") else None
    assert (error.line, error.column, error.deal, error.board) == (line, column, deal, None)
    status, err = convert(tmp_path, name, text)
    assert status == 1 and "internal error" not in err and message in err


@pytest.mark.parametrize(("fmt", "pattern"), [
    ("csv", r'^(?:"[^"]*",){16}"(1)"'),
    ("html", r'data-board="(1)"'),
    ("pbn", r'^\[Board "(1)"\]$'),
])
def test_leading_zeros_however_many_pad_the_board_number(fmt: str, pattern: str) -> None:
    text, _, _ = replaced_once(written(fmt), pattern, PADDED_3)
    assert [deal.board for deal in deals_api.loads(text, fmt)] == [3, 2]


def test_a_pbn_board_too_long_is_no_board_number_as_any_non_number(tmp_path: Path) -> None:
    text, _, _ = replaced_once(written("pbn"), r'^\[Board "(1)"\]$', LONG)
    assert [deal.board for deal in deals_api.loads(text, "pbn")] == [None, 2]
    status, err = convert(tmp_path, "in.pbn", text)
    assert (status, err) == (0, "")
    # a PBN output copies the game as written: the tag is there whole
    assert f'[Board "{LONG}"]' in (tmp_path / "out.pbn").read_text()


@pytest.mark.parametrize("digits", [LONG, PADDED_3, "\u00b2"])
@pytest.mark.parametrize(("fmt", "name", "text"), [
    # a PBN note's number, a result in a table, a LIN claim
    ("pbn", "in.pbn", '[Board "1"]\n[Deal "{hand}"]\n[Auction "N"]\n1C =NUM= Pass Pass Pass\n'
                      '[Note "NUM:short club"]\n'),
    ("pbn", "in.pbn", '[Board "1"]\n[Deal "{hand}"]\n'
                      '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT NUM\n'),
    ("lin", "in.lin", "qx|o1|md|1{lin}|rh||ah|Board 1|sv|o|pg||mc|NUM|pg||\n"),
])
def test_other_numbers_too_long_never_an_internal_error(fmt: str, name: str, text: str,
                                                        digits: str, tmp_path: Path) -> None:
    lin_hands = "SAJ9HK9542DQCAK93,SKQ8HAQDAK97CQJT2,S7654HJT8DJT85C87,"
    source = text.replace("{hand}", HANDS[0]).replace("{lin}", lin_hands).replace("NUM", digits)
    status, err = convert(tmp_path, name, source)
    assert status in (0, 1) and "internal error" not in err, err


def test_an_html_board_names_its_number_in_the_board_field() -> None:
    text, line, _ = replaced_once(written("html", (5, 6)), r'data-deal="(N:[^"]*)"', "N:AKQ")
    with pytest.raises(DppError) as caught:
        deals_api.loads(text, "html")
    error = caught.value
    assert (error.deal, error.board, error.line) == (1, 5, line)
    assert error.text.startswith("deal 1: board 5: ") and not error.message.startswith("board")
