"""dealer's printall: a numbered four-column table a deal.

Read and written by :mod:`dealerpp.deals.formats._dealer_output`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from dealerpp.deals.formats._dealer_output import read_printall as read
from dealerpp.deals.formats._dealer_output import write_printall as write

__all__ = ["read", "write"]
