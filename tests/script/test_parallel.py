"""A long script's shape{} blocks compiled on two cores give exactly what
compiling them in turn gives: text, warnings, the first error; a child that
fails is made up for; no process is left behind, even when stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp import DppError
from dealerpp.script import parallel
from dealerpp.script.rewrite import Preprocessed, preprocess_script
from tests.conftest import examples

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")

GOOD = st.sampled_from(["5+M(xxx)", "(4432)", "4+s4+h(xx):d>c", "5m(332) + 5m2s(42)",
                        "xxxx - (4333)", "2-xxx", "x[3-5]x[13]", "5+xx5+", "13xxx"])
BAD = st.sampled_from(["4432+5332", "xxx", "5M(xx", "[5-3]xxx", "5s(Mxx)"])
SEAT = st.sampled_from(["north", "east", "south", "west"])
BLOCK = st.one_of(
    st.builds(lambda seat, body: f"v = shape{{{seat}, {body}}}\n", SEAT, GOOD),
    st.builds(lambda body: f"w = shape{{north, {body}  # a note\n}}\n", GOOD))
OTHER = st.sampled_from(["", "", "condition v\n", "// a comment\n", "x = hcp(north) # later\n"])
LINE = st.builds(lambda block, other: block + other, BLOCK, OTHER)


def scripts(bad: bool) -> st.SearchStrategy[str]:
    """Scripts long enough to be shared (a bad block or two among the good
    ones when ``bad``), with their blocks anywhere in either half."""
    lines = st.lists(LINE, min_size=parallel.PARALLEL_MIN_BLOCKS + 8, max_size=120)
    if not bad:
        return lines.map("".join)
    return st.builds(lambda good, places, wrong: _with_bad_blocks(good, places, wrong),
                     lines, st.lists(st.floats(0, 1), min_size=1, max_size=2),
                     st.lists(BAD, min_size=2, max_size=2))


def _with_bad_blocks(good: list[str], places: list[float], wrong: list[str]) -> str:
    for place, body in zip(places, wrong, strict=False):
        good.insert(int(place * len(good)), f"b = shape{{south, {body}}}\n")
    return "".join(good)


def outcome(text: str, cores: int) -> Preprocessed | DppError:
    try:
        return preprocess_script(text, "s.dpp", cores=cores, check=True)
    except DppError as error:
        return error


def children() -> set[int]:
    """This process's children, running or not yet waited for (a child that
    has exited is listed until it is reaped); where there is no /proc, a
    marker that there are some, if ``waitpid`` finds any."""
    tasks = Path("/proc/self/task")
    if not tasks.is_dir():
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return set()
        return {-1}
    return {int(pid) for task in tasks.iterdir() for pid in (task / "children").read_text().split()}


def no_children_left(before: set[int]) -> bool:
    """No child but those there were ``before``: the language server a
    pytest-xdist worker keeps for tests/editor may be one."""
    return children() <= before


@needs_fork
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts(bad=False))
def test_two_cores_write_what_one_writes(text: str) -> None:
    before = children()
    assert parallel.may_go_parallel(text, 2)
    assert outcome(text, 2) == outcome(text, 1)
    assert no_children_left(before)


@needs_fork
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts(bad=True))
def test_the_first_error_is_the_same_wherever_it_lies(text: str) -> None:
    before = children()
    serial = outcome(text, 1)
    assert isinstance(serial, DppError)
    assert outcome(text, 2) == serial
    assert no_children_left(before)


def long_script(blocks: int = 200) -> str:
    bodies = ["5+M(xxx)", "(4432) + (4333)", "4+s4+h(xx)", "xxxx - 5m(332)", "2-x[3-5]x"]
    return "".join(f"v{k} = shape{{north, {bodies[k % 5]}:{k % 7}<s}}\n" for k in range(blocks))


@needs_fork
def test_a_child_that_dies_is_made_up_for(monkeypatch: pytest.MonkeyPatch) -> None:
    before = children()
    text = long_script()
    monkeypatch.setattr(parallel, "_run_child", lambda *_: os._exit(3))
    assert outcome(text, 2) == outcome(text, 1)
    assert no_children_left(before)


@needs_fork
@pytest.mark.parametrize("checker_seconds", [0.0, 0.3])
def test_the_two_meet_wherever_they_do(monkeypatch: pytest.MonkeyPatch,
                                       checker_seconds: float) -> None:
    """However long this process's other work takes (the checker), the
    child takes up the rest; with none, they share about evenly."""
    from dealerpp.script import rewrite

    before = children()
    text = "x = 1 + \n" + long_script(400)
    serial = outcome(text, 1)
    checker = rewrite.check_preprocessed

    def slow_checker(*args: str) -> list:
        time.sleep(checker_seconds)
        return checker(*args)

    monkeypatch.setattr(rewrite, "check_preprocessed", slow_checker)
    both = outcome(text, 2)
    assert isinstance(both, Preprocessed) and both.findings
    assert both == serial
    assert no_children_left(before)


@needs_fork
def test_no_fork_means_one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    text = long_script()

    def cannot_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", cannot_fork)
    assert outcome(text, 2) == outcome(text, 1)


@needs_fork
def test_an_error_in_the_first_half_stops_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    before = children()
    text = "b = shape{north, 4432+5332}\n" + long_script()
    error = outcome(text, 2)
    assert isinstance(error, DppError) and error.line == 1
    assert no_children_left(before)


def test_short_scripts_stay_on_one_core() -> None:
    assert not parallel.may_go_parallel("x = shape{north, 5+M(xxx)}\n", 2)
    assert not parallel.may_go_parallel(long_script(), 1)


@needs_fork
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts processes in /proc")
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_to_the_group_ends_both_processes(tmp_path: Path, number: int) -> None:
    """As a terminal's ^C does: the signal goes to the whole process group."""
    script = tmp_path / "long.dpp"
    script.write_text(long_script(20_000))
    process = subprocess.Popen([sys.executable, "-m", "dealerpp", str(script), "-o",
                                str(tmp_path / "out.dl")], start_new_session=True,
                               stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while _group_size(process.pid) < 2:  # wait for the child
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    os.killpg(process.pid, number)
    assert process.wait(timeout=30) == 128 + number
    deadline = time.monotonic() + 5
    while _group_size(process.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _group_size(process.pid) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.dpp"]


def _group_size(group: int) -> int:
    """How many live processes are in process group ``group`` (from /proc)."""
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            count += 1
    return count


@needs_fork
def test_closed_standard_streams_do_not_confuse_the_child(tmp_path: Path) -> None:
    """With stdin and stdout closed, the pipe to the child may be files 0 and 1."""
    script = tmp_path / "long.dpp"
    script.write_text(long_script())
    out = tmp_path / "out.dl"
    done = subprocess.run(f"{sys.executable} -m dealerpp {script} -o {out} 0<&- 1>&-", shell=True,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == preprocess_script(long_script(), str(script)).text


@needs_fork
def test_a_child_reaped_by_the_system_is_no_error(tmp_path: Path) -> None:
    """Started with SIGCHLD ignored, as some supervisors start programs, the
    kernel reaps the child itself: there is nothing to wait for."""
    script = tmp_path / "long.dpp"
    script.write_text(long_script())
    done = subprocess.run([sys.executable, "-m", "dealerpp", str(script)], capture_output=True,
                          text=True, timeout=60,
                          preexec_fn=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN))
    assert done.returncode == 0 and "error" not in done.stderr, done.stderr
    assert done.stdout == preprocess_script(long_script(), str(script)).text
