"""The .dx format: a .deals record with a deal number, auction and play.

Read and written by :mod:`dealerpp.deals.formats._binary`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dealerpp.deals.formats._binary import read_dx, write_dx
from dealerpp.deals.options import READ, WRITE, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source, Target


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    return options.numbered(read_dx(source, filename))


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_dx(deals, target)
