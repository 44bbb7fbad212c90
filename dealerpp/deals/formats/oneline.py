"""dealer's printoneline: 'n S.H.D.C e ... s ... w ...', a deal a line.

Read and written by :mod:`dealerpp.deals.formats._dealer_output`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealerpp.deals.formats._dealer_output import read_oneline as read
from dealerpp.deals.formats._dealer_output import write_oneline as write

if TYPE_CHECKING:
    from dealerpp.deals.bulk.codecs import Codec

__all__ = ["bulk_codec", "read", "write"]


def bulk_codec() -> Codec:
    from dealerpp.deals.bulk.codecs import OnelineCodec

    return OnelineCodec()
