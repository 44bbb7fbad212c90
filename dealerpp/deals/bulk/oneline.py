"""dealer's printoneline on the bulk path: four hands at fixed columns.
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


class OnelineCodec(LineHooks):
    """dealer's printoneline: ``n S.H.D.C e ... s ... w ... `` (trailing blank)."""

    name = "oneline"
    write_rows = OUTPUT_BYTES // 77  # its output, 77 bytes a deal
    contents = (76,)
    layout = HandsLayout((2, 21, 40, 59), first=0,
                         fixed=[(0, b"n"), (1, b" "), (18, b" "), (19, b"e"), (20, b" "),
                                (37, b" "), (38, b"s"), (39, b" "), (56, b" "), (57, b"w"),
                                (58, b" "), (75, b" ")])

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        checks = text_records(block, width, self.contents)[2]
        masks = self.layout.decode_rows(block, width, checks)
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        out = template_rows(len(deals), b"n " + b" " * 16 + b" e " + b" " * 16 + b" s " + b" " * 16
                    + b" w " + b" " * 16 + b" \n")
        self.layout.fill(deals.masks, out)
        return byte_view(out)
