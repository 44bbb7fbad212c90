"""The .deals format: four 64-bit hand masks N E S W a deal, 32 bytes a record.

Read and written by :mod:`dealerpp.deals.formats._binary`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dealerpp.deals.formats._binary import read_deals, write_deals
from dealerpp.deals.options import READ, WRITE, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source, Target


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    return options.numbered(read_deals(source, filename))


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_deals(deals, target)
