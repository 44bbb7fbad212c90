"""An html page on the bulk path (dealerpp/deals/bulk/html.py): the writer's
board lines are read in bulk (a per-deal reader that refuses to be called),
writing gives the per-deal writer's bytes without calling it (boards
numbered, pages of six, the title from ``--title``, from the first PBN game
that names its set however late it comes, else the default), and board
lines made odd give the per-deal path's deals or first error wherever the
chunks cut."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.fallback import ModelPerDeal
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.conversion import LongPage
from dealerpp.deals.model import Deal, Seat, Vul
from dealerpp.deals.options import WriteOptions
from tests.bulk.helpers import PerDealRefused
from tests.conftest import examples, some_of
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal
from .test_parity import printpbn_games
from .test_properties import random_deals

TARGETS = tuple(f for f in formats.FAST if f != "html")
SETTINGS = settings(max_examples=examples(40), deadline=None)


class WriterRefused(ModelPerDeal):
    """A per-deal side that fails the test when its writer is asked for a
    page: what it writes must have taken the bulk encoder."""

    def dumps(self, fmt: str, deals: Sequence[Deal], first_index: int) -> bytes:
        raise AssertionError("deals went to the per-deal writer")


def page(count: int, seed: int, first_board: int | None = None) -> tuple[bytes, bytes]:
    raw = random_deals(count, seed).masks.astype("<u8").tobytes()
    text = per_deal(raw, "deals", "html", first_board)
    assert isinstance(text, bytes)
    return raw, text


def converted(data: bytes, src: str, dst: str, chunk: int = 1 << 20, **options: Any) -> bytes:
    out = io.BytesIO()
    convert_stream(io.BytesIO(data), out, src, dst, chunk=chunk, **options)
    return out.getvalue()


@pytest.mark.sampled(3)
@pytest.mark.parametrize("chunk", [300, 4096, 1 << 20])
@pytest.mark.parametrize("first_board", [None, 9, 99_999_990])
def test_the_writers_page_is_read_in_bulk(chunk: int, first_board: int | None) -> None:
    raw, text = page(40, 5, first_board)
    for data in (text, text.replace(b"\n", b"\r\n")):
        assert converted(data, "html", "deals", chunk, per_deal=PerDealRefused()) == raw
        assert converted(data, "html", "pbn", chunk, per_deal=PerDealRefused()) == \
            per_deal(data, "html", "pbn")


@pytest.mark.parametrize("count", [0, 1, 5, 6, 7, 12, 13, 40])
def test_the_page_is_written_in_bulk(count: int) -> None:
    raw = random_deals(count, 3).masks.astype("<u8").tobytes()
    expected = per_deal(raw, "deals", "html")
    for chunk in (64, 1 << 20):
        assert converted(raw, "deals", "html", chunk, per_deal=WriterRefused()) == expected


@SETTINGS
@given(st.lists(full_masks(), max_size=14), st.none() | st.integers(1, 10**12),
       st.sampled_from([64, 300, 1 << 20]))
def test_writing_html_in_bulk_is_the_per_deal_writer(masks: list[tuple[int, int, int, int]],
                                                     first_board: int | None, chunk: int) -> None:
    raw = np.array(masks, dtype="<u8").reshape(-1, 4).tobytes()
    assert bulk(raw, "deals", "html", chunk, first_board) == \
        per_deal(raw, "deals", "html", first_board)


def test_boards_of_a_hex_file_keep_their_numbers() -> None:
    raw = random_deals(20, 4).masks.astype("<u8").tobytes()
    hex_text = converted(raw, "deals", "hex", first_board=7)  # -D suffixes: boards 1-16
    assert converted(hex_text, "hex", "html", per_deal=WriterRefused()) == \
        per_deal(hex_text, "hex", "html")


TITLES = st.sampled_from(["", "?", "-", "#", " ", "Club night", " Pairs ", "2026.11.25"])


@SETTINGS
@given(st.lists(st.tuples(TITLES, TITLES, TITLES), min_size=1, max_size=8),
       st.sampled_from([200, 1 << 20]), st.integers(0, 8))
def test_printpbn_games_give_the_page_its_title(tags: list[tuple[str, str, str]], chunk: int,
                                                odd_at: int) -> None:
    """The first game whose Event, Site or Date says something titles the
    page, read in bulk; a game the full reader reads (a player's name) may
    be the one."""
    masks = random_deals(len(tags), 9).masks.tolist()
    games = []
    for board, (hands, (event, site, date)) in enumerate(zip(masks, tags, strict=True), 1):
        game = printpbn_games([tuple(hands)], board, event=event).decode()
        game = game.replace('[Site "-"]', f'[Site "{site}"]')
        game = game.replace('[Date "2026.11.25"]', f'[Date "{date}"]')
        if board == odd_at:
            game = game.replace('[West "-"]', '[West "Ann"]')
        games.append(game)
    data = "".join(games).encode()
    assert bulk(data, "pbn", "html", chunk) == per_deal(data, "pbn", "html")


def test_a_title_that_comes_late_heads_the_page() -> None:
    """Boards read in bulk (no title) before a game that names its set."""
    rows = random_deals(9, 2).masks.tolist()
    plain = deals_api.dumps([Deal(tuple(row)) for row in rows[:7]], "pbn")
    assert isinstance(plain, str)
    named = printpbn_games([tuple(row) for row in rows[7:]], 8, event="Late night").decode()
    data = (plain + "\n" + named).encode()
    there = bulk(data, "pbn", "html", 300)
    assert there == per_deal(data, "pbn", "html")
    assert isinstance(there, bytes) and b"<title>Late night" in there


def test_a_title_with_a_byte_not_utf8_is_written_as_it_came() -> None:
    """An Event written in Latin-1 (0xE9, not UTF-8) titles the page with
    that byte, as the per-deal writer keeps it, not an internal error."""
    games = printpbn_games([tuple(row) for row in random_deals(3, 6).masks.tolist()],
                           event="Caf\N{LATIN SMALL LETTER E WITH ACUTE} night")
    data = games.replace("Caf\N{LATIN SMALL LETTER E WITH ACUTE}".encode(), b"Caf\xe9")
    there = bulk(data, "pbn", "html", 200)
    assert there == per_deal(data, "pbn", "html")
    assert isinstance(there, bytes) and b"<title>Caf\xe9 night" in there


def test_the_title_given_is_the_pages() -> None:
    data = printpbn_games([tuple(row) for row in random_deals(8, 1).masks.tolist()])
    options = WriteOptions(title="Given <here>")
    out = converted(data, "pbn", "html", write_options=options, per_deal=WriterRefused())
    expected = io.BytesIO()
    deals_api.write(expected, deals_api.read_source(data, "pbn"), "html", options)
    assert out == expected.getvalue()
    assert b"<title>Given &lt;here&gt;</title>" in out


def test_convert_takes_the_title_and_warns_of_a_long_page(tmp_path: Any) -> None:
    raw = random_deals(2001, 6).masks.astype("<u8").tobytes()
    source = tmp_path / "in.deals"
    source.write_bytes(raw)
    notices: list[object] = []
    options = WriteOptions(title="Long")
    assert deals_api.convert(source, tmp_path / "out.html", write_options=options,
                             notice=notices.append) == 2001
    assert notices == [LongPage(2000)]
    expected = io.BytesIO()
    deals_api.write(expected, deals_api.read_source(raw, "deals"), "html", options)
    assert (tmp_path / "out.html").read_bytes() == expected.getvalue()


def odd(line: bytes, how: str) -> bytes:
    """A board line of the writer's made odd ``how``."""
    body = line.rstrip(b"\n")
    vul = body[body.index(b'data-vul="') + 10:].split(b'"')[0]
    deal_at = body.index(b'data-deal="') + 11
    return {
        "plain": line,
        "crlf": body + b"\r\n",
        "lone_cr": body + b"\r",
        "lower": body.replace(b'K', b'k', 1) + b"\n",
        "east": body[:deal_at] + b"E" + body[deal_at + 1:] + b"\n",
        "dealer": re.sub(rb'data-dealer="(.)"', lambda m: b'data-dealer="%s"' % (
            b"W" if m.group(1) != b"W" else b"N"), body, count=1) + b"\n",
        "vul": body.replace(b'data-vul="' + vul, b'data-vul="' + (b"All" if vul != b"All"
                                                                   else b"NS"), 1) + b"\n",
        "zero": body.replace(b'data-board="', b'data-board="0', 1) + b"\n",
        "twice": body[:deal_at + 2] + b"A" + body[deal_at + 3:] + b"\n",
        "escaped": body[:deal_at] + b"&#78;" + body[deal_at + 1:] + b"\n",
        "indent": b"  " + line,
        "trailing": body + b" \n",
        "short": body[:deal_at + 2] + body[deal_at + 3:] + b"\n",
        "void": body[:deal_at] + b"N:- - - -" + body[body.index(b'">', deal_at):] + b"\n",
        "latin": body + b"\xe9\n",
        "blank": b"\n" + line,
    }[how]


WAYS = ["plain", "crlf", "lone_cr", "lower", "east", "dealer", "vul", "zero", "twice",
        "escaped", "indent", "trailing", "short", "void", "latin", "blank"]


def odd_page(text: bytes, ways: list[str]) -> bytes:
    lines = text.splitlines(keepends=True)
    boards = [i for i, line in enumerate(lines) if line.startswith(b'<section class="board"')]
    for index, how in zip(boards, ways, strict=False):
        lines[index] = odd(lines[index], how)
    return b"".join(lines)


@SETTINGS
@given(st.data(), st.sampled_from([200, 700, 1 << 20]))
def test_odd_board_lines_give_what_the_per_deal_reader_gives(data: st.DataObject,
                                                             chunk: int) -> None:
    count = data.draw(st.integers(1, 8))
    _, text = page(count, data.draw(st.integers(0, 99)))
    ways = data.draw(st.lists(st.sampled_from(["plain"] * 4 + WAYS), min_size=count,
                              max_size=count))
    odd_text = odd_page(text, ways)
    for dst in TARGETS:
        assert bulk(odd_text, "html", dst, chunk) == per_deal(odd_text, "html", dst), dst


@pytest.mark.sampled(3)
@pytest.mark.parametrize("how", WAYS)
def test_each_odd_board_line_alone_and_in_the_middle(how: str) -> None:
    _, text = page(5, 7)
    for at in (0, 2, 4):
        ways = ["plain"] * 5
        ways[at] = how
        odd_text = odd_page(text, ways)
        for dst in ("deals", "pbn", "hex", "bhg", "csv"):
            assert bulk(odd_text, "html", dst, 300) == per_deal(odd_text, "html", dst), (at, dst)


def test_boards_of_their_own_dealer_come_through_from_pbn() -> None:
    rows = random_deals(8, 2).masks.tolist()
    found = [Deal(tuple(row), board=40 + 3 * i) for i, row in enumerate(rows)]
    found[3] = Deal(tuple(rows[3]), board=7, dealer=Seat.WEST, vul=Vul.BOTH)
    data = deals_api.dumps(found, "pbn")
    assert isinstance(data, str)
    written = per_deal(data.encode(), "pbn", "html")
    assert isinstance(written, bytes)
    read = per_deal(written, "html", "pbn")
    for chunk in (64, 1 << 20):
        there = bulk(data.encode(), "pbn", "html", chunk)
        assert there == written
        assert bulk(written, "html", "pbn", chunk) == read


def _long_suits(count: int, seed: int) -> np.ndarray:
    """Deals of long suits and voids: each seat one whole suit, then a few
    cards swapped between two seats."""
    rng = np.random.default_rng(seed)
    owner = np.repeat(np.arange(4, dtype=np.uint8), 13)[None].repeat(count, axis=0)
    for row in range(count):
        owner[row] = np.roll(owner[row], 13 * int(rng.integers(4)))
        for _ in range(int(rng.integers(0, 12))):
            first, second = rng.integers(0, 52, 2)
            owner[row, [first, second]] = owner[row, [second, first]]
    return DealArray.from_owner(owner).masks


@pytest.mark.parametrize("first_index", [0, 1, 5, 6, 11])
def test_boards_by_places_are_the_page_writers(first_index: int) -> None:
    """Boards of 1 to 19 digits mixed (and 0: numbered by place), suits of
    every length and voids, every place on the page: the per-deal writer's
    text (board_html, pages of six), however the boards are split into
    passes and in whatever order the passes are written (a piece's spare
    bytes never reach another board)."""
    from dealerpp.deals.bulk.html import _Board, boards_text
    from dealerpp.deals.formats import html

    rng = np.random.default_rng(first_index)
    masks = np.concatenate((random_deals(30, first_index).masks, _long_suits(30, first_index)))
    count = len(masks)
    boards = 10 ** rng.integers(0, 19, count) + rng.integers(0, 9, count)
    boards[rng.random(count) < 0.2] = 0
    expected = []
    for place, (hands, board) in enumerate(zip(masks.tolist(), boards.tolist(), strict=True),
                                           first_index):
        expected.append(html.PAGE_OPEN if place % 6 == 0 else "")
        expected.append(html.board_html(Deal(tuple(hands), board=board or None), place + 1))
        expected.append(html.PAGE_CLOSE if place % 6 == 5 else "")
    text = "".join(expected).encode()
    assert bytes(boards_text(DealArray(masks, boards=boards), first_index)) == text
    numbered = np.where(boards > 0, boards, np.arange(count) + first_index + 1)
    board = _Board(masks, numbered, first_index)
    for size in (1, 7, count):
        out = np.full(board.size + 128, 0xAB, np.uint8)
        for start in reversed(range(0, count, size)):
            board.write(out, start, min(start + size, count))
        assert bytes(out[:board.size]) == text


# The writer's board line as a pattern (the format's fact, as the writer
# writes it): the reference the bulk reader's checks at fixed places are
# held to.
_WRITERS_LINE = re.compile(
    rb'<section class="board" data-board="([1-9][0-9]{0,14})" data-dealer="([NESW])" '
    rb'data-vul="(None|NS|EW|All)" data-deal="([NESW]:[^"\n]{67})">\r?$', re.M)


def _writers_lines(text: bytes) -> list[tuple[int, tuple[bytes, ...]]]:
    """(line, values) of each line the bulk reader reads as the writer's."""
    from dealerpp.deals.bulk.html import _writers_lines as found

    arr = np.frombuffer(text, np.uint8)
    ends = np.flatnonzero(arr == 10) + 1
    if len(text) and (not len(ends) or ends[-1] != len(text)):
        ends = np.append(ends, len(text))
    starts = np.concatenate(([0], ends[:-1])).astype(np.int64)
    rows, games = found(arr, starts, ends)
    return [(int(row), (str(board).encode(), b"NESW"[dealer:dealer + 1],
                        (b"None", b"NS", b"EW", b"All")[vul], bytes(deal)))
            for row, board, dealer, vul, deal in zip(
                rows, games.boards, games.dealers, games.vuls, games.deals, strict=True)]


def _by_pattern(text: bytes) -> list[tuple[int, tuple[bytes, ...]]]:
    lines = text.split(b"\n")
    return [(row, match.groups()) for row, line in enumerate(lines)
            if (match := _WRITERS_LINE.match(line)) is not None]


# bytes a line is changed to, at each of its places
_ODD_BYTES = b'\x00\n\r "#09:<>=NESWAx\\\x7f\x80'


def test_the_writers_lines_are_those_the_pattern_matches() -> None:
    """The board lines read in bulk, and their values, are the lines the
    writer's pattern matches and its groups: on a page (numbers of 1 to 15
    digits, every vulnerability, CR LF and a last line without its line
    end too), and with any byte of a board line changed, deleted or
    doubled (a fifth of them drawn in a local run, all under CI)."""
    _, text = page(4, 3, 99_999_990)
    lines = text.split(b"\n")
    boards = [i for i, line in enumerate(lines) if line.startswith(b"<section")]
    lines[boards[1]] = lines[boards[1]].replace(b'data-board="99999991"',
                                                b'data-board="123456789012345"')
    lines[boards[2]] = lines[boards[2]].replace(b'data-board="99999992"', b'data-board="7"')
    lines[boards[2]] = lines[boards[2]] + b"\r"
    page_text = b"\n".join(lines)
    for text in (page_text, page_text.replace(b"\n", b"\r\n"),
                 b"\n".join(lines[:boards[3] + 1])):
        assert _writers_lines(text) == _by_pattern(text)
        assert len(_by_pattern(text)) >= 3
    line = lines[boards[1]]
    changed = set()
    for at in range(len(line)):
        changed.add(line[:at] + line[at + 1:])
        changed.add(line[:at] + line[at:at + 1] * 2 + line[at + 1:])
        changed.update(line[:at] + bytes([byte]) + line[at + 1:] for byte in _ODD_BYTES)
    for odd_line in some_of(sorted(changed), 5):
        text = b"\n".join([lines[0], odd_line, lines[boards[2]], odd_line])
        assert _writers_lines(text) == _by_pattern(text), odd_line
