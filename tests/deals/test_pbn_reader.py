"""The PBN reader on generated and mutated files: the quick split of plain
files and the line-by-line one agree, every way of giving the input reads
the same, nothing breaks on garbage, and what is accepted round-trips."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dealerpp.deals.formats import pbn
from dealerpp.deals.formats.pbn import reader as pbn_reader
from dealerpp.deals.formats.pbn.lexer import games_of_text, split_games, text_chunks
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic
from tests.conftest import examples

from . import pbn_oracle as oracle

CORPUS = Path(__file__).parent / "pbn_corpus"
SAMPLES = {path.name: path.read_bytes() for path in sorted(CORPUS.glob("*.pbn"))}
SETTINGS = settings(max_examples=examples(80), deadline=None)

GAME = ('[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"]\n')
# Pieces a file may hold between games or lines: what the quick path must
# notice and hand to the line-by-line one.
ODD = ["", "", "\n", " \n", "\t\n", "% note\n", "{a\n\nb}\n", "; c\n", "{x}", "  ",
       "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T\n"]


@st.composite
def pbn_texts(draw: st.DrawFn) -> str:
    parts = []
    for board in range(1, draw(st.integers(1, 6)) + 1):
        parts.append(draw(st.sampled_from(ODD)))
        parts.append(GAME.format(board=board))
        parts.append("\n" * draw(st.integers(1, 3)))
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


def _games(games: object) -> list[tuple[int, str]]:
    return [(g.first, g.text) for g in games]  # type: ignore[attr-defined]


@SETTINGS
@given(pbn_texts(), st.sampled_from([7, 64, 300, 1 << 20]))
def test_quick_split_agrees_with_the_line_by_line_split(text: str, size: int) -> None:
    chunks = list(text_chunks(text.encode()))
    pieces = [c[i:i + size] for c in chunks for i in range(0, len(c), size)]
    lines = "".join(chunks).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    assert _games(games_of_text(pieces)) == _games(split_games(lines))


def _read(source: object, **options: object) -> tuple[list[str], list[str]]:
    problems: list[Diagnostic] = []
    options = ReadOptions(report=problems.append, need_deal=False, **options)  # type: ignore[arg-type]
    deals = pbn.read(source, "in", options)  # type: ignore[arg-type]
    text = pbn.dumps(deals)
    return [text], [p.format() for p in problems]


@SETTINGS
@given(pbn_texts())
def test_every_way_of_giving_the_input_reads_the_same(text: str) -> None:
    data = text.encode()
    expected = _read(data)
    assert _read(text) == expected
    assert _read(io.BytesIO(data)) == expected
    assert _read(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")) == expected
    assert oracle.signature(expected[0][0]) == oracle.signature(text)


INSERTS = ['"', "[", "]", "{", "}", ";", "%", "\n", "\n\n", "\r", "\t", " ", "#", "\\", "-",
           "=1=", "^R", "SA", "13", "X", "AP", '[Note "1:x"]', '[Deal "#"]', "\ufeff"]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    text = SAMPLES[draw(st.sampled_from(sorted(SAMPLES)))].decode("utf-8")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 3))
        text = text[:at] + draw(st.sampled_from(INSERTS)) + text[at + cut:]
    return text.encode("utf-8", "surrogateescape")


@settings(max_examples=examples(150), deadline=None)
@given(mutated())
# a byte-order mark starting a game that ends up first in the output
@example(b"\n\xef\xbb\xbfN:AKQ65.T72.KQ9.K2 T7432.A54.A5.Q43 9.QJ8.8632.T9765 J8.K963.JT74.AJ8\n")
def test_mutated_files_never_break_the_reader(data: bytes) -> None:
    """No traceback: every problem names a line; what is accepted is
    written, read again to the same deals, and written the same."""
    problems: list[Diagnostic] = []
    deals = list(pbn.read(data, "in", ReadOptions(report=problems.append, need_deal=False)))
    for problem in problems:
        assert problem.line is not None and problem.line >= 1 and problem.column is not None
        assert problem.format().startswith(f"in:{problem.line}:{problem.column}: ")
    text = pbn.dumps(deals)
    again_problems: list[Diagnostic] = []
    again = list(pbn.read(text, "out", ReadOptions(report=again_problems.append, need_deal=False)))
    assert [e for e in again_problems if e.severity == "error"] == []
    assert [(d.masks, d.board, d.dealer, d.vul, d.auction, d.play) for d in again] == [
        (d.masks, d.board, d.dealer, d.vul, d.auction, d.play) for d in deals]
    assert pbn.dumps(again) == text


def _read_both_ways(data: bytes, **options: object) -> list[tuple[object, ...]]:
    """What the reader gives with its quick ways in, and with every game
    through the full lexer: deals, their text as written, every problem."""
    results = []
    for quick in (True, False):
        problems: list[Diagnostic] = []
        reader = pbn_reader._Reader(data, "in", report=problems.append, **options)  # type: ignore[arg-type]
        reader.quick = quick
        deals = list(reader.deals())
        results.append(([(d.masks, d.board, d.dealer, d.vul, d.auction, d.play, d.order, d.game)
                          for d in deals], pbn.dumps(deals), [p.format() for p in problems]))
    return results


@settings(max_examples=examples(150), deadline=None)
@given(mutated(), st.booleans(), st.booleans())
def test_the_quick_ways_agree_with_the_full_lexer(data: bytes, strict: bool,
                                                   need_deal: bool) -> None:
    quick, full = _read_both_ways(data, strict=strict, need_deal=need_deal)
    assert quick == full


@SETTINGS
@given(pbn_texts())
def test_the_quick_ways_agree_on_blank_marks_line_ends_and_tabs(text: str) -> None:
    text = text.replace('[Dealer "N"]', '[Dealer "N"]\t').replace("None", " None ")
    quick, full = _read_both_ways(text.encode())
    assert quick == full


def test_the_quick_ways_agree_on_the_corpus() -> None:
    for name, data in SAMPLES.items():
        quick, full = _read_both_ways(data, need_deal=False)
        assert quick == full, name


PRINTPBN = ('[Event ""]\n[Site ""]\n[Date ""]\n[Board "{board}"]\n'
            '[West "{west}"]\n[North "{north}"]\n[East "-"]\n[South "-"]\n'
            '[Dealer "N"]\n[Vulnerable "None"]\n'
            '[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"]\n'
            '[Declarer "?"]\n[Contract "?"]\n[Result "{result}"]\n\n')


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(["-", "", "?", "Ann", " Bo "]),
                          st.sampled_from(["-", "Cy"]), st.sampled_from(["?", "", "9", "14"])),
                min_size=1, max_size=5),
       st.sampled_from(["", '[Room "Closed"]\n', '[Stage "Final"]\n', "{a remark}\n"]))
def test_the_game_record_is_filled_as_the_tags_say(games: list[tuple[str, str, str]],
                                                   more: str) -> None:
    """Players (North ... West), the claim (Result, tricks for declarer: 0-13),
    the room and the match are the deal's ``game`` as it is read, by every
    way in (dealer's printpbn layout, plain tags, the full lexer), as PBN 2.1
    defines those tags."""
    text = "".join(PRINTPBN.format(board=i, west=w, north=n, result=r)
                   for i, (w, n, r) in enumerate(games, 1))
    if more:  # the last game is no longer printpbn's layout
        text = text[:-1] + more + "\n"
    quick, full = _read_both_ways(text.encode())
    assert quick == full
    deals = list(pbn.read(text.encode(), "in"))
    for index, (deal, (west, north, result)) in enumerate(zip(deals, games, strict=True)):
        game = deal.game
        # "-" (dealer's printpbn), "?" (unknown) and "" name no one; when
        # someone is named, the others stay as written
        expected = None if {north.strip(), west.strip()} <= {"", "-", "?"} else (north, west)
        players = None if game is None else game.players
        assert (None if players is None else (players.north, players.west)) == expected
        assert players is None or (players.east, players.south) == ("-", "-")
        claim = int(result) if result.isdigit() and int(result) <= 13 else None
        assert (game.claim if game else None) == claim
        assert deal.game is game  # worked out once: the game read keeps it
        if index == len(deals) - 1 and more:
            assert game is not None and (game.room, game.match, game.commentary) != \
                (None, None, ())


def test_a_brace_left_open_before_the_last_empty_line_is_seen_by_the_quick_split() -> None:
    """Found by fuzzing: '{' opens a comment that runs over the empty line
    that ends the chunk's last complete game."""
    data = (GAME.format(board=1) + "\n" + GAME.format(board=2).replace("[Deal", "[De{")
            + "\n" + GAME.format(board=3)).encode()
    quick, full = _read_both_ways(data, need_deal=False)
    assert quick == full


@pytest.mark.parametrize("odd", ["\x1c", "\x1f", "\x85", "\xa0", "\u3000", "\u2028"])
def test_a_line_of_a_control_or_unicode_space_is_the_same_to_both_splits(odd: str) -> None:
    """Python's str.strip() takes these; the lexer's blanks are not them:
    the quick split and the line-by-line one must agree on such a line,
    inside a game and between two (found by test_parity, a lone CR sent the
    rest of a file line by line and board 3 lost its number)."""
    text = GAME.format(board=1).replace("[Dealer", odd + "\n[Dealer") + "\n" + \
        GAME.format(board=2) + odd + "\n" + GAME.format(board=3)
    lines = text.split("\n")
    lines.pop()
    assert _games(games_of_text([text])) == _games(split_games(lines))
    shifted = [(first - 1, body) for first, body in _games(games_of_text(["\n" + text]))]
    assert shifted == _games(games_of_text([text]))
