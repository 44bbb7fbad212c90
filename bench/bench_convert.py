"""Every conversion path as a whole process: ``python bench/bench_convert.py``.

For each writable format X (but .dup, whose sets end at board 99): a
``dealerpp convert`` of N random deals (default 100,000) .deals -> X, the
result X -> .deals (checked to equal the start), and dealer's own printpbn
output of N games -> X. Each is a whole process (start-up included), timed
by wall clock and by the CPU time the kernel gives it (``os.wait4``), best
of ``--repeat``.

The baseline in the same run is the bulk path's .deals -> hex26 (one of
the fixed-record formats): every row prints its time as a ratio to that,
and its rate against the goals of issue 28: every path at least 100,000
deals/s, the fixed-record and deal-only formats on the bulk path 1,000,000
deals/s (for those, ``--deals 1000000``).

``--pin 0`` runs every process on one CPU (``taskset -c 0``), ``--pin 0,1``
on two; the machine may be shared, so rates are worth quoting only with the
ratio to the baseline measured beside them. ``--against DIR`` times another
checkout (``git worktree add /tmp/before COMMIT``) in the same run, the two
taking turns, and prints old/new wall and CPU time for each row (on a loaded
machine the CPU ratio is the one to read).

Inputs are generated: the deals by numpy from a fixed seed, the games by
/usr/games/dealer (``produce N``, ``action printpbn``, seed 11).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bulk import child_env, random_deals

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "_data" / "convert"
DEALER = "/usr/games/dealer"
GOAL = 100_000
FORMATS = ("pbn", "giblib", "dx", "hex", "listing", "oneline", "compact", "printall",
           "bri", "dge", "ber", "bhg", "csv", "html", "lin")


def run(command: list[str], root: Path, pin: str | None) -> tuple[float, float]:
    """Wall and CPU seconds of one process of the checkout ``root``."""
    if pin is not None:
        command = ["taskset", "-c", pin, *command]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=child_env(root), cwd=root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    assert process.stderr is not None
    err = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(command)} failed: {err}")
    return wall, usage.ru_utime + usage.ru_stime


def convert(src: Path, dst: Path, fmt_from: str, fmt_to: str) -> list[str]:
    return [sys.executable, "-m", "dealerpp", "convert", "-q", str(src), str(dst),
            "--from", fmt_from, "--to", fmt_to]


def make_inputs(count: int) -> tuple[Path, Path]:
    DATA.mkdir(parents=True, exist_ok=True)
    deals = DATA / f"random_{count}.deals"
    if not deals.exists():
        with open(deals, "wb") as out:
            for start in range(0, count, 100_000):
                out.write(random_deals(min(100_000, count - start), seed=start + 3))
    games = DATA / f"printpbn_{count}.pbn"
    if not games.exists():
        script = f"generate {count * 2}\nproduce {count}\naction printpbn\n"
        with open(games, "wb") as out:
            subprocess.run([DEALER, "-s", "11"], input=script.encode(), stdout=out, check=True)
    return deals, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--pin", help="CPUs for taskset -c (0: one core)")
    parser.add_argument("--against", type=Path, help="another checkout, timed in turn")
    parser.add_argument("--formats", nargs="*", default=list(FORMATS))
    args = parser.parse_args()
    if args.pin is not None and shutil.which("taskset") is None:
        raise SystemExit("--pin needs taskset (util-linux)")
    deals, games = make_inputs(args.deals)
    roots = [ROOT] + ([args.against.resolve()] if args.against else [])
    count = args.deals

    def best(command: list[str]) -> list[tuple[float, float]]:
        """Best (wall, cpu) of each checkout, the checkouts taking turns."""
        runs: list[list[tuple[float, float]]] = [[] for _ in roots]
        for _ in range(args.repeat):
            for index, root in enumerate(roots):
                runs[index].append(run(command, root, args.pin))
        return [min(r) for r in runs]

    base_out = DATA / "base.hex"
    base = best(convert(deals, base_out, "deals", "hex"))
    print(f"{count:,} deals; CPUs {args.pin or 'any'}; best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.2f}; "
          f"baseline .deals -> hex (bulk): {base[0][0]:.3f} s wall, {base[0][1]:.3f} s CPU")
    head = f"{'conversion':24s} {'wall s':>7s} {'CPU s':>7s} {'deals/s':>11s} {'x base':>7s}"
    print(head + ("  old/new wall    CPU" if args.against else "") + "  goal")
    for fmt in args.formats:
        out = DATA / f"out.{fmt}"
        back = DATA / f"back_{fmt}.deals"
        for label, command in (
                (f".deals -> {fmt}", convert(deals, out, "deals", fmt)),
                (f"{fmt} -> .deals", convert(out, back, fmt, "deals")),
                (f"printpbn -> {fmt}", convert(games, DATA / f"pp.{fmt}", "pbn", fmt))):
            times = best(command)
            wall, cpu = times[0]
            rate = count / wall
            line = (f"{label:24s} {wall:7.3f} {cpu:7.3f} {rate:11,.0f} "
                    f"{wall / base[0][0]:7.2f}")
            if args.against:
                line += f"  {times[1][0] / wall:12.2f} {times[1][1] / cpu:6.2f}"
            print(line + ("  ok" if rate >= GOAL else "  BELOW 100k/s"), flush=True)
        if back.read_bytes() != deals.read_bytes():
            print(f"  {fmt}: the round trip changed the deals")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
