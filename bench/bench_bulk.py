"""Bulk deal I/O benchmark: ``python bench/bench_bulk.py [--deals N] [--huge]``.

Builds an N-deal .deals file (default 1,000,000) under ``bench/_data/``,
then times ``dealerpp convert`` as a subprocess (process start included)
from .deals to every fast format and back, checking the round trip is
byte-identical, and prints deals/second for each read and write. In the
same run it times endplay (``pip install endplay``) parsing and writing
PBN deal strings on 100,000 deals and prints the ratios.

``--huge`` adds (first) the 10,000,000-deal .deals -> giblib -> .deals
round trip with the peak memory of each converting process (its rusage,
from wait4).

``--pin 0 0,1`` times every conversion pinned to one core and to two in
the same run, taking turns (one line each); ``--pin 0`` one core only.

Each write (.deals -> a format) is timed against its floor in the same
run, taking turns: a process that only starts Python and writes as many
bytes as our output, 4 MB at a time, through ``dealerpp.atomic`` (a file
beside the output renamed over it, the output there from the run before),
as ``dealerpp convert`` writes. On some virtual machines that floor is
large and varies from run to run: pages the guest freed a while ago are
given back to the host, and a write that cannot take pages freed just
before pays the host's faults (system time) to get them again; the rename
over a file waits for its writeback to start. The line shows our time and
CPU beside the floor's, and what is left: our own work.

``--against DIR`` times another checkout of dealerpp (say the code before a
change: ``git worktree add /tmp/before HEAD~1``) in the same run, each
conversion alternating between the two, and prints the ratio of the best
times (below 1: this checkout is faster).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "_data"
GOAL_RATE = 1_000_000
GOAL_RATIO = 50

# (label, extension, --to/--from name)
FORMATS = [
    ("hex26", "hex", "hex"),
    ("giblib", "gib", "giblib"),
    ("PBN [Deal] games", "pbn", "pbn"),
    ("printoneline", "one", "oneline"),
    ("LIN (Big Deal's lines)", "lin", "lin"),
    ("printcompact", "compact", "compact"),
    ("listing", "listing", "listing"),
    (".bhg", "bhg", "bhg"),
    (".dx (deal-only records)", "dx", "dx"),
    ("printall", "printall", "printall"),
    (".csv", "csv", "csv"),
    (".bri (machines)", "bri", "bri"),
    (".dge (machines)", "dge", "dge"),
    (".ber (machines)", "ber", "ber"),
]
# ``--pin CPUS``: the processes run under ``taskset -c CPUS`` (None: any CPU)
PIN: list[str] = []


def random_deals(count: int, seed: int) -> bytes:
    """``count`` random full deals as .deals bytes (numpy shuffles)."""
    rng = np.random.default_rng(seed)
    keys = rng.random((count, 52))
    seats = (np.argsort(keys, axis=1) // 13).astype(np.uint8)
    masks = np.empty((count, 4), "<u8")
    for seat in range(4):
        padded = np.zeros((count, 64), np.uint8)
        padded[:, :52] = seats == seat
        masks[:, seat] = np.packbits(padded, axis=1, bitorder="little").view("<u8")[:, 0]
    return masks.tobytes()


def write_deals_file(path: Path, count: int) -> None:
    """Write in slices of 100k so building 10M deals stays small."""
    with open(path, "wb") as out:
        for start in range(0, count, 100_000):
            out.write(random_deals(min(100_000, count - start), seed=start + 1))


def convert(src: Path, dst: Path, fmt_from: str, fmt_to: str, root: Path = ROOT,
            pin: str | None = None) -> float:
    """Seconds for one ``dealerpp convert`` process (of the checkout ``root``)."""
    return convert_measured(src, dst, fmt_from, fmt_to, root, pin)[0]


def convert_measured(src: Path, dst: Path, fmt_from: str, fmt_to: str,
                     root: Path = ROOT, pin: str | None = None) -> tuple[float, int]:
    """Seconds and peak resident memory (KiB) of one ``dealerpp convert``
    (``pin``: its CPUs, else ``PIN``'s)."""
    cpus = ["taskset", "-c", pin] if pin is not None else PIN
    command = [*cpus, sys.executable, "-m", "dealerpp", "convert", "-q", str(src), str(dst),
               "--from", fmt_from, "--to", fmt_to]
    start = time.perf_counter()
    # `python -m` puts the working folder first on the path: the checkout's own
    process = subprocess.Popen(command, env=child_env(root), cwd=root)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed with status {process.returncode}")
    CPU_SECONDS[(str(src), str(dst), str(root))] = usage.ru_utime + usage.ru_stime
    return seconds, usage.ru_maxrss


# the CPU time of the last conversion of each (source, target, checkout)
CPU_SECONDS: dict[tuple[str, str, str], float] = {}

# The write floor: start Python, write argv[1] bytes to argv[2] as dealerpp
# convert writes a named output (dealerpp.atomic, pieces of 4 MB), no work.
FLOOR_SCRIPT = """
import sys
from dealerpp.atomic import atomic_writer
size, piece = int(sys.argv[1]), bytes(range(256)) * 16384
with atomic_writer(sys.argv[2]) as out:
    for start in range(0, size, len(piece)):
        out.write(piece[:size - start])
"""


def write_floor(size: int, dst: Path, pin: str | None = None) -> tuple[float, float, float]:
    """Seconds, CPU seconds and system seconds of one floor process writing
    ``size`` bytes over ``dst`` (see the module)."""
    cpus = ["taskset", "-c", pin] if pin is not None else PIN
    command = [*cpus, sys.executable, "-c", FLOOR_SCRIPT, str(size), str(dst)]
    start = time.perf_counter()
    process = subprocess.Popen(command, env=child_env(ROOT), cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"the write floor failed with status {status}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_stime


def child_env(root: Path = ROOT) -> dict[str, str]:
    """The environment of the timed processes: the checkout first on the
    path, and bytecode caching as an installed package has it (a session
    may run with PYTHONDONTWRITEBYTECODE, which would make every run compile
    dealerpp's sources again)."""
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def warm_up(root: Path = ROOT) -> None:
    """One small conversion, untimed, so the timed ones find the bytecode."""
    source = DATA / "warm_up.deals"
    source.write_bytes(random_deals(100, seed=5))
    for ext, fmt in (("hex", "hex"), ("gib", "giblib"), ("pbn", "pbn"), ("one", "oneline")):
        convert(source, DATA / f"warm_up.{ext}", "deals", fmt, root)
        convert(DATA / f"warm_up.{ext}", DATA / "warm_up.back", fmt, "deals", root)


def rate_line(label: str, count: int, seconds: float) -> str:
    rate = count / seconds
    mark = "ok" if rate >= GOAL_RATE else "BELOW GOAL"
    return f"  {label:42s} {seconds:7.3f} s {rate:12,.0f} deals/s  {mark}"


class Timer:
    """Runs each conversion ``repeat`` times under each of ``pins`` (CPU
    sets for taskset; None: any CPU), taking turns, and alternating with
    the checkout ``against`` when there is one (so all see the same
    machine load)."""

    def __init__(self, repeat: int, against: Path | None,
                 pins: list[str | None] | None = None) -> None:
        self.repeat = repeat
        self.against = against
        self.pins = pins or [None]
        # of the last conversion, by pin: our seconds, theirs, our CPU seconds
        self.ours: dict[str | None, list[float]] = {}
        self.theirs: dict[str | None, list[float]] = {}
        self.cpu: dict[str | None, list[float]] = {}
        self.their_cpu: dict[str | None, list[float]] = {}
        # the write floor's (seconds, CPU, system CPU) runs, by pin
        self.floor: dict[str | None, list[tuple[float, float, float]]] = {}

    def timed(self, src: Path, dst: Path, fmt_from: str, fmt_to: str,
              floor: Path | None = None) -> list[float]:
        """Seconds of our runs under the first pin, sorted (all are kept for
        ``report``). ``floor``: a file to time the write floor on, after
        each of our runs, writing as many bytes as our output."""
        self.ours = {pin: [] for pin in self.pins}
        self.theirs = {pin: [] for pin in self.pins}
        self.cpu = {pin: [] for pin in self.pins}
        self.their_cpu = {pin: [] for pin in self.pins}
        self.floor = {pin: [] for pin in self.pins}
        for _ in range(self.repeat):
            for pin in self.pins:
                self.ours[pin].append(convert(src, dst, fmt_from, fmt_to, pin=pin))
                self.cpu[pin].append(CPU_SECONDS[(str(src), str(dst), str(ROOT))])
                if floor is not None:
                    self.floor[pin].append(write_floor(dst.stat().st_size, floor, pin))
                if self.against is not None:
                    self.theirs[pin].append(convert(src, dst, fmt_from, fmt_to, self.against,
                                                    pin))
                    self.their_cpu[pin].append(CPU_SECONDS[(str(src), str(dst),
                                                            str(self.against))])
        return sorted(self.ours[self.pins[0]])

    def report(self, label: str, count: int, runs: list[float]) -> float:
        """Print best and median of the runs, a line a pin; return the best
        rate under the first pin."""
        for pin in self.pins:
            ours = sorted(self.ours[pin])
            where = "" if pin is None else f" [cpu {pin}]"
            line = rate_line(label + where, count, ours[0])
            cpu = min(self.cpu[pin])
            line += f"  CPU {cpu:.3f} s ({count / cpu:,.0f} deals per CPU-second)"
            if len(ours) > 1:
                line += f"  (median {count / ours[len(ours) // 2]:,.0f}/s of {len(ours)} runs)"
            if self.theirs[pin]:
                line += (f"  time / against's {ours[0] / min(self.theirs[pin]):.2f},"
                         f" CPU {cpu / min(self.their_cpu[pin]):.2f}")
            print(line)
            if self.floor[pin]:
                print(self._floor_line(pin))
        return count / runs[0]

    def _floor_line(self, pin: str | None) -> str:
        """The write floor's best and median beside ours, and our time and
        CPU over the floor's (best against best)."""
        floor = self.floor[pin]
        seconds = sorted(run[0] for run in floor)
        cpu = min(run[1] for run in floor)
        system = sorted(run[2] for run in floor)
        ours = sorted(self.ours[pin])
        return (f"    write floor (start + atomic write, same size) {seconds[0]:7.3f} s"
                f" (median {seconds[len(seconds) // 2]:.3f})  CPU {cpu:.3f} s"
                f" (system {system[0]:.3f}-{system[-1]:.3f})"
                f"  ours - floor {ours[0] - seconds[0]:+.3f} s,"
                f" CPU {min(self.cpu[pin]) - cpu:+.3f} s")


def bench_formats(count: int, timer: Timer, chosen: list[str] | None = None
                  ) -> dict[str, float]:
    source = DATA / f"deals_{count}.deals"
    if not source.exists() or source.stat().st_size != 32 * count:
        write_deals_file(source, count)
    raw = source.read_bytes()
    rates: dict[str, float] = {}
    print(f"dealerpp convert, {count:,} deals, one process each (start included), "
          f"best of {timer.repeat}:")
    for label, ext, fmt in FORMATS:
        if chosen is not None and fmt not in chosen:
            continue
        text = DATA / f"deals_{count}.{ext}"
        back = DATA / f"deals_{count}.{ext}.deals"
        floor = DATA / f"deals_{count}.{ext}.floor"
        runs = timer.timed(source, text, "deals", fmt, floor=floor)
        rates[f"write {fmt}"] = timer.report(f".deals -> {label}", count, runs)
        floor.unlink()
        runs = timer.timed(text, back, fmt, "deals")
        rates[f"read {fmt}"] = timer.report(f"{label} -> .deals", count, runs)
        same = back.read_bytes() == raw
        print(f"  round trip .deals -> {label} -> .deals byte-identical: {same}")
        back.unlink()
    if chosen is not None and "pbn" not in chosen:
        return rates
    lines = DATA / f"deals_{count}.pbnlines"
    _pbn_lines(DATA / f"deals_{count}.pbn", lines)
    back = DATA / f"deals_{count}.pbnlines.deals"
    runs = timer.timed(lines, back, "pbn", "deals")
    rates["read pbn lines"] = timer.report("PBN deal lines (N:...) -> .deals", count, runs)
    print(f"  PBN deal lines -> .deals byte-identical: {back.read_bytes() == raw}")
    back.unlink()
    return rates


def _pbn_lines(games: Path, lines: Path) -> None:
    """The deal strings of the [Deal] games, one a line (seed 003 layout)."""
    with open(games, "rb") as src, open(lines, "wb") as out:
        for line in src:
            if line.startswith(b'[Deal "'):
                out.write(line[7:-3] + b"\n")


def bench_endplay(count: int, ours: dict[str, float]) -> None:
    try:
        from endplay.types import Deal
    except ImportError:
        print("endplay is not installed (pip install endplay): skipped")
        return
    lines = DATA / f"deals_{count}.endplay.pbnlines"
    source = DATA / f"deals_{count}.endplay.deals"
    source.write_bytes(random_deals(count, seed=99))
    convert(source, DATA / f"deals_{count}.endplay.pbn", "deals", "pbn")
    _pbn_lines(DATA / f"deals_{count}.endplay.pbn", lines)
    strings = lines.read_text().splitlines()
    start = time.perf_counter()
    parsed = [Deal(s) for s in strings]
    parse = count / (time.perf_counter() - start)
    start = time.perf_counter()
    written = [d.to_pbn() for d in parsed]
    write = count / (time.perf_counter() - start)
    assert len(written) == count
    print(f"endplay on {count:,} PBN deal strings (in-process, no file I/O):")
    print(f"  Deal(pbn)   {parse:12,.0f} deals/s")
    print(f"  to_pbn()    {write:12,.0f} deals/s")
    for label, key, theirs in (("parse", "read pbn lines", parse), ("write", "write pbn", write)):
        ratio = ours[key] / theirs
        mark = "ok" if label == "write" or ratio >= GOAL_RATIO else "BELOW GOAL"
        print(f"  dealerpp / endplay, PBN {label}: {ratio:6.1f}x  {mark}")


def bench_huge(count: int) -> None:
    """Run first, while this process is small: a child's peak RSS counts
    the parent's pages it shares until it has started the new program."""
    source = DATA / f"huge_{count}.deals"
    if not source.exists() or source.stat().st_size != 32 * count:
        # built by a child, so this process does not grow
        subprocess.run([sys.executable, __file__, "--make", str(source), str(count)], check=True)
    gib = DATA / f"huge_{count}.gib"
    back = DATA / f"huge_{count}.back.deals"
    there, peak_there = convert_measured(source, gib, "deals", "giblib")
    again, peak_again = convert_measured(gib, back, "giblib", "deals")
    print(f"huge round trip, {count:,} deals (this process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB):")
    for label, seconds, peak in ((".deals -> giblib", there, peak_there),
                                 ("giblib -> .deals", again, peak_again)):
        print(rate_line(label, count, seconds)
              + f"  peak {peak / 1024:,.0f} MB {'ok' if peak < 500 * 1024 else 'OVER 500 MB'}")
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"  getrusage(RUSAGE_CHILDREN).ru_maxrss: {children / 1024:,.0f} MB"
          " (largest child so far, the file builder included)")
    print(f"  byte-identical: {_same_file(source, back)}")
    gib.unlink()
    back.unlink()


def _same_file(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 24), fb.read(1 << 24)
            if x != y:
                return False
            if not x:
                return True


def main() -> int:
    if sys.argv[1:2] == ["--make"]:  # a child building a big input file
        write_deals_file(Path(sys.argv[2]), int(sys.argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000, help="deals per file")
    parser.add_argument("--endplay-deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each conversion (best and median are shown)")
    parser.add_argument("--huge", action="store_true", help="also the 10M round trip")
    parser.add_argument("--huge-deals", type=int, default=10_000_000)
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="another checkout of dealerpp, timed in the same run")
    parser.add_argument("--formats", nargs="*", metavar="FMT",
                        help="only these formats (--to names), e.g. giblib pbn")
    parser.add_argument("--pin", metavar="CPUS", nargs="+",
                        help="taskset -c CPUS for every conversion; several (0 0,1): each "
                             "conversion under each in turn")
    args = parser.parse_args()
    pins: list[str | None] = [None] if not args.pin else list(args.pin)
    if args.pin:
        PIN[:] = ["taskset", "-c", args.pin[0]]
    DATA.mkdir(parents=True, exist_ok=True)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.2f}, CPUs {' and '.join(args.pin or ['any'])}")
    warm_up()
    if args.against is not None:
        warm_up(args.against.resolve())
    if args.huge:
        bench_huge(args.huge_deals)
    against = args.against.resolve() if args.against is not None else None
    rates = bench_formats(args.deals, Timer(args.repeat, against, pins), args.formats)
    if args.formats is None or "pbn" in args.formats:
        bench_endplay(args.endplay_deals, rates)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
