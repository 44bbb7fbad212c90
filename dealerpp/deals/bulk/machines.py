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
    DealArray,
    full_rows,
    masks_from_owner_full,
    owner_view_full,
)
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    each_sub_block,
    hand_bytes,
    hand_texts,
    template_rows,
)
from dealerpp.deals.formats._machines import GLYPHS, RANK_LETTERS

_RANKS = RANK_LETTERS.encode()
_SLICE = 8192  # rows decoded at a time


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


def _rank_table() -> np.ndarray:
    table = np.full(256, 255, np.uint8)
    for rank, char in enumerate(_RANKS):
        table[char] = rank
    return table


def _column_table() -> np.ndarray:
    """(suit << 8 | byte) -> card number - 1 of a rank byte in that suit,
    52 for any glyph byte, 53 for anything else."""
    table = np.full((4, 256), 53, np.uint8)
    for suit in range(4):
        for rank, char in enumerate(_RANKS):
            table[suit, char] = 13 * suit + rank
        for char in GLYPHS:
            table[suit, char] = 52
    return table.ravel()


def _glyph_table() -> np.ndarray:
    table = np.zeros(256, np.uint8)
    for char in GLYPHS:
        table[char] = 1
    return table


class DgeCodec:
    """.dge: four hands N E S W, each suit as its glyph byte and its ranks
    (68 bytes in a full deal), then 60 NUL bytes."""

    name = "dge"
    write_rows = OUTPUT_BYTES // 128  # its output, 128 bytes a deal
    record = 128
    _ranks = _rank_table()
    _is_glyph = _glyph_table()
    _expected_glyphs = np.frombuffer(GLYPHS * 4, np.uint8)
    _columns = _column_table()

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]:
        """In slices of rows, so the temporaries stay in the CPU cache."""
        grid = _grid(block, self.record)
        masks = np.empty((len(grid), 4), np.uint64)
        ok = np.empty(len(grid), bool)
        for start in range(0, len(grid), _SLICE):
            stop = min(start + _SLICE, len(grid))
            masks[start:stop], ok[start:stop] = self._decode_rows(grid[start:stop, :68])
        return DealArray(masks), _ok_or_none(ok)

    def _decode_rows(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = len(raw)
        glyph = self._is_glyph[raw]
        group = np.cumsum(glyph, axis=1, dtype=np.uint8)
        group -= np.uint8(1)  # hand * 4 + suit
        ok = (glyph.sum(axis=1, dtype=np.int32) == 16) & (glyph[:, 0] == 1)
        # the glyphs come in the order S H D C, four times
        expected = self._expected_glyphs[np.minimum(group, 15)]
        ok &= ((glyph == 0) | (raw == expected)).all(axis=1)
        # the column of each byte: card number - 1, 52 for a glyph, 53 for junk
        suit_and_byte = (group & np.uint8(3)).astype(np.uint16) << 8
        suit_and_byte |= raw
        column = self._columns[suit_and_byte]
        ok &= (column != 53).all(axis=1)
        owner = np.full((rows, 54), 4, np.uint8)
        flat = column.astype(np.intp)
        flat += (np.arange(rows, dtype=np.intp) * 54)[:, None]
        owner.ravel()[flat.ravel()] = (group >> 2).ravel()
        # 52 rank bytes naming 52 different cards: each card exactly once
        ok &= (owner[:, :52] != 4).all(axis=1)
        masks = masks_from_owner_full(owner[:, 51::-1] & np.uint8(3))
        return masks, ok & full_rows(masks)

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
