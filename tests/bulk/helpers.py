"""Shared helpers: deals as text of every fast format, and the two paths."""

from __future__ import annotations

import io

from hypothesis import strategies as st

from dealerpp import deals as per_deal_api
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Deal
from dealerpp.diagnostics import DppError
from tests.deals.strategies import masks_from_counts, no_full_deal_short

FAST = ("deals", "hex", "giblib", "pbn", "oneline")


@st.composite
def partial_masks(draw: st.DrawFn, equal: bool = False) -> tuple[int, int, int, int]:
    """Hands of 0-13 cards (or all of one size 1-12 when ``equal``)."""
    cards = draw(st.permutations(range(52)))
    if equal:
        size = draw(st.integers(1, 12))
        counts = [size] * 4
    else:
        counts = no_full_deal_short([draw(st.integers(0, 13)) for _ in range(4)])
    return masks_from_counts(cards, counts)


def write_per_deal(deals: list[Deal], fmt: str) -> bytes:
    out = io.BytesIO()
    per_deal_api.write(deals, out, fmt)
    return out.getvalue()


def per_deal(data: bytes, src: str, dst: str) -> bytes | str:
    """The per-deal path's output, or its error message. Deals are written as
    they are read, as ``dealerpp convert`` does: the first error is the
    first deal the reader rejects or the writer cannot hold."""
    out = io.BytesIO()
    try:
        per_deal_api.write(per_deal_api.read(data, src, filename="in"), out, dst)
    except DppError as error:
        return error.diagnostic.format()
    return out.getvalue()


def bulk(data: bytes, src: str, dst: str, chunk: int = 1 << 20) -> bytes | str:
    """The bulk path's output, or its error message."""
    out = io.BytesIO()
    try:
        convert_stream(io.BytesIO(data), out, src, dst, filename="in", chunk=chunk)
    except DppError as error:
        return error.diagnostic.format()
    return out.getvalue()
