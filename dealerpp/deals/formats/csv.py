"""The .csv club format: 16 quoted holdings, board, dealer/vulnerability a line.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from dealerpp.deals.formats._machines import read_csv as read
from dealerpp.deals.formats._machines import write_csv as write

__all__ = ["read", "write"]
