"""Varied shape{} terms for the benchmarks, inside the Perl dealer.dpp's
abilities (so both tools can run them), and helpers to time commands."""

from __future__ import annotations

import random
import re
import statistics
import subprocess
import time

PERL_DPP = "/usr/games/dealer.dpp"


def _slot(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.35:
        return str(rng.randint(0, 7))
    if roll < 0.55:
        return f"{rng.randint(1, 7)}{rng.choice('+-')}"
    if roll < 0.7:
        low = rng.randint(0, 5)
        return f"[{low}-{rng.randint(low + 1, 9)}]"
    return "x"


def _term(rng: random.Random) -> str:
    labels = rng.choice([[], [], ["s"], ["h"], ["c", "d"], ["M"], ["m"], ["M", "m"], ["s", "m"]])
    group = min(rng.choice([0, 0, 2, 3, 4]), 4 - len(labels))
    text = "".join(_slot(rng) + label for label in labels)
    text += "".join(_slot(rng) for _ in range(4 - len(labels) - group))
    if group:
        text += "(" + "".join(_slot(rng) for _ in range(group)) + ")"
    if rng.random() < 0.3 and "M" not in text and "m" not in text:
        a, b = rng.sample("shdc", 2)
        text += f":{a}{rng.choice(['>', '>=', '<', '!='])}{b}"
        if rng.random() < 0.5:
            c, d = rng.sample("shdc", 2)
            text += f",{c}+{d}{rng.choice(['>=', '<'])}{rng.randint(5, 10)}"
    return text


def varied_terms(count: int, seed: int = 2026) -> list[str]:
    """``count`` distinct terms that compile with dealerpp and that the Perl
    tool runs without dying."""
    from dealerpp import DppError, expand

    rng = random.Random(seed)
    chosen: list[str] = []
    seen: set[str] = set()
    while len(chosen) < count:
        batch = []
        while len(batch) < count:
            term = _term(rng)
            if term in seen:
                continue
            seen.add(term)
            try:
                if expand(term):
                    batch.append(term)
            except DppError:
                continue
        chosen += perl_survivors(batch)
    return chosen[:count]


def perl_survivors(terms: list[str]) -> list[str]:
    """The terms on which the Perl tool neither dies nor prints an empty list."""
    alive = []
    start = 0
    while start < len(terms):
        script = "".join(f"v{i} = shape{{north, {t}}}\n" for i, t in enumerate(terms[start:]))
        lines = subprocess.run([PERL_DPP], input=script, capture_output=True,
                               text=True).stdout.splitlines()
        for offset, line in enumerate(lines):
            if not re.search(r"shape\(north,\s*\)", line):
                alive.append(terms[start + offset])
        start += len(lines) + 1  # skip the term it died on
    return alive


def script_of(terms: list[str]) -> str:
    return "".join(f"v{i} = shape{{north, {t}}}\n" for i, t in enumerate(terms))


def wall_time(command: list[str], stdin: str = "", runs: int = 5,
              env: dict[str, str] | None = None, cwd: str | None = None) -> float:
    """The median wall time of a command, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, input=stdin.encode(), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False, env=env, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def term_count(dealer_list: str) -> int:
    return len(re.findall(r"[0-9x]{4}", dealer_list))
