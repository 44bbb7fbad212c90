"""The bulk path's table of codecs, :data:`CODECS`: the codec of each fast
format by its name, and the types a codec has (:data:`Codec`).

A format the registry marks fast (``bulk=True`` in
:mod:`dealerpp.deals.formats`) has its codec class in a module of this
package named as the format (``bulk/lin.py``: ``LinCodec``; the dealing
machines' .bri, .dge and .ber share ``bulk/machines.py``), built on the
blocks of :mod:`dealerpp.deals.bulk.blocks` and the hooks of
:mod:`dealerpp.deals.bulk.hooks`. :func:`made` names each one and imports
its module when the format is first converted, so a conversion imports
only the codecs it uses. This table is above every codec: it imports
them, and none of them imports it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from dealerpp.deals import formats
from dealerpp.deals.bulk.array import DealArray


@runtime_checkable
class RecordCodec(Protocol):
    """A codec of fixed-size records without line ends (``DealsCodec`` and
    the club formats' codecs of ``dealerpp.deals.bulk.machines``): the
    bulk path cuts a file into ``record`` bytes a deal."""

    name: str
    record: int

    def decode(self, block: bytes | memoryview) -> tuple[DealArray, np.ndarray | None]: ...

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview: ...


if TYPE_CHECKING:
    from typing import TypeAlias

    from dealerpp.deals.bulk.bhg import BhgCodec
    from dealerpp.deals.bulk.compact import CompactCodec
    from dealerpp.deals.bulk.csv import CsvCodec
    from dealerpp.deals.bulk.dx import DxCodec
    from dealerpp.deals.bulk.giblib import GiblibCodec
    from dealerpp.deals.bulk.hex import Hex26Codec
    from dealerpp.deals.bulk.html import HtmlCodec
    from dealerpp.deals.bulk.lin import LinCodec
    from dealerpp.deals.bulk.listing import ListingCodec
    from dealerpp.deals.bulk.oneline import OnelineCodec
    from dealerpp.deals.bulk.pbn import PbnCodec
    from dealerpp.deals.bulk.printall import PrintallCodec

    LineCodec: TypeAlias = (Hex26Codec | GiblibCodec | PbnCodec | OnelineCodec | LinCodec
                            | CompactCodec | ListingCodec | BhgCodec | DxCodec
                            | PrintallCodec | CsvCodec | HtmlCodec)
    Codec: TypeAlias = RecordCodec | LineCodec


def made(fmt: str) -> Codec:
    """A new codec of the fast format ``fmt``, its module imported now (the
    first time the bulk path converts the format); KeyError for a format
    without one. One case a codec: adding one is its module and its case
    (here for a binary format of fixed-size records, else in
    ``_made_for_lines``)."""
    match fmt:
        case "deals":
            from dealerpp.deals.bulk.deals import DealsCodec

            return DealsCodec()
        case "bri":
            from dealerpp.deals.bulk.machines import BriCodec

            return BriCodec()
        case "dge":
            from dealerpp.deals.bulk.machines import DgeCodec

            return DgeCodec()
        case "ber":
            from dealerpp.deals.bulk.machines import BerCodec

            return BerCodec()
    return _made_for_lines(fmt)


def _made_for_lines(fmt: str) -> LineCodec:
    """``made`` for a format read as lines of text (or as records found in
    them: .dx)."""
    match fmt:
        case "pbn":
            from dealerpp.deals.bulk.pbn import PbnCodec

            return PbnCodec()
        case "giblib":
            from dealerpp.deals.bulk.giblib import GiblibCodec

            return GiblibCodec()
        case "hex":
            from dealerpp.deals.bulk.hex import Hex26Codec

            return Hex26Codec()
        case "oneline":
            from dealerpp.deals.bulk.oneline import OnelineCodec

            return OnelineCodec()
        case "compact":
            from dealerpp.deals.bulk.compact import CompactCodec

            return CompactCodec()
        case "printall":
            from dealerpp.deals.bulk.printall import PrintallCodec

            return PrintallCodec()
        case "listing":
            from dealerpp.deals.bulk.listing import ListingCodec

            return ListingCodec()
        case "lin":
            from dealerpp.deals.bulk.lin import LinCodec

            return LinCodec()
        case "dx":
            from dealerpp.deals.bulk.dx import DxCodec

            return DxCodec()
        case "bhg":
            from dealerpp.deals.bulk.bhg import BhgCodec

            return BhgCodec()
        case "csv":
            from dealerpp.deals.bulk.csv import CsvCodec

            return CsvCodec()
        case "html":
            from dealerpp.deals.bulk.html import HtmlCodec

            return HtmlCodec()
    raise KeyError(fmt)


class _Registered(Mapping[str, "Codec"]):
    """The codec of each fast format of the registry
    (``dealerpp.deals.formats``), made on first use."""

    def __init__(self) -> None:
        self._made: dict[str, Codec] = {}

    def __getitem__(self, fmt: str) -> Codec:
        codec = self._made.get(fmt)
        if codec is None:
            if fmt not in formats.FAST:
                raise KeyError(fmt)
            codec = self._made[fmt] = made(fmt)
        return codec

    def __iter__(self) -> Iterator[str]:
        return iter(formats.FAST)

    def __len__(self) -> int:
        return len(formats.FAST)


CODECS: Mapping[str, Codec] = _Registered()
