"""Random mutations of the example scripts: never a traceback; every failure
is a positioned DppError."""

from __future__ import annotations

import random
import subprocess
import sys

from dealerpp import DppError
from dealerpp.script.rewrite import preprocess_script
from tests.conftest import EXAMPLES, sized

PIECES = ["shape{", "}", "{", "(", ")", "[", "]", "+", " + ", "-", " - ", ":", ",", "#", "//",
          "/*", "*/", '"', "\n", "\r\n", "x", "5", "M", "m", "north", " or ", "any ", "T"]


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 5)):
        position = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.4:
            text = text[:position] + rng.choice(PIECES) + text[position:]
        elif roll < 0.7:
            text = text[:position] + text[position + rng.randint(1, 6):]
        else:
            other = rng.randrange(len(text) + 1)
            a, b = sorted((position, other))
            text = text[:a] + text[b:] + text[a:b]  # move a chunk
    return text


def test_mutated_examples_only_give_positioned_errors() -> None:
    rng = random.Random(42)
    sources = [p.read_text() for p in sorted(EXAMPLES.glob("*.dpp"))]
    failures = 0
    for _ in range(2500):
        text = mutate(rng, rng.choice(sources))
        try:
            preprocess_script(text, "fuzz.dpp")
        except DppError as error:
            failures += 1
            assert error.filename == "fuzz.dpp"
            assert error.line is not None and error.column is not None
            assert str(error).startswith(f"fuzz.dpp:{error.line}:{error.column}: error: ")
    assert failures > 100  # the mutations really do break scripts


def test_mutated_scripts_through_the_command() -> None:
    rng = random.Random(sized(7, None))  # 15 of the same under CI, 6 drawn anew locally
    sources = [p.read_text() for p in sorted(EXAMPLES.glob("*.dpp"))]
    for _ in range(sized(15, 6)):
        text = mutate(rng, rng.choice(sources))
        done = subprocess.run([sys.executable, "-m", "dealerpp", "-"], input=text,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode in (0, 1), done.stderr
        assert "Traceback" not in done.stderr
