"""PBN benchmark: ``python bench/bench_pbn.py [--games N] [--repeat R]``.

Files (under ``bench/_data/``, made once):

* dealer's own ``printpbn`` output, N games of 14 tags (``/usr/games/dealer``
  with a fixed seed, its closing statistics lines included);
* N *rich* games: the same games with an auction section (a note reference
  and its Note tag), a contract and a commentary line;
* N *tabled* games: the rich games plus a 20-row OptimumResultTable, as
  double-dummy tools write it.

Measured, each in the same run:

1. reading printpbn output: ``dealerpp.deals.formats.pbn.read`` to deal objects,
   in this process, against endplay's ``pbn.load`` on the same games
   (``pip install endplay``; it rejects dealer's statistics lines, so it gets
   the file without them) - the ratio must be 10x or more;
2. ``dealerpp convert`` of each file, pbn -> .deals and pbn -> pbn, as a
   process (start included), with its peak memory; the pbn -> pbn output
   must equal the input (less dealer's statistics lines). Goal: under 3 s
   for N = 100,000 rich games.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "_data"
DEALER = "/usr/games/dealer"
GOAL_READ_RATIO = 10.0
GOAL_COPY_SECONDS = 3.0  # for 100,000 rich games

TABLE = ("[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\n"
         + "".join(f"{seat} {strain:>2} {7 + (i % 5):2d}\n"
                   for i, (seat, strain) in enumerate((s, d) for s in "NSEW"
                                                      for d in ("NT", "S", "H", "D", "C"))))


def child_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def make_printpbn(path: Path, games: int) -> None:
    script = f"generate {games * 2}\nproduce {games}\naction printpbn\n"
    with open(path, "wb") as out:
        subprocess.run([DEALER, "-s", "11"], input=script.encode(), stdout=out, check=True)


def without_statistics(source: Path, target: Path) -> None:
    lines = source.read_text().split("\n")
    while lines and not lines[-1].startswith("["):
        lines.pop()
    target.write_text("\n".join(lines) + "\n")


def make_rich(source: Path, rich: Path, tabled: Path) -> None:
    """printpbn games with an auction (from the dealer), a note, a contract
    and a comment; the tabled ones also with an OptimumResultTable."""
    games = source.read_text().split("\n\n")
    with open(rich, "w") as out_rich, open(tabled, "w") as out_tabled:
        first = True
        for game in games:
            game = game.strip("\n")
            if not game.startswith("["):
                continue
            dealer = game.split('[Dealer "', 1)[1][0]
            body = (game.replace('[Contract "?"]', '[Contract "3NT"]')
                    + f'\n{{Board of the week: a routine game.}}\n[Auction "{dealer}"]\n'
                    + "1NT =1= Pass 3NT! AP\n[Note \"1:15-17\"]")
            separator = "" if first else "\n"
            out_rich.write(f"{separator}{body}\n")
            out_tabled.write(f"{separator}{body}\n{TABLE}")
            first = False


def convert(src: Path, dst: Path, to: str) -> tuple[float, int]:
    """Seconds and peak memory (KiB) of one ``dealerpp convert`` process."""
    command = [sys.executable, "-m", "dealerpp", "convert", "-q", str(src), str(dst),
               "--from", "pbn", "--to", to]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=child_env(), cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(command)} failed")
    return seconds, usage.ru_maxrss


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def bench_read(printpbn: Path, plain: Path, games: int, repeat: int) -> None:
    sys.path.insert(0, str(ROOT))
    from dealerpp.deals.formats import pbn

    def ours() -> None:
        assert sum(1 for _ in pbn.read(printpbn)) == games

    mine = best(repeat, ours)
    print(f"reading {games:,} printpbn games into deal objects (in-process, best of {repeat}):")
    print(f"  dealerpp pbn.read      {mine:7.3f} s  {games / mine:10,.0f} games/s")
    try:
        from endplay.parsers import pbn as endplay_pbn
    except ImportError:
        print("  endplay is not installed (pip install endplay): no ratio")
        return

    def theirs() -> None:
        with open(plain) as handle:
            assert len(endplay_pbn.load(handle)) == games

    other = best(repeat, theirs)
    ratio = other / mine
    print(f"  endplay pbn.load       {other:7.3f} s  {games / other:10,.0f} games/s")
    print(f"  dealerpp / endplay: {ratio:5.1f}x  "
          f"{'ok' if ratio >= GOAL_READ_RATIO else f'BELOW GOAL ({GOAL_READ_RATIO:.0f}x)'}")


def same_bytes(one: Path, other: Path) -> bool:
    """Compared a block at a time: this process must stay small (above)."""
    with open(one, "rb") as a, open(other, "rb") as b:
        while True:
            block = a.read(1 << 20)
            if block != b.read(1 << 20):
                return False
            if not block:
                return True


def bench_convert(files: list[tuple[str, Path]], games: int, repeat: int) -> None:
    print(f"dealerpp convert, {games:,} games, one process each (start included), "
          f"best of {repeat}:")
    goal = GOAL_COPY_SECONDS * games / 100_000
    for label, path in files:
        for to, ext in (("deals", "deals"), ("pbn", "out.pbn")):
            target = DATA / f"{path.stem}.{ext}"
            runs = [convert(path, target, to) for _ in range(repeat)]
            seconds, peak = min(runs)
            line = (f"  {label:22s} -> {to:5s} {seconds:7.3f} s {games / seconds:10,.0f} games/s"
                    f"  peak {peak / 1024:6.0f} MB")
            if to == "pbn":
                expected = path.with_suffix(".nostats.pbn") if path.name.startswith(
                    "printpbn") else path
                line += f"  copy exact: {same_bytes(target, expected)}"
                if label.startswith("rich"):
                    line += f"  {'ok' if seconds < goal else f'OVER GOAL ({goal:.1f} s)'}"
            print(line)
            target.unlink()


def make_files(games: int) -> None:
    printpbn = DATA / f"printpbn_{games}.pbn"
    plain = DATA / f"printpbn_{games}.nostats.pbn"
    make_printpbn(printpbn, games)
    without_statistics(printpbn, plain)
    make_rich(plain, DATA / f"rich_{games}.pbn", DATA / f"tabled_{games}.pbn")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--make", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    DATA.mkdir(parents=True, exist_ok=True)
    if args.make:
        make_files(args.make)
        return
    printpbn = DATA / f"printpbn_{args.games}.pbn"
    plain = DATA / f"printpbn_{args.games}.nostats.pbn"
    rich = DATA / f"rich_{args.games}.pbn"
    tabled = DATA / f"tabled_{args.games}.pbn"
    if not tabled.exists():
        # made by a child, so this process stays small for the peak memory
        # of the timed ones (wait4 counts pages shared with it before exec)
        subprocess.run([sys.executable, __file__, "--make", str(args.games)], check=True)
    # processes first: a child's peak memory counts the pages it shares with
    # this process until it starts, and reading below makes this one large
    bench_convert([("printpbn (14 tags)", printpbn), ("rich (auction, note)", rich),
                   ("rich + result table", tabled)], args.games, args.repeat)
    bench_read(printpbn, plain, args.games, args.repeat)


if __name__ == "__main__":
    main()
