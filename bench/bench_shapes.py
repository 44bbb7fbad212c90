"""The shape compiler against the Perl dealer.dpp, and where its time goes.

    python bench/bench_shapes.py [--terms 1000] [--checkout PATH]

1. Stages of a cold run: a fresh interpreter preprocesses a script of
   ``--terms`` lines of distinct varied shape{} (bench/corpus.py) as
   ``dealerpp FILE`` does, and reports the time of each stage: start-up
   (importing the command), parse, expand, emit, check (the checker's pass
   over the script), and the rest (scanning, rewriting, output), all on one
   core, in CPU time. Beside it, the whole command's wall time on one core (its affinity
   set to one CPU) and as it runs (a long script's blocks compile on two
   cores, dealerpp.script.parallel), the Perl tool's and ``python -c pass``.
2. Time per distinct term in-process (parse, expand, emit; the emitter's
   memo cleared for each term), against the Perl tool's time per term
   ((its time on all terms - its time on an empty script) / terms).
3. Terms emitted over the corpus by each emit mode, and for the manual's
   examples against the Perl tool.

``--checkout PATH`` runs parts 1 and 3 on another source tree (e.g. an
older commit unpacked with ``git archive``), with this interpreter, so a
before/after comparison is made in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import PERL_DPP, script_of, term_count, varied_terms, wall_time

MANUAL = ["5+xx5+", "2-xxx", "x[3-5]x[13]", "(4432)", "5s(431)", "4+c3+d(2+2+)", "5M(xxx)",
          "5+M3+c(31)", "5M5m(xx)", "4+s4+h(xx):d>c,h+s==10",
          "5m(332) + 5m2s(42)", "6m(322)", "5M(332)", "(4432) + (4333)", "(3+3+3+2+)"]
STAGES = ("start-up", "parse", "expand", "emit", "check", "rest")
WHOLE = ("one core", "command")

# Runs in a fresh interpreter: `dealerpp -` on the script read from stdin,
# with the compiler's stages wrapped in timers. Prints the seconds per stage,
# CPU time of the process (time.process_time: what a busy machine's other
# processes disturb least; the whole commands below are wall times).
STAGE_DRIVER = r"""
import io, json, sys, time
started = time.process_time()
from dealerpp.cli import preprocess as cli
from dealerpp.shapes import compiler
startup = time.process_time() - started
spent = dict.fromkeys(("parse", "expand", "emit", "check"), 0.0)

def timed(stage, function):
    def run(*args, **kwargs):
        begin = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[stage] += time.process_time() - begin
    return run

compiler.parse_call = timed("parse", compiler.parse_call)
compiler.parse_body = timed("parse", compiler.parse_body)
compiler.expand_list = timed("expand", compiler.expand_list)
compiler.Compiled.dealer_text = timed("emit", compiler.Compiled.dealer_text)
from dealerpp.script import rewrite
if hasattr(rewrite, "check_preprocessed"):
    rewrite.check_preprocessed = timed("check", rewrite.check_preprocessed)
else:  # an older tree checked the output
    cli.lint_output = timed("check", cli.lint_output)
if hasattr(cli, "usable_cores"):  # stages of the work, done on one core
    cli.usable_cores = lambda: 1
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.stdin.buffer.read()))
out = open("/dev/null", "w")
sys.stdout, real = out, sys.stdout
sys.stderr = out
begin = time.process_time()
cli.main(["-"])
total = time.process_time() - begin
sys.stdout = real
spent["start-up"] = startup
spent["rest"] = total - sum(spent[s] for s in ("parse", "expand", "emit", "check"))
print(json.dumps(spent))
"""

# Runs in a fresh interpreter: the terms each emit mode writes for the corpus.
COUNT_DRIVER = r"""
import json, re, sys
from dealerpp import expand
terms = json.loads(sys.stdin.read())
sets = [expand(t) for t in terms]
counts = {}
for mode in ("compact", "shortest", "list"):
    try:
        lists = [s.to_dealer(mode) for s in sets]
    except TypeError:  # a tree without emit modes
        lists = [s.to_dealer(compact=mode != "list") for s in sets] if mode != "shortest" else None
    if lists is not None:
        counts[mode] = sum(len(re.findall(r"[0-9x]{4}", text)) for text in lists)
print(json.dumps(counts))
"""


def _environment(checkout: str | None) -> dict[str, str]:
    """Python's defaults (bytecode cached), with ``checkout`` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if checkout:
        env["PYTHONPATH"] = str(Path(checkout).resolve())
    return env


def _folder(checkout: str | None) -> str:
    """Where to run: ``python -c`` puts the current folder first on the path."""
    return str(Path(checkout).resolve()) if checkout else "/"


def stage_times(script: str, checkouts: list[str | None],
                runs: int = 5) -> list[dict[str, float]]:
    """For each checkout, the median seconds of each stage and of the whole
    command over ``runs`` cold runs, the checkouts taking turns (this
    machine's speed drifts from minute to minute)."""
    command = [sys.executable, "-c", STAGE_DRIVER]
    samples: list[list[dict[str, float]]] = [[] for _ in checkouts]
    for checkout in checkouts:  # writes the .pyc files once
        subprocess.run(command, input=script, capture_output=True, text=True,
                       env=_environment(checkout), cwd=_folder(checkout))
    for _ in range(runs):
        for found, checkout in zip(samples, checkouts, strict=True):
            done = subprocess.run(command, input=script, capture_output=True, text=True,
                                  env=_environment(checkout), cwd=_folder(checkout), check=True)
            sample = json.loads(done.stdout)
            sample["one core"] = whole_command(script, checkout, one_core=True)
            sample["command"] = whole_command(script, checkout)
            found.append(sample)
    return [{stage: statistics.median(s[stage] for s in found) for stage in (*STAGES, *WHOLE)}
            for found in samples]


def whole_command(script: str, checkout: str | None, one_core: bool = False) -> float:
    """The wall time of ``dealerpp -`` (run as ``python -c``, so that any
    checkout can be timed the same way); with ``one_core``, kept to one CPU."""
    code = "import sys; from dealerpp.cli import main; sys.exit(main(sys.argv[1:]))"
    prefix = _one_cpu() if one_core else []
    return wall_time([*prefix, sys.executable, "-c", code, "-"], script, runs=1,
                     env=_environment(checkout), cwd=_folder(checkout))


def _one_cpu() -> list[str]:
    """A command prefix that keeps a process on one CPU (``taskset``)."""
    cpu = min(os.sched_getaffinity(0))
    return [shutil.which("taskset") or "taskset", "-c", str(cpu)]


def corpus_term_counts(terms: list[str], checkout: str | None) -> dict[str, int]:
    done = subprocess.run([sys.executable, "-c", COUNT_DRIVER], input=json.dumps(terms),
                          capture_output=True, text=True, env=_environment(checkout), check=True,
                          cwd=_folder(checkout))
    return json.loads(done.stdout)


def dealerpp_per_term(terms: list[str]) -> float:
    from dealerpp.shapes import emit
    from dealerpp.shapes.compiler import compile_shape

    compile_shape("4333").dealer_list()  # load the parser and the term table once
    start = time.perf_counter()
    for term in terms:
        emit.clear_memo()
        compile_shape(term).dealer_list()
    return (time.perf_counter() - start) / len(terms)


def perl_per_term(terms: list[str]) -> float:
    full = wall_time([PERL_DPP], script_of(terms), runs=3)
    empty = wall_time([PERL_DPP], "x = 1\n", runs=3)
    return max(full - empty, 1e-9) / len(terms)


def manual_term_counts() -> list[tuple[str, int, int]]:
    from dealerpp import expand

    rows = []
    for text in MANUAL:
        ours = term_count(expand(text).to_dealer())
        perl = subprocess.run([PERL_DPP], input=f"x = shape{{north, {text}}}\n",
                              capture_output=True, text=True).stdout
        rows.append((text, ours, term_count(perl)))
    return rows


def print_stages(terms: list[str], checkouts: list[tuple[str, str | None]]) -> None:
    script = script_of(terms)
    perl = wall_time([PERL_DPP], script, runs=5)
    python = wall_time([sys.executable, "-c", "pass"], runs=9, env=_environment(None))
    print(f"== a cold {len(terms)}-line script of distinct varied shape{{}}: stages (ms)")
    print(f"{'':<12}" + "".join(f"{stage:>10}" for stage in STAGES)
          + f"{'one core':>10}{'vs Perl':>9}{'command':>10}{'vs Perl':>9}")
    found = stage_times(script, [checkout for _, checkout in checkouts])
    for (label, _), stages in zip(checkouts, found, strict=True):
        print(f"{label:<12}" + "".join(f"{stages[s] * 1e3:10.1f}" for s in STAGES)
              + "".join(f"{stages[w] * 1e3:10.0f}{perl / stages[w]:8.2f}x" for w in WHOLE))
    print(f"Perl dealer.dpp: {perl * 1e3:.0f} ms; python -c pass: {python * 1e3:.1f} ms "
          f"(goal: dealerpp at least 2x the Perl tool's speed)")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terms", type=int, default=1000)
    parser.add_argument("--checkout", help="another source tree to compare with (before)")
    options = parser.parse_args()
    terms = varied_terms(options.terms)
    checkouts = ([("before", options.checkout)] if options.checkout else []) + [("this", None)]
    print_stages(terms, checkouts)

    ours, perl = dealerpp_per_term(terms), perl_per_term(terms)
    print(f"== time per distinct term ({len(terms)} varied terms both tools can run)")
    print(f"dealerpp        {ours * 1e6:9.0f} us/term")
    print(f"Perl dealer.dpp {perl * 1e6:9.0f} us/term")
    print(f"ratio: dealerpp is {perl / ours:.2f}x the speed of the Perl tool")
    print()

    print(f"== terms emitted over the corpus ({len(terms)} varied terms)")
    for label, checkout in checkouts:
        counts = corpus_term_counts(terms, checkout)
        print(f"{label:<8} " + ", ".join(f"{mode} {n}" for mode, n in counts.items()))
    print()
    print("== terms emitted for the manual's examples (fewer is better)")
    print(f"{'expression':<28} {'dealerpp':>8} {'Perl':>6}")
    total_ours = total_perl = 0
    for text, ours_n, perl_n in manual_term_counts():
        total_ours, total_perl = total_ours + ours_n, total_perl + perl_n
        print(f"{text:<28} {ours_n:>8} {perl_n:>6}")
    print(f"{'total':<28} {total_ours:>8} {total_perl:>6}")
    print("(the Perl tool's lists cap lengths at 9, so some of its lists mean less than ours)")


if __name__ == "__main__":
    main()
