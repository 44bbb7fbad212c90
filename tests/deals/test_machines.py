"""Dealing-machine and club formats against their description in docs/formats.md.

The expected bytes below are written out by hand from the spec's layouts
and examples, not taken from our writer."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.cli import main
from dealerpp.deals import detect
from dealerpp.deals.formats import _machines as machines
from dealerpp.deals.model import Deal, Seat, Vul, board_dealer_vul
from dealerpp.diagnostics import DppError
from tests.conftest import examples
from tests.deals.strategies import full_masks

# North all spades, East all hearts, South all diamonds, West all clubs
SUITED = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
# the spec's example North hand, with the rest dealt by hand
EXAMPLE = Deal.from_pbn("N:AJ9.K9542.Q.AK93 KQ8.AQ.AK97.QJT2 7654.JT8.JT85.87 T32.763.6432.654")
RANKS = b"AKQJT98765432"
SUITED_DIGITS = b"".join(b"%02d" % n for n in range(1, 40))
SUITED_HANDS = (b"\x06" + RANKS + b"\x03\x04\x05" + b"\x06\x03" + RANKS + b"\x04\x05"
                + b"\x06\x03\x04" + RANKS + b"\x05" + b"\x06\x03\x04\x05" + RANKS)


def written(deals: list[Deal], fmt: str) -> bytes:
    out = io.BytesIO()
    deals_api.write(out, deals, fmt)
    return out.getvalue()


def error_of(data: bytes | str, fmt: str) -> DppError:
    with pytest.raises(DppError) as caught:
        list(deals_api.read_source(data, fmt))
    return caught.value


# -- the layouts, byte for byte ------------------------------------------------------

def test_bri_layout() -> None:
    record = SUITED_DIGITS + b" " * 32 + b"\0" * 18
    assert len(record) == 128
    assert written([SUITED, SUITED], "bri") == record * 2
    assert written([EXAMPLE], "bri").startswith(b"01040615192324262940414551")


def test_dge_layout() -> None:
    assert len(SUITED_HANDS) == 68
    assert written([SUITED], "dge") == SUITED_HANDS + b"\0" * 60
    assert written([EXAMPLE], "dge").startswith(b"\x06AJ9\x03K9542\x04Q\x05AK93\x06KQ8")


def test_dup_layout_and_trailer() -> None:
    body = SUITED_DIGITS + SUITED_HANDS
    assert written([SUITED, SUITED], "dup") == body + b"YN1  0 02 " + body + b"\0" * 10
    later = [Deal(SUITED.masks, board=9)] + [SUITED] * 3  # a set of boards 9 to 12
    assert written(later, "dup")[146:156] == b"YN9  0 12 "
    with pytest.raises(DppError, match="deal 100: board 100: past 99"):
        written([SUITED] * 100, "dup")


def test_ber_layout() -> None:
    assert written([SUITED, SUITED], "ber") == (b"1" * 13 + b"2" * 13 + b"3" * 13 + b"4" * 13) * 2


def test_bhg_layout_starts_with_the_dealer() -> None:
    spades, hearts = b"ABCDEFGHIJKLM", b"NOPQRSTUVWXYZ"
    diamonds, clubs = b"abcdefghijklm", b"nopqrstuvwxyz"
    board1 = spades + hearts + diamonds + clubs  # N E S W
    board2 = hearts + diamonds + clubs + spades  # E S W N
    assert written([SUITED, SUITED], "bhg") == b"\n" + board1 + b"\n" + board2 + b"\n"
    assert written([EXAMPLE], "bhg").startswith(b"\nADFOSWXZcnosy")


def test_csv_layout() -> None:
    full = '"AKQJT98765432"'
    row = ",".join([full, '""', '""', '""', '""', full, '""', '""',
                    '""', '""', full, '""', '""', '""', '""', full])
    expected = f'{row},"1","N/-"\n{row},"2","E/NS"\n'.encode("ascii")
    assert written([SUITED, SUITED], "csv") == expected
    assert written([EXAMPLE], "csv").startswith(b'"AJ9","K9542","Q","AK93",')
    kept = Deal(SUITED.masks, board=7, dealer=Seat.WEST, vul=Vul.BOTH)
    assert written([kept], "csv").endswith(b'"7","W/All"\n')


DLM_HEAD = ("[Document]\nHeadline=Club night\nStatus=\nDuplicates=1\nFrom board={first}\n"
            "To board={last}\nNext board to duplimate={first}\nPrintOuts=\n"
            "Crypto key={crypto}\nChecksum={checksum}\n")


def spec_check(board: int, letters: str) -> str:
    """The spec's rule, computed here: NN XOR the code of each letter."""
    value = board
    for letter in letters:
        value ^= ord(letter)
    return f"{value:03d}"


def dlm(first: int, last: int, boards: dict[int, str], crypto: str = "0") -> str:
    # Status is empty: no XOR 1 (the spec's rule: only Status=Show adds it)
    lines = [DLM_HEAD.format(first=first, last=last, crypto=crypto, checksum=1 ^ first ^ last)]
    for number, letters in boards.items():
        check = spec_check(number, letters) if len(letters) == 26 else ""
        lines.append(f"Duplicates {number:02d}=1\nBoard {number:02d}={letters}{check}\n")
    return "".join(lines)


def test_dlm_reads_the_boards_in_range() -> None:
    # a = N N, f = E E, k = S S, p = W W; b = N E (spec: ♠A North, ♠K East), l = S W
    suited_letters = "b" + "aaaaaa" + "ffffff" + "kkkkkk" + "l" + "pppppp"
    assert len(suited_letters) == 26
    text = dlm(2, 3, {1: "z" * 26, 2: suited_letters, 3: suited_letters, 4: "?"})
    with pytest.raises(DppError, match="board 1: 'z' is not a letter a-p"):
        list(deals_api.read_source(text.encode("ascii"), "dlm"))  # every board is checked
    text = dlm(2, 3, {2: suited_letters, 3: suited_letters})
    read = list(deals_api.read_source(text.encode("ascii"), "dlm"))
    assert [d.board for d in read] == [2, 3]
    assert read[0].dealer is Seat.EAST and read[0].vul is Vul.NS
    north = read[0].masks[Seat.NORTH]
    assert north >> 51 & 1  # spade ace (card number 1)
    assert read[0].masks[Seat.EAST] >> 50 & 1  # spade king (card number 2)
    assert detect.from_content(text.encode("ascii")) == "dlm"


def test_dlm_refuses_encryption_and_bad_letters() -> None:
    text = dlm(1, 1, {1: "a" * 26}, crypto="5731")
    assert "encrypted" in error_of(text, "dlm").message
    bad = error_of(dlm(1, 1, {1: "aaaaaaq" + "a" * 19}), "dlm")
    assert "'q' is not a letter a-p" in bad.message and bad.line is not None


# -- detection ------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["bri", "dge", "dup", "ber", "bhg", "csv"])
def test_detected_by_content_never_as_dx(fmt: str, tmp_path: Path) -> None:
    data = written([EXAMPLE, SUITED, EXAMPLE], fmt)
    assert detect.from_content(data) == fmt
    path = tmp_path / "boards.dat"  # an extension that names no format
    path.write_bytes(data)
    assert [d.masks for d in deals_api.read_source(path)] == [EXAMPLE.masks, SUITED.masks, EXAMPLE.masks]


def test_binary_content_of_no_format_names_the_formats_tried() -> None:
    with pytest.raises(DppError) as caught:
        detect.from_content(b"\0\1\2garbage" * 20)
    for name in ("deals", "dx", "bri", "dge", "dup"):
        assert name in caught.value.message


def test_content_two_formats_claim_is_an_error_naming_both(monkeypatch: pytest.MonkeyPatch) -> None:
    from dealerpp.deals import formats

    monkeypatch.setattr(formats, "claims", lambda head: ["bri", "dup"])
    with pytest.raises(DppError, match="it fits bri and dup; give the format"):
        detect.from_content(written([EXAMPLE], "bri"))


def test_dx_and_deals_are_still_detected() -> None:
    assert detect.from_content(written([EXAMPLE], "dx")) == "dx"
    assert detect.from_content(written([EXAMPLE], "deals")) == "deals"


# -- bad records: the board and the byte -------------------------------------------------

# Bytes a record (docs/formats.md): a byte's record is its deal's place.
RECORD_SIZE = {"bri": 128, "dge": 128, "dup": 156, "ber": 52}


def bri_file() -> bytes:
    return written([EXAMPLE, SUITED], "bri")


@pytest.mark.parametrize(("fmt", "data", "expected"), [
    ("bri", bri_file()[:200], "byte 128: deal 2: board 2: truncated record: 72 of 128"),
    ("bri", bri_file()[:130] + b"01" + bri_file()[132:], "byte 130: deal 2: board 2: card SA (01) is given twice"),
    ("bri", bri_file()[:4] + b"53" + bri_file()[6:], "byte 4: deal 1: board 1: '53' is not a card number"),
    ("bri", b"0x" + bri_file()[2:], "byte 0: deal 1: board 1: '0x' is not a card number"),
    ("dge", SUITED_HANDS[:5] + b"X" + SUITED_HANDS[6:] + b"\0" * 60,
     "byte 5: deal 1: board 1: North: expected the suit glyph 0x03 (H), found byte 0x58"),
    ("dge", SUITED_HANDS[:3] + b"A" + SUITED_HANDS[4:] + b"\0" * 60,
     "byte 3: deal 1: board 1: card SA (01) is given twice"),
    ("dge", SUITED_HANDS + b"\0" * 59, "byte 0: deal 1: board 1: truncated record: 127 of 128"),
    ("dup", written([SUITED], "dup")[:80] + b"A" + written([SUITED], "dup")[81:],
     "byte 80: deal 1: board 1: card SA (01) is given twice"),
    ("dup", written([SUITED], "dup")[:79] + b"X" + written([SUITED], "dup")[80:],
     "byte 79: deal 1: board 1: North: expected the suit glyph 0x03 (H), found byte 0x58"),
    ("ber", b"1" * 13 + b"2" * 13 + b"3" * 13 + b"4" * 12 + b"5", "byte 51: deal 1: board 1: '5' is not a seat digit"),
    ("ber", b"1" * 14 + b"2" * 12 + b"3" * 13 + b"4" * 13, "byte 0: deal 1: board 1: North holds 14 cards"),
    ("ber", b"1" * 13 + b"2" * 13 + b"3" * 13 + b"4" * 13 + b"1234",
     "byte 52: deal 2: board 2: truncated record: 4 of 52"),
])
def test_bad_records_name_the_board_and_byte(fmt: str, data: bytes, expected: str) -> None:
    error = error_of(data, fmt)
    assert error.text.startswith(expected)
    # the deal is the record's place: its byte's record, counted from 1
    assert error.byte is not None and error.deal == error.byte // RECORD_SIZE[fmt] + 1


@pytest.mark.parametrize(("fmt", "data", "expected", "where"), [
    ("bhg", "\nABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvw1y\n",
     "deal 1: board 1: '1' is not a card letter", (2, 50)),
    ("bhg", "\nABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyA\n",
     "deal 1: board 1: card SA (01) is given twice", (2, 52)),
    ("bhg", "\n" + "A" * 10 + "\n", "deal 1: board 1: card SA (01) is given twice", (2, 2)),
    ("csv", '"AKQJT98765432","","","","","AKQJT98765432","","","","","AKQJT98765432","","",'
            '"","","AKQJT9876543X","3","S/EW"\n', "deal 1: board 3: 'X' is not a rank", (1, 98)),
    ("csv", '"AK"\n', "deal 1: a board is 18 fields", (1, 1)),
    ("csv", '"",' * 16 + '"\u00b21","N/-"\n', "deal 1: the board number must be", (1, 50)),
])
def test_bad_lines_name_the_board_line_and_column(fmt: str, data: str, expected: str,
                                                   where: tuple[int, int]) -> None:
    error = error_of(data.encode("utf-8"), fmt)
    assert error.text.startswith(expected)
    assert (error.line, error.column) == where
    # the deal and board a message names are fields too, not only words in the text
    named = expected.split(": ")[1]
    assert error.deal == 1
    assert error.board == (int(named.split()[1]) if named.startswith("board ") else None)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_convert_of_a_bad_record_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "set.bri"
    source.write_bytes(bri_file()[:130] + b"99" + bri_file()[132:])
    for out in ("out.pbn", "out.dup"):
        status, _, err = run(["convert", str(source), str(tmp_path / out)])
        assert status == 1
        assert "byte 130: error: deal 2: board 2: '99' is not a card number" in err
        assert not (tmp_path / out).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.bri"]


# -- decisions the spec leaves open (docs/formats.md) -------------------------------------

def test_csv_is_written_with_lf_and_no_header_line() -> None:
    """The spec has one line a board: no header line, which would be a line
    that is no board; LF ends lines as in the spec's other text layout
    (.bhg) and in every other text writer. CR LF files are read too."""
    data = written([SUITED, EXAMPLE], "csv")
    lines = data.split(b"\n")
    assert lines[2:] == [b""] and b"\r" not in data  # two lines, each ended by LF
    assert [line.split(b",")[16] for line in lines[:2]] == [b'"1"', b'"2"']  # both boards
    crlf = list(deals_api.read_source(data.replace(b"\n", b"\r\n"), "csv"))
    assert [d.masks for d in crlf] == [SUITED.masks, EXAMPLE.masks]


@pytest.mark.parametrize(("first", "count", "deal", "past"), [(1, 100, 100, 100),
                                                              (95, 6, 6, 100),
                                                              (120, 1, 1, 120)])
def test_dup_past_board_99_names_the_board_and_writes_nothing(
        tmp_path: Path, first: int, count: int, deal: int, past: int) -> None:
    deals = [Deal(SUITED.masks, board=first)] + [SUITED] * (count - 1)
    with pytest.raises(DppError, match=f"error: deal {deal}: board {past}: past 99") as caught:
        written(deals, "dup")
    assert (caught.value.deal, caught.value.board, caught.value.output) == (deal, past, True)
    if first > 1:
        return
    source, target = tmp_path / "set.ber", tmp_path / "set.dup"
    source.write_bytes(written(deals, "ber"))
    status, _, err = run(["convert", str(source), str(target)])
    assert status == 1
    assert err.startswith(f"{target}: error: deal 100: board 100: past 99"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.ber"]


# -- board numbers, dealer, vulnerability ------------------------------------------------

def test_position_gives_board_dealer_and_vulnerability() -> None:
    read = list(deals_api.read_source(written([SUITED] * 5, "bri"), "bri"))
    assert [(d.board, d.dealer, d.vul) for d in read] == [
        (1, Seat.NORTH, Vul.NONE), (2, Seat.EAST, Vul.NS), (3, Seat.SOUTH, Vul.EW),
        (4, Seat.WEST, Vul.BOTH), (5, Seat.NORTH, Vul.NS)]


def test_convert_first_board_to_pbn_and_back(tmp_path: Path) -> None:
    source = tmp_path / "set.bhg"
    # boards 6 and 7: .bhg lists the hands from each board's dealer (E, then S)
    source.write_bytes(written([Deal(EXAMPLE.masks, board=6), SUITED], "bhg"))
    assert source.read_bytes().startswith(b"\nBCGNPabfhpqrz")  # East's hand first
    pbn = tmp_path / "set.pbn"
    assert run(["convert", str(source), str(pbn), "--first-board", "6", "-q"])[0] == 0
    text = pbn.read_text()
    for tag in ('[Board "6"]', '[Dealer "E"]', '[Vulnerable "EW"]',
                '[Board "7"]', '[Dealer "S"]', '[Vulnerable "All"]'):
        assert tag in text
    back = list(deals_api.read_source(pbn))
    assert [d.masks for d in back] == [EXAMPLE.masks, SUITED.masks]
    csv = tmp_path / "set.csv"
    assert run(["convert", str(pbn), str(csv), "-q"])[0] == 0
    assert csv.read_text().splitlines()[1].endswith('"7","S/All"')
    assert run(["convert", str(pbn), str(tmp_path / "x.pbn"), "--first-board", "0"])[0] == 2


def test_a_bhg_written_from_another_board_than_1_says_how_to_read_it_back(
        tmp_path: Path) -> None:
    """.bhg holds no board numbers but lists the hands from each board's
    dealer: a set written from board 6 reads back right only as boards 6,
    7, ...; the conversion says so, and the note's advice works."""
    pbn = tmp_path / "set.pbn"
    pbn.write_bytes(written([Deal(EXAMPLE.masks, board=6), Deal(SUITED.masks, board=7)], "pbn"))
    bhg = tmp_path / "set.bhg"
    status, _out, err = run(["convert", str(pbn), str(bhg), "-q"])
    assert status == 0
    assert err.endswith("read it back with --first-board 6\n"), err
    back = tmp_path / "back.pbn"
    assert run(["convert", str(bhg), str(back), "--first-board", "6", "-q"])[0] == 0
    assert [d.masks for d in deals_api.read_source(back)] == [EXAMPLE.masks, SUITED.masks]
    from_one = tmp_path / "one.bhg"
    assert run(["convert", str(back), str(from_one), "--first-board", "1", "-q"])[2] == ""


# -- round trips over generated deals ---------------------------------------------------

WRITABLE = ("bri", "dge", "dup", "ber", "bhg", "csv", "pbn", "html", "lin")


@st.composite
def numbered_deals(draw: st.DrawFn) -> list[Deal]:
    """1-6 full deals numbered from 1, dealer and vulnerability by the cycle."""
    count = draw(st.integers(1, 6))
    return [Deal(draw(full_masks()), board=n, dealer=board_dealer_vul(n)[0],
                 vul=board_dealer_vul(n)[1]) for n in range(1, count + 1)]


def meta(deal: Deal) -> tuple[object, ...]:
    return deal.masks, deal.board, deal.dealer, deal.vul


@pytest.mark.sampled(3)
@pytest.mark.parametrize("first", WRITABLE)
@settings(max_examples=examples(8), deadline=None)
@given(sample=numbered_deals())
def test_every_pair_round_trips(first: str, sample: list[Deal]) -> None:
    for second in WRITABLE:
        there = list(deals_api.read_source(written(sample, first), first))
        back = list(deals_api.read_source(written(there, second), second))
        # every format here keeps the numbering: by position, or in the file
        assert [meta(d) for d in back] == [meta(d) for d in sample], (first, second)


@settings(max_examples=examples(20), deadline=None)
@given(masks=full_masks(), board=st.integers(1, 99), dealer=st.sampled_from(Seat),
       vul=st.sampled_from(Vul))
def test_csv_and_pbn_keep_any_board_dealer_and_vulnerability(
        masks: tuple[int, int, int, int], board: int, dealer: Seat, vul: Vul) -> None:
    deal = Deal(masks, board=board, dealer=dealer, vul=vul)
    via_csv = list(deals_api.read_source(written([deal], "csv"), "csv"))
    via_pbn = list(deals_api.read_source(written(via_csv, "pbn"), "pbn"))
    back = list(deals_api.read_source(written(via_pbn, "csv"), "csv"))
    assert [meta(d) for d in via_csv + via_pbn + back] == [meta(deal)] * 3


def test_partial_deals_are_refused_before_writing() -> None:
    partial = Deal.from_pbn("N:AKQ... - - -")
    for fmt in ("bri", "dge", "dup", "ber", "bhg", "csv"):
        out = io.BytesIO()
        with pytest.raises(DppError, match="deal 2: the club formats hold full deals only"):
            deals_api.write(out, [SUITED, partial], fmt)
        assert out.getvalue() == b""


def test_position_meta_matches_machines() -> None:
    assert machines.position_meta(17) == {"board": 17, "dealer": Seat.NORTH, "vul": Vul.NONE}
