"""Dealing-machine records in bulk: ``python bench/bench_machines.py [--deals N] [--part P]``.

``--part codecs``: times the vectorised codecs of .ber, .bri and .dge
(``dealerpp.deals.bulk.machines``) encoding and decoding N random full deals
(default 1,000,000) in this process, checks the round trip, and in the same
run times the per-deal writer and reader (``dealerpp.deals.write``/``read``)
on a slice of them: deals/second each way, the ratio, and the 1M deals/s
goal. Best of three runs each (the machine is shared).

``--part process``: times ``dealerpp convert`` as a whole process (start
included), .deals -> .ber/.bri/.dge and back on an N-deal file under
``bench/_data/`` (the bulk path; best of three, the round trip checked
byte for byte), and in the same run the same command with the bulk path
turned off on the first 100,000 of the deals (the per-deal path, once
each): deals/second, the ratio, and the 1M deals/s goal.

Both parts run by default (``--part both``).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from bench_bulk import DATA, ROOT, child_env, convert, random_deals, write_deals_file

from dealerpp import deals as deals_api
from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.machines import BerCodec, BriCodec, DgeCodec

GOAL_RATE = 1_000_000
PER_DEAL_SLICE = 20_000
PER_DEAL_PROCESS = 100_000
MACHINE_FORMATS = ("ber", "bri", "dge")
# ``dealerpp convert`` with the bulk path turned off: every pair goes deal by deal
PER_DEAL_CONVERT = ("import sys; from dealerpp.deals import formats; "
                    "formats.is_fast_pair = lambda src, dst: False; "
                    "from dealerpp.cli import main; raise SystemExit(main(sys.argv[1:]))")


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
        deals_api.write(out, model, fmt)
        return out.getvalue()

    data = write()
    written = best_seconds(write, 1)
    read = best_seconds(lambda: list(deals_api.read_source(data, fmt)), 1)
    return len(model) / written, len(model) / read


def bench_codecs(count: int) -> bool:
    """The in-process part; whether every codec met the goal."""
    deals = DealArray(np.frombuffer(random_deals(count, 7), "<u8").reshape(-1, 4))
    slice_ = deals[:PER_DEAL_SLICE]
    print(f"codecs in-process, {count:,} deals; per-deal path on {len(slice_):,} of them")
    print(f"{'format':6}  {'encode/s':>12}  {'decode/s':>12}  {'per-deal w/s':>12}  "
          f"{'per-deal r/s':>12}  {'ratio w':>7}  {'ratio r':>7}  goal")
    failed = False
    for codec in (BerCodec(), BriCodec(), DgeCodec()):
        data = bytes(codec.encode(deals))
        back, ok = codec.decode(data)
        assert ok is None and np.array_equal(back.masks, deals.masks), codec.name
        encode = count / best_seconds(lambda c=codec: bytes(c.encode(deals)))
        decode = count / best_seconds(lambda c=codec, d=data: c.decode(d))
        slow_write, slow_read = per_deal_rates(codec.name, slice_)
        met = encode >= GOAL_RATE and decode >= GOAL_RATE
        failed |= not met
        print(f"{codec.name:6}  {encode:12,.0f}  {decode:12,.0f}  {slow_write:12,.0f}  "
              f"{slow_read:12,.0f}  {encode / slow_write:6.0f}x  {decode / slow_read:6.0f}x  "
              f"{'met' if met else 'NOT MET'}")
    return not failed


def per_deal_process_seconds(src: Path, dst: Path, fmt_from: str, fmt_to: str) -> float:
    """Seconds of one ``dealerpp convert`` process with the bulk path off."""
    command = [sys.executable, "-c", PER_DEAL_CONVERT, "convert", "-q", str(src), str(dst),
               "--from", fmt_from, "--to", fmt_to]
    start = time.perf_counter()
    subprocess.run(command, env=child_env(ROOT), cwd=ROOT, check=True, timeout=600)
    return time.perf_counter() - start


def bench_process(count: int, repeat: int = 3) -> bool:
    """The whole-process part; whether every conversion met the goal."""
    DATA.mkdir(exist_ok=True)
    source = DATA / f"deals_{count}.deals"
    if not source.exists() or source.stat().st_size != 32 * count:
        write_deals_file(source, count)
    raw = source.read_bytes()
    small_count = min(count, PER_DEAL_PROCESS)
    small = DATA / f"deals_{small_count}_head.deals"
    small.write_bytes(raw[:32 * small_count])
    warm_up = DATA / "warm_up.ber"
    convert(small, warm_up, "deals", "ber")  # bytecode and page cache, untimed
    warm_up.unlink()
    print(f"dealerpp convert as a process (start included), {count:,} deals, best of {repeat}; "
          f"per-deal path (bulk off) on {small_count:,} of them, once")
    print(f"{'conversion':16}  {'bulk s':>7}  {'bulk/s':>11}  {'per-deal/s':>10}  "
          f"{'ratio':>5}  goal")
    failed = False
    for fmt in MACHINE_FORMATS:
        made, back = DATA / f"deals_{count}.{fmt}", DATA / f"deals_{count}.{fmt}.deals"
        small_made, small_back = DATA / f"head.{fmt}", DATA / f"head.{fmt}.deals"
        for label, (src, dst, fmt_from, fmt_to), (p_src, p_dst) in (
                (f".deals -> .{fmt}", (source, made, "deals", fmt), (small, small_made)),
                (f".{fmt} -> .deals", (made, back, fmt, "deals"), (small_made, small_back))):
            seconds = min(convert(src, dst, fmt_from, fmt_to) for _ in range(repeat))
            slow = small_count / per_deal_process_seconds(p_src, p_dst, fmt_from, fmt_to)
            rate = count / seconds
            failed |= rate < GOAL_RATE
            print(f"{label:16}  {seconds:7.3f}  {rate:11,.0f}  {slow:10,.0f}  "
                  f"{rate / slow:4.0f}x  {'met' if rate >= GOAL_RATE else 'NOT MET'}")
        same = back.read_bytes() == raw and small_back.read_bytes() == raw[:32 * small_count]
        print(f"  round trips .deals -> .{fmt} -> .deals byte-identical: {same}")
        failed |= not same
        for path in (made, back, small_made, small_back):
            path.unlink()
    small.unlink()
    return not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--part", choices=("codecs", "process", "both"), default="both")
    args = parser.parse_args()
    met = True
    if args.part in ("codecs", "both"):
        met &= bench_codecs(args.deals)
    if args.part in ("process", "both"):
        met &= bench_process(args.deals)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
