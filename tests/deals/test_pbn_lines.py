"""Every message that names a line of a PBN file counts the file's physical
lines: ``%`` lines, blank lines, lines of blanks, comments over several
lines, CR LF ends. Files are built from pieces whose lines are known, so
the expected line is counted in the text, not asked of our reader.

The paths: the reader deal by deal (``pbn.read``, ``convert`` pbn -> pbn),
the bulk path's hand-over to it (``convert`` pbn -> .deals, in chunks that
cut the file anywhere), and the writer's name of a game it cannot write
("deal N: board B: read at line L", each in a field of the error)."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.cli import main
from dealerpp.deals.bulk.fallback import ModelPerDeal
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.formats import pbn
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic, DppError
from tests.conftest import examples

FULL = "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"
BAD = "N:5.76.AK97654.Q32 5.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"  # S5 twice
BAD_COLUMN = len("N:5.76.AK97654.Q32 ") + 1  # in the value: the second hand's S5
PRINTPBN = ('[Event ""]\n[Site ""]\n[Date ""]\n[Board "{board}"]\n[West ""]\n[North ""]\n'
            '[East ""]\n[South ""]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
            '[Declarer ""]\n[Contract ""]\n[Result ""]')
# Games as each path meets them: dealer's printpbn layout (read by one
# match), plain tags, sections and a comment over a blank line, '%' lines
# before the tags, the bulk codec's [Deal] pair, a bare deal line.
GAMES = {
    "printpbn": PRINTPBN,
    "tagged": '[Board "{board}"]\n[Deal "{deal}"]',
    "rich": ('[Board "{board}"]\n{{a comment\n\nover a blank line}}\n[Deal "{deal}"]\n'
             '[Auction "N"]\n1NT Pass 3NT AP'),
    "escaped": '% a note\n%\n[Board "{board}"]\n[Deal "{deal}"]',
    "pair": '[Deal "{deal}"]',
    "bare": "{deal}",
}
BETWEEN = ["\n\n", "\n\n\n", "\n  \n", "\n\t\n\n", "\n\n% between games\n\n", "\n\n; x\n\n"]


@dataclasses.dataclass
class Case:
    text: str
    game_line: int  # where the bad game's first tag (or its line of hands) is
    deal_line: int  # the line of its bad deal
    deal_column: int  # ... and the column of the card given twice


@st.composite
def cases(draw: st.DrawFn) -> Case:
    kinds = draw(st.lists(st.sampled_from(sorted(GAMES)), min_size=1, max_size=5))
    bad = draw(st.integers(0, len(kinds) - 1))
    text = ""
    found: tuple[int, int, int] = (0, 0, 0)
    for index, kind in enumerate(kinds):
        if index:
            # bare deal lines follow each other line by line; a game ends at a blank line
            both_bare = kind == "bare" and kinds[index - 1] == "bare"
            text += "\n" if both_bare else draw(st.sampled_from(BETWEEN))
        game = GAMES[kind].format(board=index + 1, deal=BAD if index == bad else FULL)
        if index == bad:
            first_tag = game.find("[")
            found_game = text + game[:max(first_tag, 0)]
            before = text + game[:game.index(BAD)]
            line_start = before.rfind("\n") + 1
            found = (found_game.count("\n") + 1, before.count("\n") + 1,
                     len(before) - line_start + BAD_COLUMN)
        text += game
    text += draw(st.sampled_from(["", "\n", "\n\n"]))
    return Case(text, *found)


def error_places(problems: list[Diagnostic]) -> list[tuple[int | None, int | None]]:
    return [(p.line, p.column) for p in problems if p.severity == "error"]


@settings(max_examples=examples(60), deadline=None)
@given(cases(), st.booleans())
def test_the_reader_names_the_physical_line(case: Case, crlf: bool) -> None:
    data = case.text.replace("\n", "\r\n").encode() if crlf else case.text
    problems: list[Diagnostic] = []
    list(pbn.read(data, "f", ReadOptions(report=problems.append)))
    assert error_places(problems) == [(case.deal_line, case.deal_column)]


@settings(max_examples=examples(60), deadline=None)
@given(cases(), st.sampled_from([64, 100, 1 << 20]))
def test_the_bulk_path_names_the_physical_line(case: Case, chunk: int) -> None:
    problems: list[Diagnostic] = []
    per_deal = ModelPerDeal(ReadOptions(report=problems.append))
    convert_stream(io.BytesIO(case.text.encode()), io.BytesIO(), "pbn", "deals", filename="f",
                   per_deal=per_deal, chunk=chunk)
    assert error_places(problems) == [(case.deal_line, case.deal_column)]


@settings(max_examples=examples(30), deadline=None)
@given(cases())
def test_the_writer_names_the_game_by_the_physical_line_of_its_first_tag(case: Case) -> None:
    # A deal PBN cannot hold (three full hands and a short one) in the place
    # of the bad game's: the writer names that game by where it was read.
    text = case.text.replace(BAD, FULL + " ")  # (a blank to find the game again)
    read = list(pbn.read(text, "f"))
    index = next(i for i, deal in enumerate(read) if (FULL + " ") in deal.extra.text)
    masks = list(read[index].masks)
    masks[0] &= masks[0] - 1  # North's lowest card taken away
    read[index] = dataclasses.replace(read[index], masks=tuple(masks))
    with pytest.raises(DppError) as caught:
        pbn.dumps(read)
    board = read[index].board
    named = f"board {board}: " if board is not None else ""
    error = caught.value
    assert (error.deal, error.board, error.output) == (index + 1, board, True)
    assert error.read_line == case.game_line  # a field, not words in the message
    assert "line" not in error.message
    assert error.text.startswith(f"deal {index + 1}: {named}read at line {case.game_line}: ")


def convert(args: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["convert", "-q", *args])
    return status, err.getvalue()


@pytest.mark.parametrize("to", ["pbn", "deals"])  # per deal, and the bulk path
def test_convert_names_the_physical_line(tmp_path: Path, to: str) -> None:
    text = ("% made by hand\n%\n\n" + GAMES["printpbn"].format(board=1, deal=FULL) + "\n \n\n"
            + GAMES["rich"].format(board=2, deal=FULL) + "\n\n"
            + GAMES["escaped"].format(board=3, deal=BAD) + "\n")
    source = tmp_path / "in.pbn"
    source.write_bytes(text.replace("\n", "\r\n").encode())
    status, err = convert([str(source), str(tmp_path / f"out.{to}"), "--to", to])
    # two '%' lines and a blank one, 14 of printpbn, 2 between, 7 of the rich
    # game, 1 between, then '%', '%', Board, Deal
    assert status == 1
    assert err.startswith(f"{source}:{3 + 14 + 2 + 7 + 1 + 4}:{len('[Deal ') + 1 + BAD_COLUMN}:"
                          " error: Deal: card S5 is in two hands")
