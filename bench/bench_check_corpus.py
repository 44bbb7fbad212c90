"""Time ``check`` on the 73 Practice-Bidding-Scenarios scripts in one
process, with the logic analysis and without it (goal: it adds at most 20%).

    taskset -c 0 python bench/bench_check_corpus.py [ROUNDS]

Each script is checked ROUNDS times with the analysis and ROUNDS times
without, in turn, so both see the same machine; the best time of each
script, with and without, is summed. Taking the best per script (a few
milliseconds each) rather than per round of all 73 keeps a busy machine's
pauses out of both sums.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CORPUS = Path(os.environ.get("DEALERPP_CORPUS", Path(__file__).resolve().parents[2] / "shared/corpus")) / "dealer-scripts/pbs"
GOAL = 1.20


def scripts() -> list[tuple[str, str]]:
    return [(path.name, path.read_text(errors="surrogateescape"))
            for path in sorted(CORPUS.glob("*.dlr"))]


def best_times(name: str, text: str, rounds: int) -> tuple[float, float]:
    """The best CPU time of checking ``text`` without and with the analysis."""
    from dealerpp.script.check import check_text, semantics

    without = with_ = float("inf")
    for _ in range(rounds):
        for analyse in (False, True):
            semantics.ANALYSE_LOGIC = analyse
            start = time.process_time()
            check_text(text, name)
            spent = time.process_time() - start
            if analyse:
                with_ = min(with_, spent)
            else:
                without = min(without, spent)
    semantics.ANALYSE_LOGIC = True
    return without, with_


def main() -> int:
    from dealerpp.script.check import check_text

    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    texts = scripts()
    if not texts:
        print(f"no *.dlr script in {CORPUS}: the corpus sits beside the repository")
        return 2
    for name, text in texts:  # imports and tables, once
        check_text(text, name)
    without = with_ = 0.0
    for name, text in texts:
        one, other = best_times(name, text, rounds)
        without += one
        with_ += other
    ratio = with_ / without
    print(f"{len(texts)} scripts: without the analysis {without * 1000:.1f} ms, "
          f"with it {with_ * 1000:.1f} ms: x{ratio:.3f} (goal <= x{GOAL})")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
