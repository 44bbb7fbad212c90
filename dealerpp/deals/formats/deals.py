"""The .deals format: four 64-bit hand masks N E S W a deal, 32 bytes a record.

Read and written by :mod:`dealerpp.deals.formats._binary`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealerpp.deals.formats._binary import read_deals as read
from dealerpp.deals.formats._binary import write_deals as write

if TYPE_CHECKING:
    from dealerpp.deals.bulk.codecs import Codec

__all__ = ["bulk_codec", "read", "write"]


def bulk_codec() -> Codec:
    from dealerpp.deals.bulk.codecs import DealsCodec

    return DealsCodec()
