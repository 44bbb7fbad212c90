"""The spec's test vectors through the vectorised codecs."""

from __future__ import annotations

import numpy as np
import pytest

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.codecs import CODECS

GIB = (b"JT852.93.KQ7.J82 AQ97.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9"
       b":88887777A9A977778888\n")
GIB_DEALS = bytes.fromhex("081022700c500a0036a0010261030000804d5884100804004102840982a40100")
HEX_VECTORS = [
    (b"N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T",
     b"F2F25B5CC55E31928E2E32C949"),
    (b"N:J76.J98542.74.AK 52..AKQ8652.QJ83 AKQT8.KT6.J3.965 943.AQ73.T9.T742",
     b"4B0B4FAC05918F6623B3965CB7"),
]


def decode(fmt: str, line: bytes) -> DealArray:
    arr, ok = CODECS[fmt].decode(line, len(line))  # type: ignore[call-arg]
    assert ok is None
    return arr


def test_giblib_example_is_the_deals_vector() -> None:
    arr = decode("giblib", GIB)
    assert CODECS["deals"].encode(arr) == GIB_DEALS
    assert bytes(arr.tricks[0]) == b"88887777A9A977778888"
    assert CODECS["giblib"].encode(arr) == GIB


def test_giblib_example_as_hex() -> None:
    assert CODECS["hex"].encode(decode("giblib", GIB)) == b"EBC121949260D42D8E9BBF7C17\n"


@pytest.mark.parametrize(("pbn", "hex26"), HEX_VECTORS)
def test_hex_vectors_both_ways(pbn: bytes, hex26: bytes) -> None:
    from_pbn = decode("pbn", pbn + b"\n")
    from_hex = decode("hex", hex26 + b"\n")
    assert from_pbn == from_hex
    assert CODECS["hex"].encode(from_pbn) == hex26 + b"\n"
    assert decode("hex", hex26.lower() + b"\n") == from_hex


def test_hex_suffix_round_trip() -> None:
    arr = decode("hex", HEX_VECTORS[0][1] + b"-C\n")
    assert arr.boards is not None and arr.boards.tolist() == [12]
    assert CODECS["hex"].encode(arr) == HEX_VECTORS[0][1] + b"-C\n"


def test_pbn_first_seat_rotates() -> None:
    north = decode("pbn", HEX_VECTORS[0][0] + b"\n")
    east = decode("pbn", b"E:AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T 5.76.AK97654.Q32\n")
    bare = decode("pbn", HEX_VECTORS[0][0][2:] + b"\n")
    assert north == east == bare


def test_oneline_shape() -> None:
    arr = decode("pbn", HEX_VECTORS[0][0] + b"\n")
    line = CODECS["oneline"].encode(arr)
    assert line == (b"n 5.76.AK97654.Q32 e AK84.AKT3.Q.J965 s T632.854.J.AK874 "
                    b"w QJ97.QJ92.T832.T \n")
    assert decode("oneline", line) == arr


def test_bad_rows_are_flagged_not_decoded() -> None:
    good = HEX_VECTORS[0][0] + b"\n"
    twice = good.replace(b"Q32 ", b"QQ2 ")  # a card twice, another missing
    block = good + twice + good
    _, ok = CODECS["pbn"].decode(block, len(good))
    assert ok is not None and ok.tolist() == [True, False, True]


def test_owner_view_and_back() -> None:
    arr = decode("giblib", GIB)
    owner = arr.owner()
    assert owner.shape == (1, 52) and set(owner[0].tolist()) == {0, 1, 2, 3}
    assert DealArray.from_owner(owner) == DealArray(arr.masks)
    partial = DealArray(np.array([[1, 2, 0, 0]], np.uint64))
    assert partial.owner()[0, :3].tolist() == [0, 1, 4]
    assert not partial.is_full()[0] and not partial.problems()[0]
