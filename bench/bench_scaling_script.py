"""Preprocess + check time and memory against script size: the curve must be
a straight line (issue 11: 10x the input may cost at most 13x the time).

    python bench/bench_scaling_script.py [--sizes 1,5,10,50] [--timeout SECONDS]

Each size is one whole ``dealerpp -`` process (preprocessing, then the
checker on its output, as a user runs it) on a script of that many
megabytes read from standard input, output discarded. The script is
realistic: assignments of shape{} blocks, hand conditions, shape() calls,
ternaries and comments, a condition and an action. Prints the seconds,
throughput and peak memory per size, then the time ratio for 10x the input,
in wall time and in the CPU time of the process (steadier on a shared
machine).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_preprocess import dealerpp_command

GOAL_RATIO = 13.0
_BODIES = ("5+M(xxx)", "(4432)+(4333)+(5332)", "5s(431)", "x5+xx:h>s", "6+m(xxx) - 7xxx",
           "4-4-[3-4]x", "xx5+x", "(5431)", "5+h3-s", "[4-5]s[3-4]xx")
_SEATS = ("north", "east", "south", "west")


def script(megabytes: float) -> bytes:
    """A valid dealerpp script of about ``megabytes`` MB."""
    size = int(megabytes * 1_000_000)
    lines = ["generate 100000", "produce 10", "dealer south", "vulnerable NS",
             "predeal west SAK, HQJ"]
    total = sum(len(line) + 1 for line in lines)
    index = 0
    while total < size:
        seat = _SEATS[index % 4]
        kind = index % 5
        if kind == 0:
            line = f"s{index} = shape{{{seat}, {_BODIES[index % len(_BODIES)]}}}  # shape {index}"
        elif kind == 1:
            line = (f"h{index} = hcp({seat}) >= {index % 20} && spades({seat}) + "
                    f"hearts({seat}) < 9 // a comment")
        elif kind == 2:
            line = f"/* block {index} */ q{index} = (loser({seat}, clubs) * 2) % 7 > controls({seat})"
        elif kind == 3:
            line = f"k{index} = shape({seat}, any 4333 + any 4432 - 5xxx) or hascard({seat}, AS)"
        else:
            line = f"t{index} = hcp({seat}) > 10 ? quality({seat}, spades) : cccc({seat})"
        lines.append(line)
        total += len(line) + 1
        index += 1
    lines += ["condition h1 and s0", 'action printoneline, average "x" hcp(north)']
    return ("\n".join(lines) + "\n").encode()


def run(command: list[str], data: bytes, timeout: float) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and the peak memory (KB) of the children so far."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=timeout, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, after.ru_maxrss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,5,10,50", help="script sizes in MB")
    parser.add_argument("--timeout", type=float, default=600, help="per size, in seconds")
    options = parser.parse_args()
    sizes = sorted(float(size) for size in options.sizes.split(","))
    command = [*dealerpp_command(), "-"]
    times: dict[float, tuple[float, float]] = {}
    print("   MB   seconds   CPU s    MB/s   peak memory")
    for size in sizes:  # ascending, so the children's peak so far is this run's
        data = script(size)
        try:
            seconds, cpu, peak = run(command, data, options.timeout)
        except subprocess.TimeoutExpired:
            print(f"{size:5g}   over {options.timeout:.0f} s")
            break
        times[size] = (seconds, cpu)
        print(f"{size:5g} {seconds:9.2f} {cpu:7.2f} {len(data) / 1e6 / seconds:7.2f} "
              f"{peak / 1024:9.0f} MB")
    for small in sizes:
        if small in times and small * 10 in times:
            wall = times[small * 10][0] / times[small][0]
            cpu = times[small * 10][1] / times[small][1]
            verdict = "met" if min(wall, cpu) <= GOAL_RATIO else "MISSED"
            print(f"{small * 10:g} MB / {small:g} MB: {wall:.1f}x the wall time, {cpu:.1f}x the "
                  f"CPU time for 10x the input (goal <= {GOAL_RATIO:g}x: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
