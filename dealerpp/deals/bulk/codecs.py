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
(its suit); each card becomes the key ``card * 4 + hand`` and one numpy sort
per row turns the keys into the owner view in card order. Encoding runs the
same trick backwards: keys ``hand << 14 | position << 8 | character`` sort
into the line itself, so the low bytes of the sorted keys are the output.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from dealerpp.deals.bulk.array import (
    DealArray,
    full_rows,
    masks_from_owner_full,
    owner_view_full,
)

_LITTLE = sys.byteorder == "little"
_BYTE_ONES = np.uint64(0x0101010101010101)
_NL, _CR = 10, 13
RANKS = b"23456789TJQKA"


class _Checks:
    """Per-row validity, computed lazily: a whole-block ``all()`` is cheap,
    the per-row reduction only runs when something failed."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.ok: np.ndarray | None = None

    def add(self, condition: np.ndarray, offset: int = 0) -> None:
        """``condition``: one row per record, starting at record ``offset``."""
        if condition.all():
            return
        if self.ok is None:
            self.ok = np.ones(self.rows, bool)
        count = len(condition)
        self.ok[offset:offset + count] &= condition.reshape(count, -1).all(axis=1)


SUB_ROWS = 8192  # rows per pass: the temporaries stay in the CPU cache


def _sub_blocks(rows: int) -> list[tuple[int, int]]:
    return [(a, min(a + SUB_ROWS, rows)) for a in range(0, rows, SUB_ROWS)]


def _grid(block: bytes, width: int) -> np.ndarray:
    return np.frombuffer(block, np.uint8).reshape(-1, width)


def content_width(width: int, contents: Sequence[int]) -> tuple[int, bool]:
    """The record width without line end, and whether the end is CR LF."""
    if width - 1 in contents:
        return width - 1, False
    return width - 2, True


def _check_line_end(checks: _Checks, raw: np.ndarray, content: int, crlf: bool) -> None:
    if crlf:
        checks.add(raw[:, content] == _CR)


# -- .deals ----------------------------------------------------------------------

class DealsCodec:
    """.deals: 32 bytes a deal, four little-endian u64 masks N E S W."""

    name = "deals"
    record = 32

    def decode(self, block: bytes) -> tuple[DealArray, np.ndarray | None]:
        masks = np.frombuffer(block, "<u8").reshape(-1, 4).astype(np.uint64, copy=False)
        ok = full_rows(masks)
        return DealArray(masks), None if ok.all() else ok

    def encode(self, deals: DealArray, first_index: int = 0) -> bytes | None:
        return deals.masks.astype("<u8", copy=False).tobytes()


# -- 26-hex ----------------------------------------------------------------------

def _hex_table() -> bytes:
    table = bytearray([0x80] * 256)
    for value, char in enumerate(b"0123456789ABCDEF"):
        table[char] = value
        table[bytes([char]).lower()[0]] = value
    table[ord("-")] = 0x40
    return bytes(table)


class Hex26Codec:
    """26 hex digits: per rank A..2 one byte S | H<<2 | D<<4 | C<<6, seat
    codes 0 S, 1 W, 2 N, 3 E (= our seat XOR 2), low nibble first; ``-D``
    optional."""

    name = "hex"
    contents = (26, 28)
    _table = _hex_table()

    def decode(self, block: bytes, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, crlf = content_width(width, self.contents)
        raw = _grid(block, width)
        nib = _grid(block.translate(self._table), width)
        checks = _Checks(len(raw))
        _check_line_end(checks, raw, content, crlf)
        checks.add(nib[:, :26] < 16)
        boards = None
        if content == 28:
            checks.add(nib[:, 26] == 0x40)
            checks.add(nib[:, 27] < 16)
            boards = nib[:, 27].copy()
        low, high = nib[:, 0:26:2], nib[:, 1:26:2]  # (N, 13), ranks A..2
        owner = np.empty((len(raw), 52), np.uint8)
        # code XOR 2 is our seat; reversing the columns puts the two first
        owner[:, 0:13] = ((high >> 2) ^ 2)[:, ::-1]
        owner[:, 13:26] = ((high & 3) ^ 2)[:, ::-1]
        owner[:, 26:39] = ((low >> 2) ^ 2)[:, ::-1]
        owner[:, 39:52] = ((low & 3) ^ 2)[:, ::-1]
        owner &= 3  # rows with bad digits hold garbage: keep it in range
        masks = masks_from_owner_full(owner)
        checks.add(np.bitwise_count(masks) == 13)
        return DealArray(masks, boards=boards), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> bytes | None:
        code = owner_view_full(deals.masks) ^ 2
        low = code[:, 51:38:-1] | (code[:, 38:25:-1] << 2)
        high = code[:, 25:12:-1] | (code[:, 12::-1] << 2)
        width = 27 if deals.boards is None else 29
        out = np.empty((len(deals), width), np.uint8)
        out[:, 0:26:2] = _hex_digits(low)
        out[:, 1:26:2] = _hex_digits(high)
        if deals.boards is not None:
            out[:, 26] = ord("-")
            out[:, 27] = _hex_digits(deals.boards)
        out[:, width - 1] = _NL
        return out.tobytes()


def _hex_digits(values: np.ndarray) -> np.ndarray:
    """0-15 -> ASCII '0'-'9', 'A'-'F'."""
    return values + np.where(values > 9, np.uint8(55), np.uint8(48))


# -- hands as text: giblib, PBN deal strings, printoneline ------------------------

_DOT = 64
_BAD = 255
_FULL = np.uint64((1 << 52) - 1)


def _card_table(lower: bool) -> bytes:
    """Rank character -> 4 * rank (0 for the two .. 48 for the ace),
    '.' -> 64, anything else -> 255."""
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
        return np.cumsum(dots, axis=2, dtype=np.uint8)
    words = np.ascontiguousarray(dots).view(np.uint64) * _BYTE_ONES  # (N, 4, 2)
    words[..., 1] += (words[..., 0] >> np.uint64(56)) * _BYTE_ONES
    return words.view(np.uint8).reshape(dots.shape)


class HandsLayout:
    """A one-line record of four 16-character hands at fixed columns.

    ``starts``: column of each hand in the line; ``first``: the seat of the
    first hand (the others follow clockwise); ``fixed``: (column, allowed
    bytes) that must match; ``prefix``/``suffix``: text written before and
    after each hand; ``tail``: text after the last hand's suffix.
    """

    def __init__(self, starts: Sequence[int], first: int, fixed: Sequence[tuple[int, bytes]],
                 prefix: Sequence[bytes], suffix: Sequence[bytes], lower: bool) -> None:
        self.starts = tuple(starts)
        self.first = first
        self.fixed = tuple(fixed)
        self.table = _card_table(lower)
        self.card_keys, self.extra_keys = _encode_keys(prefix, suffix)

    # -- decoding -----------------------------------------------------------
    def decode_rows(self, block: bytes, width: int, checks: _Checks,
                    first: np.ndarray | int | None = None) -> np.ndarray:
        """Masks of every row; failures are recorded in ``checks``."""
        raw = _grid(block, width)
        codes = _grid(block.translate(self.table), width)
        for column, allowed in self.fixed:
            values = raw[:, column]
            ok = values == allowed[0]
            for other in allowed[1:]:
                ok |= values == other
            checks.add(ok)
        masks = np.empty((len(raw), 4), np.uint64)
        step = self.starts[1] - self.starts[0]
        for a, b in _sub_blocks(len(raw)):
            # the four hands as an (n, 4, 16) view: equally spaced columns
            hands = np.lib.stride_tricks.as_strided(
                codes[a:, self.starts[0]:], (b - a, 4, 16), (width, step, 1), writeable=False)
            offset = first if first is None or isinstance(first, int) else first[a:b]
            masks[a:b] = self._masks(hands, checks, a, self.first if offset is None else offset)
        return masks

    def _masks(self, hands: np.ndarray, checks: _Checks, row: int,
               first: np.ndarray | int) -> np.ndarray:
        rows = len(hands)
        # bad characters (255) count as dots: the hand then has too many
        dots = (hands >= _DOT).view(np.uint8)
        suits = _dot_prefix(dots)  # dots up to here: 0 spades .. 3 clubs
        checks.add(suits[:, :, 15] == 3, row)
        # key = 4 * card + hand, card = 13 * (3 - suit) + rank; 255 for dots
        key8 = suits * np.uint8(52)
        np.subtract(self._base, key8, out=key8)
        key8 += hands
        key8 |= 0 - dots
        keys = key8.reshape(rows, 64).astype(np.uint16)
        keys.sort(axis=1)
        checks.add((keys[:, :52] & np.uint16(0xFFFC)) == self._cards, row)
        # seat = (hand + first) & 3 from the low byte; pack its two bits
        # (columns 52-63 are dots, masked off below)
        seat = keys.view(np.uint8)[:, 0::2] if _LITTLE else keys.view(np.uint8)[:, 1::2]
        seat = seat + first if not isinstance(first, int) else seat + np.uint8(first)
        lo = np.packbits((seat & 1).view(bool), axis=1, bitorder="little").view("<u8")[:, 0]
        hi = np.packbits((seat >> 1 & 1).view(bool), axis=1, bitorder="little").view("<u8")[:, 0]
        masks = np.empty((rows, 4), np.uint64)
        masks[:, 0] = ~(lo | hi) & _FULL
        masks[:, 1] = lo & ~hi & _FULL
        masks[:, 2] = hi & ~lo & _FULL
        masks[:, 3] = lo & hi & _FULL
        return masks

    _base = (156 + np.arange(4, dtype=np.uint8))[None, :, None].repeat(16, axis=2)
    _cards = np.arange(0, 208, 4, dtype=np.uint16)

    # -- encoding -----------------------------------------------------------
    def encode_rows(self, masks: np.ndarray) -> np.ndarray:
        """``(N, width)`` uint8: the lines of full deals (no line end unless
        the suffix holds one)."""
        owner = owner_view_full(masks)
        position = (owner + (4 - self.first)) & 3
        keys = np.empty((len(masks), 52 + len(self.extra_keys)), np.uint16)
        cards = keys[:, :52]
        cards[:] = position
        cards <<= 14
        cards |= self.card_keys
        keys[:, 52:] = self.extra_keys
        keys.sort(axis=1)
        return keys.view(np.uint8)[:, 0::2] if _LITTLE else keys.view(np.uint8)[:, 1::2]


def _encode_keys(prefix: Sequence[bytes], suffix: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Sort keys ``hand << 14 | position << 8 | character``: positions 0-1
    prefix, 2 + 14 * suit + rank for cards (suit 0 = spades, rank 0 = ace),
    the dot after a suit at + 13, 58.. the suffix."""
    card_keys = np.empty(52, np.uint16)
    for card in range(52):
        suit, rank = 3 - card // 13, 12 - card % 13
        card_keys[card] = (2 + 14 * suit + rank) << 8 | RANKS[card % 13]
    extra = []
    for hand in range(4):
        items = [(i, c) for i, c in enumerate(prefix[hand])]
        items += [(2 + 14 * suit + 13, ord(".")) for suit in range(3)]
        items += [(58 + i, c) for i, c in enumerate(suffix[hand])]
        extra += [hand << 14 | pos << 8 | char for pos, char in items]
    return card_keys, np.array(extra, np.uint16)


# -- the text formats ------------------------------------------------------------

def _valid_tricks(tricks: np.ndarray) -> np.ndarray:
    digit = (tricks >= 48) & (tricks <= 57)
    letter = ((tricks | 0x20) >= 97) & ((tricks | 0x20) <= 100)
    return digit | letter | (tricks == 45)


class GiblibCodec:
    """giblib: ``W N E S`` hands, optional ``:`` and 20 trick characters."""

    name = "giblib"
    contents = (67, 88)
    layout = HandsLayout((0, 17, 34, 51), first=3,
                         fixed=[(16, b" "), (33, b" "), (50, b" ")],
                         prefix=[b"", b"", b"", b""], suffix=[b" ", b" ", b" ", b""],
                         lower=True)

    def decode(self, block: bytes, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, crlf = content_width(width, self.contents)
        raw = _grid(block, width)
        checks = _Checks(len(raw))
        _check_line_end(checks, raw, content, crlf)
        tricks = None
        if content == 88:
            checks.add(raw[:, 67] == ord(":"))
            tricks = raw[:, 68:88].copy()
            checks.add(_valid_tricks(tricks))
            # a-d are accepted and written upper case
            tricks -= ((tricks >= 97) & (tricks <= 100)).view(np.uint8) << 5
        masks = self.layout.decode_rows(block, width, checks)
        return DealArray(masks, tricks=tricks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> bytes | None:
        hands = self.layout.encode_rows(deals.masks)  # (N, 67)
        if deals.tricks is None:
            out = np.empty((len(deals), 68), np.uint8)
            out[:, 67] = _NL
        else:
            out = np.empty((len(deals), 89), np.uint8)
            out[:, 67] = ord(":")
            out[:, 68:88] = deals.tricks
            out[:, 88] = _NL
        out[:, :67] = hands
        return out.tobytes()


def _seat_lookup() -> np.ndarray:
    table = np.full(256, 255, np.uint8)
    for seat, char in enumerate(b"NESW"):
        table[char] = table[char | 0x20] = seat
    return table


_DEAL_TAG = b'[Deal "'


class PbnCodec:
    """PBN deal strings. Read: lines of ``F:h1 h2 h3 h4`` (clockwise from F)
    or four hands N E S W without ``F:``, and games that are only a
    ``[Deal "F:..."]`` tag followed by a blank line (the writer's shape).
    Written as the PBN writer does: ``[Deal "N:..."]`` games separated by
    blank lines."""

    name = "pbn"
    contents = (67, 69)
    pair = 80  # [Deal "F:<67>"] + newline + blank line
    _seats = _seat_lookup()
    bare = HandsLayout((0, 17, 34, 51), first=0,
                       fixed=[(16, b" "), (33, b" "), (50, b" ")],
                       prefix=[b""] * 4, suffix=[b" ", b" ", b" ", b""], lower=True)
    prefixed = HandsLayout((2, 19, 36, 53), first=0,
                           fixed=[(1, b":"), (18, b" "), (35, b" "), (52, b" ")],
                           prefix=[b""] * 4, suffix=[b" ", b" ", b" ", b""], lower=True)
    tagged = HandsLayout((9, 26, 43, 60), first=0,
                         fixed=[*((i, bytes([c])) for i, c in enumerate(_DEAL_TAG)),
                                (8, b":"), (25, b" "), (42, b" "), (59, b" "),
                                (76, b'"'), (77, b"]"), (78, b"\n"), (79, b"\n")],
                         prefix=[b""] * 4, suffix=[b" ", b" ", b" ", b""], lower=True)

    def decode(self, block: bytes, width: int) -> tuple[DealArray, np.ndarray | None]:
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

    def encode(self, deals: DealArray, first_index: int = 0) -> bytes | None:
        if deals.boards is not None or deals.tricks is not None:
            # Board/Dealer/Vulnerable or DoubleDummyTricks tags: the PBN writer's job
            return None
        out = np.empty((len(deals), 80), np.uint8)
        out[:, :10] = np.frombuffer(b'\n[Deal "N:', np.uint8)
        out[:, 10:77] = self.bare.encode_rows(deals.masks)
        out[:, 77:] = np.frombuffer(b'"]\n', np.uint8)
        data = out.tobytes()
        return data[1:] if first_index == 0 and data else data


class OnelineCodec:
    """dealer's printoneline: ``n S.H.D.C e ... s ... w ... `` (trailing blank)."""

    name = "oneline"
    contents = (76,)
    layout = HandsLayout((2, 21, 40, 59), first=0,
                         fixed=[(0, b"n"), (1, b" "), (18, b" "), (19, b"e"), (20, b" "),
                                (37, b" "), (38, b"s"), (39, b" "), (56, b" "), (57, b"w"),
                                (58, b" "), (75, b" ")],
                         prefix=[b"n ", b"e ", b"s ", b"w "],
                         suffix=[b" ", b" ", b" ", b" \n"], lower=False)

    def decode(self, block: bytes, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, crlf = content_width(width, self.contents)
        raw = _grid(block, width)
        checks = _Checks(len(raw))
        _check_line_end(checks, raw, content, crlf)
        masks = self.layout.decode_rows(block, width, checks)
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> bytes | None:
        return self.layout.encode_rows(deals.masks).tobytes()


LineCodec = Hex26Codec | GiblibCodec | PbnCodec | OnelineCodec

CODECS: dict[str, DealsCodec | LineCodec] = {
    "deals": DealsCodec(),
    "hex": Hex26Codec(),
    "giblib": GiblibCodec(),
    "pbn": PbnCodec(),
    "oneline": OnelineCodec(),
}
