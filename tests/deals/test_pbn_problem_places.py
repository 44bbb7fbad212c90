"""Where a PBN problem is, as data: its byte in the file, the game's place
and its board. Each is checked against the file itself: the bytes at the
offset are the text at fault, the place is the number of games before it
plus one, the board is the game's [Board] tag as written."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.deals.conversion import convert
from dealerpp.deals.files import read_source
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic
from tests.conftest import examples
from tests.deals.test_record_places import streams

DEAL = "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"
# Games, each with a fault or none: what is wrong, and the text the
# problem's byte must be at.
FAULTS = {
    "none": ("", None),
    "dealer": ('[Dealer "X"]\n', b'X"]'),
    "vulnerable": ('[Vulnerable "Q"]\n', b'Q"]'),
    "repeated": ('[Board "{board}"]\n', b'[Board "'),
}
EVENTS = ["plain", "café", "été \udcff", "日本"]  # characters of 1 to 3 bytes, a byte not UTF-8


@st.composite
def pbn_files(draw: st.DrawFn) -> tuple[bytes, list[str]]:
    """A file of games (line ends, a byte-order mark, non-ASCII events and
    boards drawn) and the fault of each game."""
    faults: list[str] = []
    games = []
    for _ in range(draw(st.integers(1, 5))):
        fault = draw(st.sampled_from(sorted(FAULTS)))
        board = draw(st.integers(1, 99))
        event = draw(st.sampled_from(EVENTS))
        games.append(f'[Event "{event}"]\n[Board "{board}"]\n'
                     + FAULTS[fault][0].format(board=board) + f'[Deal "{DEAL}"]\n')
        faults.append(fault)
    text = "\n".join(games)
    text = text.replace("\n", draw(st.sampled_from(["\n", "\r\n", "\r"])))
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text.encode("utf-8", "surrogateescape"), faults


def _problems(source: object) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    list(read_source(source, "pbn", options=ReadOptions(report=found.append)))  # type: ignore[arg-type]
    return found


def _expected_at(data: bytes, problem: Diagnostic, faults: list[str]) -> None:
    """The problem's byte, game and board, as the file shows them."""
    assert problem.byte is not None
    before = data[:problem.byte]
    game = before.count(b"[Event ")  # the games started before the byte, its own too
    assert FAULTS[faults[game - 1]][1] is not None
    assert data[problem.byte:].startswith(FAULTS[faults[game - 1]][1])  # type: ignore[arg-type]
    boards = re.findall(rb'\[Board "([0-9]+)"\]', before)
    assert problem.board == int(boards[-1])  # (a repeated Board tag starts at the byte)
    assert problem.deal in (game, None)


@settings(max_examples=examples(60), deadline=None)
@given(pbn_files())
def test_a_problem_is_placed_by_byte_game_and_board(file: tuple[bytes, list[str]]) -> None:
    data, faults = file
    found = _problems(data)
    assert len(found) == sum(fault != "none" for fault in faults)
    for problem in found:
        _expected_at(data, problem, faults)
        assert problem.deal is not None and not problem.output


@settings(max_examples=examples(40, 15), deadline=None)
@given(pbn_files(), st.sampled_from(["binary", "text", "pipe", "raw"]))
def test_an_open_file_places_problems_as_bytes_do(file: tuple[bytes, list[str]],
                                                  kind: str) -> None:
    """Read from an open file or a pipe (a stream, its bytes read once),
    each problem's byte, game and board, as the file shows them."""
    data, faults = file
    found = _problems(streams(data, kind))
    assert len(found) == sum(fault != "none" for fault in faults)
    for problem in found:
        _expected_at(data, problem, faults)


def test_a_path_gives_the_bytes_a_text_does_not(tmp_path: Path) -> None:
    data, faults = (f'[Event "café"]\r\n[Board "4"]\r\n[Dealer "X"]\r\n[Deal "{DEAL}"]\r\n'
                    .encode(), ["dealer"])
    path = tmp_path / "set.pbn"
    path.write_bytes(data)
    (from_path,) = _problems(path)
    _expected_at(data, from_path, faults)
    assert (from_path.line, from_path.column, from_path.deal, from_path.board) == (3, 10, 1, 4)
    (from_text,) = _problems(data.decode())
    assert from_text.byte is None  # a text was never bytes: nothing to count
    assert from_text.replace(byte=from_path.byte) == from_path.replace(filename=None)


def test_the_bulk_path_places_problems_in_the_whole_file(tmp_path: Path) -> None:
    """Pieces read per deal in the middle of a file: lines, bytes and games
    counted from the file's start (test_pbn_problem_places_bulk.py: more)."""
    plain = "".join(f'[Event "e"]\n[Board "{b}"]\n[Dealer "N"]\n[Deal "{DEAL}"]\n\n'
                    for b in range(1, 301))
    odd = f'[Event "é"]\n[Board "301"]\n[Dealer "X"]\n[Deal "{DEAL}"]\n'
    data = (plain + odd).encode()
    path = tmp_path / "set.pbn"
    path.write_bytes(data)
    found: list[Diagnostic] = []
    convert(path, tmp_path / "out.deals", options=ReadOptions(report=found.append))
    (problem,) = found
    byte = data.index(b'[Dealer "X"]') + 9
    assert problem.byte == byte and data[problem.byte:].startswith(b'X"]')
    assert data[:byte].count(b"\n") + 1 == problem.line
    assert problem.board == 301 and problem.deal == 301
