"""The result cache: a second run gives the same output and warnings without
loading the compiler; it can be turned off; a broken cache file is harmless.
Lark itself is never loaded on this path (the parse tables ship as data)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = "a = shape{north, 5+M(xxx)}\nb = shape{south, 7+7+xx}  # empty\n/* East */\n"

PROBE = """
import sys
from dealerpp.cli import main
status = main(sys.argv[1:])
print("compiler loaded:", "dealerpp.shapes.compiler" in sys.modules, file=sys.stderr)
print("lark loaded:", "lark" in sys.modules, file=sys.stderr)
sys.exit(status)
"""


def run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "DEALERPP_CACHE_DIR": str(tmp_path / "cache"), **env}
    return subprocess.run([sys.executable, "-c", PROBE, *args], input=SCRIPT, text=True,
                          capture_output=True, env=environment, timeout=120)


def test_second_run_is_served_from_the_cache(tmp_path: Path) -> None:
    first, second = run(tmp_path, "-"), run(tmp_path, "-")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout and "shape(north, " in first.stdout
    assert "compiler loaded: True" in first.stderr
    assert "compiler loaded: False" in second.stderr
    assert "lark loaded: False" in first.stderr and "lark loaded: False" in second.stderr
    strip = lambda text: re.sub(r"compiler loaded: \w+", "", text)  # noqa: E731
    assert strip(first.stderr) == strip(second.stderr)
    assert "matches no shape" in second.stderr and "E, O, F" in second.stderr
    assert len(list((tmp_path / "cache").glob("results-*.json"))) == 1


def test_cache_can_be_turned_off(tmp_path: Path) -> None:
    run(tmp_path, "-", DEALERPP_CACHE="0")
    again = run(tmp_path, "-", DEALERPP_CACHE="0")
    assert "compiler loaded: True" in again.stderr
    assert not (tmp_path / "cache").exists()


def test_a_broken_cache_file_is_ignored(tmp_path: Path) -> None:
    run(tmp_path, "-")
    (cache_file,) = (tmp_path / "cache").glob("results-*.json")
    cache_file.write_text("{not json")
    again = run(tmp_path, "-")
    assert again.returncode == 0 and "shape(north, " in again.stdout


def test_errors_are_not_cached(tmp_path: Path) -> None:
    environment = {**os.environ, "DEALERPP_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "dealerpp", "-"], text=True,
                              input="a = shape{north, 4432+5332}\n", capture_output=True,
                              env=environment, timeout=120)
        assert done.returncode == 1 and "error: a pattern needs exactly 4" in done.stderr
