""".dx boards (docs/formats.md, ".deals and .dx"): the number byte is the
board's, 1-255 cycling, read back as the board of that byte nearest the
board before; a board left out never moves the boards after it, through
.dx as through any numbered format, on the per-deal and the bulk path.

The expectations are the boards the fixtures were written with, and a
brute-force reading of the rule (every board of the byte, the nearest
taken), not what the reader gives."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals
from dealerpp.cli import main
from dealerpp.deals import formats
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.model import Call, Deal, Seat, Vul, board_dealer_vul
from dealerpp.diagnostics import DppError
from tests.conftest import examples

HANDS = ("5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T",
         "AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T 5.76.AK97654.Q32",
         "T632.854.J.AK874 QJ97.QJ92.T832.T 5.76.AK97654.Q32 AK84.AKT3.Q.J965")
# Board 3 has a deal of 12 cards in North: the reader leaves the game out.
BAD = "5.76.AK97654.Q3 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T2"
# The standard cycle's dealer and vulnerability of boards 1-4, as PBN writes them.
CYCLE = {1: ("N", "None"), 2: ("E", "NS"), 3: ("S", "EW"), 4: ("W", "All")}


def game(board: int, hands: str) -> str:
    dealer, vul = CYCLE[board]
    return (f'[Board "{board}"]\n[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n'
            f'[Deal "N:{hands}"]\n')


GAP_PBN = "\n".join(game(b, h) for b, h in ((1, HANDS[0]), (2, HANDS[1]), (4, HANDS[2])))
BAD_PBN = "\n".join(game(b, h) for b, h in ((1, HANDS[0]), (2, HANDS[1]), (3, BAD),
                                           (4, HANDS[2])))
FIXED = settings(max_examples=examples(60), deadline=None)


def brute_board(byte: int, previous: int) -> int:
    """The rule by its words: of the boards from 1 whose byte (board - 1)
    mod 255 + 1 is ``byte``, the one nearest ``previous`` (0 for the first
    record: then the byte itself)."""
    boards = [b for b in range(1, previous + 256) if (b - 1) % 255 + 1 == byte]
    return min(boards, key=lambda b: abs(b - previous))


def pbn_boards(text: str) -> list[tuple[int, str, str, str]]:
    """Board, dealer, vulnerability and deal of each game of a PBN text,
    read with a regular expression (not the PBN reader)."""
    found = re.findall(r'\[Board "(\d+)"\]\n\[Dealer "(\w)"\]\n\[Vulnerable "(\w+)"\]\n'
                       r'\[Deal "N:([^"]+)"\]', text)
    return [(int(b), d, v, h) for b, d, v, h in found]


@FIXED
@given(st.integers(1, 255), st.integers(0, 2000))
def test_a_byte_reads_as_the_nearest_board_with_it(byte: int, previous: int) -> None:
    assert binary.dx_board(byte, previous) == brute_board(byte, previous)


def test_a_thousand_deals_read_back_as_boards_1_to_1000() -> None:
    deal = Deal.from_pbn(HANDS[0])
    data = deals.dumps([deal] * 1000, "dx")
    assert isinstance(data, bytes)
    assert data[255 * 35] == 1 and data[509 * 35] == 255 and data[510 * 35] == 1
    back = deals.loads(data, "dx")
    assert [d.board for d in back] == list(range(1, 1001))
    assert all((d.dealer, d.vul) == board_dealer_vul(d.board or 0) for d in back)


@FIXED
@given(st.lists(st.integers(-127, 127), min_size=1, max_size=40), st.integers(1, 255))
def test_boards_a_step_of_127_or_less_apart_read_back_as_written(steps: list[int],
                                                                 first: int) -> None:
    boards = [first]
    for step in steps:
        boards.append(max(1, boards[-1] + step))
    written = [Deal.from_pbn(HANDS[i % 3], board=b) for i, b in enumerate(boards)]
    assert [d.board for d in deals.loads(deals.dumps(written, "dx"), "dx")] == boards


@pytest.mark.parametrize(("boards", "bad", "place"), [
    ([300], 300, 1),        # a first board the byte cannot hold
    ([1, 200, 2], 2, 3),    # 2 after 200 would be 257
    ([200, 10], 10, 2),     # 10 after 200 would be 265
    ([5, 0], 0, 2),         # no board 0
])
def test_a_board_that_would_read_back_as_another_is_an_error(boards: list[int], bad: int,
                                                             place: int) -> None:
    written = [Deal.from_pbn(HANDS[0], board=b) for b in boards]
    with pytest.raises(DppError) as raised:
        deals.dumps(written, "dx")
    assert (raised.value.board, raised.value.deal, raised.value.output) == (bad, place, True)


def test_repeats_and_steps_back_of_tables_read_back() -> None:
    boards = [1, 2, 3, 1, 2, 3, 1, 2, 3, 200, 201, 200, 255, 256, 255]
    written = [Deal.from_pbn(HANDS[i % 3], board=b) for i, b in enumerate(boards)]
    assert [d.board for d in deals.loads(deals.dumps(written, "dx"), "dx")] == boards


def convert_cli(source: Path, target: Path, *extra: str) -> int:
    return main(["convert", str(source), str(target), "-q", *extra])


@pytest.mark.parametrize("bulk", [True, False])
def test_a_gap_in_the_boards_survives_pbn_dx_pbn(tmp_path: Path, bulk: bool,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if not bulk:
        monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
    source = tmp_path / "gap.pbn"
    source.write_text(GAP_PBN)
    assert convert_cli(source, tmp_path / "gap.dx") == 0
    assert convert_cli(tmp_path / "gap.dx", tmp_path / "back.pbn") == 0
    assert pbn_boards((tmp_path / "back.pbn").read_text()) == pbn_boards(GAP_PBN)
    # and through the library
    deals.convert(source, tmp_path / "lib.dx")
    deals.convert(tmp_path / "lib.dx", tmp_path / "lib.pbn")
    assert pbn_boards((tmp_path / "lib.pbn").read_text()) == pbn_boards(GAP_PBN)


@pytest.mark.parametrize("bulk", [True, False])
def test_a_board_left_out_keeps_its_number_through_dx(tmp_path: Path, bulk: bool,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The docs' promise: PBN boards 1, 2, 4 (3 bad) -> .dx -> PBN gives
    boards 1, 2 and 4, board 4 with its own dealer and vulnerability."""
    if not bulk:
        monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
    source = tmp_path / "bad.pbn"
    source.write_text(BAD_PBN)
    assert convert_cli(source, tmp_path / "set.dx") == 1  # the bad game named, the rest written
    assert "bad.pbn:14:" in capsys.readouterr().err
    assert convert_cli(tmp_path / "set.dx", tmp_path / "back.pbn") == 0
    assert pbn_boards((tmp_path / "back.pbn").read_text()) == pbn_boards(GAP_PBN)
    read = list(deals.read(tmp_path / "set.dx"))
    assert [(d.board, d.dealer, d.vul) for d in read] == [
        (1, Seat.NORTH, Vul.NONE), (2, Seat.EAST, Vul.NS), (4, Seat.WEST, Vul.BOTH)]


@pytest.mark.parametrize("target", ["hex", "bhg", "csv", "lin"])
def test_a_dx_with_a_gap_converts_as_the_pbn_it_was_written_from(
        tmp_path: Path, target: str) -> None:
    """A .dx with boards 1, 2, 4 converts as the PBN it was written from
    does, to a numbered format (csv, lin) and to one numbered by place
    (.bhg, written by place from any numbered input); hex's suffix keeps
    each board's number modulo 16: -1, -2, -4."""
    pbn_in = tmp_path / "gap.pbn"
    pbn_in.write_text(GAP_PBN)
    dx_in = tmp_path / "gap.dx"
    deals.convert(pbn_in, dx_in)
    outputs = []
    for source in (pbn_in, dx_in):
        out = tmp_path / f"{source.suffix[1:]}.{target}"
        status = convert_cli(source, out)
        outputs.append((status, out.read_bytes() if out.exists() else None))
    assert outputs[0] == outputs[1]
    if target == "hex":
        assert [line[-2:] for line in outputs[1][1].split()] == [b"-1", b"-2", b"-4"]


@pytest.mark.parametrize("bulk", [True, False])
def test_convert_names_a_board_dx_cannot_number(tmp_path: Path, bulk: bool,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    if not bulk:
        monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
    source = tmp_path / "gap.pbn"
    source.write_text(GAP_PBN)
    target = tmp_path / "out.dx"
    assert convert_cli(source, target, "--first-board", "300") == 1
    err = capsys.readouterr().err
    assert "deal 1: board 300:" in err and "board 45" in err
    assert not target.exists()


@pytest.mark.parametrize("bulk", [True, False])
def test_a_dealer_dx_cannot_hold_is_named(tmp_path: Path, bulk: bool,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Board 2 dealt by South (the cycle's is East): .dx holds no dealer,
    so convert warns, naming board 2, and the board reads back as East's."""
    if not bulk:
        monkeypatch.setattr(formats, "takes_bulk_path", lambda *a, **k: False)
    source = tmp_path / "off.pbn"
    source.write_text(game(1, HANDS[0]) + "\n" + game(2, HANDS[1]).replace('"E"', '"S"'))
    target = tmp_path / "off.dx"
    assert convert_cli(source, target) == 0
    err = capsys.readouterr().err
    assert "warning: board 2 of" in err and "dx holds neither" in err
    assert [(d.board, d.dealer) for d in deals.read(target)] == [(1, Seat.NORTH),
                                                                  (2, Seat.EAST)]
    assert convert_cli(source, tmp_path / "again.dx", "--first-board", "1") == 0
    assert "warning" not in capsys.readouterr().err  # boards given the cycle's: nothing lost


# pickle.dumps(deal, 2) by main at 61dbd62, before .dx boards were read: a
# deal read from a .dx record numbered 7 (board None, the byte kept as
# ``extra=DxInfo(number=7)``), its auction 1NT and three passes.
BEFORE_BOARDS = (
    b"\x80\x02cdealerpp.deals.model\nDeal\nq\x00)\x81q\x01}q\x02(X\x05\x00\x00\x00masksq"
    b"\x03(\x8a\x07\x80\x83\x81\x08\xa8\x00\x0e\x8a\x07pH\x00\xe2\x11\xc0\x00\x8a\x07\x0c"
    b"\x04P\x15@8\x01\x8a\x06\x030.\x00\x06\x07tq\x04X\x05\x00\x00\x00boardq\x05NX\x06"
    b"\x00\x00\x00dealerq\x06NX\x03\x00\x00\x00vulq\x07NX\x07\x00\x00\x00auctionq\x08(c"
    b"dealerpp.deals.model\nCall\nq\tK0\x85q\n\x81q\x0bh\tK\x01\x85q\x0c\x81q\rh\tK\x01"
    b"\x85q\x0e\x81q\x0fh\tK\x01\x85q\x10\x81q\x11tq\x12X\x04\x00\x00\x00playq\x13)X\x06"
    b"\x00\x00\x00tricksq\x14NX\x05\x00\x00\x00extraq\x15cdealerpp.deals.formats._binary"
    b"\nDxInfo\nq\x16)\x81q\x17}q\x18X\x06\x00\x00\x00numberq\x19K\x07sbX\x05\x00\x00\x00"
    b"orderq\x1aNX\x04\x00\x00\x00gameq\x1bcdealerpp.deals.model\n_Unasked\nq\x1ch\x1b"
    b"\x85q\x1dRq\x1eub."
)


def test_a_pickle_of_a_deal_read_from_dx_before_its_board_was_read_loads() -> None:
    """0fc461d dropped the DxInfo class such a pickle names: loading it
    raised AttributeError (the model's split keeps its old names for this)."""
    found = pickle.loads(BEFORE_BOARDS)
    passes = (Call.from_str("Pass"),) * 3
    assert found == Deal.from_pbn(
        "N:AKQ2.KJ3.Q54.JT9 T9.Q8765.A3.K876 J876.A42.KJ9.Q54 543.T9.T8762.A32",
        auction=(Call.from_str("1NT"), *passes))
    assert found.board is None
    assert isinstance(found.extra, binary.DxInfo) and found.extra.number == 7
