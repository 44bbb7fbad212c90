""".deals on the bulk path: the file is the array of hand masks.
"""

from __future__ import annotations

import numpy as np

from dealerpp.deals.bulk.array import FULL, DealArray, full_rows, popcount
from dealerpp.deals.bulk.blocks import byte_view


class DealsCodec:
    """.deals: 32 bytes a deal, four little-endian u64 masks N E S W."""

    name = "deals"
    record = 32

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]:
        masks = np.frombuffer(block, "<u8").reshape(-1, 4).astype(np.uint64, copy=False)
        counts = popcount(masks)
        union = masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3]
        if (counts == 13).all() and (union == FULL).all():  # whole-array checks first
            return DealArray(masks), None
        return DealArray(masks), full_rows(masks)

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        return byte_view(np.ascontiguousarray(deals.masks.astype("<u8", copy=False)))
