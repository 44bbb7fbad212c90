"""The .ber format: 52 seat digits 1-4 a board, in card order.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealerpp.deals.formats._machines import read_ber as read
from dealerpp.deals.formats._machines import write_ber as write

if TYPE_CHECKING:
    from dealerpp.deals.bulk.codecs import Codec

__all__ = ["bulk_codec", "read", "write"]


def bulk_codec() -> Codec:
    from dealerpp.deals.bulk.machines import BerCodec

    return BerCodec()
