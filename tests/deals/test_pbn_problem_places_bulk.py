"""Where a PBN problem is on the bulk path (whose pieces start anywhere in
the file, read fast or per deal): its byte, deal (the game's place) and
board, the same as on the per-deal path, reported or raised. The expectations come from the file
itself: the bytes at the offset are the token at fault, the line and column
name the same byte, the deal is the number of games up to it and the board
is the Board tag of its game."""

from __future__ import annotations

import io
import re

import pytest

from dealerpp.deals.bulk.fallback import ModelPerDeal
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.files import read_source
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic, DppError
from tests.bulk.test_parity import printpbn_games

FULL = "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"
(_DEAL,) = read_source(f'[Deal "{FULL}"]\n', "pbn")
MASKS = _DEAL.masks
# S5 twice: the reader names the second hand, which repeats it
SECOND = "5.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"
TWICE = "N:5.76.AK97654.Q32 " + SECOND
CHUNKS = (64, 300, 1000, 4096, 1 << 20)


def bare(board: int, deal: str = FULL) -> bytes:
    return f'[Board "{board}"]\n[Deal "{deal}"]\n\n'.encode()


def rich(board: int, deal: str = FULL) -> bytes:
    return (f'[Event "club"]\n[Board "{board}"]\n[North "N. Orth"]\n[Dealer "N"]\n'
            f'[Vulnerable "None"]\n[Deal "{deal}"]\n[Result "9"]\n\n').encode()


def sample() -> bytes:
    """Games the bulk path reads every way (printpbn runs, bare Deal lines,
    tag games per deal) with a bad game of each kind among them."""
    parts = [printpbn_games([MASKS] * 30, 1), bare(31, TWICE),
             b"".join(bare(board) for board in range(32, 52)), rich(52, TWICE),
             printpbn_games([MASKS] * 9, 53), rich(62), rich(63, TWICE),
             b"".join(bare(board) for board in range(64, 80)), bare(80, TWICE)]
    return b"".join(parts)


def expected_place(data: bytes, byte: int) -> tuple[int, int]:
    """The deal and board of the game holding ``byte``: each game of
    sample() has one Board tag, before its Deal."""
    before = data[:byte]
    board = before[before.rindex(b'[Board "') + 8:]
    return before.count(b'[Board "'), int(board[:board.index(b'"')])


def check_place(data: bytes, found: Diagnostic | DppError) -> None:
    assert found.byte is not None and found.line is not None and found.column is not None
    assert data[found.byte:].startswith(SECOND.encode())
    lines = data.split(b"\n")
    assert found.byte == sum(len(line) + 1 for line in lines[:found.line - 1]) + found.column - 1
    assert (found.deal, found.board) == expected_place(data, found.byte)


def per_deal_problems(data: bytes) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    list(read_source(data, "pbn", filename="in", options=ReadOptions(report=problems.append)))
    return problems


def bulk_problems(data: bytes, chunk: int) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    per_deal = ModelPerDeal(ReadOptions(report=problems.append))
    convert_stream(io.BytesIO(data), io.BytesIO(), "pbn", "hex", filename="in",
                   per_deal=per_deal, chunk=chunk)
    return problems


def test_reported_problems_name_the_byte_game_and_board_on_the_per_deal_path() -> None:
    data = sample()
    problems = per_deal_problems(data)
    assert [p.board for p in problems] == [31, 52, 63, 80]
    for problem in problems:
        check_place(data, problem)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_reported_problems_are_the_same_on_the_bulk_path(chunk: int) -> None:
    data = sample()
    problems = bulk_problems(data, chunk)
    assert problems == per_deal_problems(data)
    for problem in problems:
        check_place(data, problem)


@pytest.mark.parametrize("drop", range(4))
def test_a_raised_error_names_the_byte_game_and_board_on_both_paths(drop: int) -> None:
    data = sample()
    # the bad games before the one raised made good (same length, same places)
    for _ in range(drop):
        data = data.replace(TWICE.encode(), FULL.encode(), 1)
    with pytest.raises(DppError) as per_deal:
        list(read_source(data, "pbn", filename="in"))
    check_place(data, per_deal.value)
    assert per_deal.value.board == (31, 52, 63, 80)[drop]
    for chunk in CHUNKS:
        with pytest.raises(DppError) as bulk:
            convert_stream(io.BytesIO(data), io.BytesIO(), "pbn", "hex", filename="in",
                           chunk=chunk)
        assert bulk.value == per_deal.value, chunk


def test_a_raised_error_shows_its_game_and_board_not_its_byte() -> None:
    data = bare(1) + rich(7, TWICE)
    with pytest.raises(DppError) as raised:
        list(read_source(data, "pbn", filename="in"))
    # the second game, board 7; line 9 is its Deal tag, the column its second hand
    column = len('[Deal "N:5.76.AK97654.Q32 ') + 1
    assert str(raised.value).startswith(
        f"in:9:{column}: error: deal 2: board 7: Deal: card S5")
    assert raised.value.byte == data.index(SECOND.encode())


def commented(where: int, line_end: bytes) -> bytes:
    """sample() with a ``%`` comment line before the ``where``-th line that
    starts an Event or Board tag (0: at the file's start), its line ends
    ``line_end``: the bulk path reads the file's rest from there as a
    stream, through the per-deal reader."""
    data = sample()
    at = 0 if where == 0 else [m.start() for m in re.finditer(rb"\[(Event|Board) ", data)
                               if data[m.start() - 1:m.start()] in (b"", b"\n")][where]
    return (data[:at] + b"% a comment\n" + data[at:]).replace(b"\n", line_end)


@pytest.mark.parametrize("where", [0, 1, 40, 75])
@pytest.mark.parametrize("line_end", [b"\n", b"\r\n", b"\r"])
def test_a_streamed_rest_names_the_byte_in_the_whole_file(where: int, line_end: bytes) -> None:
    data = commented(where, line_end)
    expected = per_deal_problems(data)
    assert len(expected) == 4 and all(p.byte is not None for p in expected)
    for chunk in (64, 1000, 1 << 20):
        problems = bulk_problems(data, chunk)
        assert problems == expected, chunk
        for problem in problems:
            assert problem.byte is not None
            assert data[problem.byte:].startswith(SECOND.encode())
            assert (problem.deal, problem.board) == expected_place(data, problem.byte)
        with pytest.raises(DppError) as raised:
            convert_stream(io.BytesIO(data), io.BytesIO(), "pbn", "hex", filename="in",
                           chunk=chunk)
        assert raised.value.byte == expected[0].byte
        assert (raised.value.deal, raised.value.board) == (expected[0].deal, 31)
