"""The .bhg format: a line of 52 card letters a board, from the dealer clockwise.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dealerpp.deals._io import record_errors
from dealerpp.deals.formats._machines import read_bhg, write_bhg
from dealerpp.deals.options import READ, WRITE, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source, Target


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    return record_errors(read_bhg(source, filename, options.first_board or 1))


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_bhg(deals, target)
