"""Printable hand records (``convert deals.pbn records.html``).

The page is checked as text (self-contained, suit symbols, HCP counted here
from the hands' text) and rendered by Debian's chromium, headless, when it
is installed: the PNG must not be blank and must hold red pixels (hearts and
diamonds), and the PDF must have the expected number of pages on A4 and on
Letter. Without chromium the render tests skip with the reason, except
under CI=true, where they fail."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from dealerpp import deals as deals_api
from dealerpp.cli import main
from dealerpp.deals.model import Deal, Seat, Vul

HANDS = [
    "N:AJ9.K9542.Q.AK93 KQ8.AQ.AK97.QJT2 7654.JT8.JT85.87 T32.763.6432.654",
    "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    "N:T98.T98.T98.T987 AKQ.J76.5432.A32 J76.AKQ.AK7.J654 5432.5432.QJ6.KQ",
]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def sample(count: int) -> list[Deal]:
    return [Deal.from_pbn(HANDS[i % len(HANDS)]) for i in range(count)]


def page(deals: list[Deal]) -> str:
    out = io.StringIO()
    deals_api.write(out, deals, "html")
    return out.getvalue()


def counted_hcp(hand: str) -> int:
    """HCP from a PBN hand's text: A 4, K 3, Q 2, J 1."""
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(char, 0) for char in hand)


def test_page_is_self_contained_and_printable() -> None:
    text = page(sample(3))
    assert text.startswith("<!DOCTYPE html>")
    for remote in ("http:", "https:", "<script", "<link", "src=", "@import", "url("):
        assert remote not in text, remote
    assert "@page" in text and "break-inside: avoid" in text


def test_each_board_has_its_diagram_facts() -> None:
    deals = sample(3)
    text = page(deals)
    boards = text.split('<section class="board"')[1:]
    assert len(boards) == 3
    for number, (board, hands) in enumerate(zip(boards, HANDS, strict=True), 1):
        dealer = ["North", "East", "South"][number - 1]
        vul = ["None", "N-S", "E-W"][number - 1]
        assert f"<b>Board {number}</b><br>Dealer {dealer}<br>Vul {vul}" in board
        expected = [counted_hcp(hand) for hand in hands[2:].split()]
        shown = re.search(r'<div class="compass">(.*?)</div>', board)
        assert shown is not None
        assert [int(n) for n in re.findall(r">(\d+)<", shown.group(1))] == expected
        assert board.count('<span class="suit red">♥</span>') == 4
        assert board.count('<span class="suit red">♦</span>') == 4
        assert board.count('<span class="suit">♠</span>') == 4
        assert board.count('<span class="suit">♣</span>') == 4
    assert "♠</span>AJ9<br>" in boards[0] and "♣</span>AK93</div>" in boards[0]


def test_six_boards_to_a_page() -> None:
    assert page(sample(6)).count('<div class="page">') == 1
    assert page(sample(13)).count('<div class="page">') == 3


def test_the_page_reads_back_as_deals() -> None:
    kept = Deal(sample(1)[0].masks, board=12, dealer=Seat.WEST, vul=Vul.NS)
    back = list(deals_api.read_source(page([kept, *sample(2)]).encode("utf-8")))
    first = back[0]
    assert (first.masks, first.board, first.dealer, first.vul) == (kept.masks, 12, Seat.WEST, Vul.NS)
    assert [d.board for d in back] == [12, 2, 3]


def test_convert_pbn_to_html(tmp_path: Path) -> None:
    source = tmp_path / "deals.pbn"
    deals_api.write(str(source), sample(4), "pbn")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["convert", str(source), str(tmp_path / "records.html"), "-q"])
    assert status == 0, err.getvalue()
    assert (tmp_path / "records.html").read_text(encoding="utf-8").count('class="board"') == 4


# -- rendering with chromium ------------------------------------------------------------

def need_chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed (CI must install it: apt-get install -y chromium)")
        pytest.skip("chromium is not installed: the hand records are not rendered")
    return CHROMIUM


def render(html_path: Path, tmp_path: Path, *options: str) -> None:
    profile = tmp_path / "profile"
    subprocess.run(
        [need_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={profile}", *options, html_path.as_uri()],
        check=True, capture_output=True, timeout=120)


def png_pixels(data: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, bytes per pixel and the unfiltered pixel rows of an
    8-bit RGB or RGBA PNG (the standard library's zlib does the inflating)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat, header = 8, b"", b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * step
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up = previous[x]
            corner = previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))[2]
                line[x] = (line[x] + near) & 255
        rows.append(line)
        previous = line
    return width, height, step, b"".join(rows)


def test_rendered_page_is_not_blank_and_has_red_suits(tmp_path: Path) -> None:
    need_chromium()
    records = tmp_path / "records.html"
    records.write_text(page(sample(6)), encoding="utf-8")
    shot = tmp_path / "records.png"
    render(records, tmp_path, f"--screenshot={shot}", "--window-size=900,1200")
    import numpy

    width, height, step, pixels = png_pixels(shot.read_bytes())
    # One row of bytes a pixel, counted whole (a loop over a million pixels
    # took seconds).
    rgb = numpy.frombuffer(pixels, numpy.uint8)[:width * height * step].reshape(-1, step)
    r, g, b = (rgb[:, channel] for channel in range(3))
    dark = int(((r < 100) & (g < 100) & (b < 100)).sum())
    red = int(((r > 150) & (g < 90) & (b < 90)).sum())
    assert dark > width * height // 500  # text and frames
    assert red > 50  # the heart and diamond symbols


# Every size on both papers, in the slow tier (CI): each is a chromium
# start, seconds of CPU; locally the screenshot above renders a page.
@pytest.mark.slow
@pytest.mark.parametrize(("paper", "boards", "pages"), [
    ("A4", 6, 1), ("letter", 7, 2), ("A4", 18, 3),
    ("letter", 6, 1), ("A4", 7, 2), ("letter", 18, 3)])
def test_page_count_on_paper(paper: str, boards: int, pages: int, tmp_path: Path) -> None:
    need_chromium()
    text = page(sample(boards)).replace("@page { margin: 12mm; }",
                                        f"@page {{ size: {paper}; margin: 12mm; }}")
    records = tmp_path / "records.html"
    records.write_text(text, encoding="utf-8")
    pdf = tmp_path / "records.pdf"
    render(records, tmp_path, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf.read_bytes())) == pages


# -- what the page says it is, and its boards' order and numbers (issue 24.9) ---------

def pbn_game(board: int | None, hand: str, **tags: str) -> str:
    lines = [f'[{name} "{value}"]' for name, value in tags.items()]
    if board is not None:
        lines.append(f'[Board "{board}"]')
    return "\n".join([*lines, f'[Deal "{hand}"]']) + "\n"


def converted(tmp_path: Path, text: str, *options: str) -> tuple[int, str]:
    source = tmp_path / "set.pbn"
    source.write_text(text)
    target = tmp_path / "records.html"
    with contextlib.redirect_stderr(io.StringIO()):
        status = main(["convert", "-q", str(source), str(target), *options])
    return status, target.read_text(encoding="utf-8") if target.exists() else ""


def title_and_heading(text: str) -> tuple[list[str], list[str]]:
    return re.findall(r"<title>(.*?)</title>", text), re.findall(r"<h1>(.*?)</h1>", text)


def test_the_page_is_titled_and_headed_by_event_site_and_date(tmp_path: Path) -> None:
    text = "\n".join(pbn_game(board, HANDS[board - 1], Event="Club night", Site="Hazlemere",
                              Date="2026.11.24") for board in (1, 2))
    status, page_text = converted(tmp_path, text)
    assert status == 0
    expected = ["Club night, Hazlemere, 2026.11.24"]
    assert title_and_heading(page_text) == (expected, expected)


def test_unknown_tag_values_are_left_out_of_the_title(tmp_path: Path) -> None:
    text = pbn_game(1, HANDS[0], Event="Pairs & teams", Site="?", Date="-")
    assert title_and_heading(converted(tmp_path, text)[1]) == (["Pairs &amp; teams"],) * 2


def test_title_option_sets_the_title_and_heading(tmp_path: Path) -> None:
    text = pbn_game(1, HANDS[0], Event="Club night")
    page_text = converted(tmp_path, text, "--title", "Tuesday <B> session")[1]
    assert title_and_heading(page_text) == (["Tuesday &lt;B&gt; session"],) * 2


def test_a_page_from_a_set_that_says_nothing_is_hand_records(tmp_path: Path) -> None:
    assert title_and_heading(converted(tmp_path, pbn_game(1, HANDS[0]))[1]) == (
        ["Hand records"],) * 2


def test_title_option_is_for_an_html_output(tmp_path: Path) -> None:
    source = tmp_path / "set.pbn"
    source.write_text(pbn_game(1, HANDS[0]))
    with contextlib.redirect_stderr(io.StringIO()) as err:
        status = main(["convert", str(source), str(tmp_path / "out.csv"), "--title", "x"])
    assert status == 2 and "--title is for an html output" in err.getvalue()
    assert not (tmp_path / "out.csv").exists()


def test_boards_keep_the_files_order_and_numbers(tmp_path: Path) -> None:
    text = "\n".join(pbn_game(board, HANDS[index % 3]) for index, board in enumerate((5, 3, 9)))
    page_text = converted(tmp_path, text)[1]
    assert re.findall(r'data-board="(\d+)"', page_text) == ["5", "3", "9"]
    assert re.findall(r"<b>Board (\d+)</b>", page_text) == ["5", "3", "9"]


def test_a_board_without_a_number_keeps_its_place_after_a_bad_one(tmp_path: Path) -> None:
    bad = HANDS[0].replace("AJ9", "AJ", 1)  # North with 12 cards: the game is left out
    text = "\n".join(pbn_game(None, hand) for hand in (HANDS[0], bad, HANDS[1], HANDS[2]))
    status, page_text = converted(tmp_path, text)
    assert status == 1
    assert re.findall(r'data-board="(\d+)"', page_text) == ["1", "3", "4"]
    # the dealer follows the board's number: board 3 is dealt by South
    assert re.findall(r"Dealer (\w+)", page_text) == ["North", "South", "West"]
