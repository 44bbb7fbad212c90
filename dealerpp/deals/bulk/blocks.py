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
# Output made at most this many bytes at a time (a codec's ``write_rows``:
# the converter encodes a segment in pieces of that many rows): memory the
# allocator has handed out before is used again, where a chunk's whole
# output (tens of MB) would be fresh pages, which the kernel zeroes first
# (a third of writing a 1M-deal listing here).
OUTPUT_BYTES = 4 << 20


def _threads() -> int:
    """numpy releases the GIL in ufuncs: use the cores this process may run
    on (``taskset`` or a container's cpuset may allow fewer than the machine
    has; a helper thread on the same one core only costs switches)."""
    if hasattr(os, "sched_getaffinity"):
        usable = len(os.sched_getaffinity(0))
    else:  # not Linux: the machine's count is all there is to know
        usable = os.cpu_count() or 1
    return max(1, min(4, usable))


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
        sums = hand_sums(card)
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
# Two card numbers' bits added, indexed by the two bytes as a uint16 (either
# byte order: the sum is the same), each byte's low 6 bits (a dot's or a bad
# character's 254 and 255 give 62 and 63, bit 0).
_PAIR_BITS = (CARD_BITS[:64, None] + CARD_BITS[None, :64]).astype(np.uint64)
_PAIR_BITS = np.pad(_PAIR_BITS, ((0, 0), (0, 192))).reshape(-1)[:1 << 14].copy()
_LOW6 = np.uint8(63)


def hand_sums(card: np.ndarray) -> np.ndarray:
    """The sum of the bits of each hand's card numbers (``card``: uint8, a
    hand on the last axis). A table lookup takes two cards at a time, and
    the sum runs over the first axis of the transposed lookups (a reduction
    along a short last axis costs numpy a loop call a hand)."""
    width = card.shape[-1]
    rows = card.reshape(-1, width)
    even = width - width % 2
    pairs = (rows[:, :even] & _LOW6).view(np.uint16)
    sums: np.ndarray = np.add.reduce(_PAIR_BITS.take(pairs.T), axis=0)
    if width % 2:
        sums += CARD_BITS.take(rows[:, -1])
    return sums.reshape(card.shape[:-1])


def _holding_tables(symbols: bytes, separator: bytes) -> tuple[np.ndarray, ...]:
    """For each 13-bit holding: its symbols (``symbols[rank]``, ace first)
    and ``separator`` after them, as a little-endian 128-bit number in two
    words, and its length in bytes. Made a rank at a time over all holdings
    (``holding_text``)."""
    text, lengths = holding_text(lambda rank: symbols[rank:rank + 1], 16)
    for offset, byte in enumerate(separator):
        text[np.arange(8192), lengths + offset] = byte
    words = text.view("<u8").astype(np.uint64)
    return (np.ascontiguousarray(words[:, 0]), np.ascontiguousarray(words[:, 1]),
            (lengths + len(separator)).astype(np.uint64))


_PLACED: dict[tuple[bytes, tuple[bytes, ...]], tuple[np.ndarray, ...]] = {}
_U = np.uint64


# 128-bit numbers hi:lo shifted by ``bits`` (0-127). numpy gives 0 for a
# shift of 64 bits or more (it defines what C leaves undefined), and
# ``64 - bits`` past 64 wraps round to such a shift: no select is needed.
def _left(lo: np.ndarray, hi: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return lo << bits, (hi << bits) | (lo >> (_U(64) - bits)) | (lo << (bits - _U(64)))


def _right(lo: np.ndarray, hi: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (lo >> bits) | (hi << (_U(64) - bits)) | (hi >> (bits - _U(64))), hi >> bits


def _placed(separators: bytes, symbols: tuple[bytes, ...]) -> tuple[np.ndarray, ...]:
    """The tables of ``hand_bytes``: spades and their separator from byte
    0; hearts and theirs, to be shifted past the spades; clubs ending at
    the hand's last byte and diamonds with their separator just before
    that, to be shifted right past the clubs; the bits the spades and the
    clubs take."""
    found = _PLACED.get((separators, symbols))
    if found is None:
        width = _U(13 + len(separators))
        spades, hearts, diamonds = (_holding_tables(symbols[suit], separators[suit:suit + 1])
                                    for suit in range(3))
        club_lo, club_hi, club_lengths = _holding_tables(symbols[3], b"")
        clubs = _left(club_lo, club_hi, (width - club_lengths) * _U(8))
        placed_diamonds = _left(diamonds[0], diamonds[1], (width - diamonds[2]) * _U(8))
        found = tuple(np.ascontiguousarray(table) for table in (
            *spades[:2], *hearts[:2], *placed_diamonds, *clubs, spades[2] * _U(8),
            club_lengths * _U(8)))
        _PLACED[(separators, symbols)] = found
    return found


def hand_bytes(masks: np.ndarray, separators: bytes, symbols: tuple[bytes, ...]) -> np.ndarray:
    """Full hands (13 cards) as ``(N, 16)`` bytes: each suit's symbols
    (``symbols[suit][rank]``, spades first, rank 0 the two), ace first,
    the suits in the order S H D C with ``separators`` (none or three)
    after the first three; the bytes past ``13 + len(separators)`` are 0.
    No sort: each suit's bytes are a table row (its 13-bit holding the
    index), as a 128-bit number; the spades start the hand and the clubs
    end it, so only the hearts (after the spades) and the diamonds (before
    the clubs) are shifted."""
    (s_lo, s_hi, h_lo, h_hi, d_lo, d_hi, c_lo, c_hi,
     spade_bits, club_bits) = _placed(separators, symbols)
    # masks are below 2**52: as int64 they index the tables with no cast
    hands = np.ascontiguousarray(masks, np.uint64).view(np.int64)
    spades, hearts = hands >> 39, (hands >> 26) & 8191
    diamonds, clubs = (hands >> 13) & 8191, hands & 8191
    lo, hi = _left(h_lo.take(hearts), h_hi.take(hearts), spade_bits.take(spades))
    low, high = _right(d_lo.take(diamonds), d_hi.take(diamonds), club_bits.take(clubs))
    text = np.empty((len(hands), 2), "<u8")
    np.bitwise_or(lo, low, out=text[:, 0])
    text[:, 0] |= s_lo.take(spades)
    text[:, 0] |= c_lo.take(clubs)
    np.bitwise_or(hi, high, out=text[:, 1])
    text[:, 1] |= s_hi.take(spades)
    text[:, 1] |= c_hi.take(clubs)
    return text.view(np.uint8)


_RANK_SYMBOLS = (RANKS,) * 4


def hand_texts(masks: np.ndarray, separators: bytes = b"...") -> np.ndarray:
    """``S.H.D.C`` of full hands (13 cards: 16 characters) as ``(N, 16)``
    bytes (``hand_bytes``). ``separators``: the bytes after spades, hearts
    and diamonds (LIN writes ``HDC`` where PBN has dots)."""
    return hand_bytes(masks, separators, _RANK_SYMBOLS)


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
