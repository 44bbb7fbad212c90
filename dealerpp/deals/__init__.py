"""Deals: one model and readers/writers for every deal format.

``read(source, fmt=None)`` yields deals lazily; ``write(deals, target,
fmt=None)`` writes them. The model lives in :mod:`dealerpp.deals.model`,
the list of formats in :mod:`dealerpp.deals.formats`. The model's names are
imported here on first use, so importing the registry (which the convert
command does before it has decided anything) does not load the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from dealerpp.deals import formats

if TYPE_CHECKING:
    from dealerpp.deals._io import Source, Target
    from dealerpp.deals.model import (
        Call,
        Card,
        Deal,
        GibInfo,
        Hand,
        Holding,
        PbnComment,
        PbnInfo,
        PbnTag,
        Seat,
        Strain,
        Suit,
        Vul,
    )

_MODEL_NAMES = frozenset({"Call", "Card", "Deal", "GibInfo", "Hand", "Holding", "PbnComment", "PbnInfo",
                          "PbnTag", "Seat", "Strain", "Suit", "Vul"})


def __getattr__(name: str) -> Any:
    if name in _MODEL_NAMES:
        from dealerpp.deals import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMATS",
    "Call",
    "Card",
    "Deal",
    "GibInfo",
    "Hand",
    "Holding",
    "PbnComment",
    "PbnInfo",
    "PbnTag",
    "Seat",
    "Strain",
    "Suit",
    "Vul",
    "read",
    "write",
]


FORMATS = formats.NAMES  # the names of dealerpp.deals.formats.FORMATS


def read(source: Source, fmt: str | None = None, filename: str | None = None, *,
         first_board: int | None = None) -> Iterator[Deal]:
    """Deals of ``source`` (a path, a file object, or the content as bytes or
    text), lazily. ``fmt`` is one of FORMATS; by default it comes from the
    file's extension or its content. Errors are DppError naming the record.

    ``first_board``: number the boards from there, with dealer and
    vulnerability by the cycle (``convert --first-board``); a format that
    holds no board numbers is read with that numbering, since a .bhg hand
    starts with its board's dealer."""
    from dealerpp.deals import detect

    if fmt is None:
        fmt, source = detect.detect(source, filename)
        if fmt is None:
            return iter(())
    found = formats.get(fmt)
    reader = found.load_reader()
    if first_board is None:
        return reader(source, filename=filename)
    if found.positional:
        return reader(source, filename=filename, first_board=first_board)
    from dealerpp.deals.model import numbered

    return numbered(reader(source, filename=filename), first_board)


def write(deals: Iterable[Deal], target: Target, fmt: str | None = None) -> None:
    """Write ``deals`` to ``target`` (a path or a file object) in ``fmt``
    (by default from the target's extension)."""
    if fmt is None:
        name = target if isinstance(target, str) else getattr(target, "name", None)
        fmt = formats.from_extension(name if isinstance(name, str) else None)
        if fmt is None:
            from dealerpp.diagnostics import DppError

            raise DppError("cannot tell the output format from the name; give fmt")
    formats.get(fmt).load_writer()(deals, target)
