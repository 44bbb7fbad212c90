"""A fuzz run over everything dealerpp reads: shape{} bodies, scripts (the
preprocessor, then the checker) and deal files of every registered format.

    python tools/fuzz.py                 # 100,000 inputs, a few minutes
    python tools/fuzz.py --count 5000 --seed 7

Inputs are mutations (bytes deleted, repeated, swapped, replaced by
characters that matter to the grammars) of seed inputs: the bundled
examples, the checker's base scripts and a few deals written in every
format. Each input must end in a result or a ``DppError``: any other
exception, or one input taking longer than ``--slow`` seconds, is printed
with the input and counted as a failure (exit 1). Runs in-process, so a
failure here is what would be exit status 70 ("internal error") from the
command.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealerpp.diagnostics import DppError  # noqa: E402

SHAPE_SEEDS = ["5+M(xxx)", "(4432) + (5332) - 5M(332)", "x[3-5]x[13]:s>h,d<=c or M>=5",
               "5m2s(42)", "xxxx:s+h==7?d==6:c==6", "7+xxx:h<2 or m<2", "4+s4+h(xx):d>c,h+s==10",
               "xxxx:-(s/0)%2>1", "J+xxx", "5+s5+h(xx)"]
SHAPE_PIECES = ["+", "-", " + ", " - ", "(", ")", "[", "]", ":", ",", "x", "M", "m", "s", "h",
                "?", "!", "&&", "||", "or", "and", "/", "%", "0", "9", "13", "99999999999", "\x1b",
                "\n", "{", "}", "#", "\t", "é"]
SCRIPT_PIECES = [*SHAPE_PIECES, "shape{north, ", "shape{", "condition ", "action printall",
                 "hcp(", "title \"x\"", "seed 42", "$1", "NS", "predeal north SAK", "\"", "/*",
                 "*/", "//", "produce 10", "generate", "1.5", "usereval(1, NS, 2)", "\r", "\x00"]


def mutate(rng: random.Random, text: str, pieces: list[str]) -> str:
    for _ in range(rng.randint(1, 4)):
        where = rng.randint(0, len(text))
        choice = rng.random()
        if choice < 0.3 and text:
            end = min(len(text), where + rng.randint(1, 8))
            text = text[:where] + text[end:]
        elif choice < 0.6:
            text = text[:where] + rng.choice(pieces) + text[where:]
        elif choice < 0.8 and text:
            end = min(len(text), where + rng.randint(1, 20))
            text = text[:where] + text[where:end] * rng.randint(2, 50) + text[end:]
        else:
            text = text[:where] + chr(rng.randint(0, 0x2FF)) + text[where:]
    return text


def shape_case(rng: random.Random) -> tuple[str, Callable[[], object]]:
    from dealerpp.shapes.compiler import compile_shape

    text = mutate(rng, rng.choice(SHAPE_SEEDS), SHAPE_PIECES)
    return text, lambda: compile_shape(text).dealer_text()


def script_seeds() -> list[str]:
    files = [*sorted((ROOT / "examples").glob("*.dpp")),
             *sorted((ROOT / "tests" / "check" / "bases").glob("*.dl"))]
    return [path.read_text() for path in files]


def script_case(rng: random.Random, seeds: list[str]) -> tuple[str, Callable[[], object]]:
    from dealerpp.script.check import check_text
    from dealerpp.script.rewrite import preprocess_script

    text = mutate(rng, rng.choice(seeds), SCRIPT_PIECES)

    def run() -> object:
        check_text(text, "fuzz.dpp")  # the linter on the script, shape{} allowed
        return check_text(preprocess_script(text, "fuzz.dpp").text, "fuzz.dl")

    return text, run


def deal_seeds() -> dict[str, bytes]:
    """A few deals written in every format the registry can write."""
    import io

    from dealerpp import deals
    from dealerpp.deals.formats import FORMATS

    sample = deals.loads(b"".join(
        f"{line}\n".encode() for line in ("F2F25B5CC55E31928E2E32C949",
                                          "4B0B4FAC05918F6623B3965CB7")), "hex")
    seeds = {}
    for fmt in FORMATS:
        target = io.BytesIO()
        try:
            deals.write(target, sample, fmt.name)
        except DppError:
            continue  # a format that cannot hold these deals
        seeds[fmt.name] = target.getvalue()
    return seeds


def deal_case(rng: random.Random, seeds: dict[str, bytes]) -> tuple[str, Callable[[], object]]:
    from dealerpp import deals

    fmt = rng.choice(sorted(seeds))
    data = mutate(rng, seeds[fmt].decode("latin-1"), ["\n", " ", "-", ".", "*", "[", "\"", "\r",
                                                      "\x00", "\xff"]).encode("utf-8")
    read_as = rng.choice([fmt, None])
    return f"{fmt}: {data[:300]!r}", lambda: deals.loads(data, read_as)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow", type=float, default=3.0, help="seconds one input may take")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    scripts, deal_files = script_seeds(), deal_seeds()
    Case = tuple[str, Callable[[], object]]
    makers: list[Callable[[random.Random], Case]] = [
        shape_case, lambda r: script_case(r, scripts), lambda r: deal_case(r, deal_files)]
    counts = {"ok": 0, "DppError": 0, "failures": 0, "slow": 0}
    started = time.perf_counter()
    for number in range(options.count):
        shown, run = makers[number % len(makers)](rng)
        begun = time.perf_counter()
        try:
            run()
            counts["ok"] += 1
        except DppError:
            counts["DppError"] += 1
        except Exception:  # what the fuzz run is looking for
            counts["failures"] += 1
            print(f"FAILURE on {shown[:500]!r}\n{traceback.format_exc()}", file=sys.stderr)
        took = time.perf_counter() - begun
        if took > options.slow:
            counts["slow"] += 1
            print(f"SLOW ({took:.1f} s) on {shown[:500]!r}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(f"{options.count} inputs in {elapsed:.0f} s: {counts['ok']} accepted, "
          f"{counts['DppError']} clean errors, {counts['failures']} failures, "
          f"{counts['slow']} over {options.slow} s")
    return 1 if counts["failures"] or counts["slow"] else 0


if __name__ == "__main__":
    sys.exit(main())
