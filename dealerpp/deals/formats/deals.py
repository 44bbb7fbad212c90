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
    from dealerpp.deals._io import Source, Target
    from dealerpp.deals.bulk.codecs import Codec
    from dealerpp.deals.model import Deal


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    return options.numbered(read_deals(source, filename))


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    write_deals(deals, target)


def bulk_codec() -> Codec:
    from dealerpp.deals.bulk.codecs import DealsCodec

    return DealsCodec()
