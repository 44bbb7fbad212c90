"""A board never takes another's place (docs/formats.md, "A board left out
never moves the boards after it"): an output that numbers its boards by
their place in the file (.bri, .dge, .dup, .ber, .bhg, .deals, giblib,
dealer's print formats) is not written from a numbered input whose boards
are not in order from the first (a gap, a board out of order or repeated),
on the bulk path and deal by deal; a set in order from any board is, and
``first_board`` numbers a set by place on purpose.

The expectations are the board numbers written in the fixtures (a board at
place k of a set starting at s would become board s + k - 1) and the .bri
layout of the spec (shared/spec/dealing-machines.md), read here by hand."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dealerpp import deals
from dealerpp.cli import main
from dealerpp.deals import formats
from dealerpp.deals.conversion import MOVED, NAMED_BOARDS, Notice, NotWritten, ReadBackFrom
from dealerpp.deals.model import Seat

RANKS = "AKQJT98765432"
DEALERS = "NESW"
VULS = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
        "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def hands(seed: int) -> list[str]:
    """North, East, South, West of a seeded shuffle, as PBN holdings."""
    cards = [suit + rank for suit in "SHDC" for rank in RANKS]
    random.Random(seed).shuffle(cards)
    return [".".join("".join(r for r in RANKS if s + r in cards[13 * seat:13 * seat + 13])
                     for s in "SHDC") for seat in range(4)]


def printpbn_game(board: int, seed: int) -> str:
    """A game laid out as dealer's printpbn writes it (the bulk path reads
    those in blocks)."""
    return (f'[Event "Hand simulated by dealer with file s.dlr, seed 1"]\n[Site "-"]\n'
            f'[Date "2026.11.27"]\n[Board "{board}"]\n[West "-"]\n[North "-"]\n'
            f'[East "-"]\n[South "-"]\n[Dealer "{DEALERS[(board - 1) % 4]}"]\n'
            f'[Vulnerable "{VULS[(board - 1) % 16]}"]\n'
            f'[Deal "N:{" ".join(hands(seed))}"]\n[Declarer "?"]\n[Contract "?"]\n'
            f'[Result "?"]\n')


def pbn(boards: list[int]) -> str:
    """Games of these boards, the deal of the game at place i seeded i."""
    return "\n".join(printpbn_game(board, place) for place, board in enumerate(boards))


def moved_by_hand(boards: list[int]) -> list[tuple[int, int]]:
    """Each board that is not the first board plus its place, with that number."""
    return [(board, boards[0] + place) for place, board in enumerate(boards)
            if board != boards[0] + place]


def bri_hands(data: bytes) -> list[list[str]]:
    """Each 128-byte .bri record's four hands, N E S W, by the spec: 39
    two-digit card numbers (1 = spade ace ... 52 = club two) for N, E, S;
    West holds the rest."""
    found = []
    for at in range(0, len(data), 128):
        numbers = [int(data[at + 2 * i:at + 2 * i + 2]) for i in range(39)]
        seats = [numbers[0:13], numbers[13:26], numbers[26:39],
                 [c for c in range(1, 53) if c not in numbers]]
        found.append([".".join("".join(RANKS[(c - 1) % 13] for c in sorted(seat)
                                       if (c - 1) // 13 == suit) for suit in range(4))
                      for seat in seats])
    return found


@pytest.fixture(params=[True, False], ids=["bulk", "per-deal"])
def bulk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    if not request.param:
        monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
    return bool(request.param)


SETS = {"gap": [1, 2, 4], "two gaps": [1, 2, 4, 5, 7], "order": [2, 1, 3],
        "repeat": [1, 2, 2, 3], "from 17": [17, 18, 20], "back": [3, 4, 1, 2],
        "many": [*range(1, 10), *range(11, 30)]}


@pytest.mark.parametrize("fmt", ["bri", "deals", "bhg", "oneline", "dup", "printall"])
@pytest.mark.parametrize("name", SETS)
def test_a_board_that_would_become_another_is_refused(
        name: str, fmt: str, bulk: bool, tmp_path: Path) -> None:
    boards = SETS[name]
    source = tmp_path / "set.pbn"
    source.write_text(pbn(boards))
    target = tmp_path / f"out.{fmt}"
    with pytest.raises(NotWritten) as refused:
        deals.convert(source, target, fmt)
    expected = moved_by_hand(boards)
    assert refused.value.kind == MOVED and refused.value.start == boards[0]
    assert list(refused.value.moved) == expected[:NAMED_BOARDS]
    assert refused.value.moves == len(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.pbn"]


def test_the_command_names_the_board_and_the_way_to_mean_it(
        bulk: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gap.pbn"
    source.write_text(pbn([1, 2, 4]))
    target = tmp_path / "out.bri"
    target.write_bytes(b"old")
    assert main(["convert", "-q", str(source), str(target)]) == 1
    err = capsys.readouterr().err
    assert f"board 4 of {source} would become board 3" in err
    assert "bri numbers its boards by their place" in err and "--first-board 1" in err
    assert target.read_bytes() == b"old"


@pytest.mark.parametrize("boards", [[1, 2, 3, 4], list(range(17, 33)), [5, 6, 7]],
                         ids=["1-4", "17-32", "5-7"])
def test_a_set_in_order_is_written_as_it_is(boards: list[int], bulk: bool,
                                            tmp_path: Path) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn(boards))
    assert deals.convert(source, tmp_path / "out.bri") == len(boards)
    written = bri_hands((tmp_path / "out.bri").read_bytes())
    assert written == [hands(place) for place in range(len(boards))]


def test_first_board_numbers_a_set_with_a_gap_by_place_on_purpose(
        bulk: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "gap.pbn"
    source.write_text(pbn([1, 2, 4]))
    target = tmp_path / "out.bri"
    assert main(["convert", "-q", str(source), str(target), "--first-board", "1"]) == 0
    assert bri_hands(target.read_bytes()) == [hands(0), hands(1), hands(2)]
    assert capsys.readouterr().err == ""


def test_boards_picked_in_order_are_written(tmp_path: Path) -> None:
    source = tmp_path / "gap.pbn"
    source.write_text(pbn([1, 2, 4, 5]))
    target = tmp_path / "out.bri"
    assert deals.convert(source, target, boards="1-2") == 2
    assert bri_hands(target.read_bytes()) == [hands(0), hands(1)]
    with pytest.raises(NotWritten) as refused:
        deals.convert(source, target, boards="2-5")
    assert refused.value.moved == ((4, 3), (5, 4))


def test_standard_output_holds_no_board_in_another_place(
        bulk: bool, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "gap.pbn"
    source.write_text(pbn([1, 2, 4]))
    assert main(["convert", "-q", str(source), "-", "--to", "bri"]) == 1
    out = capsysbinary.readouterr().out
    assert len(out) % 128 == 0 and bri_hands(out) == [hands(0), hands(1)][:len(out) // 128]


def test_a_long_set_read_in_bulk_names_the_boards_moved(tmp_path: Path) -> None:
    """Boards 1-300 but 150: the runs read in blocks are compared too;
    the per-deal path says the same."""
    boards = [b for b in range(1, 301) if b != 150]
    source = tmp_path / "set.pbn"
    source.write_text(pbn(boards))
    found = []
    for take_bulk in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            if not take_bulk:
                patch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
            with pytest.raises(NotWritten) as refused:
                deals.convert(source, tmp_path / "out.deals")
        found.append((refused.value.moved, refused.value.moves))
    assert found[0] == found[1] == (tuple(moved_by_hand(boards)[:NAMED_BOARDS]), 150)


def test_a_numbered_input_other_than_pbn_is_judged_alike(bulk: bool, tmp_path: Path) -> None:
    """.dx and csv hold board numbers; hex holds them modulo 16, so a
    32-board hex file (-1 ... -G, -1 ... -G) is in order, and a gap is not."""
    gap = tmp_path / "gap.pbn"
    gap.write_text(pbn([1, 2, 4]))
    for fmt in ("dx", "csv", "hex"):
        deals.convert(gap, tmp_path / f"gap.{fmt}")
        with pytest.raises(NotWritten) as refused:
            deals.convert(tmp_path / f"gap.{fmt}", tmp_path / "out.bri")
        assert refused.value.moved == ((4, 3),), fmt
    whole = tmp_path / "whole.pbn"
    whole.write_text(pbn(list(range(1, 33))))
    deals.convert(whole, tmp_path / "whole.hex")
    suffixes = re.findall(r"-([0-9A-F])$", (tmp_path / "whole.hex").read_text(), re.M)
    assert suffixes == [f"{b % 16:X}" for b in range(1, 33)]
    assert deals.convert(tmp_path / "whole.hex", tmp_path / "out.bri") == 32


@pytest.mark.parametrize("fmt", ["hex", "lin", "csv"])
def test_an_output_that_holds_the_numbers_keeps_a_gap(fmt: str, bulk: bool,
                                                      tmp_path: Path) -> None:
    source = tmp_path / "gap.pbn"
    source.write_text(pbn([1, 2, 4]))
    target = tmp_path / f"out.{fmt}"
    assert deals.convert(source, target) == 3
    assert [deal.board for deal in deals.read(target)] == [1, 2, 4]


def test_hex_warns_of_a_dealer_its_suffix_cannot_hold(
        bulk: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """hex's -D suffix gives each board the cycle's dealer and
    vulnerability: board 2 dealt by South comes back dealt by East."""
    source = tmp_path / "off.pbn"
    source.write_text(pbn([1, 2, 3]).replace('[Dealer "E"]', '[Dealer "S"]'))
    target = tmp_path / "out.hex"
    assert main(["convert", "-q", str(source), str(target)]) == 0
    err = capsys.readouterr().err
    assert "warning: board 2 of" in err and "hex holds neither" in err
    assert [deal.dealer for deal in deals.read(target)] == [Seat.NORTH, Seat.EAST, Seat.SOUTH]


@pytest.mark.parametrize("fmt", ["bri", "deals", "bhg"])
def test_a_set_from_board_17_says_how_to_read_it_back(
        fmt: str, bulk: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The file holds no numbers: read back, its boards are 1-16 unless
    first_board says 17 (.bhg's note says more: its hands start at the
    dealer's seat)."""
    source = tmp_path / "set.pbn"
    source.write_text(pbn(list(range(17, 33))))
    told: list[Notice] = []
    target = tmp_path / f"out.{fmt}"
    assert deals.convert(source, target, notice=told.append) == 16
    assert told == [ReadBackFrom(17, dealer_first=fmt == "bhg")]
    back = list(deals.read(target, first_board=17))
    assert [deal.board for deal in back] == list(range(17, 33))
    assert [d.masks for d in back] == [d.masks for d in deals.read(source)]
    assert main(["convert", "-q", str(source), str(target)]) == 0
    assert "read it back with --first-board 17" in capsys.readouterr().err
    # from board 1, or numbered on purpose: nothing to say (but for .bhg's
    # seats, which a first board other than 1 moves whoever numbered it)
    told.clear()
    deals.convert(source, target, first_board=17, notice=told.append)
    assert told == ([ReadBackFrom(17)] if fmt == "bhg" else [])
    told.clear()
    source.write_text(pbn([1, 2, 3]))
    deals.convert(source, target, notice=told.append)
    assert told == []


def test_boards_read_deal_by_deal_then_in_bulk_keep_their_places(tmp_path: Path) -> None:
    """Two games not laid out as printpbn (the per-deal reader's) and then
    printpbn games (read in blocks): the places run on from one to the other."""
    plain = "\n".join(f'[Board "{board}"]\n[Deal "N:{" ".join(hands(board))}"]\n'
                      for board in (1, 2))
    source = tmp_path / "set.pbn"
    source.write_text(plain + "\n" + "\n".join(printpbn_game(board, board)
                                               for board in range(3, 41)))
    assert deals.convert(source, tmp_path / "out.bri") == 40
    assert bri_hands((tmp_path / "out.bri").read_bytes()) == [hands(b) for b in range(1, 41)]
    source.write_text(source.read_text().replace('[Board "30"]', '[Board "31"]'))
    with pytest.raises(NotWritten) as refused:
        deals.convert(source, tmp_path / "out.bri")
    assert refused.value.moved == ((31, 30),)
