"""dealer's printpbn -> .deals against endplay, whole processes:
``python bench/bench_printpbn.py [--games 50000] [--repeat 3] [--pin 0]``.

dealer writes N games (14 tags each, fixed seed); ``dealerpp convert`` reads
them into a .deals file, and endplay's ``pbn.load`` (``pip install
endplay``; it rejects dealer's closing statistics lines, so it gets the file
without them) reads the same games into its boards, each in its own
process, the two taking turns. Wall and CPU time (``os.wait4``), medians;
the ratio endplay / dealerpp must be 10 or more (issue 28).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bulk import child_env

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "_data"
DEALER = "/usr/games/dealer"
GOAL = 10.0
ENDPLAY = ("import sys\nfrom endplay.parsers import pbn\n"
           "with open(sys.argv[1], encoding='utf-8') as f:\n    boards = pbn.load(f)\n"
           "assert len(boards) == int(sys.argv[2]), len(boards)\n")


def timed(command: list[str], pin: str | None) -> tuple[float, float]:
    if pin is not None:
        command = ["taskset", "-c", pin, *command]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=child_env(ROOT), cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(command)} failed")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pin", help="CPUs for taskset -c (0: one core)")
    args = parser.parse_args()
    DATA.mkdir(parents=True, exist_ok=True)
    games = DATA / f"printpbn_endplay_{args.games}.pbn"
    plain = DATA / f"printpbn_endplay_{args.games}.nostats.pbn"
    if not plain.exists():
        script = f"generate {args.games * 2}\nproduce {args.games}\naction printpbn\n"
        done = subprocess.run([DEALER, "-s", "7"], input=script.encode(), capture_output=True,
                              check=True)
        games.write_bytes(done.stdout)
        text = done.stdout.decode()
        plain.write_text(text[:text.index("Generated")].rstrip("\n") + "\n")
    ours_cmd = [sys.executable, "-m", "dealerpp", "convert", "-q", str(games),
                str(DATA / "printpbn_endplay.deals"), "--to", "deals"]
    theirs_cmd = [sys.executable, "-c", ENDPLAY, str(plain), str(args.games)]
    ours, theirs = [], []
    for _ in range(args.repeat):
        ours.append(timed(ours_cmd, args.pin))
        theirs.append(timed(theirs_cmd, args.pin))
    wall = (statistics.median(t[0] for t in theirs), statistics.median(o[0] for o in ours))
    cpu = (statistics.median(t[1] for t in theirs), statistics.median(o[1] for o in ours))
    print(f"{args.games:,} printpbn games -> deals; CPUs {args.pin or 'any'}; medians of "
          f"{args.repeat}, taking turns; load average {os.getloadavg()[0]:.2f}")
    print(f"  endplay pbn.load   {wall[0]:7.2f} s wall {cpu[0]:7.2f} s CPU")
    print(f"  dealerpp convert   {wall[1]:7.2f} s wall {cpu[1]:7.2f} s CPU")
    for name, pair in (("wall", wall), ("CPU", cpu)):
        ratio = pair[0] / pair[1]
        print(f"  endplay / dealerpp ({name}): {ratio:.1f}x  {'ok' if ratio >= GOAL else 'BELOW 10x'}")


if __name__ == "__main__":
    main()
