"""What convert and show write when the input is not all good (issue 24):
a board left out never moves the boards after it, nothing is written from
nothing, UTF-16 text is read as its UTF-8 twin, show goes on past a bad
PBN game, and a long conversion shows that it is going.

The sets are written here as PBN text from hands dealt by a seeded shuffle;
outputs are checked against facts of the formats read here (the record
sizes of docs/dealing-machines, csv's board column, the HTML page's
``data-board`` attributes, PBN's Board tags read by tests/deals/pbn_oracle)."""

from __future__ import annotations

import csv
import io
import random
import re
import sys
from pathlib import Path

import pytest

from dealerpp.cli import main

from . import pbn_oracle as oracle

RANKS = "AKQJT98765432"
SEATS = "NESW"
DEALERS = "NESW"
VULS = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
        "EW", "All", "None", "NS", "All", "None", "NS", "EW")


def dealt(seed: int) -> str:
    """A PBN deal string ``N:...`` of a seeded shuffle."""
    cards = [suit + rank for suit in "SHDC" for rank in RANKS]
    random.Random(seed).shuffle(cards)
    hands = []
    for seat in range(4):
        held = cards[13 * seat:13 * seat + 13]
        hands.append(".".join("".join(r for r in RANKS if s + r in held) for s in "SHDC"))
    return "N:" + " ".join(hands)


def short_north(deal: str) -> str:
    """The deal with North's first card taken away: 12 cards."""
    return deal[:2] + deal[3:]


def game(board: int, deal: str) -> str:
    return (f'[Event "Club night"]\n[Board "{board}"]\n[Dealer "{DEALERS[(board - 1) % 4]}"]\n'
            f'[Vulnerable "{VULS[(board - 1) % 16]}"]\n[Deal "{deal}"]\n')


def pbn_set(count: int, bad: tuple[int, ...] = ()) -> str:
    return "\n".join(game(board, short_north(dealt(board)) if board in bad else dealt(board))
                     for board in range(1, count + 1))


def run(args: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes, str]:
    status = main(args)
    captured = capsysbinary.readouterr()
    return status, captured.out, captured.err.decode()


def deal_line(number: int) -> int:
    """The line of ``pbn_set``'s game ``number``'s Deal tag (6 lines a game)."""
    return 6 * (number - 1) + 5


# -- 1. a bad board never moves the boards after it --------------------------------

# Formats whose records carry no board number (bulk path: bri, dge, ber, deals,
# giblib, oneline, hex; per deal: dup, bhg, listing, printall, compact)
UNNUMBERED = ["bri", "dge", "dup", "ber", "bhg", "deals", "giblib", "hex", "oneline",
              "listing", "compact", "printall"]


@pytest.mark.parametrize("fmt", UNNUMBERED)
def test_a_bad_board_leaves_no_file_without_board_numbers(
        fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn_set(12, bad=(3, 7)))
    target = tmp_path / f"out.{fmt}"
    status, _, err = run(["convert", "-q", str(source), str(target), "--to", fmt],
                         capsysbinary)
    assert status == 1
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.pbn"]
    # each bad board named by its own error, and the refusal names both
    for board in (3, 7):
        assert f"{source}:{deal_line(board)}:" in err
    assert f"{target} not written" in err and "lines 17, 41" in err


def test_an_old_output_is_kept_when_a_board_is_bad(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn_set(12, bad=(3,)))
    target = tmp_path / "out.bri"
    target.write_bytes(b"old")
    assert run(["convert", str(source), str(target)], capsysbinary)[0] == 1
    assert target.read_bytes() == b"old"


@pytest.mark.parametrize("fmt", ["bri", "dup"])  # bulk, deal by deal
def test_standard_output_never_holds_a_board_in_the_wrong_place(
        fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn_set(12, bad=(3,)))
    status, out, err = run(["convert", "-q", str(source), "-", "--to", fmt], capsysbinary)
    good = tmp_path / "good.pbn"
    good.write_text(pbn_set(12))
    status_good, all_boards, _ = run(["convert", "-q", str(good), "-", "--to", fmt],
                                     capsysbinary)
    assert status == 1 and status_good == 0
    record = {"bri": 128, "dup": 156}[fmt]
    # at most the two boards before the bad one, each in its own place
    assert len(out) % record == 0 and len(out) <= 2 * record
    assert all_boards.startswith(out)
    assert "standard output" in err


@pytest.mark.parametrize("fmt", ["pbn", "html", "csv", "lin"])
def test_a_format_with_board_numbers_keeps_each_good_board_its_number(
        fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn_set(6, bad=(3,)))
    target = tmp_path / f"out.{fmt}"
    status, _, err = run(["convert", "-q", str(source), str(target)], capsysbinary)
    assert status == 1 and f"{source}:{deal_line(3)}:" in err
    data = target.read_bytes()
    if fmt == "pbn":
        boards = [oracle.tag_values(g, "Board")[0] for g in oracle.games(data)]
    elif fmt == "html":
        boards = re.findall(r'data-board="(\d+)"', data.decode())
        assert re.findall(r"<b>Board (\d+)</b>", data.decode()) == boards
    elif fmt == "lin":
        boards = re.findall(r"\|ah\|Board (\d+)\|", data.decode())
    else:
        boards = [row[16] for row in csv.reader(io.StringIO(data.decode()))]
    assert boards == ["1", "2", "4", "5", "6"]


# -- 2. no file from nothing ----------------------------------------------------------

@pytest.mark.parametrize("content", [b"", b"\n\n", bytes(random.Random(24).randrange(256)
                                                         for _ in range(2000))],
                         ids=["empty", "blank", "random"])
@pytest.mark.parametrize("fmt", ["html", "bri", "pbn", "hex"])
def test_no_deal_writes_no_file(content: bytes, fmt: str, tmp_path: Path,
                                capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "in.pbn"
    source.write_bytes(content)
    target = tmp_path / f"out.{fmt}"
    status, _, err = run(["convert", str(source), str(target)], capsysbinary)
    assert status == 1
    assert not target.exists()
    assert re.search(rf"no deal (found in|could be read from) {re.escape(str(source))}", err)
    assert "0 deals converted" not in err


@pytest.mark.parametrize("fmt", ["hex", "dup"])  # bulk, deal by deal
def test_no_deal_on_standard_output_is_an_error_too(
        fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "in.pbn"
    source.write_bytes(b"")
    status, out, err = run(["convert", str(source), "-", "--to", fmt], capsysbinary)
    assert (status, out) == (1, b"")
    assert f"no deal found in {source}" in err


# -- 3. UTF-16 is read as its UTF-8 twin ------------------------------------------------

@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])  # with a mark, without
@pytest.mark.parametrize("fmt", ["hex", "printall", "pbn"])  # bulk, deal by deal, a copy
@pytest.mark.parametrize("suffix", [".pbn", ".txt"])  # by name, by content
def test_utf16_pbn_reads_as_its_utf8_twin(codec: str, fmt: str, suffix: str, tmp_path: Path,
                                          capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    text = pbn_set(5).replace("\n", "\r\n")  # as Windows tools write it
    twin, wide = tmp_path / f"twin{suffix}", tmp_path / f"wide{suffix}"
    twin.write_bytes(text.encode("utf-8"))
    wide.write_bytes(text.encode(codec))
    expected = run(["convert", "-q", str(twin), "-", "--to", fmt], capsysbinary)
    assert expected[0] == 0 and expected[1]
    assert run(["convert", "-q", str(wide), "-", "--to", fmt], capsysbinary) == expected


def test_utf16_on_standard_input(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                 capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    text = pbn_set(3)
    twin = tmp_path / "twin.pbn"
    twin.write_text(text)
    expected = run(["convert", "-q", str(twin), "-", "--to", "hex"], capsysbinary)
    stdin = io.TextIOWrapper(io.BufferedReader(io.BytesIO(text.encode("utf-16"))))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert run(["convert", "-q", "-", "-", "--to", "hex"], capsysbinary) == expected


def test_utf16_errors_have_the_utf8_positions(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    text = pbn_set(4, bad=(2,))
    twin, wide = tmp_path / "twin.pbn", tmp_path / "wide.pbn"
    twin.write_text(text)
    wide.write_bytes(text.encode("utf-16"))
    _, _, twin_err = run(["convert", str(twin), "-", "--to", "pbn"], capsysbinary)
    _, _, wide_err = run(["convert", str(wide), "-", "--to", "pbn"], capsysbinary)
    assert wide_err.replace(str(wide), str(twin)) == twin_err
    assert f"{twin}:{deal_line(2)}:" in twin_err


def test_show_reads_utf16(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    text = pbn_set(2)
    twin, wide = tmp_path / "twin.pbn", tmp_path / "wide.pbn"
    twin.write_text(text)
    wide.write_bytes(text.encode("utf-16-le"))
    expected = run(["show", str(twin)], capsysbinary)
    status, out, err = run(["show", str(wide)], capsysbinary)
    assert (status, out.replace(b"wide", b"twin"), err) == expected


# -- 4. show goes on past a bad board ---------------------------------------------------

def test_show_goes_on_past_a_bad_pbn_game(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn_set(5, bad=(2, 4)))
    status, out, err = run(["show", str(source)], capsysbinary)
    assert status == 1
    text = out.decode()
    # every good board shown, with its own number, and each bad one named
    assert re.findall(r"Board (\d+)", text) == ["1", "3", "5"]
    assert f"{source}:{deal_line(2)}:" in err and f"{source}:{deal_line(4)}:" in err
    assert "3 deals shown, 2 errors" in err


# -- 8. progress for every long conversion, and a warning before a huge page -------------

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def many_deals(tmp_path: Path, count: int) -> Path:
    """A .deals file of ``count`` deals (four 64-bit masks N E S W each)."""
    rng = random.Random(count)
    data = bytearray()
    for _ in range(count):
        cards = list(range(52))
        rng.shuffle(cards)
        for seat in range(4):
            mask = sum(1 << card for card in cards[13 * seat:13 * seat + 13])
            data += mask.to_bytes(8, "little")
    path = tmp_path / "many.deals"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("fmt", ["listing", "printall"])  # per-deal outputs
def test_a_long_per_deal_conversion_shows_progress_on_a_terminal(
        fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = many_deals(tmp_path, 5000)
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["convert", str(source), str(tmp_path / "out.txt"), "--to", fmt]) == 0
    assert "\r[" in err.getvalue() and "5,000 deals" in err.getvalue()
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert main(["convert", "-q", str(source), str(tmp_path / "out.txt"), "--to", fmt]) == 0
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(("count", "warned"), [(2000, False), (2001, True)])
def test_a_huge_hand_record_page_is_warned_of(count: int, warned: bool, tmp_path: Path,
                                              capsysbinary: pytest.CaptureFixture[bytes]
                                              ) -> None:
    source = many_deals(tmp_path, count)
    target = tmp_path / "records.html"
    status, _, err = run(["convert", "-q", str(source), str(target)], capsysbinary)
    assert status == 0
    assert ("warning: more than 2,000 boards" in err) is warned
    assert target.read_text(encoding="utf-8").count('class="board"') == count


# -- 10. a dealer or vulnerability a format cannot hold is not lost silently ------------

def off_cycle_set() -> str:
    """Four boards: board 2 dealt by South (the cycle says East), board 3
    at no one vulnerable (the cycle says E-W)."""
    text = pbn_set(4)
    text = text.replace('[Board "2"]\n[Dealer "E"]', '[Board "2"]\n[Dealer "S"]')
    return text.replace('[Board "3"]\n[Dealer "S"]\n[Vulnerable "EW"]',
                        '[Board "3"]\n[Dealer "S"]\n[Vulnerable "None"]')


@pytest.mark.parametrize("fmt", ["bri", "dge", "dup", "ber", "bhg"])  # bulk and per deal
def test_a_dealer_the_format_cannot_hold_is_warned_of_once(
        fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    text = off_cycle_set()
    assert text.count('[Dealer "S"]') == 2 and '[Vulnerable "None"]' in text  # two changed
    source.write_text(text)
    target = tmp_path / f"out.{fmt}"
    status, _, err = run(["convert", "-q", str(source), str(target)], capsysbinary)
    assert status == 0 and target.exists()
    warnings = [line for line in err.splitlines() if "warning:" in line]
    assert len(warnings) == 1
    assert f"boards 2, 3 of {source}" in warnings[0] and fmt in warnings[0]


@pytest.mark.parametrize("fmt", ["csv", "pbn", "bri"])
def test_no_warning_where_nothing_is_lost(
        fmt: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    # csv and pbn hold dealer and vulnerability; a standard set loses nothing in .bri
    source.write_text(off_cycle_set() if fmt != "bri" else pbn_set(4))
    status, _, err = run(["convert", "-q", str(source), str(tmp_path / f"out.{fmt}")],
                         capsysbinary)
    assert (status, err) == (0, "")


# -- 5. a PBN board with a broken tag is left out, once ---------------------------------

BROKEN_TAGS = ['[Board "{n}"', '[Board "{n}', '[Board "{n}" [Dealer "N"]']


def layout_set(layout: str, count: int) -> str:
    """``count`` boards as dealer's printpbn writes them (``printpbn``), as
    Board and Deal tags alone (``pairs``), or those with CR LF line ends."""
    games = []
    for board in range(1, count + 1):
        if layout == "printpbn":
            games.append(f'[Event "x"]\n[Site "-"]\n[Date "2026.11.25"]\n[Board "{board}"]\n'
                         '[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n'
                         f'[Dealer "{DEALERS[(board - 1) % 4]}"]\n'
                         f'[Vulnerable "{VULS[(board - 1) % 16]}"]\n[Deal "{dealt(board)}"]\n'
                         '[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n')
        else:
            games.append(f'[Board "{board}"]\n[Deal "{dealt(board)}"]\n')
    text = "\n".join(games)
    return text.replace("\n", "\r\n") if layout == "crlf" else text


@pytest.mark.sampled(3)
@pytest.mark.parametrize("layout", ["printpbn", "pairs", "crlf"])
@pytest.mark.parametrize("broken", BROKEN_TAGS)
@pytest.mark.parametrize("board", [1, 5, 8])
def test_a_board_with_a_broken_tag_is_left_out_once(
        layout: str, broken: str, board: int, tmp_path: Path,
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "set.pbn"
    text = layout_set(layout, 8)
    assert text.count(f'[Board "{board}"]') == 1
    source.write_text(text.replace(f'[Board "{board}"]', broken.format(n=board)), newline="")
    others = [str(n) for n in range(1, 9) if n != board]
    for fmt in ("csv", "html", "pbn"):  # deal by deal, each with board numbers
        target = tmp_path / f"out.{fmt}"
        status, _, err = run(["convert", str(source), str(target)], capsysbinary)
        assert status == 1
        assert len(re.findall(r":\d+:\d+: error:", err)) == 1
        assert "7 deals converted, 1 error" in err
        data = target.read_bytes()
        if fmt == "csv":
            boards = [row[16] for row in csv.reader(io.StringIO(data.decode()))]
        elif fmt == "html":
            boards = re.findall(r'data-board="(\d+)"', data.decode())
        else:
            boards = [oracle.tag_values(g, "Board")[0] for g in oracle.games(data)]
        assert boards == others, fmt
    # the bulk path, to standard output: the boards before it, in their places
    status, out, err = run(["convert", "-q", str(source), "-", "--to", "hex"], capsysbinary)
    assert status == 1 and len(re.findall(r":\d+:\d+: error:", err)) == 1
    written = [line[-1] for line in out.decode().split()]  # each board's -D suffix
    assert written == [str(n) for n in range(1, len(written) + 1)] and len(written) < board
    # and show: every other board shown once
    status, out, err = run(["show", str(source)], capsysbinary)
    assert status == 1 and re.findall(r"Board (\d+)", out.decode()) == others
