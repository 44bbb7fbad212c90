"""``dealerpp convert`` with LIN: a bad board stops it with its place, exit
status 1 and no output file; a good file converts both ways."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from syrupy.assertion import SnapshotAssertion

from dealerpp.cli import main

S, W, N = "ST632H854DJCAK874", "SQJ97HQJ92DT832CT", "S5H76DAK97654CQ32"
BOARD = f"qx|o1|md|3{S},{W},{N}|rh||ah|Board 1|sv|0|pg||\n"


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(argv)
    return status, err.getvalue()


def test_bad_boards_stop_the_conversion_with_nothing_written(
        tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    messages = []
    for name, text in [
        ("short.lin", BOARD + BOARD.replace("1", "2").replace("CAK874", "CAK87")),
        ("twice.lin", BOARD + BOARD.replace("1", "2").replace("SQJ97", "SQJ95")),
        ("call.lin", BOARD.replace("pg||", "mb|1C|mb|8N|pg||")),
    ]:
        source = tmp_path / name
        source.write_text(text, encoding="utf-8")
        target = tmp_path / (name + ".pbn")
        status, err = run(["convert", str(source), str(target)])
        assert status == 1
        assert not target.exists()
        messages.append(err.replace(str(tmp_path), "DIR"))
    assert messages == snapshot


def test_lin_to_pbn_and_back(tmp_path: Path) -> None:
    source = tmp_path / "set.lin"
    source.write_text(BOARD.replace("pg||", "mb|1N!|an|15-17|mb|p|mb|p|mb|p|pg||"),
                      encoding="utf-8")
    assert run(["convert", str(source), str(tmp_path / "set.pbn"), "-q"]) == (0, "")
    assert "1NT! =1=" in (tmp_path / "set.pbn").read_text(encoding="utf-8")
    assert run(["convert", str(tmp_path / "set.pbn"), str(tmp_path / "back.lin"), "-q"]) == (0, "")
    assert (tmp_path / "back.lin").read_text(encoding="utf-8") == (
        f"qx|o1|md|3{S},{W},{N}|rh||ah|Board 1|sv|0|mb|1N!|an|15-17|mb|p|mb|p|mb|p|pg||\n")
