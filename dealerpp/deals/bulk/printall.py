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
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from dealerpp.deals.bulk.array import DealArray, full_rows, popcount
from dealerpp.deals.bulk.blocks import OUTPUT_BYTES, byte_view, each_sub_block
from dealerpp.deals.bulk.lines import Decoded, RecordLines, gather, joined
from dealerpp.deals.bulk.places import (
    Buffers,
    digit_counts,
    four_digit_rows,
    items,
    put_consecutive,
    slots_at,
)

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
    vouch_again = True

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

    def vouched(self, data: bytes, final: bool) -> tuple[DealArray, int, int] | None:
        """The deals from the chunk's start that are, byte for byte, what
        the writer writes for them, numbered on from the first one's number
        (:func:`vouched_deals`)."""
        found = vouched_deals(data)
        if found is None:
            return None
        masks, size = found
        return DealArray(masks), size, 6 * len(masks)

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
        text = printall_text(deals.masks, first_index + 1)
        return byte_view(_taken(deals, first_index) if text is None else text)

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter()


def _taken(deals: DealArray, first_index: int) -> np.ndarray:
    """The text of any full deals (a cell wider than 20 too): the deal's
    number line and its 16 cells, rows of one table taken at once."""
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
    return joined(parts)


# -- writing by places (dealerpp.deals.bulk.places) ---------------------------
# When no cell of North, East or South is wider than 20 (a suit of ten cards
# or fewer), a suit row is those three cells (60 bytes), West's cell (as long
# as its suit) and the line end, so the places of a deal's pieces follow
# from West's suit lengths and the number's digits. Written in this order:
# the number lines (exact); West's cells with their line ends, right-aligned
# in 28-byte rows (the padding in front falls on the row's own 60 bytes);
# the 60-byte blocks.
_SLOT = 28  # West's cell (26 at most), the line end and the blank line
_SUB = 2048  # deals a pass: the temporaries stay small and in cache
_PLACES: list[np.ndarray] = []
_BUFFERS = Buffers()


def _by_places() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By 13-bit holding: the 20-byte cell of North, East or South; West's
    cell and line end right-aligned in 28 bytes (rows 8192 on: and the blank
    line); West's cell's length. The cells are void items (places.items)."""
    if not _PLACES:
        padded, last, lengths = _cell_tables()
        west = np.zeros((2 * 8192, _SLOT), np.uint8)
        columns = np.arange(_SLOT)
        for kind in (0, 1):
            text = np.zeros((8192, _SLOT + 1), np.uint8)
            text[:, :26] = np.where(np.arange(26) < lengths[:, None], last, np.uint8(0))
            text[np.arange(8192), lengths] = 10
            text[np.arange(8192), lengths + 1] = 10 * kind
            # column c of the slot holds the text's byte c - (28 - its length)
            source = columns - (_SLOT - lengths - 1 - kind)[:, None]
            moved = np.take_along_axis(text, np.clip(source, 0, _SLOT), axis=1)
            west[8192 * kind:8192 * (kind + 1)] = np.where(source >= 0, moved, np.uint8(0))
        _PLACES.extend((items(np.ascontiguousarray(padded[:, :20])), items(west),
                        lengths))
    return _PLACES[0], _PLACES[1], _PLACES[2]


def suit_rows(masks: np.ndarray) -> np.ndarray:
    """``(N, 4, 4)``: each deal's holdings by suit row (spades first) and
    seat N E S W."""
    suits = np.empty((len(masks), 4, 4), np.int64)
    signed = np.ascontiguousarray(masks).view(np.int64)  # below 2**52: indexes with no cast
    for row, shift in enumerate((39, 26, 13, 0)):
        np.bitwise_and(signed >> shift, 8191, out=suits[:, row])
    return suits


def printall_text(masks: np.ndarray, first_number: int) -> np.ndarray | None:
    """dealer's printall of full deals numbered from ``first_number`` (a view
    of a buffer used again once let go), or None when a cell of North, East
    or South is wider than 20."""
    count = len(masks)
    top = len(str(first_number + count))
    out = _BUFFERS.get(count * (max(top, 4) + 2 + 277))
    at = 0
    for run_start, run_stop, digits in digit_counts(first_number, count):
        for a in range(run_start, run_stop, _SUB):
            b = min(a + _SUB, run_stop)
            done = _deals_at(out, at, masks[a:b], first_number + a, digits)
            if done is None:
                return None
            at = done
    return out[:at]


def _deals_at(out: np.ndarray, at: int, masks: np.ndarray, first_number: int,
              digits: int) -> int | None:
    """Write the deals (numbered from ``first_number``, numbers of ``digits``
    digits) from byte ``at``; where they end, or None."""
    _, _, lengths = _by_places()
    signed = np.ascontiguousarray(masks).view(np.int64)  # below 2**52: indexes with no cast
    # by suit row: North's, East's and South's holdings, and West's
    others = signed[None, :, :3] >> _ROW_SHIFTS[:, None, None]
    others &= 8191
    if (popcount(others) > 10).any():
        return None
    wests = signed[None, :, 3] >> _ROW_SHIFTS[:, None]
    wests &= 8191
    return _pieces_at(out, at, others, wests, lengths.take(wests), first_number, digits)


def _pieces_at(out: np.ndarray, at: int, others: np.ndarray, wests: np.ndarray,
               west_lengths: np.ndarray, first_number: int, digits: int) -> int:
    """Write deals given by suit row (``others``: ``(4, N, 3)`` North's,
    East's and South's holdings, none of more than ten cards; ``wests``:
    ``(4, N)`` West's, and ``west_lengths`` its cells' widths) from byte
    ``at``; where they end."""
    head = max(digits, 4) + 2  # "%4d." and the line end
    cells, west, _ = _by_places()
    count = others.shape[1]
    ends = np.empty((count, 5), np.int64)  # where the rows start, the deal ends
    ends[:, 0] = head
    np.add(west_lengths.T, 61, out=ends[:, 1:])
    ends[:, 4] += 1
    flat = ends.reshape(-1)
    np.cumsum(flat, out=flat)
    flat += at
    # each put one-dimensional, numpy's quickest way to put items; the
    # pieces come row by row (the places, taken so, are a small copy)
    slots_at(out, head)[ends[:, 0] - head] = _number_lines_from(first_number, count, digits)
    kinds = wests + _LAST_ROW  # the last row: and the blank line
    slots_at(out, _SLOT)[(ends[:, 1:].T - _SLOT).reshape(-1)] = west.take(kinds.reshape(-1))
    blocks = items(cells.take(others.reshape(-1, 3)).view(np.uint8).reshape(-1, 60))
    slots_at(out, 60)[ends[:, :4].T.reshape(-1)] = blocks
    return int(ends[-1, 4])


_LAST_ROW = np.array([[0], [0], [0], [8192]], np.int64)
_ROW_SHIFTS = np.array([39, 26, 13, 0], np.int64)  # a seat's mask: spades first
_NUMBER_LINES: list[np.ndarray] = []


def _four_digit_lines() -> np.ndarray:
    """By number 0-9999: its ``%4d.`` line (6-byte void items)."""
    if not _NUMBER_LINES:
        numbers = np.arange(10000)
        lines = np.empty((10000, 6), np.uint8)
        lines[:, :4] = four_digit_rows()
        lines[:, 4:] = (ord("."), 10)
        shown = np.ones(10000, np.int64)  # "%4d" of 0 is "   0"
        for power in (10, 100, 1000):
            shown += numbers >= power
        lines[:, :4][np.arange(4) < 4 - shown[:, None]] = 32
        _NUMBER_LINES.append(items(lines))
    return _NUMBER_LINES[0]


def _number_lines_from(first: int, count: int, digits: int) -> np.ndarray:
    """The number lines (void items of ``max(digits, 4) + 2`` bytes) of
    ``count`` numbers from ``first``, all of ``digits`` digits (consecutive
    numbers: slices of a table)."""
    if digits <= 4:
        return _four_digit_lines()[first:first + count]
    lines = np.empty((count, digits + 2), np.uint8)
    lines[:, digits:] = (ord("."), 10)
    put_consecutive(lines[:, :digits], first)
    return items(lines)


# -- reading by places ---------------------------------------------------------
# The writer's own text (the usual file: dealerpp's or dealer's printall of
# deals numbered 1 on) is read where the writer puts each piece: a deal's
# number line ends at its dot, its rows follow at places that West's suit
# lengths give, and North's, East's and South's cells are at fixed columns
# of a row. The deals read so are written again from the holdings read
# (_pieces_at, as printall_text writes them, with nothing taken apart from
# masks again) and the chunk's bytes compared with what that gives: the
# deals up to the first byte that differs are vouched for, each the very
# text the per-deal reader reads as that deal. No pattern or per-deal step
# is needed; a reading that went astray (a dot in a wrong place, a card
# twice) only gives a text that differs, and from there the records go the
# usual way.


def vouched_deals(data: bytes) -> tuple[np.ndarray, int] | None:
    """Masks of the deals from the chunk's start that the writer would
    write as they are there (their number lines counting on from the
    first), and the bytes they take; None for none. Read, written again
    and compared _SUB deals at a time: a check that stops at a deal has
    read and written little past it (the codec checks on after a few
    records read the usual way: lines.RecordLines.vouch_again)."""
    first = _first_number(data)
    arr = np.frombuffer(data, np.uint8)
    if first is None or len(arr) < 60:
        return None
    if not _HASHED:
        _HASHED.append(_hashed_table())
    masks = np.empty((len(arr) // 259 + 1, 4), np.uint64)  # a deal takes 259 bytes or more
    rows = slots_at(arr, 60)  # a row's 60 bytes from each place, one item each
    done, at = 0, 0  # deals vouched for, the bytes they take
    # a window of the chunk at a time, so that what is read, written
    # again and compared is still in the cache
    for window in range(0, len(arr), _WINDOW):
        starts = _dots(arr[window:window + _WINDOW]) + (window + 2)  # the first row, after ".\n"
        for a in range(0, len(starts), _SUB):
            read, ends = _rows_read(rows, starts[a:a + _SUB])
            whole = int(np.searchsorted(ends, len(arr), side="right"))
            passed, at, held = _same_text(arr, at, read, whole, first + done)
            masks[done:done + passed] = held[:passed]
            done += passed
            if passed < len(ends):
                return (masks[:done], at) if done else None
    return (masks[:done], at) if done else None


_WINDOW = 1 << 19  # bytes: about 1,900 deals


class _Rows(NamedTuple):
    """Deals read by places, by suit row (spades first), then deal: North's,
    East's and South's holdings ``(4, N, 3)``, West's ``(4, N)`` and its
    cells' widths."""

    others: np.ndarray
    wests: np.ndarray
    west_lengths: np.ndarray


def _same_text(arr: np.ndarray, at: int, read: _Rows, count: int,
               first: int) -> tuple[int, int, np.ndarray]:
    """How many of the first ``count`` deals read (numbered from ``first``),
    from the first, the writer writes as ``arr`` has them from byte ``at``;
    where they end; the masks of the deals read."""
    held = _masks_of(read, count)
    # each row's four cells hold its 13 cards (West's is the rest), so a
    # deal is complete when each hand has 13 (array.full_rows, less the union)
    full = (popcount(held) == 13).view(np.uint32)[:, 0] == _ALL_FOUR
    count = int(np.argmin(full)) if not full.all() else count
    if not count:
        return 0, at, held
    text = _rows_text(read, count, first)
    there = arr[at:at + len(text)]
    if len(there) == len(text) and np.array_equal(text, there):
        return count, at + len(text), held
    differ = np.flatnonzero(text[:len(there)] != there)
    place = int(differ[0]) if len(differ) else len(there)
    ends = _text_ends(held[:count], first)
    passed = int(np.searchsorted(ends, place, side="right"))
    return passed, at + (int(ends[passed - 1]) if passed else 0), held


_ALL_FOUR = np.frombuffer(bytes([1, 1, 1, 1]), np.uint32)[0]  # four True bytes


def _masks_of(read: _Rows, count: int) -> np.ndarray:
    """The N E S W masks of the first ``count`` deals read."""
    masks = np.empty((count, 4), np.int64)
    others, wests = read.others[:, :count], read.wests[:, :count]
    nes, west = masks[:, :3], masks[:, 3]
    np.left_shift(others[0], 39, out=nes)
    np.left_shift(wests[0], 39, out=west)
    for row, shift in ((1, 26), (2, 13)):
        nes |= others[row] << shift
        west |= wests[row] << shift
    nes |= others[3]
    west |= wests[3]
    return masks.view(np.uint64)


def _rows_text(read: _Rows, count: int, first: int) -> np.ndarray:
    """The writer's text of the first ``count`` deals read, numbered from
    ``first`` (a view of a buffer used again once let go)."""
    top = len(str(first + count))
    out = _BUFFERS.get(count * (max(top, 4) + 2 + 277))
    at = 0
    for run_start, run_stop, digits in digit_counts(first, count):
        part = slice(run_start, run_stop)
        at = _pieces_at(out, at, read.others[:, part], read.wests[:, part],
                        read.west_lengths[:, part], first + run_start, digits)
    return out[:at]


def _first_number(data: bytes) -> int | None:
    """The first line's number when it is a number line ``%4d.``."""
    end = data.find(b".\n", 0, 24)
    head = data[:end]
    if end < 4 or not head.lstrip(b" ").isdigit():
        return None
    number = int(head)
    return number if number >= 1 else None


def _text_ends(masks: np.ndarray, first: int) -> np.ndarray:
    """Where the text of each deal ends, written numbered from ``first``."""
    _, _, lengths = _by_places()
    numbers = np.arange(first, first + len(masks), dtype=np.int64)
    digits = np.ones(len(masks), np.int64)
    for power in range(1, len(str(first + len(masks)))):
        digits += numbers >= 10 ** power
    sizes = np.maximum(digits, 4) + 2 + 4 * 61 + 1
    sizes += lengths.take(suit_rows(masks)[:, :, 3]).sum(axis=1)
    ends: np.ndarray = np.cumsum(sizes)
    return ends


# A rank's bit, by a hash with no table: a cell's characters go in pairs, a
# rank and the blank after it, and the pair read as a little-endian uint16
# (rank + 0x2000), times 12339 (mod 2**16), over 2**12 is a different number
# 0-15 for each of the 13 ranks, 6 for two blanks and 13 for "- ";
# _HASHED maps the ranks' bits so made to the holding.
_HASH_MUL, _HASH_SHIFT = 12339, 12
_HASH_RANKS = [(((char | 0x2000) * _HASH_MUL) & 0xFFFF) >> _HASH_SHIFT for char in _RANKS]


def _hashed_table() -> np.ndarray:
    table = np.zeros(1 << 16, np.uint16)  # 128 KiB: stays in the cache
    for rank, bit in enumerate(_HASH_RANKS):
        held = (np.arange(1 << 16) >> bit) & 1
        table += (held << rank).astype(np.uint16)
    return table


_HASHED: list[np.ndarray] = []
_HASH_MASK = sum(1 << bit for bit in _HASH_RANKS)


def _dots(arr: np.ndarray) -> np.ndarray:
    """Where the dots are: the bytes compared one at a time, found eight at
    a time (a dot is one byte in 270 or more here; nonzero looks at each
    of the bytes it is given)."""
    size = len(arr)
    found = np.empty((size + 7) // 8 * 8, bool)
    found[size:] = False
    np.equal(arr, ord("."), out=found[:size])
    eights = found.view(np.uint64)
    words = np.flatnonzero(eights != 0)
    at = np.flatnonzero(eights[words].view(bool))  # a word's eight bytes in turn
    dots: np.ndarray = words[at >> 3] * 8 + (at & 7)
    return dots


def _rows_read(rows: np.ndarray, at: np.ndarray) -> tuple[_Rows, np.ndarray]:
    """Read the four rows of deals whose first starts at ``at``, row by row;
    where the deals end."""
    _, _, lengths = _by_places()
    last = len(rows) - 1
    count = len(at)
    others = np.empty((4, count, 3), np.int64)
    wests = np.empty((4, count), np.int64)
    west_lengths = np.empty((4, count), np.int64)
    for row in range(4):
        at = np.minimum(at, last)  # past the end: garbage, the end ends it
        cells = others[row]
        _row_holdings(rows[at].view(np.uint8), cells)
        west = wests[row]
        np.bitwise_or(cells[:, 0], cells[:, 1], out=west)
        west |= cells[:, 2]
        west ^= 8191
        # "clip" (West has 13 bits: nothing is clipped) puts straight into
        # ``out``, where "raise" takes into a buffer and copies it there
        lengths.take(west, out=west_lengths[row], mode="clip")
        at = at + west_lengths[row]
        at += 61
    at += 1
    return _Rows(others, wests, west_lengths), at


def _row_holdings(text: np.ndarray, out: np.ndarray) -> None:
    """Put in ``out`` (``(N, 3)``) the holdings of the three 20-byte cells
    starting each 60-byte row of ``text`` (its bytes one after another):
    the bits of the pairs of characters of a cell (a rank and a blank
    where the writer puts one, anything else where it does not: the text
    written again tells). The pairs are laid out a column a row (``(10,
    N, 3)``), so each OR runs over contiguous rows."""
    codes = np.empty((10, len(text) // 60, 3), np.uint16)
    codes[...] = text.view("<u2").reshape(-1, 3, 10).transpose(2, 0, 1)
    codes *= np.uint16(_HASH_MUL)
    codes >>= np.uint16(_HASH_SHIFT)
    bits = np.left_shift(np.uint16(1), codes)
    held = np.bitwise_or.reduce(bits, axis=0)
    held &= np.uint16(_HASH_MASK)
    out[...] = _HASHED[0].take(held)


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


_NUMBER = 21  # a number line as _number_lines makes it


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
