"""Command-line slips get a hint (issue 24, point 7), and a bare `dealerpp`
on a terminal says what it waits for (point 12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerpp import ShapeSet
from tests.conftest import EXAMPLES

DEALERPP = [sys.executable, "-m", "dealerpp"]
SCRIPT = str(EXAMPLES / "1nt_opening.dpp")


def dealerpp(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*DEALERPP, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, check=False)


def deals(output: str) -> list[str]:
    """dealer's output less its timing line, which changes from run to run."""
    return [line for line in output.splitlines() if not line.startswith("Time needed")]


@pytest.mark.dealer
def test_dealers_options_may_come_before_the_script(dealer_bin: str) -> None:
    after = dealerpp("run", SCRIPT, "-s", "7", "-p", "3")
    assert after.returncode == 0 and "Produced 3 hands" in after.stdout
    for before in (["-s", "7", "-p", "3", SCRIPT], ["-s7", "-p3", SCRIPT],
                   ["--no-check", "-s", "7", SCRIPT, "-p", "3"]):
        done = dealerpp("run", *before)
        assert (done.returncode, deals(done.stdout)) == (0, deals(after.stdout)), before


def test_an_unknown_option_before_the_script_says_where_they_go() -> None:
    done = dealerpp("run", "-x", SCRIPT)
    assert done.returncode == 2
    assert "unknown option -x; dealer's arguments go after the script" in done.stderr


def test_dealers_options_without_a_script_ask_for_the_script() -> None:
    done = dealerpp("run", "-s", "1")
    assert done.returncode == 2 and "required: SCRIPT" in done.stderr


@pytest.mark.parametrize(("typed", "meant"), [
    ("convrt", "convert"), ("exapnd", "expand"), ("chek", "check"), ("Show", "show")])
def test_a_misspelt_subcommand_is_named(typed: str, meant: str, tmp_path: Path) -> None:
    done = subprocess.run([*DEALERPP, typed, "in.pbn", "out.deals"], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert f"'{typed}' is no command (nor a file); did you mean {meant}?" in done.stderr


def test_a_file_named_like_a_subcommand_is_still_a_script(tmp_path: Path) -> None:
    (tmp_path / "chek").write_text("x = shape{north, (4333)}\n")
    done = subprocess.run([*DEALERPP, "chek"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, "x = shape(north, any 4333)\n")


def test_the_top_level_usage_lists_the_subcommands() -> None:
    done = dealerpp("--no-such-option")
    assert done.returncode == 2
    assert "dealerpp {expand,run,check,convert,show,lsp} ..." in done.stderr


def test_dealers_round_brackets_round_the_shape_language_get_a_hint() -> None:
    script = "x = shape(north, 5M(xxx))\ncondition x\n"
    checked = dealerpp("check", "--dpp", "-", stdin=script)
    assert checked.returncode == 1
    assert "written in braces: shape{north, ...}" in checked.stderr
    expanded = dealerpp("expand", "shape(north, 5M(xxx))")
    assert expanded.returncode == 1
    assert "hint: the shape language is written in braces: shape{north, 5M(xxx)}" in (
        expanded.stderr)


def test_expand_reads_the_notation_list_prints() -> None:
    listed = dealerpp("expand", "--list", "5M(332) + (4432)")
    shapes = listed.stdout.split()
    assert listed.returncode == 0 and "4=4=3=2" in shapes
    for words in (shapes, ["\n".join(shapes)], [" + ".join(shapes)]):
        done = dealerpp("expand", "--json", *words)
        assert done.returncode == 0, done.stderr
        # ShapeSet reads the S=H=D=C notation itself: an independent reading.
        assert ShapeSet.of(tuple(s) for s in eval_json(done.stdout)) == ShapeSet.of(shapes)
    assert dealerpp("expand", "--count", "4=4=3=2").stdout == "1\n"
    assert dealerpp("expand", "10=3=0=0").stdout == "x300\n"
    wrong = dealerpp("expand", "4=4=3=3")
    assert wrong.returncode == 1 and "total 14 cards, more than 13" in wrong.stderr


def eval_json(text: str) -> list[list[int]]:
    import json

    shapes: list[list[int]] = json.loads(text)["shapes"]
    return shapes


def test_a_bare_dealerpp_on_a_terminal_says_what_it_waits_for() -> None:
    main, follower = os.openpty()
    process = subprocess.Popen(DEALERPP, stdin=follower, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    os.close(follower)
    try:
        os.write(main, b"\x04")  # Ctrl-D, as the banner says
        _, stderr = process.communicate(timeout=60)
    finally:
        os.close(main)
        process.kill()
    lines = stderr.decode().splitlines()
    assert process.returncode == 0 and len(lines) == 1
    assert "type shape{} lines" in lines[0] and "Ctrl-D to leave" in lines[0]


def test_no_banner_when_the_input_is_no_terminal() -> None:
    done = dealerpp(stdin="")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
