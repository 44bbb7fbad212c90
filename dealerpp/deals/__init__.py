"""Deals: one model and readers/writers for every deal format.

``read(file, format=None)`` yields the deals of a path or an open file
lazily, ``loads(data, format=None)`` those of content in memory;
``write(file, deals, format=None)`` writes them (a path atomically) and
``dumps(deals, format)`` makes the content; ``convert(src, dst)`` converts
a whole file (in bulk where it can: :mod:`dealerpp.deals.conversion`). They
live in :mod:`dealerpp.deals.files` and :mod:`dealerpp.deals.conversion`, the
model in :mod:`dealerpp.deals.model` (which names its parts), the list of formats in
:mod:`dealerpp.deals.formats`. The model's names are
imported here on first use, so importing the registry (which the convert
command does before it has decided anything) does not load the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dealerpp.deals import formats
from dealerpp.deals.conversion import convert
from dealerpp.deals.files import dumps, loads, read, write
from dealerpp.deals.files import read_source as read_source  # any source (dealerpp.deals.files)

if TYPE_CHECKING:
    from dealerpp.deals.formats.giblib import GibInfo
    from dealerpp.deals.formats.pbn.game import PbnComment, PbnInfo, PbnTag
    from dealerpp.deals.model import (
        Call,
        Card,
        Deal,
        FormatData,
        Hand,
        Holding,
        Seat,
        Strain,
        Suit,
        Tricks,
        Vul,
    )

_MODEL_NAMES = frozenset({"Call", "Card", "Deal", "FormatData", "Hand", "Holding", "Seat", "Strain",
                          "Suit", "Tricks", "Vul"})
# What one format alone says of a deal (Deal.extra) is that format's own
# class, in that format's module.
_FORMAT_DATA = {"GibInfo": "dealerpp.deals.formats.giblib",
                "PbnComment": "dealerpp.deals.formats.pbn.game",
                "PbnInfo": "dealerpp.deals.formats.pbn.game",
                "PbnTag": "dealerpp.deals.formats.pbn.game"}


def __dir__() -> list[str]:
    """The names a user takes, imported yet or not, and the modules of the
    package loaded: what tab completion (a notebook's) offers. Not the
    module's own helpers (``Any``, ``TYPE_CHECKING``, ``annotations``)."""
    found = globals()
    loaded = {name for name, value in found.items()
              if type(value) is type(formats) and not name.startswith("_")}
    return sorted(loaded | set(__all__) | {name for name in found if name.startswith("__")})


def __getattr__(name: str) -> Any:
    if name in _MODEL_NAMES:
        from dealerpp.deals import model

        return getattr(model, name)
    if name in _FORMAT_DATA:
        import importlib

        return getattr(importlib.import_module(_FORMAT_DATA[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMATS",
    "Call",
    "Card",
    "Deal",
    "FormatData",
    "GibInfo",
    "Hand",
    "Holding",
    "PbnComment",
    "PbnInfo",
    "PbnTag",
    "Seat",
    "Strain",
    "Suit",
    "Tricks",
    "Vul",
    "convert",
    "dumps",
    "loads",
    "read",
    "write",
]


FORMATS = formats.NAMES  # the names of dealerpp.deals.formats.FORMATS
