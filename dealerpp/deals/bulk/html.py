"""An html page of hand records (``dealerpp.deals.formats.html``) on the bulk
path, both ways.

Reading: the page's reader reads each board's deal from its
``<section class="board" data-...>`` line and nothing else. A line as the
writer writes it (a board number, the board's dealer and vulnerability by
the cycle, a deal ``F:`` and four hands of 13 cards) is read in bulk, its
deal string decoded as dealer's printpbn deals are
(:func:`dealerpp.deals.bulk.printpbn.decode`); any other line that holds
``<section class="board" data-board="`` goes alone to the page's reader,
and a line without it, which no reader makes a deal of, is left out.

Writing: a board is a template row, its constant text written once and
each variable field (board number, dealer, vulnerability, the deal, 16
suits, four point counts, the page's opening and closing) a slot as wide as
its widest value, zero bytes where it is shorter; dropping the zero bytes
(no character of the page is one) leaves the board as the per-deal writer
writes it. The page's head carries its title, which may come from a deal
read long after the first (the first PBN game with an Event, Site or
Date): until it is known, what the boards make is held back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals._io import ENCODING, ERRORS
from dealerpp.deals.bulk.array import DealArray, holding_text
from dealerpp.deals.bulk.blocks import OUTPUT_BYTES, RANKS, each_sub_block, hand_texts
from dealerpp.deals.bulk.lines import Decoded, RecordLines

if TYPE_CHECKING:
    from dealerpp.deals.bulk import printpbn
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import WriteOptions

# what every board line holds, and the reader's pattern needs, first
_BOARD_START = b'<section class="board" data-board="'
_BOARD_PATTERN = re.compile(re.escape(_BOARD_START))
# A line as the writer writes it, the board's number and vulnerability
# between (the line read in bulk: _writers_lines): _BOARD_START, 1 to 15
# digits (not 0 first), _TO_VUL with the dealer (N E S W) at _DEALER_AT,
# None|NS|EW|All, _TO_DEAL, a deal string F: and 67 bytes but '"', '">',
# and CR LF or LF or the file's end.
_TO_VUL = b'" data-dealer="N" data-vul="'
_DEALER_AT = _TO_VUL.index(b'N"')
_TO_DEAL = b'" data-deal="'
_VULS = (b"None", b"NS", b"EW", b"All")
_LINE = len(_BOARD_START) + len(_TO_VUL) + len(_TO_DEAL) + 69 + 2  # but number and vul
_DIGITS = 19  # int64
_SUIT_WIDTH = 16  # a suit's 13 cards at most, in a row of 16 bytes
# A void's slot holds this byte (no page text holds it) instead of the
# void's dash, 27 bytes, which would widen all 16 suit slots of every board
# by 13 zero bytes: each is put in place once the zero bytes are dropped.
_VOID_MARK = b"\x01"
_BLOCK_ROWS = 1024  # boards of ~1.5 KB made at a time: they stay in the CPU cache


class _Template:
    """A board's bytes: constant text, and slots (start, width) by name."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.slots: dict[str, tuple[int, int]] = {}
        self.width = 0

    def text(self, text: str) -> None:
        data = text.encode()
        self.parts.append(data)
        self.width += len(data)

    def slot(self, name: str, width: int, fill: bytes = b"") -> None:
        self.slots[name] = (self.width, width)
        self.parts.append(fill.ljust(width, b"\0"))
        self.width += width

    def row(self) -> np.ndarray:
        return np.frombuffer(b"".join(self.parts), np.uint8)


def _template() -> _Template:
    from dealerpp.deals.formats import html

    board = _Template()
    board.slot("open", len(html.PAGE_OPEN))
    board.text('<section class="board" data-board="')
    board.slot("board", _DIGITS)
    board.text('" data-dealer="')
    board.slot("dealer", 1)
    board.text('" data-vul="')
    board.slot("vul", 4)
    board.text('" data-deal="N:')
    board.slot("deal", 67, b" ".join([b"\0" * 16] * 4))
    board.text('">\n<div class="info"><b>Board ')
    board.slot("number", _DIGITS)
    board.text("</b><br>Dealer ")
    board.slot("name", 5)
    board.text("<br>Vul ")
    board.slot("vul_text", 4)
    board.text("</div>\n")
    for seat, cls in enumerate(html.HAND_CLASSES):
        board.text(f'<div class="hand {cls}">')
        for place, suit in enumerate((3, 2, 1, 0)):
            board.text(("<br>" if place else "") + html.suit_head(suit))
            board.slot(f"suit{seat}{suit}", _SUIT_WIDTH)
        board.text("</div>")
    board.text('\n<div class="compass">')
    for seat, char in enumerate("nesw"):
        board.text(f'<span class="{char}">')
        board.slot(f"points{seat}", 2)
        board.text("</span>")
    board.text("</div>\n</section>\n")
    board.slot("close", len(html.PAGE_CLOSE))
    return board


class _Tables:
    """What the slots are filled from, made once from the page writer's own
    functions: by 13-bit holding its cards and points; by place in the
    16-board cycle the dealer and vulnerability as the writer shows them."""

    def __init__(self) -> None:
        from dealerpp.deals.formats import html
        from dealerpp.deals.model import board_dealer_vul

        self.template = _template()
        self.row = self.template.row()
        # a suit's cards, the ace first (a rank at a time over all holdings;
        # tests/bulk/test_html_bulk.py holds every row to html.suit_cards)
        self.cards = np.zeros((8192, _SUIT_WIDTH), np.uint8)
        self.cards[:, :13] = holding_text(lambda rank: RANKS[rank:rank + 1], 13)[0]
        self.cards[0, 0] = _VOID_MARK[0]
        self.void = html.suit_cards(0).encode()
        holdings = np.arange(8192)
        # A 4, K 3, Q 2, J 1: bits 12 .. 9 of a holding (html.hcp)
        self.points = np.zeros(8192, np.uint8)
        for bit, points in ((12, 4), (11, 3), (10, 2), (9, 1)):
            self.points += (points * (holdings >> bit & 1)).astype(np.uint8)
        cycle = [board_dealer_vul(board) for board in range(1, 17)]
        self.cycle = {
            "dealer": _padded([str(dealer) for dealer, _ in cycle], 1),
            "vul": _padded([str(vul) for _, vul in cycle], 4),
            "name": _padded([dealer.name_title for dealer, _ in cycle], 5),
            "vul_text": _padded([html.VUL_TEXT[vul] for _, vul in cycle], 4),
        }
        self.open = np.frombuffer(html.PAGE_OPEN.encode(), np.uint8)
        self.close = np.frombuffer(html.PAGE_CLOSE.encode(), np.uint8)


def _padded(texts: Sequence[str], width: int) -> np.ndarray:
    table = np.zeros((len(texts), width), np.uint8)
    for index, text in enumerate(texts):
        table[index, :len(text)] = np.frombuffer(text.encode(), np.uint8)
    return table


def _digits(numbers: np.ndarray) -> np.ndarray:
    """Each number (1 and up) in decimal, right-aligned in _DIGITS bytes,
    zero bytes before."""
    out = np.zeros((len(numbers), _DIGITS), np.uint8)
    value = numbers.copy()
    for column in range(_DIGITS - 1, -1, -1):
        out[:, column] = np.where(value > 0, value % 10 + 48, 0)
        value //= 10
        if not value.any():
            break
    return out


_MADE: list[_Tables] = []


def _tables() -> _Tables:
    if not _MADE:
        _MADE.append(_Tables())
    return _MADE[0]


def _writers_lines(arr: np.ndarray, starts: np.ndarray, ends: np.ndarray
                   ) -> tuple[np.ndarray, printpbn.Games]:
    """The lines (of those from ``starts`` to ``ends``, after their line
    ends) as the writer writes them, and their values. Every byte of such
    a line is checked at its place: the board number's digits are those
    before its first quote, the vulnerability as long as the line's length
    leaves."""
    from dealerpp.deals.bulk import printpbn

    stop = ends - (arr[np.maximum(ends - 1, 0)] == 10)  # the line end's LF ...
    stop = stop - ((stop > starts) & (arr[np.maximum(stop - 1, 0)] == 13))  # ... and CR
    length = stop - starts
    padded = np.concatenate((arr, np.zeros(128, np.uint8)))  # (no row runs off it)
    rows = np.flatnonzero((length >= _LINE + 1 + 2) & (length <= _LINE + 15 + 4)
                          & (padded[starts] == ord("<")))
    start, length = starts[rows], length[rows]
    good = _at(padded, start, _BOARD_START)
    number = _rows(padded, start + len(_BOARD_START), 16)
    digits = np.argmax(number == ord('"'), axis=1)
    is_digit = (number >= ord("0")) & (number <= ord("9"))
    good &= (digits >= 1) & (number[:, 0] != ord("0")) & (
        is_digit | (np.arange(16) >= digits[:, None])).all(axis=1)
    at = start + len(_BOARD_START) + digits  # the quote after the number
    good &= _at(padded, at, _TO_VUL, free=_DEALER_AT)
    dealer = padded[at + _DEALER_AT]
    good &= np.isin(dealer, np.frombuffer(b"NESW", np.uint8))
    vul_length = length - _LINE - digits
    vul = _rows(padded, at + len(_TO_VUL), 4)
    vuls = np.full(len(rows), 255, np.uint8)
    for code, text in enumerate(_VULS):
        vuls[(vul_length == len(text)) & (vul[:, :len(text)] == np.frombuffer(
            text, np.uint8)).all(axis=1)] = code
    good &= vuls != 255
    at = at + len(_TO_VUL) + vul_length
    tail = _rows(padded, at, len(_TO_DEAL) + 71)
    deal = tail[:, len(_TO_DEAL):len(_TO_DEAL) + 69]
    good &= ((tail[:, :len(_TO_DEAL)] == np.frombuffer(_TO_DEAL, np.uint8)).all(axis=1)
             & np.isin(deal[:, 0], np.frombuffer(b"NESW", np.uint8)) & (deal[:, 1] == ord(":"))
             & (deal[:, 2:] != ord('"')).all(axis=1)
             & (tail[:, -2] == ord('"')) & (tail[:, -1] == ord(">")))
    boards = np.zeros(len(rows), np.int64)
    for column in range(15):  # (the quote stops a number of fewer digits)
        boards = np.where(column < digits, boards * 10 + number[:, column] - 48, boards)
    games = printpbn.Games(boards[good], _SEATS[dealer[good]], vuls[good], deal[good])
    return rows[good], games


def _rows(padded: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """``(N, width)``: the bytes from each start, a row copied at a time."""
    rows: np.ndarray = np.lib.stride_tricks.sliding_window_view(padded, width)[starts]
    return rows


def _at(padded: np.ndarray, starts: np.ndarray, text: bytes, free: int = -1) -> np.ndarray:
    """Whether ``text`` is at each start (a byte at ``free`` may be any)."""
    same = _rows(padded, starts, len(text)) == np.frombuffer(text, np.uint8)
    if free >= 0:
        same[:, free] = True
    result: np.ndarray = same.all(axis=1)
    return result


_SEATS = np.zeros(256, np.uint8)
for _seat, _char in enumerate(b"NESW"):
    _SEATS[_char] = _seat


class HtmlCodec(RecordLines):
    """The page's board lines read in bulk; boards written in bulk, the page
    around them written once its title is known."""

    name = "html"
    #: the converter hands the encoder this many boards at a time: their
    #: page text (about 1,088 bytes a board) stays near OUTPUT_BYTES, so
    #: the memory it takes is used again, not fresh pages each call
    write_rows = OUTPUT_BYTES // 1088

    def __init__(self) -> None:
        self._head: bytes | None = None  # the page's head, once its title is known
        self._held: list[bytes] = []  # boards made before it was
        self._written = False

    # -- reading -------------------------------------------------------------
    def decode_records(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Decoded:
        from dealerpp.deals.bulk import printpbn
        from dealerpp.deals.bulk.pbn import PbnCodec

        first = starts[:, 0]
        count = len(first)
        rows, games = _writers_lines(arr, first, ends[:, 0])
        skip = np.ones(count, bool)
        data = arr.tobytes()
        if data.count(_BOARD_START) != len(rows):  # other lines the reader looks at
            boards_at = [m.start() for m in _BOARD_PATTERN.finditer(data)]
            skip[np.searchsorted(first, np.array(boards_at, np.int64), "right") - 1] = False
        masks = np.zeros((count, 4), np.uint64)
        ok = np.zeros(count, bool)
        numbers = np.zeros(count, np.int64)
        if len(rows):
            skip[rows] = False
            deals, good = printpbn.decode(games, PbnCodec().decode)
            masks[rows] = deals.masks
            ok[rows] = True if good is None else good
            assert deals.boards is not None
            numbers[rows] = deals.boards
        return Decoded(masks, ok, skip=skip, boards=numbers)

    # -- writing -------------------------------------------------------------
    def begin(self, src_fmt: str, options: WriteOptions) -> None:
        """A new page: titled ``options.title``, else by what the set says
        (only a format whose sets say it: until a deal does, the boards are
        held back), else the default."""
        from dealerpp.deals import formats
        from dealerpp.deals.formats.html import DEFAULT_TITLE

        self._head, self._held, self._written = None, [], False
        if options.title:
            self._settle(options.title)
        elif not formats.get(src_fmt).titled:
            self._settle(DEFAULT_TITLE)

    def _settle(self, title: str) -> None:
        from dealerpp.deals.formats.html import page_head

        if self._head is None:
            # a title read from a file keeps its undecodable bytes (surrogate
            # escapes): written back as they came, as every writer does
            self._head = page_head(title).encode(ENCODING, ERRORS)

    def _out(self, boards: bytes | memoryview,
             title: Callable[[], str | None] | None) -> bytes | memoryview:
        """What may be written now of the page, ``boards`` made last
        (``title``: what their set calls itself, asked while not known)."""
        if self._head is None and title is not None:
            found = title()
            if found:
                self._settle(found)
        if self._head is None:
            self._held.append(bytes(boards))
            return b""
        if self._written:
            return boards
        self._written = True
        out = b"".join([self._head, *self._held, boards])
        self._held = []
        return out

    def encode(self, deals: DealArray, first_index: int = 0) -> bytes | memoryview:
        return self._out(self._boards(deals, first_index), deals.title)

    def _boards(self, deals: DealArray, first_index: int) -> bytes:
        tables = _tables()
        slots = tables.template.slots
        count = len(deals)
        places = np.arange(first_index, first_index + count, dtype=np.int64)
        boards = places + 1 if deals.boards is None else np.where(
            deals.boards > 0, deals.boards, places + 1)
        parts: dict[int, np.ndarray] = {}

        def fill(rows: np.ndarray, name: str, values: np.ndarray) -> None:
            start, width = slots[name]
            rows[:, start:start + width] = values

        def work(a: int, b: int) -> None:
            rows = np.empty((b - a, tables.template.width), np.uint8)
            rows[:] = tables.row
            place = places[a:b] % 6
            start, width = slots["open"]
            rows[place == 0, start:start + width] = tables.open
            start, width = slots["close"]
            rows[place == 5, start:start + width] = tables.close
            number = _digits(boards[a:b])
            fill(rows, "board", number)
            fill(rows, "number", number)
            cycle = (boards[a:b] - 1) % 16
            for name, table in tables.cycle.items():
                fill(rows, name, table[cycle])
            masks = deals.masks[a:b]
            texts = hand_texts(masks.reshape(-1)).reshape(b - a, 4, 16)
            start = slots["deal"][0]
            points = np.zeros((b - a, 4), np.uint8)
            for seat in range(4):
                rows[:, start + 17 * seat:start + 17 * seat + 16] = texts[:, seat]
                for suit in range(4):
                    holding = (masks[:, seat] >> np.uint64(13 * suit)) & np.uint64(8191)
                    fill(rows, f"suit{seat}{suit}", np.take(tables.cards, holding, axis=0))
                    points[:, seat] += tables.points[holding]
            for seat in range(4):
                tens = points[:, seat] // 10
                fill(rows, f"points{seat}", np.stack(
                    [np.where(tens > 0, tens + 48, 0), points[:, seat] % 10 + 48], axis=1))
            parts[a] = rows[rows != 0]

        each_sub_block(count, work, _BLOCK_ROWS)
        return b"".join(parts[start].data for start in sorted(parts)).replace(_VOID_MARK, tables.void)

    def ending(self, total: int) -> bytes:
        from dealerpp.deals.formats.html import DEFAULT_TITLE, PAGE_CLOSE, PAGE_END

        self._settle(DEFAULT_TITLE)
        tail = (PAGE_CLOSE if total % 6 else "") + PAGE_END
        return bytes(self._out(tail.encode(), None))

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter(self)


class _PieceWriter:
    """The per-deal writer's boards for pieces of one page, its pages
    counted from the output's first board and its title settled with the
    codec's."""

    def __init__(self, codec: HtmlCodec) -> None:
        self.codec = codec

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals.formats.html import PAGE_CLOSE, PAGE_OPEN, board_html, title_of

        parts = []
        for place, deal in enumerate(deals, first_index):
            if place % 6 == 0:
                parts.append(PAGE_OPEN)
            parts.append(board_html(deal, place + 1))
            if place % 6 == 5:
                parts.append(PAGE_CLOSE)
        return bytes(self.codec._out("".join(parts).encode(), lambda: title_of(deals)))
