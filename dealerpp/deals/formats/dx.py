"""The .dx format: a .deals record with a deal number, auction and play.

Read and written by :mod:`dealerpp.deals.formats._binary`, which holds what it
shares with other formats (docs/formats.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from dealerpp.deals.formats._binary import PREVIOUS_BOARD, read_dx, write_dx
from dealerpp.deals.options import READ, WRITE, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import Source, Target


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    previous = options.previous
    if previous is None:
        return options.numbered(read_dx(source, filename))
    # a piece of a file (the bulk path's): its first board follows the
    # board of the record before it, and its last is left for the next
    return options.numbered(_left(read_dx(source, filename,
                                          int(previous.get(PREVIOUS_BOARD, 0))), previous))


def _left(deals: Iterator[Deal], previous: dict[str, str]) -> Iterator[Deal]:
    for deal in deals:
        previous[PREVIOUS_BOARD] = str(deal.board)
        yield deal


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_dx(deals, target)
