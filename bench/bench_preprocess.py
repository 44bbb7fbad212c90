"""The preprocessor against the Perl dealer.dpp, whole processes timed.

    python bench/bench_preprocess.py [--rounds 15] [--rounds-a 5] [--checkout PATH]
                                     [--only-a | --only-b]

(a) a 1000-line script of 1000 varied shape{} (goal, issue 28: dealerpp >= 2x
    the Perl tool's speed on one core), as it runs (two cores where it may)
    and kept to one CPU (taskset), the Perl tool kept so too; the commands
    take turns round after round, wall and CPU time, medians;
(b) a one-line script (goal, issue 28: dealerpp's wall time <= 1.5x `python
    -c pass` of the same interpreter; it was 3x), run as users run it: the
    console script on a FILE, with and without the checker, on standard
    input, and kept to one CPU (taskset), against `python -c pass` kept so;
    for comparison `python -m dealerpp`, pip's generated wrapper (which
    imports `re` first), a term without a shipped list (compiled), and
    `python -S`/`-I -c pass`. The commands
    take turns, round after round, so a load that drifts during the run
    weighs on all of them alike; each gets the median of its rounds, wall
    and CPU time (user + system, which the load disturbs less).

``--checkout PATH`` adds the same runs on another source tree (an older
commit unpacked with ``git archive``), started the way the console script
starts (``import re, sys; from dealerpp.cli import main``), so a
before/after comparison comes from one run.

Every run is cold: dealerpp keeps no cache, so every shape{} is compiled
and checked each time.

Every command runs with Python's default bytecode caching: a
PYTHONDONTWRITEBYTECODE in the environment is dropped, since an installed
package has its .pyc files anyway (pip compiles them), and without them an
editable checkout would be timed compiling its own source on every run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import PERL_DPP, script_of, varied_terms, wall_time

ONE_LINE = "x = shape{north, 5+M(xxx)}\n"
# A term the front door has no shipped list for (dealerpp/quick.py): it loads the compiler.
UNSHIPPED_LINE = "x = shape{north, 5+M4+m(xx)}\n"
# What the console script does before main() (pip writes it so).
CONSOLE_START = "import re, sys\nfrom dealerpp.cli import main\nsys.exit(main())\n"


def dealerpp_command() -> list[str]:
    """The dealerpp installed beside this interpreter (never another one on PATH)."""
    found = Path(sys.executable).with_name("dealerpp")
    return [str(found)] if found.exists() else [sys.executable, "-m", "dealerpp"]


def default_environment() -> dict[str, str]:
    """The environment without settings of a test harness's own (no
    bytecode written, unbuffered output) that a user's shell has not."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")}


def part_a(dealerpp: list[str], env: dict[str, str], rounds: int, checkout: str | None) -> None:
    """The 1000-line script, every command taking its turn in each round
    (the load drifts: a ratio is only read between runs of one round's
    neighbourhood), Perl kept to one CPU as well for the one-core ratio."""
    big = script_of(varied_terms(1000))
    one_cpu = ["taskset", "-c", str(min(os.sched_getaffinity(0)))]
    commands: dict[str, tuple[list[str], dict[str, str]]] = {
        "Perl dealer.dpp": ([PERL_DPP], env),
        "one CPU: Perl dealer.dpp": ([*one_cpu, PERL_DPP], env),
        "dealerpp -": ([*dealerpp, "-"], env),
        "dealerpp --no-check -": ([*dealerpp, "--no-check", "-"], env),
        "one CPU: dealerpp -": ([*one_cpu, *dealerpp, "-"], env),
    }
    if checkout:
        old_env = {**env, "PYTHONPATH": str(Path(checkout).resolve())}
        old = [sys.executable, "-c", CONSOLE_START]
        commands["checkout -"] = ([*old, "-"], old_env)
        commands["one CPU: checkout -"] = ([*one_cpu, *old, "-"], old_env)
    with tempfile.TemporaryDirectory() as folder:
        for command, command_env in commands.values():  # .pyc files written once
            _run_once(command, big, command_env, folder)
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for _ in range(rounds):
            for label, (command, command_env) in commands.items():
                times[label].append(_run_once(command, big, command_env, folder))
    print(f"== (a) a 1000-line script of 1000 varied shape{{}} (median of {rounds} rounds, "
          f"taking turns; load average {os.getloadavg()[0]:.1f})")
    for label, measured in times.items():
        base = "one CPU: Perl dealer.dpp" if label.startswith("one CPU") else "Perl dealer.dpp"
        wall = statistics.median(w for w, _ in measured)
        cpu = statistics.median(c for _, c in measured)
        speed_wall = statistics.median(w for w, _ in times[base]) / wall
        speed_cpu = statistics.median(c for _, c in times[base]) / cpu
        goal = "" if "Perl" in label else "   (goal: >= 2x)"
        print(f"{label:<26} wall {wall:6.3f} s = {speed_wall:5.2f}x   cpu {cpu:6.3f} s = "
              f"{speed_cpu:5.2f}x the Perl tool's speed{goal}")
    print()


def _run_once(command: list[str], stdin: str, env: dict[str, str], cwd: str) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (which must succeed)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    process.stdin.write(stdin.encode())  # type: ignore[union-attr]
    process.stdin.close()  # type: ignore[union-attr]
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with status {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def part_b(dealerpp: list[str], env: dict[str, str], rounds: int, checkout: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:  # also an empty cwd for -c runs
        script = str(Path(folder) / "one.dpp")
        Path(script).write_text(ONE_LINE)
        unshipped = str(Path(folder) / "unshipped.dpp")
        Path(unshipped).write_text(UNSHIPPED_LINE)
        one_cpu = ["taskset", "-c", str(min(os.sched_getaffinity(0)))]
        python = sys.executable
        pip_wrapper = "import re, sys\nfrom dealerpp.quick import main\nsys.exit(main())\n"
        commands: dict[str, tuple[list[str], dict[str, str]]] = {
            "python -c pass": ([python, "-c", "pass"], env),
            "python -S -c pass": ([python, "-S", "-c", "pass"], env),
            "python -I -c pass": ([python, "-I", "-c", "pass"], env),
            "dealerpp --no-check FILE": ([*dealerpp, "--no-check", script], env),
            "dealerpp FILE": ([*dealerpp, script], env),
            "dealerpp - (stdin)": ([*dealerpp, "-"], env),
            "python -m dealerpp FILE": ([python, "-m", "dealerpp", script], env),
            "pip's wrapper (unshipped)": ([python, "-c", pip_wrapper, script], env),
            "dealerpp FILE, unshipped": ([*dealerpp, unshipped], env),
            "one CPU: python -c pass": ([*one_cpu, python, "-c", "pass"], env),
            "one CPU: dealerpp FILE": ([*one_cpu, *dealerpp, script], env),
            "one CPU: dealerpp -": ([*one_cpu, *dealerpp, "-"], env),
            "one CPU: FILE, unshipped": ([*one_cpu, *dealerpp, unshipped], env),
        }
        if checkout:
            old_env = {**env, "PYTHONPATH": str(Path(checkout).resolve())}
            old = [sys.executable, "-c", CONSOLE_START]
            commands["checkout --no-check FILE"] = ([*old, "--no-check", script], old_env)
            commands["checkout FILE"] = ([*old, script], old_env)
        for command, command_env in commands.values():  # .pyc files written once
            _run_once(command, ONE_LINE, command_env, folder)
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
        for _ in range(rounds):
            for label, (command, command_env) in commands.items():
                times[label].append(_run_once(command, ONE_LINE, command_env, folder))
    print(f"== (b) a one-line script, whole process (median of {rounds} rounds, taking turns)")
    for label, measured in times.items():
        base = "one CPU: python -c pass" if label.startswith("one CPU") else "python -c pass"
        base_wall = statistics.median(w for w, _ in times[base])
        base_cpu = statistics.median(c for _, c in times[base])
        wall = statistics.median(w for w, _ in measured)
        cpu = statistics.median(c for _, c in measured)
        # pip's own wrapper is shown for comparison only: the shipped
        # console scripts are ours (pyproject.toml, shared-scripts)
        goal = "" if "python" in label or "pip's" in label else "   (goal: <= 1.5x)"
        print(f"{label:<26} wall {wall * 1e3:6.1f} ms = {wall / base_wall:5.2f}x   "
              f"cpu {cpu * 1e3:6.1f} ms = {cpu / base_cpu:5.2f}x{goal}")
    print(f"Perl dealer.dpp            wall {wall_time([PERL_DPP], ONE_LINE, runs=9) * 1e3:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--checkout", help="another source tree, timed in part (b) too")
    parser.add_argument("--rounds-a", type=int, default=5, help="rounds of part (a)")
    parser.add_argument("--only-b", action="store_true", help="skip the 1000-line part (a)")
    parser.add_argument("--only-a", action="store_true", help="skip the one-line part (b)")
    options = parser.parse_args()
    dealerpp, env = dealerpp_command(), default_environment()
    wall_time([*dealerpp, "-"], ONE_LINE, runs=1, env=env)  # writes the .pyc files once
    if not options.only_b:
        part_a(dealerpp, env, options.rounds_a, options.checkout)
    if not options.only_a:
        part_b(dealerpp, env, options.rounds, options.checkout)


if __name__ == "__main__":
    main()
