"""The .dup format of Duplimate: .bri and .dge in one record, 156 bytes a board.

Read and written by :mod:`dealerpp.deals.formats._machines`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dealerpp.deals._io import record_errors
from dealerpp.deals.formats._machines import read_dup, write_dup
from dealerpp.deals.options import READ, WRITE, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source, Target


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    return record_errors(read_dup(source, filename, options.first_board or 1))


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_dup(deals, target)
