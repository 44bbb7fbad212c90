"""dealer's printcompact on the bulk path: four lines a deal, ``n``, ``e``,
``s``, ``w`` and a hand ``S.H.D.C`` each, so a full deal is a record of 76
bytes (three line ends inside it, one after). The reader keeps a deal in
progress across lines, so the file is read fast from its start only
(:class:`~dealerpp.deals.bulk.head.HeadHooks`): from the first record
that is not a full deal written so (dealer's statistics lines at the end,
the value ``printcompact(expr)`` prints, CR LF, a short hand) the per-deal
reader has the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    HandsLayout,
    byte_view,
    template_rows,
    text_records,
)
from dealerpp.deals.bulk.head import HeadHooks


class CompactCodec(HeadHooks):
    """``n S.H.D.C`` / ``e ...`` / ``s ...`` / ``w ...``, a line each."""

    name = "compact"
    write_rows = OUTPUT_BYTES // 76  # its output, 76 bytes a deal
    contents = (75,)
    lines_per_record = 4
    layout = HandsLayout((2, 21, 40, 59), first=0,
                         fixed=[(0, b"n"), (1, b" "), (18, b"\n"), (19, b"e"), (20, b" "),
                                (37, b"\n"), (38, b"s"), (39, b" "), (56, b"\n"), (57, b"w"),
                                (58, b" ")])

    def record_widths(self) -> Sequence[int]:
        return (76,)

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        checks = text_records(block, width, self.contents)[2]
        masks = self.layout.decode_rows(block, width, checks)
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        hand = b" " * 16
        out = template_rows(len(deals), b"n " + hand + b"\ne " + hand + b"\ns " + hand + b"\nw " + hand
                    + b"\n")
        self.layout.fill(deals.masks, out)
        return byte_view(out)
