"""Time ``check`` on the 73 Practice-Bidding-Scenarios scripts in one
process, with the logic analysis and without it (goal: it adds at most 20%).

    taskset -c 0 python bench/bench_check_corpus.py [ROUNDS]

Each round checks every script once with the analysis and once without, in
turn, so both see the same machine; the best round of each is reported.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared/corpus/dealer-scripts/pbs"
GOAL = 1.20


def scripts() -> list[tuple[str, str]]:
    return [(path.name, path.read_text(errors="surrogateescape"))
            for path in sorted(CORPUS.glob("*.dlr"))]


def one_round(texts: list[tuple[str, str]], analyse: bool) -> float:
    from dealerpp.script.check import check_text, semantics

    semantics.ANALYSE_LOGIC = analyse
    start = time.process_time()
    for name, text in texts:
        check_text(text, name)
    return time.process_time() - start


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    texts = scripts()
    one_round(texts, True)  # imports and tables, once
    without, with_ = [], []
    for _ in range(rounds):
        without.append(one_round(texts, False))
        with_.append(one_round(texts, True))
    ratio = min(with_) / min(without)
    print(f"{len(texts)} scripts: without the analysis {min(without) * 1000:.1f} ms, "
          f"with it {min(with_) * 1000:.1f} ms: x{ratio:.3f} (goal <= x{GOAL})")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
