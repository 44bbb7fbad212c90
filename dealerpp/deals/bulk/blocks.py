"""What the bulk codecs share: blocks of fixed-width records as numpy grids.

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

This module imports no codec: the codecs (one module a format, and
:mod:`dealerpp.deals.bulk.machines`) import it, and the table of
:mod:`dealerpp.deals.bulk.codecs` imports them.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence

import numpy as np

from dealerpp.deals.bulk.array import FULL, holding_text

_LITTLE = sys.byteorder == "little"
_BYTE_ONES = np.uint64(0x0101010101010101)
_NL, _CR = 10, 13
RANKS = b"23456789TJQKA"


class RowChecks:
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


def each_sub_block(rows: int, work: Callable[[int, int], None], size: int | None = None) -> None:
    """Run ``work(a, b)`` over row ranges of ``size`` (SUB_ROWS, as it is
    when called: a test sets it), on helper threads too when there is more
    than one range (each range writes its own rows). Plain threads:
    concurrent.futures would cost more to import than a small conversion
    takes."""
    size = SUB_ROWS if size is None else size
    blocks = [(a, min(a + size, rows)) for a in range(0, rows, size)]
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


def as_grid(block: bytes | memoryview, width: int) -> np.ndarray:
    return np.frombuffer(block, np.uint8).reshape(-1, width)


def translated_grid(block: bytes | memoryview, table: bytes, width: int) -> np.ndarray:
    """The block through a byte table (``bytes.translate`` runs at memory speed)."""
    data = block if isinstance(block, bytes) else bytes(block)
    return as_grid(data.translate(table), width)


def content_width(width: int, contents: Sequence[int]) -> tuple[int, bool]:
    """The record width without line end, and whether the end is CR LF."""
    if width - 1 in contents:
        return width - 1, False
    return width - 2, True


def check_line_end(checks: RowChecks, raw: np.ndarray, content: int, crlf: bool) -> None:
    """The record ends in LF (or CR LF). Records are cut at LFs, but the last
    line of a file may have none: its last character is then anything."""
    checks.add(raw[:, -1] == _NL)
    if crlf:
        checks.add(raw[:, content] == _CR)


def text_records(block: bytes | memoryview, width: int, contents: Sequence[int]
             ) -> tuple[int, np.ndarray, RowChecks]:
    """A block of text records of one width: the record width without line end
    (one of ``contents``), the block as a grid, and its checks, the line
    ends checked already."""
    content, crlf = content_width(width, contents)
    raw = as_grid(block, width)
    checks = RowChecks(len(raw))
    check_line_end(checks, raw, content, crlf)
    return content, raw, checks


_DOT = 64  # >> 6 gives 1: a dot weighs 1 in a hand's count of dots
_BAD = 128  # >> 6 gives 2: a bad character weighs 2, so it never passes for a dot


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


def dot_prefix(dots: np.ndarray) -> np.ndarray:
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
        self.fixed_runs = column_runs(fixed)
        self.table = _card_table(lower)

    # -- decoding -----------------------------------------------------------
    def decode_rows(self, block: bytes | memoryview, width: int, checks: RowChecks,
                    first: np.ndarray | int | None = None) -> np.ndarray:
        """Masks of every row; failures are recorded in ``checks``."""
        raw = as_grid(block, width)
        masks = np.empty((len(raw), 4), np.uint64)
        step = self.starts[1] - self.starts[0]
        if first is not None and not isinstance(first, int) and len(first) \
                and first[0, 0] < 4 and (first == first[0]).all():
            first = int(first[0, 0])  # one first seat for the block (the usual "N:")

        def work(a: int, b: int) -> None:
            for column, expected in self.fixed_runs:
                checks.add(raw[a:b, column:column + len(expected)] == expected, a)
            codes = translated_grid(block[a * width:b * width], self.table, width)
            # the four hands as an (n, 4, 16) view: equally spaced columns
            hands = np.lib.stride_tricks.as_strided(
                codes[:, self.starts[0]:], (b - a, 4, 16), (width, step, 1), writeable=False)
            offset = first if first is None or isinstance(first, int) else first[a:b]
            masks[a:b] = self._masks(hands, checks, a, self.first if offset is None else offset)

        each_sub_block(len(raw), work)
        return masks

    def _masks(self, hands: np.ndarray, checks: RowChecks, row: int,
               first: np.ndarray | int) -> np.ndarray:
        # 0 for a rank, 1 for a dot, 2 for a bad character
        dots = hands >> 6
        checks.add(dots < 2, row)  # no bad character
        suits = dot_prefix(dots)  # dots up to here: 0 spades .. 3 clubs
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
        sums = CARD_BITS[card].sum(axis=2, dtype=np.uint64)
        checks.add(sums.sum(axis=1, dtype=np.uint64) == FULL, row)
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

        each_sub_block(len(masks), work)


# the bit of each card number, 0 for any byte past 51 (a dot, a bad character)
CARD_BITS = np.array([1 << i if i < 52 else 0 for i in range(256)], np.uint64)


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


def column_runs(fixed: Sequence[tuple[int, bytes]]) -> list[tuple[int, np.ndarray]]:
    """Fixed columns merged into runs of consecutive columns, so a check is
    one comparison of a slice."""
    runs: list[tuple[int, bytearray]] = []
    for column, char in sorted(fixed):
        if runs and runs[-1][0] + len(runs[-1][1]) == column:
            runs[-1][1].extend(char)
        else:
            runs.append((column, bytearray(char)))
    return [(column, np.frombuffer(bytes(chars), np.uint8)) for column, chars in runs]


def template_rows(count: int, template: bytes) -> np.ndarray:
    """``count`` output rows, each a copy of ``template``."""
    out = np.empty((count, len(template)), np.uint8)
    out[:] = np.frombuffer(template, np.uint8)
    return out


def byte_view(out: np.ndarray) -> memoryview:
    return memoryview(out.data).cast("B")
