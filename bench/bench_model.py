"""Reading deals into the library model, before and after, in one run:
``python bench/bench_model.py [--games N] [--deals M] [--before REV] [--repeat R]``.

Files (under ``bench/_data/``, made once): N games of dealer's printpbn
(``/usr/games/dealer``, fixed seed) and M random deals as a .deals file.

Each tree -- this one, and the ``--before`` revision (default: the commit
before issue 25's model, 68d2216), taken out of git into a temporary folder
for the run -- reads both files with ``dealerpp.deals.read`` into a list of
``Deal`` objects, in a fresh process, the trees taking turns; medians of R.
Each on one core (``taskset -c 0``) and on two. The goal: the model may not
make reading slower (ratio after/before <= 1.05, noise allowed).

Then, in this tree only, the cost of ``hand.hcp``, ``.shape`` and the other
counts per hand next to that of reading ``hand.mask`` (a plain attribute)
and of ``len(hand)`` (one popcount): the first read on a new hand (four table
lookups that count all five) and a read again (an attribute read).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "_data"
DEALER = "/usr/games/dealer"
BEFORE = "68d2216"  # main before issue 25's model
GOAL_RATIO = 1.05

READ_CODE = """\
import sys, time
from dealerpp import deals
path = sys.argv[1]
start = time.perf_counter()
found = list(deals.read(path))
seconds = time.perf_counter() - start
assert len(found) == int(sys.argv[2]), len(found)
print(seconds)
"""


def make_pbn(path: Path, games: int) -> None:
    script = f"produce {games}\naction printpbn\n"
    with open(path, "wb") as out:
        subprocess.run([DEALER, "-s", "11"], input=script.encode(), stdout=out, check=True)


def make_deals(path: Path, count: int) -> None:
    rng = random.Random(25)
    cards = list(range(52))
    with open(path, "wb") as out:
        for _ in range(count):
            rng.shuffle(cards)
            masks = [0, 0, 0, 0]
            for place, card in enumerate(cards):
                masks[place & 3] |= 1 << card
            out.write(b"".join(mask.to_bytes(8, "little") for mask in masks))


def tree_of(revision: str, folder: Path) -> Path:
    """The package as it was at ``revision``, unpacked under ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "dealerpp"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def read_seconds(tree: Path, path: Path, count: int, one_core: bool) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-c", READ_CODE, str(path), str(count)]
    if one_core and shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True,
                          cwd="/")
    return float(done.stdout)


def compare(trees: dict[str, Path], files: list[tuple[str, Path, int]], repeat: int) -> bool:
    good = True
    for one_core in (True, False):
        print(f"\n{'one core (taskset -c 0)' if one_core else 'two cores'}: "
              f"median seconds of {repeat}, the trees taking turns")
        for label, path, count in files:
            times: dict[str, list[float]] = {name: [] for name in trees}
            for _ in range(repeat):
                for name, tree in trees.items():
                    times[name].append(read_seconds(tree, path, count, one_core))
            medians = {name: statistics.median(found) for name, found in times.items()}
            before, after = medians["before"], medians["after"]
            ratio = after / before
            good &= ratio <= GOAL_RATIO
            print(f"  {label:<28} before {before:7.3f}  after {after:7.3f}  "
                  f"after/before {ratio:5.2f}  ({count / after:,.0f} deals/s)")
    return good


def hand_costs(count: int = 200_000) -> None:
    sys.path.insert(0, str(ROOT))
    from dealerpp.deals.model import Hand

    rng = random.Random(5)
    cards = list(range(52))
    hands = []
    for _ in range(count):
        rng.shuffle(cards)
        hands.append(Hand(sum(1 << card for card in cards[:13])))

    def per_hand(work: object, fresh: bool = False) -> float:
        """Best of 5 passes over the hands; ``fresh``: new Hand objects
        before each pass (made outside the timing), so what is timed is a
        first read, nothing a hand kept from the pass before."""
        best = float("inf")
        for _ in range(5):
            todo = [Hand(hand.mask) for hand in hands] if fresh else hands
            start = time.perf_counter()
            for hand in todo:
                work(hand)  # type: ignore[operator]
            best = min(best, time.perf_counter() - start)
        return best / count * 1e9

    base = per_hand(lambda hand: hand.mask)
    print(f"\nper hand, this tree ({count:,} hands, best of 5, ns, loop included;"
          " 'first' on new Hand objects, 'again' on hands read before):")
    for name, work in (("hand.mask (attribute)", lambda hand: hand.mask),
                       ("len(hand) (popcount)", len),
                       ("hand.hcp", lambda hand: hand.hcp),
                       ("hand.controls", lambda hand: hand.controls),
                       ("hand.losers", lambda hand: hand.losers),
                       ("hand.shape", lambda hand: hand.shape),
                       ("hand.is_balanced", lambda hand: hand.is_balanced),
                       ("all five", lambda hand: (hand.hcp, hand.controls, hand.losers,
                                                  hand.shape, hand.is_balanced))):
        first, again = per_hand(work, fresh=True), per_hand(work)
        print(f"  {name:<24} first {first:6.0f} ({first / base:4.1f}x hand.mask)"
              f"   again {again:6.0f} ({again / base:4.1f}x)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--before", default=BEFORE, help="the git revision to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    DATA.mkdir(exist_ok=True)
    pbn = DATA / f"model_printpbn_{options.games}.pbn"
    binary = DATA / f"model_{options.deals}.deals"
    if not pbn.exists():
        make_pbn(pbn, options.games)
    if not binary.exists():
        make_deals(binary, options.deals)
    files = [(f"{options.games:,} printpbn games", pbn, options.games),
             (f"{options.deals:,} .deals deals", binary, options.deals)]
    with tempfile.TemporaryDirectory() as folder:
        trees = {"before": tree_of(options.before, Path(folder)), "after": ROOT}
        good = compare(trees, files, options.repeat)
    hand_costs()
    print(f"\ngoal: after/before <= {GOAL_RATIO} everywhere: {'met' if good else 'NOT met'}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
