"""The .csv club format on the bulk path: a line a board, 18 quoted fields,
the 16 holdings (N's spades .. W's clubs, ranks high first), the board and
``dealer/vulnerability``::

    "6","A32","KJT7","KT864","AKJ2",...,"J5","2","E/NS"

The fields are as wide as their suits, so each line is read loosely (its 36
quotes found, each holding the bits of its ranks, the board its digits)
and then written again: a line passes only when that gives its bytes back,
so a line read fast is one the writer writes, of a full deal whose dealer
and vulnerability are its board's by the cycle. Any other line (lower case,
``Both``, a card twice, a board off its cycle, blanks) goes alone to the
per-deal reader, which reads each line on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import DealArray, full_rows, holding_text
from dealerpp.deals.bulk.blocks import OUTPUT_BYTES, byte_view, each_sub_block
from dealerpp.deals.bulk.lines import Decoded, RecordLines, gather, joined

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.model import Deal

_RANKS = b"23456789TJQKA"
_QUOTES = 36
_MAX_DIGITS = 15  # boards read fast: up to 15 digits (int64, and the writer's text)
_VUL_TEXT = (b"-", b"NS", b"EW", b"All")
# dealer (index into NESW) and vulnerability of boards 1..16
_CYCLE_DEALER = np.array([0, 1, 2, 3] * 4, np.int64)
_CYCLE_VUL = np.array([0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2], np.int64)


def _rank_bits() -> np.ndarray:
    bits = np.zeros(256, np.uint16)
    for rank, char in enumerate(_RANKS):
        bits[char] = 1 << rank
    return bits


_BITS = _rank_bits()
_TABLES: list[np.ndarray] = []


def _holding_table() -> np.ndarray:
    """By 13-bit holding: its ranks high first, zero bytes after, 13 wide."""
    if not _TABLES:
        _TABLES.append(holding_text(lambda rank: _RANKS[rank:rank + 1], 13)[0])
    return _TABLES[0]


def _meta_table() -> np.ndarray:
    """By (board - 1) % 16: ``D/VUL`` padded with zero bytes to 5."""
    table = np.zeros((16, 5), np.uint8)
    for cycle in range(16):
        text = b"NESW"[_CYCLE_DEALER[cycle]:][:1] + b"/" + _VUL_TEXT[_CYCLE_VUL[cycle]]
        table[cycle, :len(text)] = np.frombuffer(text, np.uint8)
    return table


_META = _meta_table()


def _digits(numbers: np.ndarray) -> np.ndarray:
    """Each number's decimal digits, right-aligned in 19 bytes (zeros before)."""
    out = np.zeros((len(numbers), 19), np.uint8)
    value = numbers.copy()
    for column in range(18, -1, -1):
        shown = (value > 0) | (column == 18)
        out[:, column] = np.where(shown, value % 10 + 48, 0)
        value //= 10
    return out


def csv_lines(masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The lines (their line ends included) of full deals of these boards,
    dealer and vulnerability by the cycle, as one byte array."""
    table = _holding_table()
    count = len(masks)
    sep = np.frombuffer(b'","', np.uint8)
    parts: dict[int, np.ndarray] = {}  # by first row: sub-blocks end in any order

    def work(a: int, b: int) -> None:
        rows = b - a
        pieces = [np.full((rows, 1), ord('"'), np.uint8)]
        for seat in range(4):
            for shift in (39, 26, 13, 0):
                suit = (masks[a:b, seat] >> np.uint64(shift)) & np.uint64(8191)
                pieces += [table[suit.astype(np.intp)], np.broadcast_to(sep, (rows, 3))]
        pieces += [_digits(boards[a:b]), np.broadcast_to(sep, (rows, 3)),
                   _META[(boards[a:b] - 1) % 16],
                   np.broadcast_to(np.frombuffer(b'"\n', np.uint8), (rows, 2))]
        cells = np.concatenate(pieces, axis=1)
        parts[a] = cells[cells != 0]

    each_sub_block(count, work)
    return joined(parts)


class CsvCodec(RecordLines):
    """A line a board: 16 holdings, the board, ``dealer/vulnerability``."""

    name = "csv"
    write_rows = OUTPUT_BYTES // 116  # its output, 116 bytes a deal

    def __init__(self) -> None:
        self._first: int | None = None  # the output's first board (a deal without one)

    def decode_records(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Decoded:
        start, end = starts[:, 0], ends[:, 0]
        count = len(start)
        crlf = (end - start >= 2) & (arr[np.maximum(end - 2, 0)] == 13)
        content = end - 1 - crlf  # before the line end
        has_end = arr[np.maximum(end - 1, 0)] == 10
        quotes = np.flatnonzero(arr == ord('"'))
        per_line = np.searchsorted(quotes, end) - np.searchsorted(quotes, start)
        ok = (per_line == _QUOTES) & has_end & (end - start > 1)
        masks = np.zeros((count, 4), np.uint64)
        boards = np.ones(count, np.int64)
        rows = np.flatnonzero(ok)
        if len(rows):
            first = np.searchsorted(quotes, start[rows])
            at = quotes[first[:, None] + np.arange(_QUOTES)]  # (n, 36)
            masks[rows], boards[rows], good = self._fields(arr, at)
            ok[rows] &= good & (at[:, 0] == start[rows]) & (at[:, -1] == content[rows] - 1)
        ok &= full_rows(masks)
        ok &= self._written_again(arr, (start, content, end), masks, boards, ok)
        return Decoded(masks, ok, boards=boards)

    @staticmethod
    def _fields(arr: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The masks and board of lines of 36 quotes at ``at``, read loosely
        (whatever is not a rank adds nothing; a rank twice carries into
        garbage): the lines written again are the check."""
        bits = _BITS[arr]
        # from each opening quote to its closing one: a holding's ranks
        sums = np.add.reduceat(bits, at[:, :32].reshape(-1), dtype=np.uint16)[0::2]
        holdings = (sums.reshape(-1, 16) & np.uint16(8191)).astype(np.uint64)
        shifts = np.array([39, 26, 13, 0] * 4, np.uint64)
        masks = (holdings << shifts).reshape(-1, 4, 4).sum(axis=2, dtype=np.uint64)
        width = at[:, 33] - at[:, 32] - 1
        good = (width >= 1) & (width <= _MAX_DIGITS)
        digits = gather(arr, at[:, 32] + 1, _MAX_DIGITS, 48).astype(np.int64) - 48
        inside = np.arange(_MAX_DIGITS) < width[:, None]
        good &= (~inside | ((digits >= 0) & (digits <= 9))).all(axis=1)
        boards = np.zeros(len(at), np.int64)
        for column in range(_MAX_DIGITS):
            boards = np.where(inside[:, column], boards * 10 + digits[:, column], boards)
        good &= boards >= 1
        return masks, np.maximum(boards, 1), good

    @staticmethod
    def _written_again(arr: np.ndarray, lines: tuple[np.ndarray, np.ndarray, np.ndarray],
                       masks: np.ndarray, boards: np.ndarray, ok: np.ndarray) -> np.ndarray:
        """Whether each line (of those ``ok``) is, byte for byte, the line
        the writer writes for the deal and board read from it (``lines``:
        where each starts, its text ends and it ends)."""
        start, content, end = lines
        same = np.zeros(len(ok), bool)
        rows = np.flatnonzero(ok)
        if not len(rows):
            return same
        again = csv_lines(masks[rows], boards[rows])
        lengths = np.diff(np.concatenate(([-1], np.flatnonzero(again == 10)))) - 1
        fits = lengths == content[rows] - start[rows]
        # only lines of the right length, so the two texts stay aligned
        keep = np.repeat(fits, lengths + 1) & (again != 10)
        rows, lengths = rows[fits], lengths[fits]
        if not len(rows):
            return same
        written = again[keep]
        # the text of those lines: each line of the chunk in two runs, its
        # text (taken or not) and its line end (never)
        taken = np.zeros(len(ok), bool)
        taken[rows] = True
        flags = np.zeros((len(ok), 2), bool)
        flags[:, 0] = taken
        runs = np.empty((len(ok), 2), np.int64)
        runs[:, 0] = content - start
        runs[:, 1] = end - content
        original = arr[np.repeat(flags.reshape(-1), runs.reshape(-1))]
        differ = np.flatnonzero(original != written)
        bad = np.searchsorted(np.cumsum(lengths), differ, side="right")
        good = np.ones(len(rows), bool)
        good[bad] = False
        same[rows] = good
        return same

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        """Boards as they are; a deal without one numbered from the output's
        first deal's board (1 without one) by place, as the per-deal writer."""
        if first_index == 0:
            self._first = 1 if deals.boards is None or not len(deals) else int(deals.boards[0])
        boards = deals.boards
        if boards is None:
            first = (self._first or 1) + first_index
            boards = np.arange(first, first + len(deals), dtype=np.int64)
        return byte_view(csv_lines(deals.masks, boards))

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter(self)


class _PieceWriter:
    """The per-deal writer for pieces of one output, a deal without a board
    numbered from the output's first deal's board by place."""

    def __init__(self, codec: CsvCodec) -> None:
        self.codec = codec

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals.formats._machines import csv_text

        if first_index == 0:
            self.codec._first = (deals[0].board or 1) if deals else 1
        return csv_text(deals, (self.codec._first or 1) + first_index).encode("ascii")
