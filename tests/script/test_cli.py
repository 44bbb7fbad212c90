"""The commands as a user runs them: exit statuses, messages, files."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealerpp.cli import run as run_cli
from dealerpp.status import EXIT_NOT_FOUND
from tests.conftest import EXAMPLES, our_script

PYTHON_DEALERPP = [sys.executable, "-m", "dealerpp"]


def dealerpp(*args: str, stdin: str = "", command: list[str] | None = None,
             cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*(command or PYTHON_DEALERPP), *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def test_help_teaches() -> None:
    done = dealerpp("--help")
    assert done.returncode == 0
    for words in ("examples:", "dealerpp opening.dpp | dealer", "expand EXPR", "exit status",
                  "5+xxx"):
        assert words in done.stdout


def test_version() -> None:
    done = dealerpp("--version")
    assert done.returncode == 0 and done.stdout.startswith("dealerpp ")


def test_usage_error_exits_2() -> None:
    done = dealerpp("--no-such-option")
    assert done.returncode == 2 and "usage:" in done.stderr


def test_missing_file_exits_1_without_traceback() -> None:
    done = dealerpp("no/such/file.dpp")
    assert done.returncode == 1
    assert "cannot read no/such/file.dpp" in done.stderr and "Traceback" not in done.stderr


def test_stdin_and_dash() -> None:
    script = "a = shape{north, (4333)}\n"
    for args in ((), ("-",)):
        done = dealerpp(*args, stdin=script)
        assert done.returncode == 0 and done.stdout == "a = shape(north, any 4333)\n"


def test_an_empty_file_name_is_not_standard_input() -> None:
    # `dealerpp "$SCRIPT"` with SCRIPT unset must fail, not read stdin.
    for command in ((), ("run",)):
        done = dealerpp(*command, "", stdin="a = shape{north, (4333)}\n")
        assert done.returncode == 1 and done.stdout == "", done
        assert "cannot read '': No such file or directory" in done.stderr, done.stderr


def test_an_empty_output_name_is_no_file(tmp_path: Path) -> None:
    # `-o "$OUT"` with OUT unset: as the shell's `> ""`, not the current folder.
    script = tmp_path / "s.dpp"
    script.write_text("a = shape{north, (4333)}\n")
    done = dealerpp(str(script), "-o", "")
    assert done.returncode == 1 and done.stdout == "", done
    assert "cannot write '': No such file or directory" in done.stderr, done.stderr
    converted = dealerpp("convert", "-", "", "--from", "hex", "--to", "pbn",
                         stdin="0123456789abcdef0123456789\n")
    assert converted.returncode == 1 and converted.stdout == ""
    assert "'': error: No such file or directory" in converted.stderr, converted.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.dpp"]


def test_run_without_a_script_asks_for_the_script_only() -> None:
    # dealer's arguments are optional: the usage error must not ask for them.
    done = dealerpp("run")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "dealerpp run: error: the following arguments are required: SCRIPT")


def test_input_error_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "bad.dpp").write_text("a = 1\nb = shape{north, 4432+5332}\n")
    out = tmp_path / "out.dl"
    out.write_text("old contents\n")
    done = dealerpp("bad.dpp", "-o", "out.dl", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("bad.dpp:2:18: error: a pattern needs exactly 4 suit lengths")
    assert out.read_text() == "old contents\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.dpp", "out.dl"]


def test_output_file_is_written(tmp_path: Path) -> None:
    done = dealerpp(str(EXAMPLES / "1nt_opening.dpp"), "-o", str(tmp_path / "o.dl"))
    assert done.returncode == 0 and done.stdout == ""
    assert "shape(north, " in (tmp_path / "o.dl").read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["o.dl"]


def test_dealer_dpp_is_the_same_command() -> None:
    done = dealerpp(str(EXAMPLES / "michaels.dpp"), command=[our_script("dealer.dpp")])
    assert done.returncode == 0
    assert done.stdout == dealerpp(str(EXAMPLES / "michaels.dpp")).stdout


def test_emit_list() -> None:
    done = dealerpp("--emit=list", "-", stdin="a = shape{north, 5s(431)}\n")
    assert done.stdout.count(" + ") == 5


def test_checker_warnings_and_no_check() -> None:
    script = "/* East */\ngenerate 10\naction printoneline\n"
    done = dealerpp("-", stdin=script)
    assert done.returncode == 0 and done.stdout == script
    assert "<stdin>:1:" in done.stderr and "warning" in done.stderr
    assert dealerpp("--no-check", "-", stdin=script).stderr == ""


def test_empty_shape_warns_but_succeeds() -> None:
    done = dealerpp("-", stdin="a = shape{north, 7+7+xx}\n")
    assert done.returncode == 0
    assert "<stdin>:1:18: warning: this shape list matches no shape" in done.stderr


def test_broken_pipe_is_quiet() -> None:
    text = "".join(f"a{i} = shape{{north, {i % 8}xxx}}\n" for i in range(3000))
    process = subprocess.Popen([*PYTHON_DEALERPP, "--no-check", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stdin is not None
    process.stdin.write(text.encode())
    process.stdin.close()
    process.stdout.read(10)
    process.stdout.close()
    assert process.stderr is not None
    err = process.stderr.read()
    process.wait(timeout=120)
    assert b"Traceback" not in err


# --- expand --------------------------------------------------------------------

def test_expand_body_and_call() -> None:
    assert dealerpp("expand", "(4432)").stdout == "any 4432\n"
    assert dealerpp("expand", "shape{west, (4432)}").stdout == "shape(west, any 4432)\n"


def test_expand_list_count_stats_json() -> None:
    assert dealerpp("expand", "--list", "5s(431)").stdout.splitlines() == [
        "5=4=3=1", "5=4=1=3", "5=3=4=1", "5=3=1=4", "5=1=4=3", "5=1=3=4"]
    assert dealerpp("expand", "--list", "Kxxx").stdout == "13=0=0=0\n"
    assert dealerpp("expand", "--count", "(4333)").stdout == "4\n"
    stats = dealerpp("expand", "--stats", "(4333)").stdout
    assert "shapes:      4" in stats and "10.5361%" in stats and "4=3=3=3" in stats
    data = json.loads(dealerpp("expand", "--json", "(4333)").stdout)
    assert data["count"] == 4 and data["dealer"] == "any 4333"
    assert [4, 3, 3, 3] in data["shapes"] and abs(data["probability"] - 0.105361) < 1e-6


def test_expand_error_and_empty() -> None:
    done = dealerpp("expand", "4432+5332")
    assert done.returncode == 1 and done.stdout == ""
    assert "1:1: error:" in done.stderr and "hint:" in done.stderr
    empty = dealerpp("expand", "7+7+xx")
    assert empty.returncode == 0 and "warning" in empty.stderr


# --- run -----------------------------------------------------------------------

@pytest.mark.dealer
def test_run_pipes_into_dealer(dealer_bin: str) -> None:
    done = dealerpp("run", str(EXAMPLES / "trailing_comments.dpp"), "-s", "1")
    assert done.returncode == 0
    assert "Produced 5 hands" in done.stdout


@pytest.mark.dealer
def test_run_passes_dealer_status_through(dealer_bin: str, tmp_path: Path) -> None:
    (tmp_path / "bad.dl").write_text("generate 10\nnonsense here\n")
    done = dealerpp("run", str(tmp_path / "bad.dl"))
    assert done.returncode != 0 and "line 2:" in done.stderr


def test_run_without_dealer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.dpp").write_text("generate 1\n")
    monkeypatch.setattr(run_cli, "find_dealer", lambda: None)
    assert run_cli.main([str(tmp_path / "a.dpp")]) == EXIT_NOT_FOUND
    assert "dealer is not installed" in capsys.readouterr().err


# --- a person at a terminal ------------------------------------------------------

def test_interactive_expands_each_line_at_once() -> None:
    main, follower = os.openpty()
    process = subprocess.Popen(PYTHON_DEALERPP, stdin=follower, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    os.close(follower)
    assert process.stdout is not None
    try:
        os.write(main, b"a = shape{north, (4333)}\n")
        assert _read_line(process.stdout, 30) == b"a = shape(north, any 4333)\n"
        os.write(main, b"b = shape{south,\n")  # a shape{} over two lines
        os.write(main, b" 5xxx}\n")
        assert _read_line(process.stdout, 30) == b"b = shape(south, 5xxx)\n"
        assert _read_line(process.stdout, 30) == b"\n"
    finally:
        os.close(main)
        process.kill()
        process.wait()


def test_interactive_messages_count_the_sessions_lines() -> None:
    """Each shape{} is compiled as it comes, but a message names its line of
    the session, not of the piece just typed."""
    main, follower = os.openpty()
    process = subprocess.Popen(PYTHON_DEALERPP, stdin=follower, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    os.close(follower)
    assert process.stdout is not None and process.stderr is not None
    try:
        assert _read_line(process.stderr, 30).startswith(b"dealerpp: type shape{} lines")
        os.write(main, b"a = shape{north, (4333)}\nb = shape{south,\n 5xxx}\n")
        for _ in range(3):
            _read_line(process.stdout, 30)
        os.write(main, b"c = shape{north, 44}\n")
        assert _read_line(process.stderr, 30).startswith(b"<stdin>:4:18: error: ")
        for _ in range(3):  # the line, the caret, the hint
            _read_line(process.stderr, 30)
        os.write(main, b"d = shape{north, 7+7+xx}\n")
        assert _read_line(process.stderr, 30).startswith(b"<stdin>:5:18: warning: ")
    finally:
        os.close(main)
        process.kill()
        process.wait()


def _read_line(stream, timeout: float) -> bytes:
    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.5)
        if ready:
            line += os.read(stream.fileno(), 1)
    return line


def test_too_many_shapes_is_reported_once() -> None:
    script = "".join(f"v{i} = shape{{north, {i % 9}xxx}}\n" for i in range(33))
    done = dealerpp("-", stdin=script)
    assert done.returncode == 0
    assert done.stderr.count("33 shape() calls") == 1
    assert "too many shape() calls" not in done.stderr  # the checker's copy is dropped


def test_emit_modes_are_the_emitters() -> None:
    from dealerpp.cli.common import EMIT_MODES
    from dealerpp.shapes.emit import MODES

    assert tuple(EMIT_MODES) == MODES


@pytest.mark.parametrize("mode", ["compact", "shortest", "list"])
def test_every_emit_mode_means_the_same_set(mode: str) -> None:
    from dealerpp import expand
    from dealerpp.shapes.dealer_list import read_dealer_list

    done = dealerpp("--emit", mode, "-", stdin="x = shape{north, 5+M(xxx):s>h}\n")
    assert done.returncode == 0, done.stderr
    listing = done.stdout[len("x = shape(north, "):-2]
    assert read_dealer_list(listing) == expand("5+M(xxx):s>h")
    expanded = dealerpp("expand", "--emit", mode, "5+M(xxx):s>h")
    assert expanded.stdout.strip() == listing
