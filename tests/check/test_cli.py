"""`dealerpp check FILE...`: output format and exit status."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from dealerpp.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["check", *args])
    return status, capsys.readouterr().err


def test_clean_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "ok.dl"
    script.write_text("produce 1\naction printall\n")
    assert run([str(script)], capsys) == (0, "")


def test_an_empty_file_name_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([""], capsys) == (1, "'': error: cannot read: No such file or directory\n")


def test_errors_print_position_source_and_caret(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "bad.dl"
    script.write_text("x = 1\nx = 2\ny = 3 +\n")
    status, err = run([str(script)], capsys)
    assert status == 1
    assert err.splitlines()[:3] == [
        f"{script}:2:1: error: redefined variable `x` (first defined on line 1; "
        "dealer: redefined variable)",
        "x = 2",
        "^",
    ]
    assert f"{script}:3:8: error: the file ends in the middle of a statement" in err


def test_warnings_alone_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "warn.dl"
    script.write_text("condition 1\ncondition 0\n")
    status, err = run([str(script)], capsys)
    assert status == 0 and ": warning: " in err
    assert run(["-q", str(script)], capsys) == (0, "")


def test_several_files_and_an_unreadable_one(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.dl"
    good.write_text("x = 1\n")
    status, err = run([str(good), str(tmp_path / "missing.dl"), str(tmp_path)], capsys)
    assert status == 1
    assert err.count("error: cannot read") == 2
    assert "Traceback" not in err


def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    fake = io.TextIOWrapper(io.BytesIO(b"x = y\n"))
    monkeypatch.setattr(sys, "stdin", fake)
    status, err = run(["-"], capsys)
    assert status == 1 and err.startswith("<stdin>:1:5: error: unknown variable `y`")


def test_dpp_files_may_use_shape_blocks(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.dl"
    script.write_text("n = shape{north, 5xxx}\n")
    assert run([str(script)], capsys)[0] == 1
    assert run(["--dpp", str(script)], capsys) == (0, "")
    dpp = tmp_path / "s.dpp"
    dpp.write_text("n = shape{north, 5xxx}\n")
    assert run([str(dpp)], capsys) == (0, "")


def test_usage_errors_exit_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([], capsys)[0] == 2
    assert run(["--no-such-option", "x"], capsys)[0] == 2


def test_max_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "many.dl"
    script.write_text("".join(f"x{i} = = 1\n" for i in range(150)))
    status, err = run([str(script)], capsys)
    assert status == 1
    assert err.count(": error: ") == 100
    assert err.rstrip().splitlines()[-2:] == [
        f"{script}: note: too many errors, stopping",
        "hint: these are the first 100; --max-errors 0 shows them all",
    ]
    assert run(["--max-errors", "0", str(script)], capsys)[1].count(": error: ") == 150
    assert run(["--max-errors", "3", str(script)], capsys)[1].count(": error: ") == 3
    assert run(["--max-errors", "-1", str(script)], capsys)[0] == 2


def test_json_gives_each_finding_its_code_and_fix(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import json

    script = tmp_path / "s.dl"
    text = "x = 10 <= hcp(north) <= 12\ncondition not hcp(north) < 15 or x\n"
    script.write_text(text)
    assert main(["check", "--json", str(script)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(f["line"], f["code"]) for f in found] == [
        (1, "chained-comparison"), (2, "not-binds-tighter")]
    # Applying the fixes (last first) leaves nothing to say.
    lines = text.splitlines(keepends=True)
    for finding in reversed(found):
        fix = finding["fix"]
        assert fix["line"] == fix["end_line"]
        line = lines[fix["line"] - 1]
        lines[fix["line"] - 1] = (line[:fix["column"] - 1] + fix["text"]
                                  + line[fix["end_column"] - 1:])
    script.write_text("".join(lines))
    assert main(["check", "--json", str(script)]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_json_gives_each_finding_its_byte_in_the_file(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The byte of a finding is checked by slicing the file there: the
    token it is about starts at it, whatever came before (characters of
    two bytes, CR LF line ends, a byte that is not UTF-8)."""
    import json

    script = tmp_path / "s.dl"
    script.write_bytes("// café été\r\nx = 1\r\nx = 2\r\ncondition hcp(nort) > 10 and x \xff\r\n"
                       .encode().replace("\xff".encode(), b"\xff"))
    data = script.read_bytes()
    assert main(["check", "--json", str(script)]) == 1
    found = json.loads(capsys.readouterr().out)
    at = {f["message"].split()[0]: (data[f["byte"]:], f["related_line"]) for f in found}
    assert at["redefined"][0].startswith(b"x = 2\r\n")
    assert at["redefined"][1] == 2  # x = 1 is on line 2
    assert at["syntax"][0].startswith(b"nort) > 10")
    assert at["dealer"][0].startswith(b"\xff\r\n")
