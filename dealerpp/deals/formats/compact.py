"""dealer's printcompact: 'n S.H.D.C', 'e ...', 's ...', 'w ...', a line a hand.

Read and written by :mod:`dealerpp.deals.formats._dealer_output`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from dealerpp.deals.formats._dealer_output import read_compact as read
from dealerpp.deals.formats._dealer_output import write_compact as write

__all__ = ["read", "write"]
