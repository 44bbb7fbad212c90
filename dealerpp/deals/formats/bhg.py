"""The .bhg format: a line of 52 card letters a board, from the dealer clockwise.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from dealerpp.deals.formats._machines import read_bhg as read
from dealerpp.deals.formats._machines import write_bhg as write

__all__ = ["read", "write"]
