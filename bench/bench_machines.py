"""Dealing-machine records in bulk: ``python bench/bench_machines.py [--deals N]``.

Times the vectorised codecs of .ber, .bri and .dge
(``dealerpp.deals.machines_bulk``) encoding and decoding N random full deals
(default 1,000,000) in this process, checks the round trip, and in the same
run times the per-deal writer and reader (``dealerpp.deals.write``/``read``)
on a slice of them: deals/second each way, the ratio, and the 1M deals/s
goal. Best of three runs each (the machine is shared).
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable

import numpy as np
from bench_bulk import random_deals

from dealerpp import deals as deals_api
from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.machines_bulk import BerCodec, BriCodec, DgeCodec

GOAL_RATE = 1_000_000
PER_DEAL_SLICE = 20_000


def best_seconds(work: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def per_deal_rates(fmt: str, deals: DealArray) -> tuple[float, float]:
    model = deals.to_deals()

    def write() -> bytes:
        out = io.BytesIO()
        deals_api.write(model, out, fmt)
        return out.getvalue()

    data = write()
    written = best_seconds(write, 1)
    read = best_seconds(lambda: list(deals_api.read(data, fmt)), 1)
    return len(model) / written, len(model) / read


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    args = parser.parse_args()
    deals = DealArray(np.frombuffer(random_deals(args.deals, 7), "<u8").reshape(-1, 4))
    slice_ = deals[:PER_DEAL_SLICE]
    print(f"{args.deals:,} deals; per-deal path on {len(slice_):,} of them")
    print(f"{'format':6}  {'encode/s':>12}  {'decode/s':>12}  {'per-deal w/s':>12}  "
          f"{'per-deal r/s':>12}  {'ratio w':>7}  {'ratio r':>7}  goal")
    failed = False
    for codec in (BerCodec(), BriCodec(), DgeCodec()):
        data = bytes(codec.encode(deals))
        back, ok = codec.decode(data)
        assert ok is None and np.array_equal(back.masks, deals.masks), codec.name
        encode = args.deals / best_seconds(lambda c=codec: bytes(c.encode(deals)))
        decode = args.deals / best_seconds(lambda c=codec, d=data: c.decode(d))
        slow_write, slow_read = per_deal_rates(codec.name, slice_)
        met = encode >= GOAL_RATE and decode >= GOAL_RATE
        failed |= not met
        print(f"{codec.name:6}  {encode:12,.0f}  {decode:12,.0f}  {slow_write:12,.0f}  "
              f"{slow_read:12,.0f}  {encode / slow_write:6.0f}x  {decode / slow_read:6.0f}x  "
              f"{'met' if met else 'NOT MET'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
