"""The form of every command's --help and of the usual messages: snapshots
(syrupy), so a change of wording is seen and accepted on purpose
(`pytest -n 0 --snapshot-update`). What the texts say is tested elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from syrupy.assertion import SnapshotAssertion

COMMANDS = [[], ["expand"], ["run"], ["check"], ["show"], ["lsp"]]


def dealerpp(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    # A fixed width: argparse wraps to the terminal's.
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "dealerpp", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "dealerpp")
def test_help(command: list[str], snapshot: SnapshotAssertion) -> None:
    done = dealerpp(*command, "--help")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == snapshot


@pytest.mark.parametrize("script", [
    "x = shape{north, 4432+5332}\n",
    "x = shape{north, 5+M(xxx)\n",
    "generate 10\ncondition hcp(north) > 10\ncondition hcp(south) > 4294967306\n",
    "title \"x\"\nseed 42\ncondition hcp(north, NS) > 10\n",
    "x = \x1b[2Jshape{north, 44\x1b[2J}\n",
])
def test_messages(script: str, snapshot: SnapshotAssertion) -> None:
    done = dealerpp("-", stdin=script)
    assert (done.returncode, done.stderr) == snapshot
