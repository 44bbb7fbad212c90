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

Writing: each board is written as pieces copied to their places
(:mod:`dealerpp.deals.bulk.places`; below, "writing by places"), no byte
looked at twice. The page's head carries its title, which may come from a deal
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
from dealerpp.deals.bulk.blocks import OUTPUT_BYTES, RANKS, byte_view, each_sub_block, hand_texts
from dealerpp.deals.bulk.lines import Decoded, RecordLines
from dealerpp.deals.bulk.places import Buffers, digit_rows, items, rows_at, rows_from, slots_at

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
# -- writing by places (dealerpp.deals.bulk.places) ---------------------------
# A board is written as pieces, each copied to its place (the places are
# running sums of the pieces' widths, which tables by holding, point count
# and place in the 16-board cycle give): the page's opening, the section's
# start, the board's digits, what follows them up to the deal (by cycle),
# the deal, the digits again, the info box's rest and North's first suit
# head (by cycle), each suit's cards with what follows them up to the next
# suit's cards (by holding), what follows a hand's clubs (by seat), the
# point counts two at a time (by pair), the board's end and the page's
# closing. A piece taken from a table is a row as wide as the table's
# widest, its text first: the bytes past its text fall on the pieces after
# it in the board, which are written later and cover them. Every such
# piece's spare bytes are fewer than the next piece's (or pieces') text,
# so they never reach the next board: sub-blocks of boards are written
# apart (on helper threads too).
# boards a pass: numpy's cost a call outweighs the cache's gain of smaller
# passes (1,024 took 5-15% longer than 2,048 to 4,096)
_SUB = 2048
_BUFFERS = Buffers()
# the pieces of a board in order (columns of the places array): opening,
# section start, digits, to the deal, digits, to the hands; each seat's four
# suits and what follows its clubs; the points as two pairs; end; closing
_OPEN, _START, _DIGITS_1, _TO_DEAL_AT, _DIGITS_2, _INFO = range(6)
_SUITS = 6  # + 5 * seat + suit (spades 0 .. clubs 3); + 5 * seat + 4: after clubs
_POINTS = 26  # and 27
_END, _CLOSE = 28, 29
_PIECES = 30


class _Pieces:
    """What a board's pieces are taken from, made once from the page
    writer's own functions and texts."""

    def __init__(self) -> None:
        from dealerpp.deals.formats import html
        from dealerpp.deals.model import board_dealer_vul

        cycle = [board_dealer_vul(board) for board in range(1, 17)]
        self.open = _constant(html.PAGE_OPEN)
        self.close = _constant(html.PAGE_CLOSE)
        self.start = _constant('<section class="board" data-board="')
        to_deal = [f'" data-dealer="{dealer}" data-vul="{vul}" data-deal="N:' for dealer, vul in cycle]
        # where the deal goes, from the piece's start: four hands of 16
        # bytes with a space between
        self.deal_at = np.array([len(text) for text in to_deal], np.int64)
        self.to_deal, self.to_deal_width = _table(
            [text + " " * 67 + '">\n<div class="info"><b>Board ' for text in to_deal])
        self.info, self.info_width = _table(
            [f"</b><br>Dealer {dealer.name_title}<br>Vul {html.VUL_TEXT[vul]}</div>\n"
             f'<div class="hand {html.HAND_CLASSES[0]}">{html.suit_head(3)}'
             for dealer, vul in cycle])
        # a suit's cards and what follows them up to the next suit's cards
        # (spades, hearts, diamonds: the next suit's head; clubs: nothing)
        cards, counts = holding_text(lambda rank: RANKS[rank:rank + 1], 13)
        void = html.suit_cards(0).encode()
        self.suits, self.suit_widths = [], []
        for after in ("<br>" + html.suit_head(2), "<br>" + html.suit_head(1),
                      "<br>" + html.suit_head(0), ""):
            table, widths = _followed(cards, counts, void, after.encode())
            self.suits.append(table)
            self.suit_widths.append(widths)
        # after a hand's clubs: the next hand's start and first suit head,
        # after the last the compass's start
        self.after_clubs = [_constant(f'</div><div class="hand {cls}">{html.suit_head(3)}')
                            for cls in html.HAND_CLASSES[1:]]
        self.after_clubs.append(_constant('</div>\n<div class="compass"><span class="n">'))
        # the points, North's and East's, South's and West's, by 38 * first + second
        pairs = [(first, second) for first in range(38) for second in range(38)]
        self.points_ne, self.points_ne_width = _table(
            [f'{n}</span><span class="e">{e}</span><span class="s">' for n, e in pairs])
        self.points_sw, self.points_sw_width = _table(
            [f'{s}</span><span class="w">{w}' for s, w in pairs])
        self.end = _constant("</span></div>\n</section>\n")
        holdings = np.arange(8192)
        # A 4, K 3, Q 2, J 1: bits 12 .. 9 of a holding (html.hcp)
        self.hcp = np.zeros(8192, np.int64)
        for bit, points in ((12, 4), (11, 3), (10, 2), (9, 1)):
            self.hcp += points * (holdings >> bit & 1)
        # the widths of the pieces of a fixed width, the rest 0
        self.fixed = np.zeros(_PIECES, np.int64)
        self.fixed[_START] = self.start.itemsize
        self.fixed[_SUITS + 4:_SUITS + 20:5] = [text.itemsize for text in self.after_clubs]
        self.fixed[_END] = self.end.itemsize


def _constant(text: str) -> np.ndarray:
    """The text as one item (:func:`dealerpp.deals.bulk.places.items`)."""
    return items(np.frombuffer(text.encode(), np.uint8)[None])


def _table(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The texts as items as wide as the widest text, zero bytes after
    the shorter; and their widths."""
    data = [text.encode() for text in texts]
    widths = np.array([len(text) for text in data], np.int64)
    width = int(widths.max())
    table = np.frombuffer(b"".join(text.ljust(width, b"\0") for text in data), np.uint8)
    return items(table.reshape(len(data), width)), widths


def _followed(cards: np.ndarray, counts: np.ndarray, void: bytes, after: bytes
              ) -> tuple[np.ndarray, np.ndarray]:
    """By holding: its cards (``cards``, ``counts`` of them; a void's
    text when none) followed by ``after``, as items as wide as the
    widest, zero bytes after the shorter; and their widths."""
    widths = np.where(counts > 0, counts, len(void)) + len(after)
    table = np.zeros((len(cards), int(widths.max())), np.uint8)
    table[:, :cards.shape[1]] = cards
    table[0, :len(void)] = np.frombuffer(void, np.uint8)
    text = np.frombuffer(after, np.uint8)
    for count in range(cards.shape[1] + 1):  # the rows of a count: one slice
        at = count or len(void)
        table[counts == count, at:at + len(after)] = text
    return items(table), widths


_MADE: list[_Pieces] = []


def _pieces() -> _Pieces:
    if not _MADE:
        _MADE.append(_Pieces())
    return _MADE[0]


def boards_text(deals: DealArray, first_index: int) -> memoryview:
    """The boards of the deals (the first at place ``first_index`` of the
    page, pages of six), as the page writer writes them: a view of a buffer
    used again once let go."""
    count = len(deals)
    places = np.arange(first_index, first_index + count, dtype=np.int64)
    boards = places + 1 if deals.boards is None else np.where(
        deals.boards > 0, deals.boards, places + 1)
    board = _Board(deals.masks, boards, first_index)
    out = _BUFFERS.get(board.size + 128)  # (a table's row may run past the last text)
    each_sub_block(count, lambda a, b: board.write(out, a, b), _SUB)
    return byte_view(out[:board.size])


class _Board:
    """The pieces of each board: what they are (holdings, points, place in
    the cycle, digits) and where they go (``starts``, from the first
    board's first byte): by piece, then board, so what one numpy call
    takes or writes lies together."""

    def __init__(self, masks: np.ndarray, boards: np.ndarray, first_index: int) -> None:
        pieces = _pieces()
        count = len(masks)
        self.first_index = first_index
        self.hands = masks
        self.holdings = _holdings(masks)
        self.cycle = (boards - 1) % 16
        self.digits, digit_widths = _digit_texts(boards)
        points = np.add.reduce(pieces.hcp.take(self.holdings), axis=0)  # by seat
        self.points = points[0::2] * 38 + points[1::2]  # (N, E) and (S, W)
        widths = np.empty((_PIECES, count), np.int64)
        widths[:] = pieces.fixed[:, None]
        widths[_OPEN, (-first_index) % 6::6] = pieces.open.itemsize
        widths[_CLOSE, (5 - first_index) % 6::6] = pieces.close.itemsize
        widths[_DIGITS_1] = widths[_DIGITS_2] = digit_widths
        widths[_TO_DEAL_AT] = pieces.to_deal_width.take(self.cycle)
        widths[_INFO] = pieces.info_width.take(self.cycle)
        for suit, suit_widths in enumerate(pieces.suit_widths):
            widths[_SUITS + suit:_SUITS + 20:5] = suit_widths.take(self.holdings[suit])
        widths[_POINTS] = pieces.points_ne_width.take(self.points[0])
        widths[_POINTS + 1] = pieces.points_sw_width.take(self.points[1])
        ends = np.cumsum(widths, axis=0)  # in the board
        board_ends = np.cumsum(ends[-1])
        self.size = int(board_ends[-1]) if count else 0
        np.subtract(ends, widths, out=widths)
        widths += board_ends - ends[-1]
        self.starts = widths

    def write(self, out: np.ndarray, a: int, b: int) -> None:
        """Write boards ``a`` to ``b``: each piece after the ones its row's
        spare bytes fall on."""
        pieces = _pieces()
        starts = self.starts[:, a:b]
        cycle = self.cycle[a:b]
        _put(out, starts[_OPEN, (-self.first_index - a) % 6::6], pieces.open)
        _put(out, starts[_START], pieces.start)
        digits = self.digits[a:b]
        _put(out, starts[_DIGITS_1], digits)
        _put(out, starts[_TO_DEAL_AT], pieces.to_deal.take(cycle))
        deal = (starts[_TO_DEAL_AT] + pieces.deal_at.take(cycle))[:, None] + _HAND_AT
        _put(out, deal, items(hand_texts(self.hands[a:b].reshape(-1)).reshape(b - a, 4, 16)))
        _put(out, starts[_DIGITS_2], digits)
        _put(out, starts[_INFO], pieces.info.take(cycle))
        for suit, table in enumerate(pieces.suits):
            _put(out, starts[_SUITS + suit:_SUITS + 20:5], table.take(self.holdings[suit, :, a:b]))
        for seat, text in enumerate(pieces.after_clubs):
            _put(out, starts[_SUITS + 5 * seat + 4], text)
        _put(out, starts[_POINTS], pieces.points_ne.take(self.points[0, a:b]))
        _put(out, starts[_POINTS + 1], pieces.points_sw.take(self.points[1, a:b]))
        _put(out, starts[_END], pieces.end)
        _put(out, starts[_CLOSE, (5 - self.first_index - a) % 6::6], pieces.close)


_HAND_AT = np.arange(4) * 17  # a hand of the deal string: 16 bytes and a space


def _put(out: np.ndarray, starts: np.ndarray, pieces: np.ndarray) -> None:
    """Items (:func:`dealerpp.deals.bulk.places.items`) written from ``starts``."""
    slots_at(out, pieces.itemsize)[starts] = pieces


def _holdings(masks: np.ndarray) -> np.ndarray:
    """``(4, 4, N)``: the deals' holdings by suit (spades first) and seat N E S W."""
    holdings = np.empty((4, 4, len(masks)), np.int64)
    signed = np.ascontiguousarray(masks).view(np.int64).T  # below 2**52: indexes with no cast
    for suit, shift in enumerate((39, 26, 13, 0)):
        np.bitwise_and(signed >> shift, 8191, out=holdings[suit])
    return holdings


def _digit_texts(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each board number's digits as a row as wide as the longest, the
    number first (a shorter one's row runs on into the next's bytes); and
    how many digits each has."""
    top = len(str(int(boards.max()))) if len(boards) else 1
    widths = np.ones(len(boards), np.int64)
    for power in range(1, top):
        widths += boards >= 10 ** power
    text = digit_rows(boards, top)  # right-aligned, zeros in front
    if len(boards) and int(widths.min()) < top:
        flat = np.concatenate((text.reshape(-1), np.zeros(top, np.uint8)))
        text = rows_at(flat, top)[np.arange(len(boards)) * top + top - widths]
    return items(text), widths


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
    number = rows_from(padded, start + len(_BOARD_START), 16)
    digits = np.argmax(number == ord('"'), axis=1)
    is_digit = (number >= ord("0")) & (number <= ord("9"))
    good &= (digits >= 1) & (number[:, 0] != ord("0")) & (
        is_digit | (np.arange(16) >= digits[:, None])).all(axis=1)
    at = start + len(_BOARD_START) + digits  # the quote after the number
    good &= _at(padded, at, _TO_VUL, free=_DEALER_AT)
    dealer = padded[at + _DEALER_AT]
    good &= np.isin(dealer, np.frombuffer(b"NESW", np.uint8))
    vul_length = length - _LINE - digits
    vul = rows_from(padded, at + len(_TO_VUL), 4)
    vuls = np.full(len(rows), 255, np.uint8)
    for code, text in enumerate(_VULS):
        vuls[(vul_length == len(text)) & (vul[:, :len(text)] == np.frombuffer(
            text, np.uint8)).all(axis=1)] = code
    good &= vuls != 255
    at = at + len(_TO_VUL) + vul_length
    tail = rows_from(padded, at, len(_TO_DEAL) + 71)
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


def _at(padded: np.ndarray, starts: np.ndarray, text: bytes, free: int = -1) -> np.ndarray:
    """Whether ``text`` is at each start (a byte at ``free`` may be any)."""
    same = rows_from(padded, starts, len(text)) == np.frombuffer(text, np.uint8)
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
        return self._out(boards_text(deals, first_index), deals.title)

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
