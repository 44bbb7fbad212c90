"""Outputs behave like the shell's ``> FILE``: links followed, devices and
FIFOs written through, the input never overwritten, nothing left behind by a
failure or a signal, and write errors reported with the target's name."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES

SCRIPT = (EXAMPLES / "1nt_opening.dpp").read_text()
DEALERPP = [sys.executable, "-m", "dealerpp"]


def dealerpp(*args: str | Path, stdin: str = "", cwd: Path | None = None
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*DEALERPP, *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=120)


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "s.dpp"
    path.write_text(SCRIPT)
    return path


def expected_output() -> str:
    done = dealerpp("-", stdin=SCRIPT)
    assert done.returncode == 0 and "shape(north, " in done.stdout
    return done.stdout


# --- what the output name is -----------------------------------------------------

def test_a_symlink_is_followed_and_stays_a_link(tmp_path: Path, script: Path) -> None:
    target = tmp_path / "target.dl"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.dl"
    link.symlink_to("target.dl")
    done = dealerpp(script, "-o", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == "target.dl"
    assert target.read_text() == expected_output()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.dl", "s.dpp", "target.dl"]


def test_a_dangling_symlink_gets_its_target_created(tmp_path: Path, script: Path) -> None:
    link = tmp_path / "link.dl"
    link.symlink_to("new.dl")
    assert dealerpp(script, "-o", link).returncode == 0
    assert link.is_symlink() and (tmp_path / "new.dl").read_text() == expected_output()


def test_a_fifo_is_written_through_to_its_reader(tmp_path: Path, script: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    done = dealerpp(script, "-o", fifo)
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert received == [expected_output().encode()]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe", "s.dpp"]


def test_a_device_is_written_through_never_replaced(tmp_path: Path, script: Path) -> None:
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers
        with open(device, "wb") as probe:
            probe.write(b"")
    except PermissionError as error:
        pytest.skip(f"cannot make or open a device node here: {error}")
    done = dealerpp(script, "-o", device)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(device.lstat().st_mode)
    assert dealerpp(script, "-o", "/dev/null").returncode == 0
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


@pytest.mark.parametrize("name", ["same", "link", "hard link", "stdin"])
def test_the_input_is_never_the_output(tmp_path: Path, script: Path, name: str) -> None:
    before = script.read_bytes()
    output: Path = script
    if name == "link":
        output = tmp_path / "link.dpp"
        output.symlink_to(script.name)
    elif name == "hard link":
        output = tmp_path / "other-name.dpp"
        os.link(script, output)
    if name == "stdin":
        with open(script, "rb") as stdin:
            done = subprocess.run([*DEALERPP, "-o", str(output)], stdin=stdin,
                                  capture_output=True, text=True, timeout=60)
    else:
        done = dealerpp(script, "-o", output)
    assert done.returncode == 1 and done.stdout == ""
    assert f"cannot write {output}: it is also the input" in done.stderr
    assert script.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_regular_file_is_replaced_whole_with_its_mode(tmp_path: Path, script: Path) -> None:
    out = tmp_path / "out.dl"
    out.write_text("old\n")
    out.chmod(0o604)
    before = out.stat().st_ino
    assert dealerpp(script, "-o", out).returncode == 0
    assert out.read_text() == expected_output()
    assert stat.S_IMODE(out.stat().st_mode) == 0o604
    assert out.stat().st_ino != before  # a new file renamed over the old: never half written


# --- write errors ----------------------------------------------------------------

def test_a_full_disk_on_stdout_names_it_and_exits_1(script: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*DEALERPP, str(script)], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "dealerpp: error: cannot write standard output: No space left on device"]


def test_a_full_disk_on_a_named_output_names_it(script: Path) -> None:
    done = dealerpp(script, "-o", "/dev/full")
    assert done.returncode == 1
    assert "dealerpp: error: cannot write /dev/full: No space left on device" in done.stderr


def test_a_missing_folder_names_the_output(tmp_path: Path, script: Path) -> None:
    done = dealerpp(script, "-o", tmp_path / "no" / "out.dl")
    assert done.returncode == 1 and "No such file or directory" in done.stderr
    assert str(tmp_path / "no" / "out.dl") in done.stderr


def closed(command: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``command`` (after ``dealerpp``) run by the shell, which may close streams."""
    return subprocess.run(f"{sys.executable} -m dealerpp {command}", shell=True, cwd=tmp_path,
                          stderr=subprocess.PIPE, text=True, timeout=120)


@pytest.mark.sampled(2)
@pytest.mark.parametrize(("command", "message"), [
    ("s.dpp >&-", "cannot write standard output: Bad file descriptor"),
    ("- <&-", "cannot read -: Bad file descriptor"),
    ("--help >&-", "cannot write standard output: Bad file descriptor"),
    ("expand 5xxx >&-", "cannot write standard output: Bad file descriptor"),
    ("show deals.txt >&-", "cannot write standard output: Bad file descriptor"),
    ("convert deals.txt - --to pbn >&-", "cannot write standard output: Bad file descriptor"),
    ("convert deals.txt - --to printall >&-",
     "cannot write standard output: Bad file descriptor"),
    ("convert deals.txt - --to hex >&-", "cannot write standard output: Bad file descriptor"),
    ("convert deals.txt - --to pbn >/dev/full",
     "cannot write standard output: No space left on device"),
    ("convert deals.txt - --to hex >/dev/full",
     "cannot write standard output: No space left on device"),
])
def test_a_closed_stream_used_is_an_error_naming_it(tmp_path: Path, script: Path,
                                                    command: str, message: str) -> None:
    (tmp_path / "deals.txt").write_text(DEAL_LINE)
    done = closed(command, tmp_path)
    assert done.returncode == 1, done.stderr
    assert message in done.stderr and "internal error" not in done.stderr
    assert "deals.txt" not in done.stderr  # the input is not to blame


def test_closed_streams_not_used_do_no_harm(tmp_path: Path, script: Path) -> None:
    done = closed("s.dpp -o out.dl <&- >&-", tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.dl").read_text() == expected_output()
    (tmp_path / "deals.txt").write_text(DEAL_LINE)
    done = closed("convert deals.txt out.pbn <&- >&- 2>&-", tmp_path)
    assert done.returncode == 0
    assert "AKQJ.T98.765.432" in (tmp_path / "out.pbn").read_text()


DEAL_LINE = "AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\n"


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_reader_going_away_is_quiet_141(tmp_path: Path, unbuffered: str) -> None:
    """Also under PYTHONUNBUFFERED, where standard output is a raw file whose
    write to a closed pipe returns a short count instead of failing."""
    big = tmp_path / "big.dpp"
    big.write_text("x = hcp(north) > 10\n" * 200_000)
    process = subprocess.Popen([*DEALERPP, "--no-check", str(big)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONUNBUFFERED": unbuffered})
    assert process.stdout is not None and process.stderr is not None
    assert len(process.stdout.read(100)) == 100
    process.stdout.close()  # like `| head -c 100`
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


def test_a_closed_stderr_loses_messages_not_the_output(tmp_path: Path) -> None:
    bad = "x = shape{north, 4432+5332}\n"
    done = subprocess.run(f"{sys.executable} -m dealerpp - 2>&-", shell=True, input=bad,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""


# --- signals -----------------------------------------------------------------------

def hex_deals(count: int) -> bytes:
    """``count`` valid deals as 26-hex lines (one byte a rank, two bits a suit's
    owner), made without dealerpp: each rank's four cards go to the four hands
    in one of the 24 orders, so every hand holds one card of each rank."""
    orders = list(itertools.permutations(range(4)))
    lines = []
    for number in range(count):
        line = ""
        for rank in range(13):
            owners = orders[(number + 7 * rank) % 24]
            byte = sum(owner << (2 * suit) for suit, owner in enumerate(owners))
            line += f"{byte & 0xF:X}{byte >> 4:X}"  # low nibble first
        lines.append(line + "\n")
    return "".join(lines).encode()


def writing_into(pid: int, folder: Path) -> bool:
    """Whether the process has a temporary output open in ``folder``: a
    named ``.tmp`` file, or one without a name yet (``O_TMPFILE``, which
    /proc shows as ``#inode (deleted)``)."""
    if [p for p in folder.iterdir() if p.name.endswith(".tmp")]:
        return True
    with contextlib.suppress(FileNotFoundError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(FileNotFoundError):
                if os.readlink(fd).startswith(f"{folder}/"):
                    return True
    return False


# Each signal on each path; the local run takes one path a signal (the slow
# tier, which CI runs, the other).
SIGNAL_CASES = [
    pytest.param(number, to, marks=[pytest.mark.slow] if (k + m) % 2 else [])
    for k, number in enumerate([signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
    for m, to in enumerate(["listing", "pbn"])]


@pytest.mark.sampled(2)
@pytest.mark.parametrize(("number", "to"), SIGNAL_CASES)
def test_a_signal_mid_conversion_leaves_nothing(tmp_path: Path, number: int, to: str) -> None:
    """The input arrives slowly on a pipe; the signal comes once the temporary
    output exists. The old output stays, no temporary file remains, and the
    status is 128+N."""
    out = tmp_path / f"out.{to}"
    out.write_text("old\n")
    process = subprocess.Popen([*DEALERPP, "convert", "-q", "-", str(out), "--from", "hex",
                                "--to", to], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stderr is not None
    # Less than a pipe holds, so the write returns at once; standard input
    # stays open, so the conversion cannot end before the signal comes.
    process.stdin.write(hex_deals(2_000))
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while not writing_into(process.pid, tmp_path):
        assert time.monotonic() < deadline, "no temporary output appeared"
        assert process.poll() is None, process.stderr.read()
        time.sleep(0.01)
    process.send_signal(number)
    status = process.wait(timeout=30)
    process.stdin.close()
    assert status == 128 + number, process.stderr.read()
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]
    assert out.read_text() == "old\n"


def test_a_process_killed_outright_mid_conversion_leaves_nothing(tmp_path: Path) -> None:
    """SIGKILL runs no handler: the output is written to a file that has no
    name until it is complete (O_TMPFILE), so nothing is left behind."""
    if not hasattr(os, "O_TMPFILE"):
        pytest.skip("no O_TMPFILE on this system: a killed run leaves its .tmp file")
    out = tmp_path / "out.pbn"
    out.write_text("old\n")
    process = subprocess.Popen([*DEALERPP, "convert", "-q", "-", str(out), "--from", "hex"],
                               stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write(hex_deals(2_000))  # standard input stays open: still converting
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while not writing_into(process.pid, tmp_path):
        assert time.monotonic() < deadline and process.poll() is None, "no output was begun"
        time.sleep(0.01)
    process.kill()
    assert process.wait(timeout=30) == -signal.SIGKILL
    process.stdin.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]
    assert out.read_text() == "old\n"


# --- run ---------------------------------------------------------------------------

def fake_dealer(folder: Path, body: str) -> dict[str, str]:
    """An environment whose PATH finds a `dealer` that runs ``body`` (sh)."""
    dealer = folder / "dealer"
    dealer.write_text(f"#!/bin/sh\ncat > /dev/null\n{body}\n")
    dealer.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.parametrize(("body", "status"), [("exit 0", 0), ("exit 3", 3),
                                              ("kill -TERM $$", 143), ("kill -KILL $$", 137)])
def test_run_passes_dealer_status_through(tmp_path: Path, script: Path, body: str,
                                          status: int) -> None:
    done = subprocess.run([*DEALERPP, "run", str(script)], capture_output=True, text=True,
                          env=fake_dealer(tmp_path, body), timeout=60)
    assert done.returncode == status, done.stderr


def test_run_shows_the_checkers_warnings_as_the_preprocessor_does(tmp_path: Path) -> None:
    script = tmp_path / "w.dpp"
    script.write_text("generate 10\nproduce 1\ncondition hcp(north) > 10\n"
                      "condition hcp(south) > 10\naction printall\n")
    plain = dealerpp(script)
    assert "warning:" in plain.stderr
    done = subprocess.run([*DEALERPP, "run", str(script)], capture_output=True, text=True,
                          env=fake_dealer(tmp_path, "exit 0"), timeout=60)
    assert done.returncode == 0
    assert done.stderr == plain.stderr

