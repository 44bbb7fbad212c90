"""``deals.convert`` carries what ``dealerpp convert`` does: the bulk path
whenever it applies, boards picked by number, progress, standard input and
output (file objects), problems reported, nothing written on a failure."""

from __future__ import annotations

import dataclasses
import io
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dealerpp import deals
from dealerpp.atomic import SameFileError
from dealerpp.cli import main
from dealerpp.deals import formats
from dealerpp.deals.bulk import stream
from dealerpp.deals.conversion import (
    LEFT_OUT,
    NO_BOARDS,
    NO_DEALS,
    BoardsMissing,
    BoardsNotFound,
    LongPage,
    Notice,
    NotWritten,
    OffCycle,
    ReadBackFrom,
)
from dealerpp.deals.model import Deal
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic, DppError
from dealerpp.status import EXIT_USAGE
from tests.bulk.helpers import PerDealRefused


def dealt(count: int, seed: int) -> list[Deal]:
    """``count`` random deals (cards shuffled by Python's own generator)."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        cards = list(range(52))
        rng.shuffle(cards)
        masks = tuple(sum(1 << card for card in cards[13 * s:13 * s + 13]) for s in range(4))
        found.append(Deal(masks))  # type: ignore[arg-type]
    return found


def deals_file(tmp_path: Path, count: int, seed: int = 1) -> Path:
    path = tmp_path / "in.deals"
    deals.write(path, dealt(count, seed))
    return path


@pytest.fixture
def bulk_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk path's per-deal reader refused: a conversion that passes
    read every record in bulk."""
    from dealerpp.deals.bulk import fallback

    monkeypatch.setattr(fallback, "ModelPerDeal", PerDealRefused)


@pytest.fixture
def no_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk path refused: a conversion that passes went deal by deal."""

    monkeypatch.setattr(stream, "convert_file", _refused)


@pytest.fixture(params=["bulk", "per deal"])
def either_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: as it comes (hex output: the bulk path), and with
    the bulk path refused (as if no format had a codec)."""
    if request.param == "per deal":
        from dealerpp.deals import formats

        monkeypatch.setattr(formats, "is_fast_pair", lambda *_: False)
        monkeypatch.setattr(stream, "convert_file", _refused)
    return str(request.param)


def _refused(*args: object, **kwargs: object) -> int:
    raise AssertionError("the bulk path was taken")


@pytest.mark.usefixtures("bulk_only")
@pytest.mark.parametrize("to", ["hex", "giblib", "pbn", "oneline", "bri", "lin"])
def test_the_bulk_path_reads_every_record_in_bulk(to: str, tmp_path: Path) -> None:
    source = deals_file(tmp_path, 300)
    target = tmp_path / f"out.{to}"
    assert deals.convert(source, target, to) == 300
    # the per-deal writer makes the same file (a second path)
    assert target.read_bytes() == deals_bytes(dealt(300, 1), to)
    # and the refusal is real: a record the bulk path cannot read fails the test
    source.write_bytes(source.read_bytes()[:-8])
    with pytest.raises(AssertionError, match="per-deal reader"):
        deals.convert(source, target, to)


def deals_bytes(found: list[Deal], fmt: str) -> bytes:
    data = deals.dumps(found, fmt)
    return data if isinstance(data, bytes) else data.encode()


@pytest.mark.usefixtures("bulk_only")
def test_file_objects_take_the_bulk_path_too(tmp_path: Path) -> None:
    source = deals_file(tmp_path, 50)
    out = io.BytesIO()
    with source.open("rb") as handle:
        assert deals.convert(handle, out, "hex") == 50
    assert out.getvalue() == deals_bytes(dealt(50, 1), "hex")
    text = io.StringIO()  # a text stream gets the text
    assert deals.convert(io.BytesIO(source.read_bytes()), text, "hex", src_format="deals") == 50
    assert text.getvalue() == out.getvalue().decode()


@pytest.mark.usefixtures("no_bulk")
def test_boards_are_picked_deal_by_deal(tmp_path: Path) -> None:
    source = deals_file(tmp_path, 5)
    told: list[Notice] = []
    target = tmp_path / "out.pbn"
    assert deals.convert(source, target, boards="2-3,9", notice=told.append) == 2
    assert told == [BoardsMissing(((9, 9),))]
    back = list(deals.read(target))
    assert [d.masks for d in back] == [d.masks for d in dealt(5, 1)[1:3]]
    # boards 2 and 3 of the standard cycle: East deals at NS vulnerable, South at EW
    text = target.read_text()
    assert '[Board "2"]' in text and '[Dealer "E"]' in text and '[Vulnerable "NS"]' in text
    assert '[Board "3"]' in text and '[Dealer "S"]' in text and '[Vulnerable "EW"]' in text
    with pytest.raises(BoardsNotFound) as none:
        deals.convert(source, tmp_path / "none.pbn", boards=[(7, 9)])
    assert none.value.kind == NO_BOARDS and none.value.missing == ((7, 9),)
    assert not (tmp_path / "none.pbn").exists()


def test_boards_as_the_command_picks_them(tmp_path: Path,
                                          capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = deals_file(tmp_path, 5)
    assert main(["convert", "-q", str(source), "-", "--to", "pbn", "--boards", "2-3,9"]) == 0
    by_command = capsysbinary.readouterr()
    out = io.BytesIO()
    assert deals.convert(source, out, "pbn", boards=[(2, 3), (9, 9)]) == 2
    assert out.getvalue() == by_command.out
    assert b"board 9 (--boards) is not in the input" in by_command.err


@pytest.mark.usefixtures("either_path")
def test_progress_is_told_to_the_end(tmp_path: Path) -> None:
    source = deals_file(tmp_path, 3000)
    size = source.stat().st_size
    told: list[tuple[int, int | None, int]] = []
    assert deals.convert(source, tmp_path / "out", "hex",
                         progress=lambda done, whole, count: told.append((done, whole, count))
                         ) == 3000
    assert told and told[-1] == (size, size, 3000)
    assert [count for _, _, count in told] == sorted(count for _, _, count in told)


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("to", ["hex", "printall"])
def test_standard_input_and_output_as_the_command(
        to: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    data = deals_bytes(dealt(40, 3), "pbn")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    assert main(["convert", "-q", "-", "-", "--to", to]) == 0
    by_command = capsysbinary.readouterr().out
    out = io.BytesIO()
    assert deals.convert(io.BufferedReader(io.BytesIO(data)), out, to) == 40
    assert out.getvalue() == by_command
    assert out.getvalue() == deals_bytes(dealt(40, 3), to)


GOOD = dealt(3, 4)
PBN_WITH_A_BAD_GAME = "".join(
    f'[Board "{n}"]\n[Deal "{deal.to_pbn() if n != 2 else "N:AKQ.bad"}"]\n\n'
    for n, deal in enumerate(GOOD, 1))


def test_a_game_left_out_stops_an_output_without_numbers(either_path: str) -> None:
    to, streamed = "hex", either_path == "bulk"
    problems: list[Diagnostic] = []
    out = io.BytesIO()
    with pytest.raises(NotWritten) as refused:
        deals.convert(io.BytesIO(PBN_WITH_A_BAD_GAME.encode()), out, to,
                      options=ReadOptions(report=problems.append), filename="set.pbn")
    assert refused.value.kind == LEFT_OUT and refused.value.lines == (5,)
    assert refused.value.streamed is streamed
    assert [p.line for p in problems] == [5]
    # written as converted (bulk), the output stops before the board left out;
    # deal by deal, it gets nothing
    if streamed:
        assert [d.masks for d in deals.loads(out.getvalue(), to)] == [GOOD[0].masks]
    else:
        assert out.getvalue() == b""
    # a format that holds board numbers is written without it
    out = io.BytesIO()
    assert deals.convert(io.BytesIO(PBN_WITH_A_BAD_GAME.encode()), out, "csv",
                         options=ReadOptions(report=problems.append)) == 2
    assert [d.board for d in deals.loads(out.getvalue(), "csv")] == [1, 3]


class SlowOutput(io.BytesIO):
    """An output that takes its time, as a pipe to a slow reader does: the
    writer's thread lags far behind the reading."""

    def write(self, data: Any) -> int:
        time.sleep(0.02)
        return super().write(data)


@pytest.mark.parametrize("to", ["hex", "oneline", "bri"])
def test_a_streamed_output_holds_every_board_before_the_one_left_out(to: str) -> None:
    # A set of 400 games, game 301 bad: the 300 before it are written
    # however far the writer lags (they were dropped when the writer's
    # thread was the one to ask whether to stop).
    good = dealt(400, 8)
    games = [f'[Board "{n}"]\n[Deal "{deal.to_pbn() if n != 301 else "N:AKQ.bad"}"]\n\n'
             for n, deal in enumerate(good, 1)]
    out = SlowOutput()
    with pytest.raises(NotWritten) as refused:
        deals.convert(io.BytesIO("".join(games).encode()), out, to,
                      options=ReadOptions(report=lambda problem: None), filename="set.pbn")
    assert refused.value.streamed and refused.value.lines == (2 + 3 * 300,)
    assert [d.masks for d in deals.loads(out.getvalue(), to)] == [d.masks for d in good[:300]]


def test_without_a_report_the_first_error_is_raised(tmp_path: Path) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(PBN_WITH_A_BAD_GAME)
    with pytest.raises(DppError) as raised:
        deals.convert(source, tmp_path / "out.csv")
    assert raised.value.line == 5 and not isinstance(raised.value, NotWritten)
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.usefixtures("either_path")
@pytest.mark.parametrize("to", ["hex", "printall"])
def test_nothing_found_writes_nothing(to: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.deals"
    empty.write_bytes(b"")
    with pytest.raises(NotWritten) as refused:
        deals.convert(empty, tmp_path / "out", to)
    assert refused.value.kind == NO_DEALS
    assert refused.value.message == f"no deal found in {empty}: nothing written"
    assert sorted(os.listdir(tmp_path)) == ["empty.deals"]  # no empty file left


def test_the_output_is_never_the_input(tmp_path: Path) -> None:
    source = deals_file(tmp_path, 4)
    before = source.read_bytes()
    with pytest.raises(SameFileError):
        deals.convert(source, source, "deals")
    with pytest.raises(SameFileError):
        deals.convert(source, tmp_path / "." / "in.deals", "hex")
    assert source.read_bytes() == before


def test_a_long_page_and_boards_off_the_cycle_are_told(tmp_path: Path) -> None:
    told: list[Notice] = []
    source = deals_file(tmp_path, 2001)
    deals.convert(source, tmp_path / "records.html", notice=told.append)
    assert told == [LongPage(2000)]
    # board 1 dealt by South is off the cycle (North deals board 1): .bri holds neither
    game = f'[Board "1"]\n[Dealer "S"]\n[Vulnerable "None"]\n[Deal "{GOOD[0].to_pbn()}"]\n'
    (tmp_path / "one.pbn").write_text(game)
    told.clear()
    deals.convert(tmp_path / "one.pbn", tmp_path / "one.bri", notice=told.append)
    assert told == [OffCycle((1,))]


def test_bad_arguments_are_refused_before_anything_is_read(tmp_path: Path) -> None:
    source = deals_file(tmp_path, 2)
    with pytest.raises(ValueError, match="export"):
        deals.convert(source, tmp_path / "out.hex", export=True)
    with pytest.raises(ValueError, match="first_board"):
        deals.convert(source, tmp_path / "out.hex", first_board=0)
    with pytest.raises(DppError, match="unknown deal format"):
        deals.convert(source, tmp_path / "out.txt", "printal")
    with pytest.raises(DppError, match="cannot tell the output format"):
        deals.convert(source, tmp_path / "out.txt")
    with pytest.raises(ValueError, match="backwards"):
        deals.convert(source, tmp_path / "out.pbn", boards="5-2")
    assert sorted(os.listdir(tmp_path)) == ["in.deals"]


@pytest.mark.parametrize("boards", [None, "6-8"])  # the bulk path, deal by deal
def test_a_bhg_output_not_from_board_1_says_how_to_read_it_back(boards: str | None,
                                                               tmp_path: Path) -> None:
    numbered = [dataclasses.replace(deal, board=board)
                for board, deal in zip(range(5, 9), dealt(4, 6), strict=True)]
    deals.write(tmp_path / "in.hex", numbered)
    told: list[Notice] = []
    target = tmp_path / "out.bhg"
    deals.convert(tmp_path / "in.hex", target, boards=boards, notice=told.append)
    first = 5 if boards is None else 6
    assert told == [ReadBackFrom(first)]
    # read back from there, each board's hands land on their seats
    back = list(deals.read(target, first_board=first))
    assert [d.masks for d in back] == [d.masks for d in numbered[first - 5:]]



def meant(text: str) -> list[str]:
    """The extensions a message offers after 'did you mean'."""
    return text.split("did you mean ")[1].split("?")[0].split(" or ")


@pytest.mark.parametrize("extension", sorted(formats.BY_EXTENSION))
def test_a_typo_in_the_output_extension_names_the_extension_meant(
        tmp_path: Path, extension: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A name whose extension is one of the registry's with its last letter
    changed: the library's error (its hint, a field) and the command's
    usage error name the extension meant; nothing is written."""
    last = next(c for c in "zqy" if extension[:-1] + c not in formats.BY_EXTENSION)
    typo = tmp_path / f"out{extension[:-1]}{last}"
    source = deals_file(tmp_path, 2)
    for call in (lambda: deals.write(typo, deals.read(source)),
                 lambda: deals.convert(source, typo)):
        with pytest.raises(DppError) as raised:
            call()
        error = raised.value
        assert error.output and error.filename == str(typo) and error.hint is not None
        assert extension in meant(error.hint)
    assert main(["convert", str(source), str(typo)]) == EXIT_USAGE
    assert extension in meant(capsys.readouterr().err)
    assert sorted(os.listdir(tmp_path)) == ["in.deals"]


@pytest.mark.parametrize("name", formats.NAMES)
def test_a_typo_in_a_format_name_names_the_format_meant(tmp_path: Path, name: str) -> None:
    """A registry name with its last letter dropped (``printal``), or
    doubled for a short one (``dxx``), given as the format to read, write
    or convert to: the hint names the one meant."""
    typo = name[:-1] if len(name) > 3 else name + name[-1]
    assert typo not in formats.NAMES
    source = deals_file(tmp_path, 2)
    for call in (lambda: list(deals.read(source, typo)),
                 lambda: deals.dumps(deals.read(source), typo),
                 lambda: deals.convert(source, tmp_path / "out", typo)):
        with pytest.raises(DppError) as raised:
            call()
        assert raised.value.hint is not None and name in meant(raised.value.hint)
    assert sorted(os.listdir(tmp_path)) == ["in.deals"]


def test_standard_output_without_a_format_is_told_to_name_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'-' has no extension to be read, nor to be told of: the usage error
    says it is standard output (it said the name had no extension and
    listed the extensions)."""
    source = deals_file(tmp_path, 2)
    assert main(["convert", str(source), "-"]) == EXIT_USAGE
    said = capsys.readouterr()
    assert said.out == ""
    assert said.err.splitlines()[-1] == ("dealerpp convert: error: cannot tell the output format "
                                         "of '-' (standard output has no name to tell it by); "
                                         "use --to")


def test_a_stream_without_a_format_is_not_told_of_extensions(tmp_path: Path) -> None:
    """Standard output given with no format (its name is '<stdout>'): the
    hint says a stream's name says no format; it said 'the name has no
    extension' and listed the extensions, as if a file were to be renamed."""
    source = deals_file(tmp_path, 2)
    out = io.StringIO()
    out.name = "<stdout>"  # type: ignore[misc]
    for call in (lambda: deals.write(out, deals.read(source)),
                 lambda: deals.convert(source, out)):
        with pytest.raises(DppError) as raised:
            call()
        assert raised.value.output and raised.value.filename == "<stdout>"
        assert raised.value.hint == "<stdout> is a stream's name, which says no format"
    assert out.getvalue() == ""
