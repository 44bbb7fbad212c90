"""The .dge format: four hands in suit glyphs and ranks, 128 bytes a board.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealerpp.deals.formats._machines import read_dge as read
from dealerpp.deals.formats._machines import write_dge as write

if TYPE_CHECKING:
    from dealerpp.deals.bulk.codecs import Codec

__all__ = ["bulk_codec", "read", "write"]


def bulk_codec() -> Codec:
    from dealerpp.deals.bulk.machines import DgeCodec

    return DgeCodec()
