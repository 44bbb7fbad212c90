"""PBN games on the bulk path (``dealerpp convert`` between a PBN file and
another fast format): tag games go to the per-deal reader and are written
in batches, which must not change what is written or which error comes
first."""

from __future__ import annotations

import io

import pytest

from dealerpp.deals.bulk.stream import convert_stream
from dealerpp.diagnostics import DppError
from tests.bulk.helpers import per_deal

FULL = "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"
PARTIAL = "N:5.76.AK97654.Q32 - - -"  # a hand alone: hex cannot hold it
TWICE = "N:5.76.AK97654.Q32 5.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"  # S5 twice


def tagged(*deals: str) -> bytes:
    return "\n".join(f'[Board "{i}"]\n[Deal "{d}"]\n' for i, d in enumerate(deals, 1)).encode()


def bulk_output_and_error(data: bytes, dst: str) -> tuple[bytes, str | None]:
    out = io.BytesIO()
    try:
        convert_stream(io.BytesIO(data), out, "pbn", dst, filename="in")
    except DppError as error:
        return out.getvalue(), error.diagnostic.format()
    return out.getvalue(), None


def test_a_writer_error_in_a_batch_comes_before_a_later_reader_error() -> None:
    data = tagged(FULL, FULL, PARTIAL, TWICE)
    written, error = bulk_output_and_error(data, "hex")
    assert error is not None and "deal 3:" in error and "full deals only" in error
    assert error == per_deal(data, "pbn", "hex")
    # the two deals before it were written, as deal by deal
    assert written.count(b"\n") == 2


def test_a_reader_error_after_a_batch_leaves_the_deals_before_it_written() -> None:
    data = tagged(FULL, FULL, TWICE)
    written, error = bulk_output_and_error(data, "hex")
    assert error == per_deal(data, "pbn", "hex")
    # the third game's Deal line (two lines a game, a blank line between),
    # at the second hand's S5
    line = 3 * 3 - 1
    column = len('[Deal "N:5.76.AK97654.Q32 ') + 1
    # named as the third game, whose Board tag says 3
    assert error is not None and error.startswith(
        f"in:{line}:{column}: error: deal 3: board 3: Deal: card S5")
    assert written.count(b"\n") == 2


@pytest.mark.sampled(3)
@pytest.mark.parametrize("dst", ["deals", "hex", "oneline"])
def test_many_tag_games_convert_as_deal_by_deal(dst: str) -> None:
    data = tagged(*[FULL] * 5000)  # more than one batch
    written, error = bulk_output_and_error(data, dst)
    assert error is None
    assert written == per_deal(data, "pbn", dst)
