"""The .dx format: a .deals record with a deal number, auction and play.

Read and written by :mod:`dealerpp.deals.formats._binary`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from dealerpp.deals.formats._binary import read_dx as read
from dealerpp.deals.formats._binary import write_dx as write

__all__ = ["read", "write"]
