"""The preprocessor against the Perl dealer.dpp, whole processes timed.

    python bench/bench_preprocess.py

(a) a 1000-line script of 1000 varied shape{} (goal: dealerpp >= 5x faster);
(b) a one-line script (goal: dealerpp's wall time <= 3x `python3 -c pass`).

Every run is cold: dealerpp keeps no cache, so every shape{} is compiled
and checked each time.

Every command runs with Python's default bytecode caching: a
PYTHONDONTWRITEBYTECODE in the environment is dropped, since an installed
package has its .pyc files anyway (pip compiles them), and without them an
editable checkout would be timed compiling its own source on every run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import PERL_DPP, script_of, varied_terms, wall_time


def dealerpp_command() -> list[str]:
    """The dealerpp installed beside this interpreter (never another one on PATH)."""
    found = Path(sys.executable).with_name("dealerpp")
    return [str(found)] if found.exists() else [sys.executable, "-m", "dealerpp"]


def main() -> None:
    dealerpp = dealerpp_command()
    big = script_of(varied_terms(1000))
    one = "x = shape{north, 5+M(xxx)}\n"
    default = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cold = default
    wall_time([*dealerpp, "-"], one, runs=1, env=cold)  # writes the .pyc files once
    variants = (("cold, --no-check", cold, ["--no-check"]), ("cold", cold, []))
    perl_big = wall_time([PERL_DPP], big, runs=3)
    print("== (a) a 1000-line script of 1000 varied shape{}")
    print(f"Perl dealer.dpp             {perl_big:7.3f} s")
    for label, env, flags in variants:
        seconds = wall_time([*dealerpp, *flags, "-"], big, runs=3, env=env)
        print(f"dealerpp {label:<18} {seconds:7.3f} s   {perl_big / seconds:6.2f}x the Perl "
              f"tool's speed (goal: 5x)")
    print()
    python = wall_time([sys.executable, "-c", "pass"], runs=9, env=default)
    print("== (b) a one-line script, whole process (median of 9)")
    print(f"python3 -c pass             {python * 1e3:7.1f} ms")
    print(f"Perl dealer.dpp             {wall_time([PERL_DPP], one, runs=9) * 1e3:7.1f} ms")
    for label, env, flags in variants:
        seconds = wall_time([*dealerpp, *flags, "-"], one, runs=9, env=env)
        print(f"dealerpp {label:<18} {seconds * 1e3:7.1f} ms = {seconds / python:5.2f}x python "
              f"(goal: <= 3x)")

if __name__ == "__main__":
    main()
