"""The .dup format of Duplimate: .bri and .dge in one record, 156 bytes a board.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from dealerpp.deals.formats._machines import read_dup as read
from dealerpp.deals.formats._machines import write_dup as write

__all__ = ["read", "write"]
