"""The preprocessor against the Perl dealer.dpp, whole processes timed.

    python bench/bench_preprocess.py

(a) a 1000-line script of 1000 varied shape{} (goal: dealerpp >= 5x faster);
(b) a one-line script (goal: dealerpp's wall time <= 3x `python3 -c pass`).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import PERL_DPP, script_of, varied_terms, wall_time


def dealerpp_command() -> list[str]:
    found = shutil.which("dealerpp")
    return [found] if found else [sys.executable, "-m", "dealerpp"]


def main() -> None:
    dealerpp = dealerpp_command()
    big = script_of(varied_terms(1000))
    one = "x = shape{north, 5+M(xxx)}\n"
    wall_time([*dealerpp, "-"], one, runs=1)  # warm the parser cache once

    ours_big = wall_time([*dealerpp, "--no-check", "-"], big, runs=3)
    ours_big_checked = wall_time([*dealerpp, "-"], big, runs=3)
    perl_big = wall_time([PERL_DPP], big, runs=3)
    print("== (a) a 1000-line script of 1000 varied shape{}")
    print(f"dealerpp --no-check {ours_big:7.3f} s")
    print(f"dealerpp (checked)  {ours_big_checked:7.3f} s")
    print(f"Perl dealer.dpp     {perl_big:7.3f} s")
    print(f"ratio: dealerpp is {perl_big / ours_big:.2f}x the speed of the Perl tool "
          f"({perl_big / ours_big_checked:.2f}x with the checker; goal: 5x)")
    print()
    python = wall_time([sys.executable, "-c", "pass"], runs=9)
    ours_one = wall_time([*dealerpp, "-"], one, runs=9)
    ours_one_plain = wall_time([*dealerpp, "--no-check", "-"], one, runs=9)
    perl_one = wall_time([PERL_DPP], one, runs=9)
    print("== (b) a one-line script, whole process (median of 9)")
    print(f"python3 -c pass     {python * 1e3:7.1f} ms")
    print(f"dealerpp            {ours_one * 1e3:7.1f} ms  = {ours_one / python:.2f}x python "
          f"(goal: <= 3x)")
    print(f"dealerpp --no-check {ours_one_plain * 1e3:7.1f} ms  = "
          f"{ours_one_plain / python:.2f}x python")
    print(f"Perl dealer.dpp     {perl_one * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
