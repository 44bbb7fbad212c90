"""Time ``check`` on a 1000-line dealer script (goal: under half a second).

    python bench/bench_check.py [LINES]

Prints the time of a cold check (first call in the process: imports and the
cached parser load included) and the best of five warm checks.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GOAL_SECONDS = 0.5


def script(lines: int) -> str:
    """A valid script of about ``lines`` lines: variables, shapes, an action."""
    out = ["generate 1000", "produce 10", "predeal north SAK, HQJ"]
    seats = ("north", "east", "south", "west")
    index = 0
    while len(out) < lines - 4:
        seat = seats[index % 4]
        if index % 25 == 0 and index // 25 < 30:
            out.append(f"v{index} = shape({seat}, any 4333 + any 4432 - 5xxx)")
        elif index % 3 == 0 and index:
            out.append(f"v{index} = v{index - 1} && hcp({seat}) >= {index % 20} // a comment")
        else:
            out.append(f"v{index} = (spades({seat}) + hearts({seat}) * 2) % 7"
                       f" > loser({seat}, clubs)")
        index += 1
    out += [f"condition v{index - 1} or v0", "action", "    printoneline,",
            f"    average \"v\" v{index - 2}"]
    return "\n".join(out) + "\n"


def main() -> int:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    text = script(lines)
    start = time.perf_counter()
    from dealerpp.script.check import check_text

    found = check_text(text, "bench.dl")
    cold = time.perf_counter() - start
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        check_text(text, "bench.dl")
        warm.append(time.perf_counter() - start)
    errors = [d for d in found if d.severity == "error"]
    print(f"{text.count(chr(10))} lines, {len(text)} characters, {len(found)} findings "
          f"({len(errors)} errors)")
    print(f"cold {cold:.3f} s, warm best {min(warm):.3f} s (goal {GOAL_SECONDS} s)")
    return 0 if cold < GOAL_SECONDS and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
