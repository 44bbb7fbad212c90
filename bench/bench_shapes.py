"""The shape compiler against the Perl dealer.dpp.

    python bench/bench_shapes.py [--terms 1000]

1. Time per distinct term, over varied terms both tools can run: dealerpp
   compiles each (parse, expand, emit) in-process with its emission cache
   cleared, so every term is computed from scratch; the Perl tool's time per
   term is (its time on all terms - its time on an empty script) / terms.
2. The number of terms each emits for the manual's examples.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import PERL_DPP, script_of, term_count, varied_terms, wall_time

MANUAL = ["5+xx5+", "2-xxx", "x[3-5]x[13]", "(4432)", "5s(431)", "4+c3+d(2+2+)", "5M(xxx)",
          "5+M3+c(31)", "5M5m(xx)", "4+s4+h(xx):d>c,h+s==10",
          "5m(332) + 5m2s(42)", "6m(322)", "5M(332)", "(4432) + (4333)", "(3+3+3+2+)"]


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
    import subprocess

    from dealerpp import expand

    rows = []
    for text in MANUAL:
        ours = term_count(expand(text).to_dealer())
        perl = subprocess.run([PERL_DPP], input=f"x = shape{{north, {text}}}\n",
                              capture_output=True, text=True).stdout
        rows.append((text, ours, term_count(perl)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terms", type=int, default=1000)
    options = parser.parse_args()
    terms = varied_terms(options.terms)
    ours, perl = dealerpp_per_term(terms), perl_per_term(terms)
    print(f"== time per distinct term ({len(terms)} varied terms both tools can run)")
    print(f"dealerpp        {ours * 1e6:9.0f} us/term")
    print(f"Perl dealer.dpp {perl * 1e6:9.0f} us/term")
    print(f"ratio: dealerpp is {perl / ours:.2f}x the speed of the Perl tool (goal: 10x)")
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
