"""dealer's printall on the bulk path: a deal is a number line (``%4d.``),
four suit rows (spades first) of four cells N E S W, and a blank line::

       1.
    6 5 3               K T 9               A Q 8 7 2           J 4
    ...

A cell is its ranks high first, a blank after each (``- `` for a void),
padded to 20 characters but the last. Rows differ in width with West's
cell, so a deal is a record of six lines (:mod:`dealerpp.deals.bulk.lines`)
decoded on a grid padded with blanks. A deal whose cells are not written so
(a suit of ten cards or more before West's, which pushes the next column
right; lower case; tabs) goes alone to the per-deal reader, which keeps
nothing from one deal to the next; a file that leaves the layout (no blank
line between deals, dealer's statistics lines at its end) goes to it from
there on. Writing, a deal is numbered by its place in the output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import DealArray, full_rows
from dealerpp.deals.bulk.blocks import OUTPUT_BYTES, byte_view, each_sub_block
from dealerpp.deals.bulk.lines import Decoded, RecordLines, gather, joined

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.model import Deal

_RANKS = b"23456789TJQKA"
_WIDTH = 86  # three cells of 20 and West's of 13 cards
_VOID, _BLANK, _OTHER = 13, 14, 255


def _rank_codes() -> np.ndarray:
    codes = np.full(256, _OTHER, np.uint8)
    for rank, char in enumerate(_RANKS):
        codes[char] = rank
    codes[ord("-")] = _VOID
    codes[ord(" ")] = _BLANK
    return codes


_CODE = _rank_codes()
# a rank's bit, nothing for a void or a blank (any code a row of the table)
_BIT = np.array([1 << code if code < 13 else 0 for code in range(256)], np.uint64)
_DIGIT_OR_BLANK = np.zeros(256, bool)
_DIGIT_OR_BLANK[[32, *range(48, 58)]] = True


def _content_ends(arr: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Where each line's text ends, before its LF or CR LF (the file's last
    line may have neither)."""
    lf = (ends >= 1) & (arr[np.maximum(ends - 1, 0)] == 10)
    crlf = lf & (ends >= 2) & (arr[np.maximum(ends - 2, 0)] == 13)
    content: np.ndarray = ends - lf - crlf
    return content


class PrintallCodec(RecordLines):
    """Six lines a deal: number, four suit rows, a blank line."""

    name = "printall"
    write_rows = OUTPUT_BYTES // 279  # its output, 279 bytes a deal
    lines_per_record = 6

    def structure(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> int:
        """Records from the chunk's start whose first line is a number line
        ``   N.`` and whose last is blank."""
        if not len(starts):
            return 0
        records = len(starts) // 6
        heads, blanks = starts[0::6], starts[5::6]
        head_ends = _content_ends(arr, ends[0::6])
        blank_ends = _content_ends(arr, ends[5::6])
        length = head_ends - heads
        text = gather(arr, heads, 16, 32)  # a number line of up to 16 characters
        columns = np.arange(16)
        inside = columns < (length - 1)[:, None]
        digit = (text >= 48) & (text <= 57)
        ok = (length >= 2) & (length <= 16) & (blank_ends == blanks)
        at = np.clip(length - 1, 0, 15)
        ok &= text[np.arange(records), at] == ord(".")
        ok &= (~inside | _DIGIT_OR_BLANK[text]).all(axis=1)
        # blanks, then digits: a digit before a blank is no number
        ok &= ~(inside[:, 1:] & digit[:, :-1] & (text[:, 1:] == 32)).any(axis=1)
        ok &= digit[np.arange(records), np.maximum(at - 1, 0)]
        bad = np.flatnonzero(~ok)
        return int(bad[0]) if len(bad) else records

    def decode_records(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Decoded:
        """Each cell read loosely (the bits of the ranks at its even
        columns), then its row written again and compared with what is
        there: a row passes only as the writer writes it."""
        count = len(starts)
        rows = starts[:, 1:5].reshape(-1)
        length = _content_ends(arr, ends[:, 1:5].reshape(-1)) - rows
        grid = gather(arr, rows, _WIDTH, 32)
        hands = np.empty((count, 4), np.uint64)
        ok = np.empty(count, bool)
        padded, last, last_length = _cell_tables()

        def work(a: int, b: int) -> None:
            part = grid[4 * a:4 * b]
            size = length[4 * a:4 * b]
            seen = np.where(np.arange(_WIDTH) < size[:, None], part, np.uint8(32))
            holdings = np.empty((len(part), 4), np.uint64)
            for seat in range(4):
                cell = seen[:, 20 * seat:20 * seat + (20 if seat < 3 else 26):2]
                holdings[:, seat] = _BIT[_CODE[cell]].sum(axis=1, dtype=np.uint64)
            # a rank twice carries past 13 bits: a row of the tables all the
            # same, which the comparison below then refuses
            holdings &= np.uint64(8191)
            index = holdings.astype(np.intp)
            again = np.concatenate([padded[index[:, 0], :20], padded[index[:, 1], :20],
                                    padded[index[:, 2], :20], last[index[:, 3]]], axis=1)
            good = (again == seen).all(axis=1) & (size == 60 + last_length[index[:, 3]])
            good &= (padded[index[:, :3], 20] == 0).all(axis=1)  # no column pushed right
            shifts = np.tile(np.array([39, 26, 13, 0], np.uint64), b - a)
            hands[a:b] = (holdings << shifts[:, None]).reshape(b - a, 4, 4).sum(
                axis=1, dtype=np.uint64)
            ok[a:b] = good.reshape(b - a, 4).all(axis=1)

        each_sub_block(count, work)
        return Decoded(hands, ok & full_rows(hands))

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        count = len(deals)
        numbers = np.arange(first_index + 1, first_index + count + 1, dtype=np.int64)
        heads = _number_lines(numbers)
        cells = _line_cells()
        parts: dict[int, np.ndarray] = {}  # by first row: sub-blocks end in any order

        def work(a: int, b: int) -> None:
            # the deal's number line and its 16 cells, rows of one table
            # (the number lines put after the cells) taken at once, each
            # padded with zero bytes, which are then dropped
            rows = np.empty((b - a, 28), np.uint8)
            rows[:, :7] = 0
            rows[:, 7:] = heads[a:b]
            table = np.concatenate((cells, rows))
            index = np.empty((b - a, 17), np.int64)
            index[:, 0] = np.arange(len(cells), len(cells) + b - a)
            masks = deals.masks[a:b].view(np.int64)  # below 2**52: indexes with no cast
            for line, shift in enumerate((39, 26, 13, 0)):
                suit = (masks >> shift) & 8191
                kinds = (0, 0, 0, 1 if line < 3 else 2)  # N E S padded, West ends the line
                index[:, 1 + 4 * line:5 + 4 * line] = suit + [8192 * kind for kind in kinds]
            text = table.take(index, axis=0)
            parts[a] = text[text != 0]

        each_sub_block(count, work)
        return byte_view(joined(parts))

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter()


_TABLES: list[np.ndarray] = []
_LINE_CELLS: list[np.ndarray] = []


def _line_cells() -> np.ndarray:
    """By 8192 * kind + 13-bit holding, 28 bytes, zero bytes after the
    text: kind 0 a cell of North, East or South (padded with blanks to
    20), 1 West's cell and the line end, 2 West's cell, the line end and
    the blank line after the deal (28 bytes: 13 cards and two line ends)."""
    if not _LINE_CELLS:
        padded, last, lengths = _cell_tables()
        table = np.zeros((3 * 8192, 28), np.uint8)
        table[:8192, :26] = padded
        columns = np.arange(26)
        for kind, ending in ((1, b"\n"), (2, b"\n\n")):
            rows = table[8192 * kind:8192 * (kind + 1)]
            rows[:, :26] = np.where(columns < lengths[:, None], last, np.uint8(0))
            for offset, byte in enumerate(ending):
                rows[np.arange(8192), lengths + offset] = byte
        _LINE_CELLS.append(table)
    return _LINE_CELLS[0]


def _cell_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By 13-bit holding: the cell padded to 20 with blanks (as wide as it
    is past that) and zero bytes to 26; West's, unpadded, and blanks to 26;
    and West's length."""
    if not _TABLES:
        holdings = np.arange(8192)
        last = np.zeros((8192, 26), np.uint8)
        lengths = np.zeros(8192, np.int64)
        for rank in range(12, -1, -1):  # high first: "A K 6 "
            held = np.flatnonzero(holdings >> rank & 1)
            last[held, lengths[held]] = _RANKS[rank]
            last[held, lengths[held] + 1] = 32
            lengths[held] += 2
        last[0, :2] = (ord("-"), 32)
        lengths[0] = 2
        padded = last.copy()
        short = lengths < 20
        padded[:, :20] = np.where(short[:, None] & (np.arange(20) >= lengths[:, None]),
                                  np.uint8(32), last[:, :20])
        _TABLES.extend((padded, np.where(last == 0, np.uint8(32), last), lengths))
    return _TABLES[0], _TABLES[1], _TABLES[2]


def _number_lines(numbers: np.ndarray) -> np.ndarray:
    """``%4d.`` and its line end for each number, right-aligned in 21 bytes
    (zero bytes before)."""
    count = len(numbers)
    out = np.zeros((count, 21), np.uint8)
    out[:, 19] = ord(".")
    out[:, 20] = 10
    out[:, 15:19] = 32
    value = numbers.copy()
    # only as many digits as the largest number has (19 columns: any int64)
    digits = len(str(int(numbers.max()))) if count else 1
    for column in range(18, 18 - digits, -1):
        shown = (value > 0) | (column == 18)
        out[:, column] = np.where(shown, value % 10 + 48, out[:, column])
        value //= 10
    return out


class _PieceWriter:
    """The per-deal writer, a deal numbered by its place in the whole output."""

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals._io import ENCODING, ERRORS
        from dealerpp.deals.formats._dealer_output import format_printall
        from dealerpp.diagnostics import DppError

        pieces = []
        for number, deal in enumerate(deals, 1):
            try:
                pieces.append(format_printall(deal, first_index + number))
            except ValueError as error:
                raise DppError(str(error), deal=number, output=True) from None
        return "".join(pieces).encode(ENCODING, ERRORS)
