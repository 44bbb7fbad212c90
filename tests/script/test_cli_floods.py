"""Error floods through the commands as a user runs them: `dealerpp FILE`
(which checks its output) and `dealerpp check` write output in proportion to
their input, never a copy of a long line per bad character."""

from __future__ import annotations

import subprocess
import sys

import pytest

FLOODS = {
    "stray-characters": "x = " + "@ " * 20_000 + "\n",
    "bad-lines": "".join(f"x{i} = = {i}\n" for i in range(40_000)),
    "repeated-warnings": "h = hcp(north)\ncondition " + " + ".join(["1 / h"] * 5000) + " > 1\n",
    "alike-shape-terms": "x = shape{north, " + " + ".join(["xxxx:13/s>3"] * 40) + "}\n",
}


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "dealerpp", *args], input=stdin.encode(),
                          capture_output=True, timeout=120)


@pytest.mark.sampled(2)
@pytest.mark.parametrize("name", FLOODS)
@pytest.mark.parametrize("command", [["-"], ["check", "--dpp", "-"]], ids=["preprocess", "check"])
def test_a_flood_gives_output_in_proportion(name: str, command: list[str]) -> None:
    text = FLOODS[name]
    done = run(*command, stdin=text)
    assert done.returncode in (0, 1), done.stderr[-500:]
    assert b"Traceback" not in done.stderr
    longest_line = max(len(line) for line in text.splitlines())
    # A few quoted lines at most, and a hundred short errors.
    assert len(done.stderr) <= 3 * longest_line + 100 * 200, done.stderr[:300]
