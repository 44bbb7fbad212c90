"""Deals: one model and readers/writers for every deal format.

``read(source, fmt=None)`` yields deals lazily; ``write(deals, target,
fmt=None)`` writes them. The model lives in :mod:`dealerpp.deals.model`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from dealerpp.deals._io import Source, Target
from dealerpp.deals.model import (
    Call,
    Card,
    Deal,
    GibInfo,
    Hand,
    PbnComment,
    PbnInfo,
    PbnTag,
    Seat,
    Strain,
    Suit,
    Vul,
)

__all__ = [
    "FORMATS",
    "Call",
    "Card",
    "Deal",
    "GibInfo",
    "Hand",
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


def _readers() -> dict[str, Callable[..., Iterator[Deal]]]:
    from dealerpp.deals import binary, dealer_output, giblib, hex26, listing

    return {
        # PBN input may be dealer's printpbn output, statistics lines included.
        "pbn": dealer_output.read_printpbn,
        "giblib": giblib.read,
        "deals": binary.read_deals,
        "dx": binary.read_dx,
        "hex": hex26.read,
        "listing": listing.read,
        "oneline": dealer_output.read_oneline,
        "compact": dealer_output.read_compact,
        "printall": dealer_output.read_printall,
    }


def _writers() -> dict[str, Callable[[Iterable[Deal], Any], None]]:
    from dealerpp.deals import binary, dealer_output, giblib, hex26, listing, pbn

    return {
        "pbn": pbn.write,
        "giblib": giblib.write,
        "deals": binary.write_deals,
        "dx": binary.write_dx,
        "hex": hex26.write,
        "listing": listing.write,
        "oneline": dealer_output.write_oneline,
        "compact": dealer_output.write_compact,
        "printall": dealer_output.write_printall,
    }


FORMATS = ("pbn", "giblib", "deals", "dx", "hex", "listing", "oneline", "compact", "printall")


def read(source: Source, fmt: str | None = None, filename: str | None = None) -> Iterator[Deal]:
    """Deals of ``source`` (a path, a file object, or the content as bytes or
    text), lazily. ``fmt`` is one of FORMATS; by default it comes from the
    file's extension or its content. Errors are DppError naming the record."""
    from dealerpp.deals import detect
    from dealerpp.diagnostics import DppError

    if fmt is None:
        fmt, source = detect.detect(source, filename)
        if fmt is None:
            return iter(())
    readers = _readers()
    if fmt not in readers:
        raise DppError(f"unknown deal format {fmt!r} (one of {', '.join(FORMATS)})")
    return readers[fmt](source, filename=filename)


def write(deals: Iterable[Deal], target: Target, fmt: str | None = None) -> None:
    """Write ``deals`` to ``target`` (a path or a file object) in ``fmt``
    (by default from the target's extension)."""
    from dealerpp.deals import detect
    from dealerpp.diagnostics import DppError

    if fmt is None:
        name = target if isinstance(target, str) else getattr(target, "name", None)
        fmt = detect.from_extension(name if isinstance(name, str) else None)
        if fmt is None:
            raise DppError("cannot tell the output format from the name; give fmt")
    writers = _writers()
    if fmt not in writers:
        raise DppError(f"unknown deal format {fmt!r} (one of {', '.join(FORMATS)})")
    writers[fmt](deals, target)
