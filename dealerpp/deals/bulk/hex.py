"""26-hex on the bulk path: two hex digits a rank, a seat in two bits a card.
"""

from __future__ import annotations

import numpy as np

from dealerpp.deals.bulk.array import FULL, DealArray, popcount
from dealerpp.deals.bulk.blocks import (
    byte_view,
    each_sub_block,
    template_rows,
    text_records,
    translated_grid,
)
from dealerpp.deals.bulk.hooks import LineHooks


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
        content, raw, checks = text_records(block, width, self.contents)
        boards = None
        if content == 28:
            checks.add(raw[:, 26] == ord("-"))
            digits = np.frombuffer(bytes(raw[:, 27]).translate(self._table), np.uint8)
            checks.add(digits < 16)
            boards = np.where(digits == 0, 16, digits).astype(np.int64)  # "-0": board 16
        masks = np.empty((len(raw), 4), np.uint64)

        def work(a: int, b: int) -> None:
            digits = translated_grid(block[a * width:b * width], self._table, width)
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
            part[:, 0] = bit1 & ~bit0 & FULL
            part[:, 1] = bit1 & bit0 & FULL
            part[:, 2] = ~(bit1 | bit0) & FULL
            part[:, 3] = bit0 & ~bit1 & FULL
            checks.add(popcount(part) == 13, a)

        each_sub_block(len(raw), work)
        return DealArray(masks, boards=boards), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        width = 27 if deals.boards is None else 29
        out = template_rows(len(deals), b"0" * 26 + (b"-0\n" if deals.boards is not None else b"\n"))
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

        each_sub_block(len(deals), work)
        if deals.boards is not None:
            out[:, width - 2] = _hex_digits((deals.boards % 16).astype(np.uint8))
        return byte_view(out)


def _hex_digits(values: np.ndarray) -> np.ndarray:
    """0-15 -> ASCII '0'-'9', 'A'-'F'."""
    digits: np.ndarray = values + np.where(values > 9, np.uint8(55), np.uint8(48))
    return digits
