"""Error floods: scripts full of mistakes, 1, 10 and 100 MB, through the
preprocessor (`dealerpp -`, which checks its output) and `dealerpp check`.

    python bench/bench_floods.py [--sizes 1,10,100]

For each shape of flood (many bad lines; one huge bad line; many bad
shape{} bodies) it prints the wall time and the bytes written to stderr,
and the ratio for 10x the input: diagnostics are bounded like a compiler's
(one error per run of bad tokens, at most 100 a file), so stderr stays
small and time grows at most linearly (goal: <= 13x for 10x the input).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

MB = 1 << 20


def bad_lines(size: int) -> bytes:
    line = b"condition hcp(north) > 10 @ hcp(south\n"
    return line * (size // len(line))


def one_huge_line(size: int) -> bytes:
    return b"x = " + b"@ " * (size // 2) + b"\n"


def bad_shapes(size: int) -> bytes:
    line = b"x = shape{north, 4432+5332}\n"
    return line * (size // len(line))


FLOODS: list[tuple[str, Callable[[int], bytes]]] = [
    ("many bad lines", bad_lines), ("one huge bad line", one_huge_line),
    ("many bad shape{}", bad_shapes)]


def dealerpp_command() -> list[str]:
    found = Path(sys.executable).with_name("dealerpp")
    return [str(found)] if found.exists() else [sys.executable, "-m", "dealerpp"]


def measure(command: list[str], path: Path) -> tuple[float, int]:
    started = time.perf_counter()
    done = subprocess.run([*command, str(path)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    return time.perf_counter() - started, len(done.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,10,100", help="MB, comma-separated")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    dealerpp = dealerpp_command()
    commands = [("dealerpp FILE", dealerpp), ("dealerpp check FILE", [*dealerpp, "check"])]
    with tempfile.TemporaryDirectory() as folder:
        for flood, make in FLOODS:
            print(f"== {flood}")
            for label, command in commands:
                previous: float | None = None
                for size in sizes:
                    path = Path(folder) / "flood.dpp"
                    path.write_bytes(make(size * MB))
                    seconds, stderr_bytes = measure(command, path)
                    ratio = f"x {seconds / previous:5.1f} for 10x" if previous else ""
                    print(f"  {label:<20} {size:>4} MB {seconds:8.2f} s  "
                          f"stderr {stderr_bytes:>8,} B  {ratio}")
                    previous = seconds


if __name__ == "__main__":
    main()
