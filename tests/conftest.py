"""Shared fixtures: the real dealer and dealer.dpp binaries.

Locally a test that needs them skips with a visible reason when they are
missing; under CI (``CI=true``) a missing binary is a failure, never a skip.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import settings

# CI runs the same examples every time (a failure there can be replayed);
# local runs keep exploring new ones, fewer of them a run (``examples``).
# No deadline anywhere: a test's speed is no test (bench/ measures speed), and
# on a shared machine a first call that compiles a regexp can take 0.4 s.
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("local", max_examples=16, deadline=None)
IN_CI = os.environ.get("CI") == "true"
T = TypeVar("T")
settings.load_profile("ci" if IN_CI else "local")


def examples(count: int, at_least: int = 10) -> int:
    """How many examples a property test runs: ``count`` under CI (``CI=true``),
    a sixth of it (at least ``at_least``) in a local run, which stays
    within a minute; a local run draws new examples each time, so the runs
    add up. A test parametrized over many cases asks for a lower floor: its
    cases add up within one run. (A test without its own count runs 16
    examples locally, 100 under CI.)"""
    return count if IN_CI else max(count // 6, min(count, at_least))


def sized(full: T, local: T) -> T:
    """How much data a test builds or reads: ``full`` under CI, ``local`` in
    a local run (still enough for the case to be met: several chunks,
    sub-blocks)."""
    return full if IN_CI else local

def some_of(items: Sequence[T], share: int = 3) -> list[T]:
    """All of ``items`` under CI; in a local run about one in ``share`` of
    them (at least one), drawn anew each run as a local run's examples are,
    so that the runs add up: a test over every target format checks a few of
    them a run."""
    if IN_CI:
        return list(items)
    chosen = set(random.sample(range(len(items)), max(1, len(items) // share)))
    return [item for i, item in enumerate(items) if i in chosen]


PROJECT_ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = PROJECT_ROOT / "examples"
DEALER_EXAMPLES = Path("/usr/share/doc/dealer/examples")


def our_script(name: str) -> str:
    """Our own console script, installed beside the interpreter running the
    tests; never looked up on PATH, where Debian's /usr/games/dealer.dpp (the
    Perl tool) may come first when the virtual environment is not activated."""
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        pytest.fail(f"{path} is missing: install the project into this interpreter's "
                    "environment (pip install -e '.[test]')")
    return str(path)


def _find(name: str) -> str | None:
    return shutil.which(name) or (f"/usr/games/{name}" if Path(f"/usr/games/{name}").exists() else None)


def _require(name: str) -> str:
    path = _find(name)
    if path is None:
        message = f"{name} is not installed (apt-get install dealer)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}; CI must install it")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def dealer_bin() -> str:
    """Path of Debian's dealer."""
    return _require("dealer")


@pytest.fixture(scope="session")
def perl_dpp_bin() -> str:
    """Path of the Perl dealer.dpp of Debian's package (never our own command)."""
    path = "/usr/games/dealer.dpp"
    if not Path(path).exists():
        _require("/usr/games/dealer.dpp-missing")
    return path


def run_dealer(dealer: str, script: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run dealer on script text given on stdin."""
    return subprocess.run(
        [dealer, *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_perl_dpp(perl_dpp: str, script: str) -> str:
    """The Perl preprocessor's output for script text."""
    done = subprocess.run([perl_dpp], input=script, capture_output=True, text=True, timeout=60)
    return done.stdout


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (long corpora and fuzz tiers) run under CI=true
    or when asked for (``-m slow``); a local run skips them, saying so, and
    stays under a minute. A local run also runs a share of the cases of each
    test marked ``sampled`` (see ``_sampled``)."""
    if IN_CI:
        return
    items[:] = _sampled(config, items)
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: runs under CI=true, or ask with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _sampled(config: pytest.Config, items: list[pytest.Item]) -> list[pytest.Item]:
    """The items a local run keeps: of a test marked ``sampled(share)``,
    about one case in ``share`` (at least one), drawn anew each run as a
    local run's examples are, so that the runs add up; the others are
    deselected (the summary counts them). Under CI every case runs; a test
    named on the command line (``file.py::test``) runs all its cases.

    Every pytest-xdist worker must collect the same items: the draw is
    seeded by the run's id, which xdist gives each worker alike."""
    seed = os.environ.get("PYTEST_XDIST_TESTRUNUID") or os.urandom(8).hex()
    named = {arg.split("[")[0] for arg in config.args if "::" in arg}
    cases: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        function = item.nodeid.split("[")[0]
        if item.get_closest_marker("sampled") is not None and function not in named:
            cases.setdefault(function, []).append(i)
    dropped: set[int] = set()
    for function, where in cases.items():
        marker = items[where[0]].get_closest_marker("sampled")
        share = marker.args[0] if marker is not None and marker.args else 3
        keep = random.Random(f"{seed} {function}").sample(where, max(1, round(len(where) / share)))
        dropped.update(set(where) - set(keep))
    if dropped:
        config.hook.pytest_deselected(items=[items[i] for i in sorted(dropped)])
        _SAMPLED_OUT.append(len(dropped))
        if hasattr(config, "workeroutput"):  # a pytest-xdist worker tells the controller
            config.workeroutput["sampled_out"] = len(dropped)
    return [item for i, item in enumerate(items) if i not in dropped]


_SAMPLED_OUT: list[int] = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """A pytest-xdist worker is done: keep how many cases it left out (each
    worker collects, and leaves out, the same)."""
    _SAMPLED_OUT.append(getattr(node, "workeroutput", {}).get("sampled_out", 0))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _SAMPLED_OUT and max(_SAMPLED_OUT):
        terminalreporter.write_line(
            f"a local run: {max(_SAMPLED_OUT)} cases of the tests marked 'sampled' left out "
            "this run (another share next run; CI=true runs them all)")


def pytest_report_header(config: pytest.Config) -> str:
    if IN_CI:
        return "CI=true: every test, every case, every example"
    return ("a local run: fewer examples, smaller data, a share of the cases of the tests marked "
            "'sampled' (deselected below), no 'slow' tier; CI=true runs everything")
