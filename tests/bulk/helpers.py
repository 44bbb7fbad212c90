"""Shared helpers: deals as text of every fast format, and the two paths."""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from dealerpp import deals as per_deal_api
from dealerpp.deals import formats
from dealerpp.deals.bulk.codecs import CODECS, RecordCodec
from dealerpp.deals.bulk.fallback import ModelPerDeal
from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.deals.model import Deal
from dealerpp.diagnostics import DppError
from tests.deals.strategies import masks_from_counts, no_full_deal_short

FAST = formats.FAST
#: the fast formats of lines (the others are fixed-size records)
LINE_FORMATS = tuple(f for f in FAST if not isinstance(CODECS[f], RecordCodec))


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
    per_deal_api.write(out, deals, fmt)
    return out.getvalue()


# Kept: parametrized tests ask the same (slow) per-deal conversion once per
# chunk size; its answer depends on nothing but the arguments.
@lru_cache(maxsize=256)
def per_deal(data: bytes, src: str, dst: str, first_board: int | None = None) -> bytes | str:
    """The per-deal path's output, or its error message. Deals are written as
    they are read, as ``dealerpp convert`` does: the first error is the
    first deal the reader rejects or the writer cannot hold. With
    ``first_board``, boards are numbered as ``convert --first-board`` does."""
    out = io.BytesIO()
    try:
        found = per_deal_api.read_source(data, src, filename="in", first_board=first_board)
        per_deal_api.write(out, found, dst)
    except DppError as error:
        return error.diagnostic.format()
    return out.getvalue()


def bulk(data: bytes, src: str, dst: str, chunk: int = 1 << 20,
         first_board: int | None = None) -> bytes | str:
    """The bulk path's output, or its error message."""
    out = io.BytesIO()
    try:
        convert_stream(io.BytesIO(data), out, src, dst, filename="in", chunk=chunk,
                       first_board=first_board)
    except DppError as error:
        return error.diagnostic.format()
    return out.getvalue()


class PerDealRefused(ModelPerDeal):
    """A per-deal side that fails the test when its reader is asked for a
    deal: what it converts must have taken the bulk path."""

    def read(self, *args: Any, **options: Any) -> Iterator[Deal]:
        raise AssertionError("a record went to the per-deal reader")

    def read_stream(self, *args: Any, **options: Any) -> Iterator[Deal]:
        raise AssertionError("the file went to the per-deal reader")
