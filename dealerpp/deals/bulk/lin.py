"""Deal-only LIN sets on the bulk path, both ways.

The layout is the one Big Deal writes and ``dealerpp.deals.formats.lin`` writes
for a deal with nothing but its cards, board, dealer and vulnerability,
one LF line a board::

    qx|oB|md|D<South>,<West>,<North>|rh||ah|Board B|sv|V|pg||

Each hand is ``S`` and 16 characters (13 ranks and the letters ``H D C``),
so a line of a board number of ``d`` digits is ``86 + 2d`` characters: a
fixed-width record for each ``d``, decoded and encoded as a block like the
other text formats (``blocks.py``).

LIN is not a format of lines, though: it is one run of ``key|value|``
pairs, where a board's calls or play may follow on the next line and a
match header or a player list changes every later board. So only a file
that *starts* with such lines is read fast, and only while each is
followed by the next board's ``qx|`` (or the end of the file); from the
first line that is anything else (or fails a check: a card twice, a dealer
or vulnerability off the board's cycle, ``10`` for a ten, lower case), the
rest of the file goes to the per-deal reader as one stream, which reads
it as it would have read it from the start (the boards before leave it
nothing to remember).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import FULL, DealArray, popcount
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    RowChecks,
    as_grid,
    byte_view,
    check_line_end,
    column_runs,
    content_width,
    dot_prefix,
    each_sub_block,
    hand_sums,
    hand_texts,
    template_rows,
    translated_grid,
)
from dealerpp.deals.bulk.head import HeadHooks
from dealerpp.deals.bulk.hooks import PieceWriter
from dealerpp.diagnostics import DppError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from dealerpp.deals.model import Deal

MAX_DIGITS = 9  # board numbers read fast: 1 to 999,999,999
_HAND_STEP = 18  # "S" + 16 characters + ","
_SEPARATORS = b"HDC"


def _hand_table() -> bytes:
    """Rank -> 4 * rank; the suit letters after spades 64 + 1, 2, 3 (their
    order is checked: the low two bits are the count of letters so far);
    anything else 128."""
    table = bytearray([128] * 256)
    for rank, char in enumerate(b"23456789TJQKA"):
        table[char] = 4 * rank
    for index, char in enumerate(_SEPARATORS, 1):
        table[char] = 64 + index
    return bytes(table)


def _cycle_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By (board - 1) % 16: md's dealer digit, sv's vulnerability code and
    the character written for it (the LIN writer's)."""
    from dealerpp.deals.formats import lin
    from dealerpp.deals.model import board_dealer_vul

    dealers = np.zeros(16, np.uint8)
    vuls = np.zeros(16, np.uint8)
    chars = np.zeros(16, np.uint8)
    for board in range(1, 17):
        dealer, vul = board_dealer_vul(board)
        dealers[board - 1] = ord(lin.SEAT_DIGIT[dealer])
        chars[board - 1] = ord(lin.VUL_CHARS[vul])
        vuls[board - 1] = _VUL_CODES[chars[board - 1]]
    return dealers, vuls, chars


def _vul_codes() -> np.ndarray:
    """sv's characters as the reader takes them: none, NS, EW, both (255: no vulnerability)."""
    codes = np.full(256, 255, np.uint8)
    for code, chars in enumerate((b"0oO-", b"nN", b"eE", b"bB")):
        for char in chars:
            codes[char] = code
    return codes


_VUL_CODES = _vul_codes()


def _template(digits: int) -> bytes:
    hand = b"S" + b" " * 16
    return (b"qx|o" + b"0" * digits + b"|md|0" + hand + b"," + hand + b"," + hand
            + b"|rh||ah|Board " + b"0" * digits + b"|sv|0|pg||\n")


def _digit_count(boards: np.ndarray) -> np.ndarray:
    count = np.ones(len(boards), np.int64)
    for power in range(1, 19):
        above = boards >= 10 ** power
        if not above.any():
            break
        count += above
    return count


class LinCodec(HeadHooks):
    """Deal-only LIN boards, a line each, as Big Deal writes them."""

    name = "lin"
    write_rows = OUTPUT_BYTES // 99  # its output, 99 bytes a deal
    contents = tuple(86 + 2 * digits for digits in range(1, MAX_DIGITS + 1))
    needs_follower = True
    _table = _hand_table()

    def __init__(self) -> None:
        self._dealers, self._vuls, self._vul_chars = _cycle_tables()

    # -- decoding ---------------------------------------------------------------
    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, crlf = content_width(width, self.contents)
        digits = (content - 86) // 2
        raw = as_grid(block, width)
        checks = RowChecks(len(raw))
        check_line_end(checks, raw, content, crlf)
        boards = self._boards(raw, digits, checks)
        cycle = (boards - 1) % 16
        checks.add(raw[:, 8 + digits] == self._dealers[cycle])
        checks.add(_VUL_CODES[raw[:, 80 + 2 * digits]] == self._vuls[cycle])
        fixed = [(0, b"qx|o"), (4 + digits, b"|md|"), (9 + digits, b"S"), (26 + digits, b",S"),
                 (44 + digits, b",S"), (62 + digits, b"|rh||ah|Board "),
                 (76 + 2 * digits, b"|sv|"), (81 + 2 * digits, b"|pg||")]
        runs = column_runs([(column + i, bytes([char])) for column, text in fixed
                      for i, char in enumerate(text)])
        masks = np.empty((len(raw), 4), np.uint64)
        first = 10 + digits

        def work(a: int, b: int) -> None:
            for column, expected in runs:
                checks.add(raw[a:b, column:column + len(expected)] == expected, a)
            codes = translated_grid(block[a * width:b * width], self._table, width)
            hands = np.lib.stride_tricks.as_strided(
                codes[:, first:], (b - a, 3, 16), (width, _HAND_STEP, 1), writeable=False)
            masks[a:b] = _masks(hands, checks, a)

        each_sub_block(len(raw), work)
        return DealArray(masks, boards=boards), checks.ok

    @staticmethod
    def _boards(raw: np.ndarray, digits: int, checks: RowChecks) -> np.ndarray:
        """The board numbers of ``ah``, which ``qx`` must repeat."""
        heading = raw[:, 76 + digits:76 + 2 * digits]
        checks.add(raw[:, 4:4 + digits] == heading)
        values = heading - np.uint8(48)
        checks.add(values < 10)
        boards = np.zeros(len(raw), np.int64)
        for column in range(digits):
            boards = boards * 10 + values[:, column]
        checks.add(boards >= 1)
        return boards

    # -- encoding ---------------------------------------------------------------
    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        """The lines of full deals; a deal without a board number is
        numbered by its place in the output (``first_index``: the deals
        written before), as the LIN writer does."""
        count = len(deals)
        boards = deals.boards
        if boards is None:
            boards = np.arange(first_index + 1, first_index + count + 1, dtype=np.int64)
        digits = _digit_count(boards)
        kinds = np.unique(digits).tolist()
        if len(kinds) == 1:
            return byte_view(self._lines(deals.masks, boards, kinds[0]))
        if (np.diff(digits) >= 0).all():  # numbers rise: each kind is one run of rows
            runs = [self._lines(deals.masks[rows[0]:rows[-1] + 1], boards[rows[0]:rows[-1] + 1],
                                kind).reshape(-1)
                    for kind in kinds for rows in [np.flatnonzero(digits == kind)]]
            return byte_view(np.concatenate(runs))
        widths = 87 + 2 * digits
        offsets = np.concatenate(([0], np.cumsum(widths)[:-1]))
        out = np.empty(int(widths.sum()), np.uint8)
        for kind in kinds:
            rows = np.flatnonzero(digits == kind)
            lines = self._lines(deals.masks[rows], boards[rows], kind)
            out[offsets[rows, None] + np.arange(lines.shape[1])] = lines
        return byte_view(out)

    def _lines(self, masks: np.ndarray, boards: np.ndarray, digits: int) -> np.ndarray:
        """``(N, width)`` lines of boards whose numbers have ``digits`` digits."""
        out = template_rows(len(masks), _template(digits))
        width = out.shape[1]
        for column in range(digits):
            place = (boards // 10 ** (digits - 1 - column)) % 10 + 48
            out[:, 4 + column] = out[:, 76 + digits + column] = place
        cycle = (boards - 1) % 16
        out[:, 8 + digits] = self._dealers[cycle]
        out[:, 80 + 2 * digits] = self._vul_chars[cycle]
        first = 10 + digits

        def work(a: int, b: int) -> None:
            hands = hand_texts(masks[a:b][:, [2, 3, 0]].reshape(-1), _SEPARATORS)  # S W N
            target = np.lib.stride_tricks.as_strided(
                out[a:, first:], (b - a, 3, 16), (width, _HAND_STEP, 1))
            target[:] = hands.reshape(b - a, 3, 16)

        each_sub_block(len(masks), work)
        return out

    # -- a whole file -------------------------------------------------------------
    def follows(self, data: bytes, at: int, final: bool) -> bool:
        """The next board starts here (pairs on the next line would belong
        to the board before: its calls, a claim, a header key)."""
        return data.startswith(b"qx|", at) if at < len(data) else final

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter()


def _masks(hands: np.ndarray, checks: RowChecks, row: int) -> np.ndarray:
    """Masks N E S W of ``(n, 3, 16)`` hands S W N (East holds the rest)."""
    dots = hands >> 6  # 1 for a suit letter, 2 for a bad character
    checks.add(dots < 2, row)
    suits = dot_prefix(dots)  # letters up to here: 0 spades .. 3 clubs
    checks.add(suits[:, :, 15] == 3, row)  # so 13 ranks a hand
    checks.add((hands & 3) == (suits & (np.uint8(0) - dots)), row)  # H, D, C in that order
    card = np.uint8(39) - suits * np.uint8(13)
    card += hands >> 2
    card |= np.uint8(0) - dots
    sums = hand_sums(card)  # (n, 3)
    # A sum of 39 powers of two has 39 bits set only when no card is there twice.
    total = sums.sum(axis=1, dtype=np.uint64)
    checks.add(popcount(total) == 39, row)
    masks = np.empty((len(hands), 4), np.uint64)
    masks[:, 0] = sums[:, 2]
    masks[:, 1] = FULL & ~total
    masks[:, 2] = sums[:, 0]
    masks[:, 3] = sums[:, 1]
    return masks


class _PieceWriter:
    """The LIN writer over a whole output: a deal without a board number is
    numbered by its place in the output, a match's header written once."""

    def __init__(self) -> None:
        from dealerpp.deals.formats import lin

        self.writer = lin.Writer()

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals._io import ENCODING, ERRORS

        writer = self.writer
        state = writer.match, writer.header_names
        try:
            text = "".join(writer.pieces(deals, first_index + 1))
        except DppError:
            writer.match, writer.header_names = state  # the batch is written again deal by deal
            raise
        return text.encode(ENCODING, ERRORS)
