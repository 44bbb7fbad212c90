"""What a one-shape script imports, against its budget (issue 28: start-up
near Python's floor).

    python bench/bench_importtime.py [--runs 9] [--write]

Runs ``dealerpp one.dpp`` (the console script, as users run it, bytecode
cached) and ``python -c pass`` under ``python -X importtime``, ``--runs``
times each, and takes each module's smallest self time. Prints the modules
the script adds to the interpreter's own, ours and the standard library's
apart, the largest first, and how they stand against the budget. Two
one-shape scripts: one whose term has a shipped list (``5+M(xxx)``), one
whose term the front door compiles (``5+M4+m(xx)``, issue 28, session 10).

- the modules themselves: ``bench/startup_modules.txt`` (and
  ``startup_modules_compiled.txt`` for the compiled term) lists every module
  the one-shape path may add (``tests/script/test_startup_imports.py`` fails
  on any other, so a new import on this path is a decision, not an accident;
  ``--write`` rewrites the lists from this run, to be reviewed in the diff);
- their import time: at most ``BUDGET_RATIO`` (``COMPILED_BUDGET_RATIO``)
  times the interpreter's own start-up imports (``python -c pass``),
  measured in the same run, so the figure holds when the machine's speed
  drifts.

No timed assertion anywhere: this prints, a person judges.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULE_LIST = HERE / "startup_modules.txt"
COMPILED_MODULE_LIST = HERE / "startup_modules_compiled.txt"
ONE_LINE = "x = shape{north, 5+M(xxx)}\n"
COMPILED_LINE = "x = shape{north, 5+M4+m(xx)}\n"  # no shipped list: the front door compiles it
BUDGET_RATIO = 0.5  # the one-shape path's added imports / python -c pass's own (0.15-0.2x
# since the front door, dealerpp/quick.py; 3.6-4.0x before it)
COMPILED_BUDGET_RATIO = 1.0  # the same for a compiled term (session 10; it was 2-2.5x)
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|\s+(\S+)")


def console_script() -> list[str]:
    found = Path(sys.executable).with_name("dealerpp")
    return [str(found)] if found.exists() else [sys.executable, "-m", "dealerpp"]


def self_times(command: list[str], runs: int, cwd: str) -> dict[str, int]:
    """Each imported module's smallest self time over ``runs`` runs, in us."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPROFILEIMPORTTIME"] = "1"
    best: dict[str, int] = {}
    for _ in range(runs):
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd,
                              check=True)
        for match in LINE.finditer(done.stderr):
            name, micros = match.group(3), int(match.group(1))
            best[name] = min(best.get(name, micros), micros)
    return best


def read_module_list(path: Path = MODULE_LIST) -> set[str]:
    if not path.exists():
        return set()
    return {line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")}


def report(label: str, base: dict[str, int], ours: dict[str, int], budget: float,
           module_list: Path, write: bool) -> None:
    """The modules ``ours`` adds to ``base``, against the budget and the list."""
    print(f"== {label}")
    added = {name: micros for name, micros in ours.items() if name not in base}
    own = {n: m for n, m in added.items() if n.split(".")[0] == "dealerpp"}
    stdlib = {n: m for n, m in added.items() if n not in own}
    for group_label, group in (("dealerpp", own), ("standard library", stdlib)):
        print(f"{group_label}: {len(group)} modules, {sum(group.values()) / 1e3:.2f} ms")
        print("  " + ", ".join(f"{n} {m / 1e3:.2f}" for n, m in
                               sorted(group.items(), key=lambda item: -item[1])[:15]))
    base_ms, added_ms = sum(base.values()) / 1e3, sum(added.values()) / 1e3
    ratio = added_ms / base_ms
    print(f"python -c pass imports {base_ms:.2f} ms; the one-shape script adds "
          f"{added_ms:.2f} ms = {ratio:.2f}x (budget: {budget:.1f}x) "
          f"{'within budget' if ratio <= budget else 'OVER BUDGET'}")
    listed = read_module_list(module_list)
    unlisted, gone = sorted(set(added) - listed), sorted(listed - set(added))
    print(f"modules not in {module_list.name}: {', '.join(unlisted) or 'none'}")
    print(f"listed but no longer imported: {', '.join(gone) or 'none'}")
    if write:
        header = ("# The modules a one-shape script (`dealerpp one.dpp`) may import beyond\n"
                  f"# `python -c pass`'s own; here {label}.\n"
                  "# bench/bench_importtime.py --write makes it,\n"
                  "# tests/script/test_startup_imports.py holds the path to it.\n")
        module_list.write_text(header + "".join(f"{name}\n" for name in sorted(added)))
        print(f"wrote {module_list}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--write", action="store_true",
                        help="rewrite bench/startup_modules*.txt from this run")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "one.dpp"
        script.write_text(ONE_LINE)
        compiled = Path(folder) / "compiled.dpp"
        compiled.write_text(COMPILED_LINE)
        base = self_times([sys.executable, "-c", "pass"], options.runs, folder)
        ours = self_times([*console_script(), str(script)], options.runs, folder)
        theirs = self_times([*console_script(), str(compiled)], options.runs, folder)
    report(f"a shipped term, {ONE_LINE.strip()}", base, ours, BUDGET_RATIO, MODULE_LIST,
           options.write)
    report(f"a compiled term, {COMPILED_LINE.strip()}", base, theirs, COMPILED_BUDGET_RATIO,
           COMPILED_MODULE_LIST, options.write)


if __name__ == "__main__":
    main()
