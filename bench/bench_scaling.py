"""How the cost grows with the size of the input: 1x, 10x and 100x.

    python bench/bench_scaling.py [--budget SECONDS]

Each curve builds inputs of growing size and times one step in-process (the
shape compiler, or formatting one message). For each 10x step it prints the
ratio of the times; linear cost gives about 10x (goal: at most 13x). A curve
stops early when one size takes longer than the budget (default 8 s), so a
quadratic regression shows as a large ratio and a short run, not a hang.

Adding a curve: write ``def curve_NAME(size: int) -> Callable[[], object]``
that builds the input of that size (outside the timing) and returns the step
to time, then list it in ``CURVES`` with its base size and a unit.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dealerpp.diagnostics import Diagnostic, DppError, LineIndex
from dealerpp.shapes.compiler import compile_shape

Step = Callable[[], object]
SCALES = (1, 10, 100)
GOAL = 13.0


def _compile(text: str) -> Step:
    """The step: compile ``text``; an input error is a result, not a failure."""

    def step() -> object:
        try:
            return compile_shape(text)
        except DppError as error:
            str(error)  # the message is part of the cost
            return error

    return step


# --- curves: size -> the step to time -----------------------------------------


def curve_pattern_line(size: int) -> Step:
    """One pattern of ``size`` digits: shape{north, 44111...1} (an error)."""
    return _compile("shape{north, 44" + "1" * size + "}")


def curve_union_terms(size: int) -> Step:
    """``size`` plain terms joined by +: 4432 + 4423 + ... (cycling)."""
    patterns = ("4432", "4423", "4342", "5332", "4333", "5422", "6322", "5431")
    return _compile(" + ".join(patterns[i % len(patterns)] for i in range(size)))


def curve_division_warnings(size: int) -> Step:
    """``size`` terms xxxx:13/s>3, each dividing by zero where s = 0; the
    step includes formatting the warnings, whose size must stay bounded."""
    text = " + ".join(["xxxx:13/s>3"] * size)

    def step() -> object:
        compiled = compile_shape(text)
        return sum(len(w.format()) for w in compiled.warnings)

    return step


def curve_unary_chain(size: int) -> Step:
    """xxxx:---...-s>0 with ``size`` unary minus signs."""
    return _compile("xxxx:" + "-" * size + "s>0")


def curve_addition_chain(size: int) -> Step:
    """xxxx:s+s+...+s>3 with ``size`` terms."""
    return _compile("xxxx:" + "+".join(["s"] * size) + ">3")


def curve_comma_conditions(size: int) -> Step:
    """xxxx:s>1,h>1,...: ``size`` conditions joined by ',' (and)."""
    return _compile("xxxx:" + ",".join(("s>1", "h>1", "d<9")[i % 3] for i in range(size)))


def curve_parentheses(size: int) -> Step:
    """xxxx:((...(s)...))>3 nested ``size`` deep."""
    return _compile("xxxx:" + "(" * size + "s" + ")" * size + ">3")


def curve_long_literal(size: int) -> Step:
    """xxxx:s<999...9 with a literal of ``size`` digits."""
    return _compile("xxxx:s<" + "9" * size)


def curve_message_on_long_line(size: int) -> Step:
    """Index a one-line text of ``size`` characters and format a message at
    its middle (the quoted line is cut, so only the indexing grows)."""
    text = "x = " + "\x1b" * size

    def step() -> object:
        index = LineIndex(text)
        line, column = index.line_col(len(text) // 2)
        return Diagnostic("error", "stray character", line, column, "s.dpp",
                          index.excerpt(line, column)).format()

    return step


@dataclass(frozen=True)
class Curve:
    name: str
    build: Callable[[int], Step]
    base: int  # the input size at 1x
    unit: str


CURVES = [
    Curve("long pattern line", curve_pattern_line, 1_000, "digits"),
    Curve("union of plain terms", curve_union_terms, 30, "terms"),
    Curve("division-by-zero warnings", curve_division_warnings, 30, "terms"),
    Curve("unary minus chain", curve_unary_chain, 1_000, "signs"),
    Curve("addition chain", curve_addition_chain, 500, "terms"),
    Curve("comma-joined conditions", curve_comma_conditions, 300, "terms"),
    Curve("nested parentheses", curve_parentheses, 1_000, "levels"),
    Curve("integer literal", curve_long_literal, 500, "digits"),
    Curve("message on a long line", curve_message_on_long_line, 100_000, "chars"),
]


def time_step(step: Step, least: float = 0.2) -> tuple[float, str]:
    """The best time of ``step`` over repeats lasting at least ``least`` seconds
    in all (one run if it is slower), and what it returned or raised."""
    best, spent, outcome = float("inf"), 0.0, ""
    while spent < least:
        gc.collect()  # garbage of earlier runs is not this run's cost
        start = time.perf_counter()
        try:
            result = step()
            outcome = "error message" if isinstance(result, DppError) else "ok"
        except (RecursionError, ValueError, MemoryError) as error:
            outcome = f"CRASH {type(error).__name__}"
        took = time.perf_counter() - start
        best, spent = min(best, took), spent + took
        if outcome.startswith("CRASH"):
            break
    return best, outcome


def run_curve(curve: Curve, budget: float) -> None:
    print(f"== {curve.name}")
    previous: float | None = None
    for scale in SCALES:
        size = curve.base * scale
        took, outcome = time_step(curve.build(size))
        ratio = "" if previous is None else f"  x{took / previous:6.1f} for 10x"
        verdict = "" if previous is None else ("" if took / previous <= GOAL else "  ABOVE GOAL")
        print(f"  {size:>10,} {curve.unit:<7} {took * 1000:10.1f} ms  {outcome:<20}{ratio}{verdict}",
              flush=True)
        previous = max(took, 1e-6)
        if took > budget:
            print(f"  (stopped: {took:.1f} s is over the {budget:.0f} s budget)")
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=8.0,
                        help="stop a curve after a size that takes longer (seconds)")
    parser.add_argument("--only", help="run only the curves whose name contains this")
    options = parser.parse_args()
    compile_shape("4333")  # load the parser tables once, outside the timings
    print(f"ratio = time for 10x the input / time for 1x (goal: at most {GOAL:.0f}x)")
    for curve in CURVES:
        if options.only and options.only not in curve.name:
            continue
        run_curve(curve, options.budget)


if __name__ == "__main__":
    main()
