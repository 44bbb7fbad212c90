"""The .csv club format: 16 quoted holdings, board, dealer/vulnerability a line.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dealerpp.deals._io import record_errors
from dealerpp.deals.formats._machines import read_csv, write_csv
from dealerpp.deals.options import READ, WRITE, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source, Target


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    return options.numbered(record_errors(read_csv(source, filename)))


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_csv(deals, target)
