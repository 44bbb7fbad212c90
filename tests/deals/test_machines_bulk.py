"""The vectorised .ber/.bri/.dge codecs agree with the per-deal readers and
writers (which tests/deals/test_machines.py checks against the spec): the
same bytes out, the same deals in, and a row fails exactly when the per-deal
reader rejects its record."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.machines import BerCodec, BriCodec, DgeCodec
from dealerpp.deals.model import Deal
from dealerpp.diagnostics import DppError
from tests.conftest import examples
from tests.deals.strategies import full_masks

CODECS = [BerCodec(), BriCodec(), DgeCodec()]
Codec = BerCodec | BriCodec | DgeCodec


def per_deal_bytes(masks: list[tuple[int, int, int, int]], fmt: str) -> bytes:
    out = io.BytesIO()
    deals_api.write(out, [Deal(m) for m in masks], fmt)
    return out.getvalue()


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
@settings(max_examples=examples(30), deadline=None)
@given(masks=st.lists(full_masks(), min_size=1, max_size=12))
def test_codec_matches_the_per_deal_path(codec: Codec, masks: list[tuple[int, int, int, int]]) -> None:
    expected = per_deal_bytes(masks, codec.name)
    array = DealArray(np.array(masks, np.uint64))
    assert bytes(codec.encode(array)) == expected
    decoded, ok = codec.decode(expected)
    assert ok is None
    assert decoded.masks.tolist() == [list(m) for m in masks]


def per_deal_accepts(record: bytes, fmt: str) -> bool:
    try:
        list(deals_api.read_source(record, fmt))
    except DppError:
        return False
    return True


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
@settings(max_examples=examples(60), deadline=None)
@given(masks=st.lists(full_masks(), min_size=2, max_size=4), data=st.data())
def test_a_row_fails_exactly_when_the_per_deal_reader_refuses_it(
        codec: Codec, masks: list[tuple[int, int, int, int]], data: st.DataObject) -> None:
    block = bytearray(per_deal_bytes(masks, codec.name))
    row = data.draw(st.integers(0, len(masks) - 1))
    column = data.draw(st.integers(0, codec.record - 1))
    value = data.draw(st.sampled_from(b"0123456789AKQJTXx \0\3\4\5\6"))
    block[row * codec.record + column] = value
    _, ok = codec.decode(bytes(block))
    record = bytes(block[row * codec.record:(row + 1) * codec.record])
    row_ok = True if ok is None else bool(ok[row])
    assert row_ok is per_deal_accepts(record, codec.name)
    if ok is not None:
        assert ok.sum() == len(masks) - 1
