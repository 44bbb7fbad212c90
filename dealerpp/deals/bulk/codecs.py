"""Vectorised codecs for full 52-card deals in fixed-width records.

Every codec works on a *block*: bytes holding N records of one width (text
lines include their line end). ``decode`` returns a :class:`DealArray` for
all N rows plus a boolean ``ok`` column (``None`` when every row passed);
rows that fail any check hold garbage and must go through the per-deal
reader, which either accepts them (its rules are wider: lower case,
odd spacing) or reports the error it owns. ``encode`` takes full deals only.

Decoding text, the idea: in a full deal each hand is exactly 16 characters
(13 ranks + 3 dots) at a fixed column, so a block is a 3-D grid
``(N, 4 hands, 16)``. ``bytes.translate`` maps characters to small codes at
memory speed; a SWAR multiply gives the dot count before each character
(its suit); each card becomes its bit, looked up in a table, and a hand is
the sum of its 16 characters' bits. Encoding looks each suit's text up by
its 13-bit holding and shifts the four into a 16-byte hand. No sort: the
speed does not hang on the CPU's vector sort (it did, by 3x).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from dealerpp.deals import formats
from dealerpp.deals.bulk.array import DealArray, full_rows, holding_text, popcount
from dealerpp.deals.bulk.hooks import LineHooks
from dealerpp.deals.bulk.pbn import PAIR, PbnHooks

_LITTLE = sys.byteorder == "little"
_BYTE_ONES = np.uint64(0x0101010101010101)
_NL, _CR = 10, 13
RANKS = b"23456789TJQKA"


class _Checks:
    """Per-row validity, computed lazily: a whole-block ``all()`` is cheap,
    the per-row reduction only runs when something failed. Sub-blocks may
    report from several threads."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.ok: np.ndarray | None = None
        self._lock = threading.Lock()

    def add(self, condition: np.ndarray, offset: int = 0) -> None:
        """``condition``: one row per record, starting at record ``offset``."""
        if condition.all():
            return
        count = len(condition)
        per_row = condition.reshape(count, -1).all(axis=1)
        with self._lock:
            if self.ok is None:
                self.ok = np.ones(self.rows, bool)
            self.ok[offset:offset + count] &= per_row


SUB_ROWS = 8192  # rows per pass: the temporaries stay in the CPU cache


def _threads() -> int:
    """numpy releases the GIL in ufuncs: use the cores there are."""
    return max(1, min(4, os.cpu_count() or 1))


def _each_sub_block(rows: int, work: Callable[[int, int], None]) -> None:
    """Run ``work(a, b)`` over row ranges of SUB_ROWS, on helper threads too
    when there is more than one range (each range writes its own rows).
    Plain threads: concurrent.futures would cost more to import than a
    small conversion takes."""
    blocks = [(a, min(a + SUB_ROWS, rows)) for a in range(0, rows, SUB_ROWS)]
    helpers = min(_threads(), len(blocks)) - 1
    if helpers <= 0:
        for a, b in blocks:
            work(a, b)
        return
    todo = iter(blocks)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def run() -> None:
        while not errors:
            with lock:
                block = next(todo, None)
            if block is None:
                return
            try:
                work(*block)
            except BaseException as error:  # re-raised in the calling thread
                errors.append(error)

    threads = [threading.Thread(target=run, daemon=True) for _ in range(helpers)]
    for thread in threads:
        thread.start()
    run()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def _grid(block: bytes | memoryview, width: int) -> np.ndarray:
    return np.frombuffer(block, np.uint8).reshape(-1, width)


def _translated(block: bytes | memoryview, table: bytes, width: int) -> np.ndarray:
    """The block through a byte table (``bytes.translate`` runs at memory speed)."""
    data = block if isinstance(block, bytes) else bytes(block)
    return _grid(data.translate(table), width)


def content_width(width: int, contents: Sequence[int]) -> tuple[int, bool]:
    """The record width without line end, and whether the end is CR LF."""
    if width - 1 in contents:
        return width - 1, False
    return width - 2, True


def _check_line_end(checks: _Checks, raw: np.ndarray, content: int, crlf: bool) -> None:
    """The record ends in LF (or CR LF). Records are cut at LFs, but the last
    line of a file may have none: its last character is then anything."""
    checks.add(raw[:, -1] == _NL)
    if crlf:
        checks.add(raw[:, content] == _CR)


def _records(block: bytes | memoryview, width: int, contents: Sequence[int]
             ) -> tuple[int, np.ndarray, _Checks]:
    """A block of text records of one width: the record width without line end
    (one of ``contents``), the block as a grid, and its checks, the line
    ends checked already."""
    content, crlf = content_width(width, contents)
    raw = _grid(block, width)
    checks = _Checks(len(raw))
    _check_line_end(checks, raw, content, crlf)
    return content, raw, checks


# -- .deals ----------------------------------------------------------------------

class DealsCodec:
    """.deals: 32 bytes a deal, four little-endian u64 masks N E S W."""

    name = "deals"
    record = 32

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]:
        masks = np.frombuffer(block, "<u8").reshape(-1, 4).astype(np.uint64, copy=False)
        counts = popcount(masks)
        union = masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3]
        if (counts == 13).all() and (union == _FULL).all():  # whole-array checks first
            return DealArray(masks), None
        return DealArray(masks), full_rows(masks)

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        return _bytes(np.ascontiguousarray(deals.masks.astype("<u8", copy=False)))


# -- 26-hex ----------------------------------------------------------------------

def _hex_table() -> bytes:
    table = bytearray([0x80] * 256)
    for value, char in enumerate(b"0123456789ABCDEF"):
        table[char] = value
        table[bytes([char]).lower()[0]] = value
    table[ord("-")] = 0x40
    return bytes(table)


class Hex26Codec(LineHooks):
    """26 hex digits: per rank A..2 one byte S | H<<2 | D<<4 | C<<6, seat
    codes 0 S, 1 W, 2 N, 3 E (= our seat XOR 2), low nibble first; ``-D``
    optional."""

    name = "hex"
    contents = (26, 28)
    _table = _hex_table()

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, raw, checks = _records(block, width, self.contents)
        boards = None
        if content == 28:
            checks.add(raw[:, 26] == ord("-"))
            digits = np.frombuffer(bytes(raw[:, 27]).translate(self._table), np.uint8)
            checks.add(digits < 16)
            boards = np.where(digits == 0, 16, digits).astype(np.int64)  # "-0": board 16
        masks = np.empty((len(raw), 4), np.uint64)

        def work(a: int, b: int) -> None:
            digits = _translated(block[a * width:b * width], self._table, width)
            checks.add(digits[:, :26] < 16, a)  # 0-9 A-F a-f
            low, high = digits[:, 0:26:2], digits[:, 1:26:2]  # (n, 13), ranks A..2
            # the 2-bit codes by card (reversed columns: the two first)
            code = np.zeros((b - a, 64), np.uint8)
            code[:, 0:13] = (high >> 2)[:, ::-1]
            code[:, 13:26] = (high & 3)[:, ::-1]
            code[:, 26:39] = (low >> 2)[:, ::-1]
            code[:, 39:52] = (low & 3)[:, ::-1]
            bit0 = np.packbits(code & 1, axis=1, bitorder="little").view("<u8")[:, 0]
            code &= 2
            bit1 = np.packbits(code, axis=1, bitorder="little").view("<u8")[:, 0]
            # code = seat XOR 2: N 2, E 3, S 0, W 1
            part = masks[a:b]
            part[:, 0] = bit1 & ~bit0 & _FULL
            part[:, 1] = bit1 & bit0 & _FULL
            part[:, 2] = ~(bit1 | bit0) & _FULL
            part[:, 3] = bit0 & ~bit1 & _FULL
            checks.add(popcount(part) == 13, a)

        _each_sub_block(len(raw), work)
        return DealArray(masks, boards=boards), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        width = 27 if deals.boards is None else 29
        out = _rows(len(deals), b"0" * 26 + (b"-0\n" if deals.boards is not None else b"\n"))
        masks = deals.masks

        def work(a: int, b: int) -> None:
            part = masks[a:b]
            # hex seat code = our seat XOR 2: bit 0 set for E and W, bit 1 for N and E
            planes = np.empty((b - a, 2), "<u8")
            planes[:, 0] = part[:, 1] | part[:, 3]
            planes[:, 1] = part[:, 0] | part[:, 1]
            bits = np.unpackbits(planes.view(np.uint8), axis=1, bitorder="little")
            code = bits[:, 64:116] << 1
            code |= bits[:, :52]
            # columns reversed: ace first; spades | hearts << 2, diamonds | clubs << 2
            low = code[:, 51:38:-1] | (code[:, 38:25:-1] << 2)
            high = code[:, 25:12:-1] | (code[:, 12::-1] << 2)
            out[a:b, 0:26:2] = _hex_digits(low)
            out[a:b, 1:26:2] = _hex_digits(high)

        _each_sub_block(len(deals), work)
        if deals.boards is not None:
            out[:, width - 2] = _hex_digits((deals.boards % 16).astype(np.uint8))
        return _bytes(out)


def _hex_digits(values: np.ndarray) -> np.ndarray:
    """0-15 -> ASCII '0'-'9', 'A'-'F'."""
    digits: np.ndarray = values + np.where(values > 9, np.uint8(55), np.uint8(48))
    return digits


# -- hands as text: giblib, PBN deal strings, printoneline ------------------------

_DOT = 64  # >> 6 gives 1: a dot weighs 1 in a hand's count of dots
_BAD = 128  # >> 6 gives 2: a bad character weighs 2, so it never passes for a dot
_FULL = np.uint64((1 << 52) - 1)


def _card_table(lower: bool) -> bytes:
    """Rank character -> 4 * rank (0 for the two .. 48 for the ace),
    '.' -> 64, anything else -> 128."""
    table = bytearray([_BAD] * 256)
    for rank, char in enumerate(RANKS):
        table[char] = 4 * rank
        if lower:
            table[bytes([char]).lower()[0]] = 4 * rank
    table[ord(".")] = _DOT
    return bytes(table)


def _dot_prefix(dots: np.ndarray) -> np.ndarray:
    """Inclusive running count of dots along each 16-character hand.

    SWAR: multiplying 8 bytes of 0/1 by 0x0101..01 leaves in byte k the sum
    of bytes 0..k; the second word adds the first word's total."""
    if not _LITTLE:  # pragma: no cover - the trick needs byte 0 lowest
        sums: np.ndarray = np.cumsum(dots, axis=2, dtype=np.uint8)
        return sums
    words = np.ascontiguousarray(dots).view(np.uint64) * _BYTE_ONES  # (N, 4, 2)
    words[..., 1] += (words[..., 0] >> np.uint64(56)) * _BYTE_ONES
    prefix: np.ndarray = words.view(np.uint8).reshape(dots.shape)
    return prefix


class HandsLayout:
    """Four 16-character hands at equally spaced columns of a record.

    ``starts``: column of each hand; ``first``: the seat of the first hand
    (the others follow clockwise); ``fixed``: (column, allowed bytes) that
    must match when decoding. Encoding fills the hands into rows whose
    other columns the codec has already written.
    """

    def __init__(self, starts: Sequence[int], first: int, fixed: Sequence[tuple[int, bytes]],
                 lower: bool = True) -> None:
        self.starts = tuple(starts)
        self.first = first
        self.fixed = tuple(fixed)
        self.fixed_runs = _runs(fixed)
        self.table = _card_table(lower)

    # -- decoding -----------------------------------------------------------
    def decode_rows(self, block: bytes | memoryview, width: int, checks: _Checks,
                    first: np.ndarray | int | None = None) -> np.ndarray:
        """Masks of every row; failures are recorded in ``checks``."""
        raw = _grid(block, width)
        masks = np.empty((len(raw), 4), np.uint64)
        step = self.starts[1] - self.starts[0]
        if first is not None and not isinstance(first, int) and len(first) \
                and first[0, 0] < 4 and (first == first[0]).all():
            first = int(first[0, 0])  # one first seat for the block (the usual "N:")

        def work(a: int, b: int) -> None:
            for column, expected in self.fixed_runs:
                checks.add(raw[a:b, column:column + len(expected)] == expected, a)
            codes = _translated(block[a * width:b * width], self.table, width)
            # the four hands as an (n, 4, 16) view: equally spaced columns
            hands = np.lib.stride_tricks.as_strided(
                codes[:, self.starts[0]:], (b - a, 4, 16), (width, step, 1), writeable=False)
            offset = first if first is None or isinstance(first, int) else first[a:b]
            masks[a:b] = self._masks(hands, checks, a, self.first if offset is None else offset)

        _each_sub_block(len(raw), work)
        return masks

    def _masks(self, hands: np.ndarray, checks: _Checks, row: int,
               first: np.ndarray | int) -> np.ndarray:
        # 0 for a rank, 1 for a dot, 2 for a bad character
        dots = hands >> 6
        checks.add(dots < 2, row)  # no bad character
        suits = _dot_prefix(dots)  # dots up to here: 0 spades .. 3 clubs
        checks.add(suits[:, :, 15] == 3, row)  # so 13 ranks a hand
        # card = 13 * (3 - suit) + rank; a dot or a bad character 254 or 255,
        # whose bit is 0 (uint8 arithmetic: any byte is a row of the table)
        card = np.uint8(39) - suits * np.uint8(13)
        card += hands >> 2
        card |= np.uint8(0) - dots
        # A hand is the sum of its cards' bits. The 52 ranks' bits add up to
        # the full deal only when no card is there twice (a sum of 52 powers
        # of two has 52 bits set only without a carry), so a sum that is
        # FULL proves every card once.
        sums = _CARD_BITS[card].sum(axis=2, dtype=np.uint64)
        checks.add(sums.sum(axis=1, dtype=np.uint64) == _FULL, row)
        if isinstance(first, int):
            order = [(seat - first) % 4 for seat in range(4)]
            masks: np.ndarray = sums[:, order]
            return masks
        columns = (np.arange(4) - first[:, 0, None]) % 4  # the first seat of each row (PBN "F:")
        masks = np.take_along_axis(sums, columns, axis=1)
        return masks

    # -- encoding -----------------------------------------------------------
    def fill(self, masks: np.ndarray, out: np.ndarray) -> None:
        """Write the hands of full deals into their columns of ``out``."""
        order = [(self.first + place) % 4 for place in range(4)]  # the seat of each place
        step = self.starts[1] - self.starts[0]

        def work(a: int, b: int) -> None:
            part = masks[a:b][:, order]
            hands = hand_texts(part.reshape(-1)).reshape(b - a, 4, 16)
            target = np.lib.stride_tricks.as_strided(
                out[a:, self.starts[0]:], (b - a, 4, 16), (out.strides[0], step, 1))
            target[:] = hands

        _each_sub_block(len(masks), work)


# the bit of each card number, 0 for any byte past 51 (a dot, a bad character)
_CARD_BITS = np.array([1 << i if i < 52 else 0 for i in range(256)], np.uint64)


def _holding_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each 13-bit holding: its ranks (ace first) as a little-endian
    128-bit number in two words, and its length. Made a rank at a time over
    all holdings (``holding_text``)."""
    text, lengths = holding_text(lambda rank: RANKS[rank:rank + 1], 16)
    words = text.view("<u8").astype(np.uint64)
    return (np.ascontiguousarray(words[:, 0]), np.ascontiguousarray(words[:, 1]),
            lengths.astype(np.uint64))


_TABLES: tuple[np.ndarray, ...] = ()
_SUFFIXED: dict[int, tuple[np.ndarray, np.ndarray]] = {}
_U = np.uint64


def _tables() -> tuple[np.ndarray, ...]:
    global _TABLES
    if not _TABLES:
        _TABLES = _holding_tables()
    return _TABLES


def _suffixed(separator: int) -> tuple[np.ndarray, np.ndarray]:
    """The holding tables with ``separator`` after each holding's ranks."""
    found = _SUFFIXED.get(separator)
    if found is None:
        low, high, lengths = _tables()
        bits = lengths * _U(8)
        small = bits < _U(64)
        sep = _U(separator)
        low_sep = low | np.where(small, sep << np.where(small, bits, _U(0)), _U(0))
        high_sep = high | np.where(small, _U(0), sep << np.where(small, _U(0), bits - _U(64)))
        found = _SUFFIXED[separator] = (low_sep, high_sep)
    return found


def hand_texts(masks: np.ndarray, separators: bytes = b"...") -> np.ndarray:
    """``S.H.D.C`` of full hands (13 cards: 16 characters) as ``(N, 16)``
    bytes, without a sort: each suit's text is a table row (its 13-bit
    holding the index), shifted into place as a 128-bit number.
    ``separators``: the bytes after spades, hearts and diamonds (LIN
    writes ``HDC`` where PBN has dots)."""
    low, high, lengths = _tables()
    thirteen = _U(8191)
    holdings = [(masks >> _U(13 * suit)) & thirteen for suit in (3, 2, 1, 0)]
    spades = holdings[0]
    low_sep, high_sep = _suffixed(separators[0])
    lo, hi = low_sep[spades], high_sep[spades]
    offset = lengths[spades] + _U(1)
    for index, holding in enumerate(holdings[1:], 1):
        last = index == 3
        table_lo, table_hi = (low, high) if last else _suffixed(separators[index])
        part_lo, part_hi = _shifted(table_lo[holding], table_hi[holding], offset)
        lo |= part_lo
        hi |= part_hi
        if not last:
            offset += lengths[holding] + _U(1)
    text = np.empty((len(masks), 2), "<u8")
    text[:, 0] = lo
    text[:, 1] = hi
    return text.view(np.uint8)


def _shifted(lo: np.ndarray, hi: np.ndarray, places: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 128-bit numbers ``hi:lo`` shifted left by ``places`` bytes (0-15);
    numpy shifts of 64 bits or more are not defined, so they are kept apart."""
    bits = places * _U(8)
    small = bits < _U(64)
    low_bits = np.where(small, bits, _U(0))
    carried = np.where(low_bits > 0, lo >> ((_U(64) - low_bits) & _U(63)), _U(0))
    new_lo = np.where(small, lo << low_bits, _U(0))
    new_hi = np.where(small, (hi << low_bits) | carried, lo << np.where(small, _U(0), bits - _U(64)))
    return new_lo, new_hi


def _runs(fixed: Sequence[tuple[int, bytes]]) -> list[tuple[int, np.ndarray]]:
    """Fixed columns merged into runs of consecutive columns, so a check is
    one comparison of a slice."""
    runs: list[tuple[int, bytearray]] = []
    for column, char in sorted(fixed):
        if runs and runs[-1][0] + len(runs[-1][1]) == column:
            runs[-1][1].extend(char)
        else:
            runs.append((column, bytearray(char)))
    return [(column, np.frombuffer(bytes(chars), np.uint8)) for column, chars in runs]


def _rows(count: int, template: bytes) -> np.ndarray:
    """``count`` output rows, each a copy of ``template``."""
    out = np.empty((count, len(template)), np.uint8)
    out[:] = np.frombuffer(template, np.uint8)
    return out


def _bytes(out: np.ndarray) -> memoryview:
    return memoryview(out.data).cast("B")


# -- the text formats ------------------------------------------------------------

def _valid_tricks(tricks: np.ndarray) -> np.ndarray:
    digit = (tricks >= 48) & (tricks <= 57)
    letter = ((tricks | 0x20) >= 97) & ((tricks | 0x20) <= 100)
    valid: np.ndarray = digit | letter | (tricks == 45)
    return valid


class GiblibCodec(LineHooks):
    """giblib: ``W N E S`` hands, optional ``:`` and 20 trick characters."""

    name = "giblib"
    contents = (67, 88)
    context = (b"{", b"}")  # a {...} comment may span records
    layout = HandsLayout((0, 17, 34, 51), first=3,
                         fixed=[(16, b" "), (33, b" "), (50, b" ")])

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, raw, checks = _records(block, width, self.contents)
        tricks = None
        if content == 88:
            checks.add(raw[:, 67] == ord(":"))
            tricks = raw[:, 68:88].copy()
            checks.add(_valid_tricks(tricks))
            # a-d are accepted and written upper case
            tricks -= ((tricks >= 97) & (tricks <= 100)).view(np.uint8) << 5
        masks = self.layout.decode_rows(block, width, checks)
        return DealArray(masks, tricks=tricks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        if deals.tricks is None:
            out = _rows(len(deals), b" " * 67 + b"\n")
        else:
            out = _rows(len(deals), b" " * 67 + b":" + b" " * 20 + b"\n")
            out[:, 68:88] = deals.tricks
        self.layout.fill(deals.masks, out)
        return _bytes(out)


def _seat_lookup() -> np.ndarray:
    table = np.full(256, 255, np.uint8)
    for seat, char in enumerate(b"NESW"):
        table[char] = table[char | 0x20] = seat
    return table


_DEAL_TAG = b'[Deal "'


class PbnCodec(PbnHooks):
    """PBN deal strings. Read: lines of ``F:h1 h2 h3 h4`` (clockwise from F)
    or four hands N E S W without ``F:``, and games that are only a
    ``[Deal "F:..."]`` tag followed by a blank line (the writer's shape).
    Written as the PBN writer does: ``[Deal "N:..."]`` games separated by
    blank lines."""

    name = "pbn"
    contents = (67, 69)
    pair = PAIR  # [Deal "F:<67>"] + newline + blank line
    _seats = _seat_lookup()
    bare = HandsLayout((0, 17, 34, 51), first=0, fixed=[(16, b" "), (33, b" "), (50, b" ")])
    prefixed = HandsLayout((2, 19, 36, 53), first=0,
                           fixed=[(1, b":"), (18, b" "), (35, b" "), (52, b" ")])
    tagged = HandsLayout((9, 26, 43, 60), first=0,
                         fixed=[*((i, bytes([c])) for i, c in enumerate(_DEAL_TAG)),
                                (8, b":"), (25, b" "), (42, b" "), (59, b" "),
                                (76, b'"'), (77, b"]"), (78, b"\n"), (79, b"\n")])

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        raw = _grid(block, width)
        checks = _Checks(len(raw))
        if width == self.pair:
            first = self._seats[raw[:, 7]]
            checks.add(first < 4)
            masks = self.tagged.decode_rows(block, width, checks, first[:, None])
            return DealArray(masks), checks.ok
        content, crlf = content_width(width, self.contents)
        _check_line_end(checks, raw, content, crlf)
        if content == 67:
            masks = self.bare.decode_rows(block, width, checks)
        else:
            first = self._seats[raw[:, 0]]
            checks.add(first < 4)
            masks = self.prefixed.decode_rows(block, width, checks, first[:, None])
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview | None:
        if deals.boards is not None or deals.tricks is not None:
            # Board/Dealer/Vulnerable or DoubleDummyTricks tags: the PBN writer's job
            return None
        out = _rows(len(deals), b'\n[Deal "N:' + b" " * 67 + b'"]\n')
        self.bare.fill(deals.masks, out[:, 10:])
        data = _bytes(out)
        return data[1:] if first_index == 0 and len(data) else data


class OnelineCodec(LineHooks):
    """dealer's printoneline: ``n S.H.D.C e ... s ... w ... `` (trailing blank)."""

    name = "oneline"
    contents = (76,)
    layout = HandsLayout((2, 21, 40, 59), first=0,
                         fixed=[(0, b"n"), (1, b" "), (18, b" "), (19, b"e"), (20, b" "),
                                (37, b" "), (38, b"s"), (39, b" "), (56, b" "), (57, b"w"),
                                (58, b" "), (75, b" ")])

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        checks = _records(block, width, self.contents)[2]
        masks = self.layout.decode_rows(block, width, checks)
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        out = _rows(len(deals), b"n " + b" " * 16 + b" e " + b" " * 16 + b" s " + b" " * 16
                    + b" w " + b" " * 16 + b" \n")
        self.layout.fill(deals.masks, out)
        return _bytes(out)


@runtime_checkable
class RecordCodec(Protocol):
    """A codec of fixed-size records without line ends (``DealsCodec`` and
    the club formats' codecs of ``dealerpp.deals.bulk.machines``): the
    bulk path cuts a file into ``record`` bytes a deal."""

    name: str
    record: int

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]: ...

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview: ...


if TYPE_CHECKING:
    from typing import TypeAlias

    from dealerpp.deals.bulk.bhg import BhgCodec
    from dealerpp.deals.bulk.compact import CompactCodec
    from dealerpp.deals.bulk.csv import CsvCodec
    from dealerpp.deals.bulk.dx import DxCodec
    from dealerpp.deals.bulk.lin import LinCodec
    from dealerpp.deals.bulk.listing import ListingCodec
    from dealerpp.deals.bulk.printall import PrintallCodec

    LineCodec: TypeAlias = (Hex26Codec | GiblibCodec | PbnCodec | OnelineCodec | LinCodec
                            | CompactCodec | ListingCodec | BhgCodec | DxCodec
                            | PrintallCodec | CsvCodec)
    Codec: TypeAlias = RecordCodec | LineCodec


class _Registered(Mapping[str, "Codec"]):
    """The codec of each fast format of the registry
    (``dealerpp.deals.formats``), made on first use."""

    def __init__(self) -> None:
        self._made: dict[str, Codec] = {}

    def __getitem__(self, fmt: str) -> Codec:
        codec = self._made.get(fmt)
        if codec is None:
            if fmt not in formats.BY_NAME:
                raise KeyError(fmt)
            codec = self._made[fmt] = formats.BY_NAME[fmt].load_codec()
        return codec

    def __iter__(self) -> Iterator[str]:
        return iter(formats.FAST)

    def __len__(self) -> int:
        return len(formats.FAST)


CODECS: Mapping[str, Codec] = _Registered()
