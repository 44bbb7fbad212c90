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

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from dealerpp.deals.bulk.array import FULL, DealArray, full_rows, holding_text, popcount
from dealerpp.deals.bulk.blocks import OUTPUT_BYTES, byte_view
from dealerpp.deals.bulk.lines import Decoded, RecordLines, gather
from dealerpp.deals.bulk.places import (
    Buffers,
    digit_counts,
    digit_rows,
    put_consecutive,
    rows_at,
    rows_from,
)

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


def _meta_table() -> np.ndarray:
    """By (board - 1) % 16: ``D/VUL`` padded with zero bytes to 5."""
    table = np.zeros((16, 5), np.uint8)
    for cycle in range(16):
        text = b"NESW"[_CYCLE_DEALER[cycle]:][:1] + b"/" + _VUL_TEXT[_CYCLE_VUL[cycle]]
        table[cycle, :len(text)] = np.frombuffer(text, np.uint8)
    return table


_META = _meta_table()


def csv_lines(masks: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """The lines (their line ends included) of full deals of these boards,
    dealer and vulnerability by the cycle, as one byte array (a view of a
    buffer used again once let go)."""
    count = len(masks)
    out = _BUFFERS.get(count * (_HEAD + 19 + _TAIL))
    at = 0
    for a in range(0, count, _SUB):
        at = _lines_at(out, at, masks[a:a + _SUB], boards[a:a + _SUB])
    return out[:at]


# -- writing by places (dealerpp.deals.bulk.places) ---------------------------
# A line is 101 bytes at fixed places (the opening quote, four hands of 22
# bytes: 13 ranks and three '","', each followed by '","'), then the board's
# digits and '","D/VUL"' with the line end. The board, its separator, the
# dealer and vulnerability are a row: the digits right-aligned in front
# (the padding falls on the 101 bytes before), the rest left-aligned (its
# padding on the next line's 101 bytes); the 101-byte heads come after.
_HEAD = 101
_TAIL = 10  # '","', dealer and vulnerability (5 at most), '"' and the line end
_SUB = 2048  # lines a pass: the temporaries stay small and in cache
_BUFFERS = Buffers()
_U = np.uint64


def _tail_table() -> np.ndarray:
    """By (board - 1) % 16: what follows the board's digits, zero bytes after."""
    table = np.zeros((16, _TAIL), np.uint8)
    for cycle, meta in enumerate(_META):
        text = b'","' + bytes(meta[meta != 0]) + b'"\n'
        table[cycle, :len(text)] = np.frombuffer(text, np.uint8)
    return table


_TAILS = _tail_table()
_TAIL_LENGTHS = (_TAILS != 0).sum(axis=1).astype(np.int64)


def _lines_at(out: np.ndarray, at: int, masks: np.ndarray, boards: np.ndarray) -> int:
    """Write the lines from byte ``at``; where they end."""
    digits = np.ones(len(boards), np.int64)
    top = len(str(int(boards.max())))
    for power in range(1, top):
        digits += boards >= 10 ** power
    cycle = (boards - 1) % 16
    ends = np.cumsum(_HEAD + digits + _TAIL_LENGTHS.take(cycle)) + at
    starts = ends - (_HEAD + digits + _TAIL_LENGTHS.take(cycle))
    tails = np.empty((len(boards), top + _TAIL), np.uint8)
    tails[:, :top] = digit_rows(boards, top)  # right-aligned: the padding goes before
    tails[:, top:] = _TAILS.take(cycle, axis=0)
    rows_at(out, top + _TAIL)[starts + _HEAD + digits - top] = tails
    heads = np.empty((len(boards), _HEAD + 3), np.uint8)
    heads[:, 0] = ord('"')
    hands = _hands(masks).reshape(-1, 4, 24)
    np.lib.stride_tricks.as_strided(heads[:, 1:], (len(boards), 4, 25), (_HEAD + 3, 25, 1))[
        :, :, :22] = hands[:, :, :22]
    heads[:, 23:_HEAD:25] = ord('"')
    heads[:, 24:_HEAD:25] = ord(",")
    heads[:, 25:_HEAD + 1:25] = ord('"')
    rows_at(out, _HEAD)[starts] = heads[:, :_HEAD]
    return int(ends[-1]) if len(ends) else at


def _hand_tables() -> tuple[np.ndarray, ...]:
    """By 13-bit holding, as 128-bit numbers (two uint64 columns each): a
    suit's ranks and '","' (spades, hearts; diamonds placed to end at byte
    16); the clubs' ranks placed to end at byte 16; the bits the spades
    and '","' take; the bits the clubs take."""
    if not _HAND_TABLES:
        text, lengths = holding_text(lambda rank: _RANKS[rank:rank + 1], 16)
        with_comma = text.copy()
        for offset, byte in enumerate(b'","'):
            with_comma[np.arange(8192), lengths + offset] = byte
        words = with_comma.view("<u8").astype(np.uint64)
        lo, hi = np.ascontiguousarray(words[:, 0]), np.ascontiguousarray(words[:, 1])
        width = (lengths + 3).astype(np.uint64) * _U(8)
        d_lo, d_hi = _left(lo, hi, _U(128) - width)
        clubs = text.view("<u8").astype(np.uint64)
        c_bits = lengths.astype(np.uint64) * _U(8)
        c_lo, c_hi = _left(np.ascontiguousarray(clubs[:, 0]), np.ascontiguousarray(clubs[:, 1]),
                           _U(128) - c_bits)
        _HAND_TABLES.extend(np.ascontiguousarray(table) for table in (
            lo, hi, d_lo, d_hi, c_lo, c_hi, width, c_bits))
    return tuple(_HAND_TABLES)


_HAND_TABLES: list[np.ndarray] = []


# 128-bit numbers hi:lo shifted by ``bits`` (0-128). numpy gives 0 for a
# shift of 64 bits or more, and ``64 - bits`` past 64 wraps round to such a
# shift: no select is needed.
def _left(lo: np.ndarray, hi: np.ndarray, bits: Any) -> tuple[np.ndarray, np.ndarray]:
    return lo << bits, (hi << bits) | (lo >> (_U(64) - bits)) | (lo << (bits - _U(64)))


def _right(lo: np.ndarray, hi: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (lo >> bits) | (hi << (_U(64) - bits)) | (hi >> (bits - _U(64))), hi >> bits


def _hands(masks: np.ndarray) -> np.ndarray:
    """Each hand (N E S W) of full deals as its 22 bytes and 2 zero bytes
    (``(N * 4, 24)``): spades and '","' from byte 0, hearts and '","' after
    them (at most 19 bytes: a 192-bit number), diamonds, '","' and clubs
    ending at byte 22 (at most 16: a 128-bit number ending at byte 16,
    moved 6 bytes on). Only the hearts and the diamonds are shifted by a
    length."""
    lo, hi, d_lo, d_hi, c_lo, c_hi, width, c_bits = _hand_tables()
    hands = np.ascontiguousarray(masks, np.uint64).reshape(-1).view(np.int64)
    spades, hearts = hands >> 39, (hands >> 26) & 8191
    diamonds, clubs = (hands >> 13) & 8191, hands & 8191
    out = np.empty((len(hands), 3), "<u8")
    _left192(lo.take(hearts), hi.take(hearts), width.take(spades), out)
    right_lo, right_hi = _right(d_lo.take(diamonds), d_hi.take(diamonds), c_bits.take(clubs))
    right_lo |= c_lo.take(clubs)
    right_hi |= c_hi.take(clubs)
    out[:, 0] |= lo.take(spades) | (right_lo << _U(48))
    out[:, 1] |= hi.take(spades) | (right_lo >> _U(16)) | (right_hi << _U(48))
    out[:, 2] |= right_hi >> _U(16)
    return out.view(np.uint8)


def _left192(lo: np.ndarray, hi: np.ndarray, bits: np.ndarray, out: np.ndarray) -> None:
    """The 128-bit numbers hi:lo shifted left by ``bits`` (at most 128) into
    192-bit rows of ``out`` (three words). As in ``_left``, a shift past 63
    and a wrapped-round one give 0."""
    np.left_shift(lo, bits, out=out[:, 0])
    np.bitwise_or(hi << bits, lo >> (_U(64) - bits), out=out[:, 1])
    out[:, 1] |= lo << (bits - _U(64))
    np.bitwise_or(hi >> (_U(64) - bits), hi << (bits - _U(64)), out=out[:, 2])
    out[:, 2] |= (lo >> (_U(128) - bits)) | (lo << (bits - _U(128)))


class CsvCodec(RecordLines):
    """A line a board: 16 holdings, the board, ``dealer/vulnerability``."""

    name = "csv"
    write_rows = OUTPUT_BYTES // 116  # its output, 116 bytes a deal

    def __init__(self) -> None:
        self._first: int | None = None  # the output's first board (a deal without one)

    def vouched(self, data: bytes, final: bool) -> tuple[DealArray, int, int] | None:
        """The lines from the chunk's start that are, byte for byte, what the
        writer writes for them, boards numbered on from the first line's
        (:func:`vouched_lines`)."""
        found = vouched_lines(data)
        if found is None:
            return None
        masks, boards, size = found
        return DealArray(masks, boards=boards), size, len(masks)

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


# -- reading by places ---------------------------------------------------------
# The writer's own lines (boards counting on, the usual file) are read where
# the writer puts each piece: a line's first 101 bytes are an opening quote
# and four hands of 22 bytes (13 ranks and three '","') each followed by
# '","', a character's suit the quotes before it in its hand; then the
# board's digits and '","D/VUL"' with the line end. North's, East's and
# South's hands are read; West holds the other cards. The lines are taken
# where the writer's would be (their lengths follow from the boards, so no
# byte is searched for a line end), and each is checked against what the
# writer writes for that deal and board, a piece at a time where it stands
# (the four hands as the encoder makes them, the quotes around them, the
# board and what follows it, the line end included): the lines up to the
# first that differs by a byte are vouched for, each the very text the
# per-deal reader reads as that deal and board. A reading that went astray
# only gives a text that differs.
_READ_SUB = 8192  # lines a pass: the temporaries stay small and in cache
_HANDS_AT = np.arange(1, _HEAD, 25)  # where each hand starts in its line
# '",' after a hand's 22 bytes, in its last word
_COMMA_QUOTE = _U(0x2C22 << 48)
# the tails and their lengths of boards on from each place in the cycle
_TAILS_ON = np.tile(_TAILS, (_READ_SUB // 16 + 2, 1))
_TAIL_LENGTHS_ON = np.tile(_TAIL_LENGTHS, _READ_SUB // 16 + 2)


def vouched_lines(data: bytes) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Masks and boards of the lines from the chunk's start that the writer
    would write as they are there (boards counting on from the first
    line's), and the bytes they take; None for none."""
    first = _first_board(data)
    if first is None or sys.byteorder != "little":  # the SWAR count needs byte 0 lowest
        return None
    arr = np.frombuffer(data, np.uint8)
    parts = []
    count = size = 0
    while True:
        # where the writer's lines would end, all that the chunk holds whole
        lengths = _line_lengths(first + count, _READ_SUB)
        ends = np.cumsum(lengths) + size
        ends = ends[:np.searchsorted(ends, len(arr), side="right")]
        if not len(ends):
            break
        masks, same = _checked(arr, ends - lengths[:len(ends)], first + count)  # (4, n)
        good = len(same) if same.all() else int(np.argmin(same))
        parts.append(masks[:, :good])
        count += good
        size = int(ends[good - 1]) if good else size
        if good < len(same) or len(ends) < _READ_SUB:
            break
    if not count:
        return None
    masks = np.concatenate(parts, axis=1).T.copy()  # (N, 4)
    return masks, np.arange(first, first + count, dtype=np.int64), size


def _line_lengths(first: int, count: int) -> np.ndarray:
    """The lengths of the writer's lines of boards ``first`` on."""
    lengths = np.empty(count, np.int64)
    for begin, stop, digits in digit_counts(first, count):
        cycle = (first + begin - 1) % 16
        lengths[begin:stop] = _TAIL_LENGTHS_ON[cycle:cycle + stop - begin] + (_HEAD + digits)
    return lengths


def _checked(arr: np.ndarray, starts: np.ndarray, first: int) -> tuple[np.ndarray, np.ndarray]:
    """The masks read from the lines at ``starts`` (as long as the writer's
    lines of boards ``first`` on, each inside the chunk), by hand then
    line, and whether each is, byte for byte, the writer's line of its
    deal and board."""
    # each hand's 22 bytes and the '",' after them, by hand (N E S W) then line
    chars = rows_from(arr, starts + _HANDS_AT[:, None], 24)
    masks = _read_hands(chars[:3].reshape(-1, 24))
    counts = popcount(masks)  # 13 cards a hand, none past the deck: a full deal
    same = ((masks[0] | masks[1] | masks[2]) & ~FULL) == 0
    for hand in range(4):
        same &= counts[hand] == 13
    written = _hands(masks & FULL).view("<u8").reshape(4, -1, 3)
    written[:, :, 2] |= _COMMA_QUOTE
    differ = chars.view("<u8") ^ written  # zero where the two agree
    differ = differ[0] | differ[1] | differ[2] | differ[3]
    same &= (differ[:, 0] | differ[:, 1] | differ[:, 2]) == 0
    for column in range(0, _HEAD, 25):  # the quotes before, between and after the hands
        same &= arr[starts + column] == ord('"')
    same &= _tails_same(arr, starts, first)
    return masks, same


def _tails_same(arr: np.ndarray, starts: np.ndarray, first: int) -> np.ndarray:
    """Whether each line's bytes after the head (board ``first`` on, its
    separator, dealer, vulnerability, quote and line end) are the
    writer's: a run of boards of one width at a time."""
    same = np.empty(len(starts), bool)
    for begin, stop, digits in digit_counts(first, len(starts)):
        cycle = (first + begin - 1) % 16
        width = digits + _TAIL
        rows = np.zeros((stop - begin, -(-width // 8) * 8), np.uint8)
        put_consecutive(rows[:, :digits], first + begin)
        rows[:, digits:width] = _TAILS_ON[cycle:cycle + stop - begin]
        found = _rows_padded(arr, starts[begin:stop] + _HEAD, rows.shape[1])
        # the bytes past the line end (zero in ``rows``) are the next line's
        differ = ((found != rows) & (rows != 0)).view("<u8")
        same[begin:stop] = differ[:, 0] == 0
        for column in range(1, differ.shape[1]):
            same[begin:stop] &= differ[:, column] == 0
    return same


def _rows_padded(arr: np.ndarray, at: np.ndarray, width: int) -> np.ndarray:
    """:func:`rows_from`, zero bytes past the chunk's end."""
    inside = at + width <= len(arr)
    if inside.all():
        return rows_from(arr, at, width)
    rows = np.zeros((len(at), width), np.uint8)
    rows[inside] = rows_from(arr, at[inside], width)
    lo = int(at[~inside].min())
    padded = np.concatenate((arr[lo:], np.zeros(width, np.uint8)))
    rows[~inside] = rows_from(padded, at[~inside] - lo, width)
    return rows


def _first_board(data: bytes) -> int | None:
    """The first line's board when it looks like the writer's."""
    end = data.find(b"\n", 0, 256)
    fields = data[:end].split(b'","')
    if end < 0 or len(fields) != 18 or not fields[16].isdigit() or len(fields[16]) > _MAX_DIGITS:
        return None
    board = int(fields[16])
    return board if board >= 1 else None


# A rank character's code, by a hash with no table: (c * 10 mod 256) >> 3
# is a different number 0-31 for each of the 13 ranks, and for a quote and
# a comma one that is no rank's. With the quotes before it in its hand
# (its suit) a character is a 7-bit code; two codes as a uint16 index a
# table of the two cards' bits added (as blocks.hand_sums does).
_HASH_RANKS = [((char * 10) & 255) >> 3 for char in _RANKS]


def _pair_table() -> np.ndarray:
    card = np.zeros(128, np.uint64)
    for suit in range(4):
        for rank, code in enumerate(_HASH_RANKS):
            card[32 * suit + code] = np.uint64(1) << np.uint64(13 * (3 - suit) + rank)
    pairs = card[:, None] + card[None, :]  # [low byte, high byte]
    table = np.zeros(1 << 16, np.uint64)  # any two bytes (garbage: a code past 127)
    table.reshape(256, 256)[:128, :128] = pairs.T  # index: low + 256 * high
    return table


_PAIRS: list[np.ndarray] = []
_ONES = np.uint64(0x0101010101010101)
_HIGH_NIBBLES = np.uint64(0xF0F0F0F0F0F0F0F0)


def _read_hands(chars: np.ndarray) -> np.ndarray:
    """``(4, N)`` masks (N E S W) of the deals whose North, East and South
    hands are ``chars`` (24 bytes a row, by hand then deal: where the writer
    puts a hand's 22 bytes and the '",' after them; garbage where it did
    not); West holds the other cards."""
    if not _PAIRS:
        _PAIRS.append(_pair_table())
    # the quotes up to each byte (SWAR: 8 bytes of 0/1 times 0x0101..01
    # leave in byte k the sum of bytes 0..k; each word adds the last's)
    words = (chars == ord('"')).view(np.uint64) * _ONES
    words[:, 1] += (words[:, 0] >> _U(56)) * _ONES
    words[:, 2] += (words[:, 1] >> _U(56)) * _ONES
    codes = chars * np.uint8(10)
    codes >>= np.uint8(3)
    # twice the suit (32 * suit) in each byte's top bits: four bits left as
    # a word (a uint8 shift is a loop a byte), keeping each byte's own
    codes |= ((words << _U(4)) & _HIGH_NIBBLES).view(np.uint8)
    # two codes a uint16, looked up; summed over the transposed axis
    masks = np.empty((4, len(chars) // 3), np.uint64)
    np.add.reduce(_PAIRS[0].take(codes.view(np.uint16).T), axis=0, out=masks[:3].reshape(-1))
    masks[3] = FULL & ~(masks[0] | masks[1] | masks[2])
    return masks


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
