"""giblib on the bulk path: four hands W N E S at fixed columns, and the
trick string when there is one.
"""

from __future__ import annotations

import numpy as np

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    HandsLayout,
    byte_view,
    template_rows,
    text_records,
)
from dealerpp.deals.bulk.hooks import LineHooks


def _valid_tricks(tricks: np.ndarray) -> np.ndarray:
    digit = (tricks >= 48) & (tricks <= 57)
    letter = ((tricks | 0x20) >= 97) & ((tricks | 0x20) <= 100)
    valid: np.ndarray = digit | letter | (tricks == 45)
    return valid


class GiblibCodec(LineHooks):
    """giblib: ``W N E S`` hands, optional ``:`` and 20 trick characters."""

    name = "giblib"
    write_rows = OUTPUT_BYTES // 68  # its output, 68 bytes a deal
    contents = (67, 88)
    context = (b"{", b"}")  # a {...} comment may span records
    layout = HandsLayout((0, 17, 34, 51), first=3,
                         fixed=[(16, b" "), (33, b" "), (50, b" ")])

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, raw, checks = text_records(block, width, self.contents)
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
            out = template_rows(len(deals), b" " * 67 + b"\n")
        else:
            out = template_rows(len(deals), b" " * 67 + b":" + b" " * 20 + b"\n")
            out[:, 68:88] = deals.tricks
        self.layout.fill(deals.masks, out)
        return byte_view(out)
