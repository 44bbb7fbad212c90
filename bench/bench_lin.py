"""LIN benchmark: ``python bench/bench_lin.py [--boards N] [--repeat R]``.

Files (under ``bench/_data/``, made once): dealer's own ``printpbn`` output
of N boards (``/usr/games/dealer`` with a fixed seed), and the LIN set
``dealerpp convert`` makes of it (one line a board, as Big Deal writes it:
the form clubs upload to BBO).

Measured in the same run, each as a whole process (start-up and imports
included), the trees taking turns, on one core (``taskset -c 0``) and as
the command runs (two cores here):

1. reading the LIN set into deal objects: ``dealerpp.deals.formats.lin.read``
   against endplay's ``endplay.parsers.lin.load`` (``pip install endplay``,
   the ``bench`` extra). endplay rejects ``sv|0|`` and cuts boards at
   ``pn|``, so it is given the same boards with ``sv|o|`` and a ``pn|,,,|``
   before each; both must return N boards, and the first 100 the same
   deals. The goal: 10x or more, by CPU time and by wall time;
2. ``dealerpp convert`` LIN -> .deals and printpbn -> LIN (information).

The machine is shared: wall times drift with other work, CPU time (user +
system of the child) much less; both are printed, and the best of R runs
taken.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "_data"
DEALER = "/usr/games/dealer"
GOAL_RATIO = 10.0

OURS = ("from dealerpp.deals import lin; import sys\n"
        "print(sum(1 for _ in lin.read(sys.argv[1])))")
THEIRS = ("from endplay.parsers import lin; import sys\n"
          "print(len(lin.load(open(sys.argv[1], encoding='utf-8'))))")
SAME = """
import sys
from dealerpp.deals.formats import lin
from dealerpp.deals.model import Deal
from endplay.parsers import lin as endplay_lin
ours = [d.masks for _, d in zip(range(100), lin.read(sys.argv[1]))]
theirs = [Deal.from_pbn(" ".join(str(getattr(b.deal, s)).replace("-", "")
                                 for s in ("north", "east", "south", "west"))).masks
          for b in endplay_lin.load(open(sys.argv[2], encoding="utf-8"))[:100]]
print(ours == theirs)
"""


def child_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of a child process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=child_env(), check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip()


def make_files(boards: int) -> tuple[Path, Path, Path]:
    DATA.mkdir(parents=True, exist_ok=True)
    printpbn = DATA / f"lin_printpbn_{boards}.pbn"
    ours = DATA / f"lin_set_{boards}.lin"
    theirs = DATA / f"lin_set_{boards}_endplay.lin"
    if not printpbn.exists():
        script = f"generate {boards * 2}\nproduce {boards}\naction printpbn\n"
        with open(printpbn, "wb") as out:
            subprocess.run([DEALER, "-s", "11"], input=script.encode(), stdout=out, check=True)
    if not ours.exists():
        subprocess.run([sys.executable, "-m", "dealerpp", "convert", str(printpbn), str(ours),
                        "-q"], env=child_env(), check=True)
    if not theirs.exists():
        lines = ours.read_text(encoding="utf-8").splitlines()
        theirs.write_text("".join("pn|,,,|" + line.replace("|sv|0|", "|sv|o|") + "\n"
                                  for line in lines), encoding="utf-8")
    return printpbn, ours, theirs


def best(runs: list[tuple[float, float, str]]) -> tuple[float, float]:
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    printpbn, ours, theirs = make_files(args.boards)
    python = sys.executable
    same = timed([python, "-c", SAME, str(ours), str(theirs)])[2]
    print(f"{args.boards} boards; endplay reads the same first 100 deals: {same}")
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    failed = False
    for label, prefix in (("one core", pin), ("as run", [])):
        if label == "one core" and not pin:
            continue
        mine_runs, their_runs = [], []
        for _ in range(args.repeat):  # the two take turns
            mine_runs.append(timed([*prefix, python, "-c", OURS, str(ours)]))
            their_runs.append(timed([*prefix, python, "-c", THEIRS, str(theirs)]))
        counts = {r[2] for r in mine_runs + their_runs}
        assert counts == {str(args.boards)}, counts
        (mine_wall, mine_cpu), (their_wall, their_cpu) = best(mine_runs), best(their_runs)
        wall_ratio, cpu_ratio = their_wall / mine_wall, their_cpu / mine_cpu
        print(f"read, {label}: dealerpp {mine_wall:.2f} s wall {mine_cpu:.2f} s CPU; "
              f"endplay {their_wall:.2f} s wall {their_cpu:.2f} s CPU; "
              f"{wall_ratio:.1f}x wall, {cpu_ratio:.1f}x CPU (goal {GOAL_RATIO:.0f}x)")
        failed |= min(wall_ratio, cpu_ratio) < GOAL_RATIO
    deals = DATA / "lin_out.deals"
    lin_out = DATA / "lin_out.lin"
    for what, argv in (("convert lin -> .deals", [str(ours), str(deals)]),
                       ("convert printpbn -> lin", [str(printpbn), str(lin_out)])):
        wall, cpu = best([timed([python, "-m", "dealerpp", "convert", *argv, "-q"])
                          for _ in range(args.repeat)])
        print(f"{what}: {wall:.2f} s wall {cpu:.2f} s CPU "
              f"({args.boards / wall:,.0f} boards/s)")
    print("printpbn -> lin again gives the same bytes:", lin_out.read_bytes() == ours.read_bytes())
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
