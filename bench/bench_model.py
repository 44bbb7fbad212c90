"""Reading deals into the library model, before and after, in one run:
``python bench/bench_model.py [--games N] [--deals M] [--before REV] [--repeat R]
[--hands-against REV] [--hand-passes P] [--hands N] [--distinct K]
[--only reads|hands]``.

Files (under ``bench/_data/``, made once): N games of dealer's printpbn
(``/usr/games/dealer``, fixed seed) and M random deals as a .deals file.

Each tree -- this one, and the ``--before`` revision (default: the commit
before issue 25's model, 68d2216), taken out of git into a temporary folder
for the run -- reads both files with ``dealerpp.deals.read`` into a list of
``Deal`` objects, in a fresh process, the trees taking turns; medians of R.
Each on one core (``taskset -c 0``) and on two, wall and CPU time. The goal: the model may not
make reading slower (ratio after/before <= 1.05, noise allowed).

Then the cost of making a ``Hand`` and of ``hand.hcp``, ``.shape`` and the
other counts per hand, next to that of reading ``hand.mask`` (a plain
attribute) and of ``len(hand)`` (one popcount): the first read on a new hand
and a read again (200,000 random hands, or ``--distinct K`` of them over and
over; one core, CPU time: steadier than the wall clock on a busy machine),
in this tree and, with ``--hands-against REV``, in that revision's
module of ``Hand`` too (``deals/hand.py``; ``deals/model.py`` before the
model was split), the two loaded side by side in one process and
taking turns pass after pass.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
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
start, cpu = time.perf_counter(), time.process_time()
found = list(deals.read(path))
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
assert len(found) == int(sys.argv[2]), len(found)
print(seconds, cpu)
"""


def make_pbn(path: Path, games: int) -> None:
    script = f"produce {games}\naction printpbn\n"
    with open(path, "wb") as out:
        subprocess.run([DEALER, "-s", "11"], input=script.encode(), stdout=out, check=True)


def make_rich(source: Path, path: Path, games: int) -> None:
    """printpbn games with what a club's or a match's file holds: players
    named, a result, a comment, an auction with an alert and a note (each
    says something the neutral game record holds)."""
    texts = [game for game in source.read_text().split("\n\n") if game.startswith("[")]
    with open(path, "w") as out:
        for number, game in enumerate(texts[:games]):
            dealer = game.split('[Dealer "', 1)[1][0]
            for seat in ("West", "North", "East", "South"):
                game = game.replace(f'[{seat} "-"]', f'[{seat} "{seat[0]}. Player {number % 97}"]')
            out.write(game.replace('[Result "?"]', '[Result "9"]').replace('[Contract "?"]',
                                                                           '[Contract "3NT"]')
                      + f'\n{{Board {number + 1}: a routine game.}}\n[Auction "{dealer}"]\n'
                      + '1NT =1= Pass 3NT! AP\n[Note "1:15-17"]\n\n')


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


def read_seconds(tree: Path, path: Path, count: int, one_core: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one read, in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-c", READ_CODE, str(path), str(count)]
    if one_core and shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True,
                          cwd="/")
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def compare(trees: dict[str, Path], files: list[tuple[str, Path, int]], repeat: int) -> bool:
    good = True
    for one_core in (True, False):
        print(f"\n{'one core (taskset -c 0)' if one_core else 'two cores'}: "
              f"median seconds of {repeat}, the trees taking turns; wall, then CPU "
              "(the process's own time, which other work on the machine disturbs less)")
        for label, path, count in files:
            times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
            for _ in range(repeat):
                for name, tree in trees.items():
                    times[name].append(read_seconds(tree, path, count, one_core))
            for kind in (0, 1):
                before, after = (statistics.median(run[kind] for run in times[name])
                                 for name in ("before", "after"))
                ratio = after / before
                good &= kind == 0 or ratio <= GOAL_RATIO
                print(f"  {label:<28} {('wall', 'CPU')[kind]:<4} before {before:7.3f}  after "
                      f"{after:7.3f}  after/before {ratio:5.2f}  ({count / after:,.0f} deals/s)")
    return good


HAND_CODE = """\
import importlib.util, json, operator, random, sys, time
# each tree's module of Hand (deals/hand.py, or deals/model.py before the
# model was split), loaded side by side under its own name (what it imports
# from the rest of the package is the same in both trees)
models = []
for number, path in enumerate(sys.argv[3:]):
    spec = importlib.util.spec_from_file_location(f"model_{number}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    models.append(module)
count, passes, distinct = int(sys.argv[1]), int(sys.argv[2]), int(DISTINCT)
rng = random.Random(5)
cards = list(range(52))
masks = []
for _ in range(min(count, distinct)):
    rng.shuffle(cards)
    masks.append(sum(1 << card for card in cards[:13]))
masks = [masks[place % len(masks)] for place in range(count)]
def all_five(hand):
    return hand.hcp, hand.controls, hand.losers, hand.shape, hand.is_balanced
def timed(hands, work):
    start = time.process_time()
    for hand in hands:
        work(hand)
    return time.process_time() - start
def made(model):
    Hand = model.Hand
    start = time.process_time()
    for mask in masks:
        Hand(mask)
    return time.process_time() - start
found = {}
for name in ("make Hand(mask)", *NAMES):
    work = all_five if name == "all five" else len if name == "len" else operator.attrgetter(name)
    best = [[float("inf")] * 2 for _ in models]
    kept = [[model.Hand(mask) for mask in masks] for model in models]
    for _ in range(passes):  # the trees in turn, pass after pass
        for place, model in enumerate(models):
            if name == "make Hand(mask)":
                best[place][0] = best[place][1] = min(best[place][0], made(model))
                continue
            fresh = [model.Hand(mask) for mask in masks]
            best[place][0] = min(best[place][0], timed(fresh, work))
            best[place][1] = min(best[place][1], timed(kept[place], work))
    found[name] = [[seconds / count * 1e9 for seconds in pair] for pair in best]
print(json.dumps(found))
"""
def hand_module(tree: Path) -> Path:
    """The module that defines ``Hand`` in ``tree``: deals/hand.py since the
    model was split into parts, deals/model.py before."""
    deals = tree / "dealerpp" / "deals"
    return deals / "hand.py" if (deals / "hand.py").exists() else deals / "model.py"


HAND_NAMES = ("mask", "len", "hcp", "controls", "losers", "shape", "is_balanced", "all five")


def hand_costs(trees: dict[str, Path], passes: int, count: int = 200_000,
               distinct: int | None = None) -> None:
    """The per-hand costs of each tree's model, loaded side by side in one
    process on one core, the trees taking turns pass after pass; best of
    the passes. With ``distinct``, the hands are that many random ones over
    and over (the tables a count reads stay in the cache)."""
    code = HAND_CODE.replace("NAMES", repr(HAND_NAMES)).replace(
        "DISTINCT", str(distinct or count))
    command = [sys.executable, "-c", code, str(count), str(passes),
               *(str(hand_module(tree)) for tree in trees.values())]
    if shutil.which("taskset"):
        command = ["taskset", "-c", "0", *command]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd="/")
    found: dict[str, list[list[float]]] = json.loads(done.stdout)
    kind = f"{count:,} random hands" + (f", {distinct:,} distinct" if distinct else "")
    print(f"\nper hand ({kind}, one core, the models side by side in one "
          f"process taking turns, best of {passes} passes; ns of CPU time, loop included; 'first' on new "
          "Hand objects, 'again' on hands read before):")
    print(f"  {'':<18}" + "".join(f"{name + ' first':>18}{name + ' again':>18}"
                                  for name in trees))
    for item, pairs in found.items():
        print(f"  {item:<18}" + "".join(f"{first:18.0f}{again:18.0f}" for first, again in pairs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--before", default=BEFORE, help="the git revision to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rich", type=int, default=0,
                        help="also read N games with players, an auction, a note and a comment")
    parser.add_argument("--hands-against", default=None,
                        help="a git revision whose hand costs to time in turn with this tree's")
    parser.add_argument("--hand-passes", type=int, default=7)
    parser.add_argument("--hands", type=int, default=200_000, help="random hands to time")
    parser.add_argument("--distinct", type=int, default=None,
                        help="the hands timed are this many random ones, repeated")
    parser.add_argument("--only", choices=("reads", "hands"), default=None)
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
    if options.rich:
        rich = DATA / f"model_rich_{options.rich}.pbn"
        if not rich.exists():
            make_rich(pbn, rich, options.rich)
        files.append((f"{options.rich:,} rich PBN games", rich, options.rich))
    good = True
    with tempfile.TemporaryDirectory() as folder:
        if options.only != "hands":
            trees = {"before": tree_of(options.before, Path(folder) / "before"), "after": ROOT}
            good = compare(trees, files, options.repeat)
        if options.only != "reads":
            hand_trees = {"this": ROOT}
            if options.hands_against:
                hand_trees = {options.hands_against: tree_of(
                    options.hands_against, Path(folder) / "hands"), **hand_trees}
            hand_costs(hand_trees, options.hand_passes, options.hands, options.distinct)
    print(f"\ngoal: after/before <= {GOAL_RATIO} in CPU time everywhere: "
          f"{'met' if good else 'NOT met'}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
