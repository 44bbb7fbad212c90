"""Vectorised codecs of the fixed-size dealing-machine records: .ber (52
bytes), .bri (128) and .dge (128), in the interface of
``dealerpp.deals.bulk.deals.DealsCodec``: ``decode(block)`` gives a
``DealArray`` and an ``ok`` column (None when every row passed; failed rows
hold garbage and belong to the per-deal reader, which reports the error),
``encode(deals)`` writes full deals.

The registry (``dealerpp.deals.formats``) names them, so ``convert``
takes the bulk path (``dealerpp.deals.bulk``) between these and the other
fast formats; the bulk converter numbers the boards, which these records
hold only by their place in the file. Measured by bench/bench_machines.py.

Card number ``n`` (1 = spade ace ... 52 = club two) is the model's card
``52 - n``, so an owner view by card number is the model's owner view with
its 52 columns reversed.
"""

from __future__ import annotations

import numpy as np

from dealerpp.deals.bulk.array import (
    FULL,
    DealArray,
    full_rows,
    masks_from_owner_full,
    owner_view_full,
)
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    RowChecks,
    dot_prefix,
    each_sub_block,
    hand_bytes,
    hand_sums,
    hand_texts,
    template_rows,
    translated_grid,
)
from dealerpp.deals.formats._machines import GLYPHS, RANK_LETTERS

_RANKS = RANK_LETTERS.encode()


def _grid(block: bytes | memoryview, width: int) -> np.ndarray:
    return np.frombuffer(block, np.uint8).reshape(-1, width)


def _owner_by_number(masks: np.ndarray) -> np.ndarray:
    """``(N, 52)`` seat of card numbers 1..52 (columns 0..51)."""
    return owner_view_full(masks)[:, ::-1]


def _ok_or_none(ok: np.ndarray) -> np.ndarray | None:
    return None if ok.all() else ok


class BerCodec:
    """.ber: 52 ASCII digits a board, ``1`` North ... ``4`` West, by card number."""

    name = "ber"
    record = 52

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]:
        seats = _grid(block, self.record) - np.uint8(ord("1"))  # wraps below '1'
        digits_ok = (seats < 4).all(axis=1)
        masks = masks_from_owner_full(np.minimum(seats, 3)[:, ::-1])
        return DealArray(masks), _ok_or_none(digits_ok & full_rows(masks))

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        out = _owner_by_number(deals.masks) + np.uint8(ord("1"))
        return memoryview(np.ascontiguousarray(out).data).cast("B")


# card number - 1 = 13 * suit + 12 - rank (spades 0): a suit's symbol of each rank
_NUMBERS = tuple(bytes(13 * suit + 13 - rank for rank in range(13)) for suit in range(4))
# each number's two ASCII digits as the uint16 that is their bytes
_TWO_DIGITS = np.frombuffer(b"".join(b"%02d" % (number % 100) for number in range(256)),
                            np.uint16).copy()


class BriCodec:
    """.bri: North's, East's and South's card numbers as two digits each,
    ascending, then 32 spaces and 18 NUL bytes."""

    name = "bri"
    write_rows = OUTPUT_BYTES // 128  # its output, 128 bytes a deal
    record = 128
    _seat_of_slot = np.repeat(np.arange(3, dtype=np.uint8), 13)
    _template = b"0" * 78 + b" " * 32 + b"\0" * 18

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]:
        raw = _grid(block, self.record)
        digits = raw[:, :78] - np.uint8(ord("0"))
        ok = (digits < 10).all(axis=1)
        numbers = digits[:, 0::2].astype(np.int16) * 10 + digits[:, 1::2]
        ok &= ((numbers >= 1) & (numbers <= 52)).all(axis=1)
        # West holds what no other hand names; a number twice leaves a card
        # to West that North, East or South should hold, so the rows fail
        # the 13-cards-a-hand check below
        owner = np.full((len(raw), 52), 3, np.uint8)
        rows = np.arange(len(raw))[:, None]
        owner[rows, np.clip(numbers, 1, 52) - 1] = self._seat_of_slot
        masks = masks_from_owner_full(owner[:, ::-1])
        return DealArray(masks), _ok_or_none(ok & full_rows(masks))

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        """A hand's card numbers ascending are its cards spades first, ace
        first: the hand's bytes with a card's number as its symbol."""
        out = template_rows(len(deals), self._template)
        pairs = out.view(np.uint16)

        def work(a: int, b: int) -> None:
            numbers = hand_bytes(deals.masks[a:b, :3].reshape(-1), b"", _NUMBERS)[:, :13]
            # two ASCII digits a number, as one uint16
            pairs[a:b, :39] = _TWO_DIGITS.take(numbers.reshape(b - a, 39))

        each_sub_block(len(deals), work)
        return memoryview(out.data).cast("B")


_DOT, _BAD = 64, 128  # as blocks' text hands: >> 6 gives 1 for a dot, 2 for a bad byte


def _hand_table() -> bytes:
    """Rank letter -> 4 * rank (the two 0), the heart, diamond and club
    glyphs -> a dot (they part a hand's suits as PBN's dots do), anything
    else (the spade glyph too) -> bad."""
    table = bytearray([_BAD] * 256)
    for rank, char in enumerate(reversed(_RANKS)):
        table[char] = 4 * rank
    for glyph in GLYPHS[1:]:
        table[glyph] = _DOT
    return bytes(table)


def _frames(grid: np.ndarray) -> np.ndarray:
    """The 16 bytes after each hand's spade glyph, as ``(n, 4, 16)``."""
    return np.lib.stride_tricks.as_strided(grid[:, 1:], (len(grid), 4, 16),
                                           (grid.strides[0], 17, 1), writeable=False)


class DgeCodec:
    """.dge: four hands N E S W, each suit as its glyph byte and its ranks
    (68 bytes in a full deal), then 60 NUL bytes.

    Read as four frames of 17 bytes: the reader reads a record only when
    each hand holds 13 cards, i.e. when each hand is its spade glyph and
    16 bytes, 13 ranks parted by the other three glyphs in their order
    (the 16 characters of a PBN hand, glyphs for dots); what follows the
    68 bytes is padding the reader passes over."""

    name = "dge"
    write_rows = OUTPUT_BYTES // 128  # its output, 128 bytes a deal
    record = 128
    _table = _hand_table()

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]:
        """In sub-blocks of rows, so the temporaries stay in the CPU cache."""
        raw = _grid(block, self.record)
        checks = RowChecks(len(raw))
        masks = np.empty((len(raw), 4), np.uint64)

        def work(a: int, b: int) -> None:
            checks.add(raw[a:b, 0:52:17] == GLYPHS[0], a)  # each hand's spade glyph
            codes = translated_grid(block[a * 128:b * 128], self._table, 128)
            masks[a:b] = self._hands(_frames(codes), _frames(raw[a:b]), checks, a)

        each_sub_block(len(raw), work)
        return DealArray(masks), checks.ok

    @staticmethod
    def _hands(codes: np.ndarray, raw: np.ndarray, checks: RowChecks, row: int) -> np.ndarray:
        """The masks of ``(n, 4, 16)`` hands (glyphs for dots) and their checks."""
        dots = codes >> 6  # 0 a rank, 1 a glyph, 2 anything else
        checks.add(dots < 2, row)
        suits = dot_prefix(dots)  # glyphs up to here: 0 spades .. 3 clubs
        checks.add(suits[:, :, 15] == 3, row)  # so 13 ranks a hand
        # the glyphs in their order: the k-th of a hand is 2 + k (hearts 3 ...)
        checks.add(((raw - suits) == 2) == (dots == 1), row)
        card = np.uint8(39) - suits * np.uint8(13)  # as blocks' text hands
        card += codes >> 2
        card |= np.uint8(0) - dots
        sums = hand_sums(card)
        checks.add(sums.sum(axis=1, dtype=np.uint64) == FULL, row)  # every card once
        return sums

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        """A hand is the spade glyph, then its ranks as ``S.H.D.C`` text is
        written, with the other glyphs for the dots."""
        out = template_rows(len(deals), (GLYPHS[:1] + b"\0" * 16) * 4 + b"\0" * 60)
        # the letters of the ranks are hand_texts' (RANK_LETTERS, ace first)

        def work(a: int, b: int) -> None:
            hands = hand_texts(deals.masks[a:b].reshape(-1), GLYPHS[1:]).reshape(b - a, 4, 16)
            for hand in range(4):
                out[a:b, 17 * hand + 1:17 * hand + 17] = hands[:, hand]

        each_sub_block(len(deals), work)
        return memoryview(out.data).cast("B")
