"""``dealerpp convert`` and ``dealerpp show``."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from dealerpp.cli import main
from dealerpp.deals import Deal
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.formats import _dealer_output as dealer_output

FULL = Deal.from_pbn("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]


def test_convert_between_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.deals"
    source.write_bytes(binary.dumps_deals([FULL, FULL]))
    target = tmp_path / "out.pbn"
    assert main(["convert", str(source), str(target)]) == 0
    assert "2 deals converted" in capsys.readouterr().err
    assert target.read_text().count("[Deal ") == 2
    hexfile = tmp_path / "out.hex"
    assert main(["convert", str(target), str(hexfile), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert hexfile.read_text() == "F2F25B5CC55E31928E2E32C949\n" * 2


def test_convert_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch,
                                 capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    text = dealer_output.format_oneline(FULL) + "Generated 1 hands\n"
    monkeypatch.setattr(sys, "stdin", _Stdin(text.encode()))
    assert main(["convert", "-", "-", "--to", "listing", "-q"]) == 0
    out = capsysbinary.readouterr().out.decode()
    assert out.startswith("Deal #1: Player North: S5 H7 H6 DA")


def test_convert_error_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.gib"
    source.write_text("AKQJT98765432... ... ... ...\n{unclosed\n")
    target = tmp_path / "out.deals"
    target.write_bytes(b"old")
    assert main(["convert", str(source), str(target)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{source}:1:1: error:")
    assert "Traceback" not in err
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["bad.gib", "out.deals"] or len(
        list(tmp_path.iterdir())) == 2


def test_convert_per_deal_error_after_good_deals_leaves_the_old_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The per-deal path (--to printall) streams into a temporary file: a bad
    record after good ones removes it and keeps the old output."""
    source = tmp_path / "in.deals"
    source.write_bytes(binary.dumps_deals([FULL, FULL]) + b"\0" * 7)  # a broken third
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    assert main(["convert", "--to", "printall", str(source), str(target)]) == 1
    assert capsys.readouterr().err.startswith(f"{source}: byte ")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.deals", "out.txt"]


def test_convert_to_a_missing_folder_names_the_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.deals"
    source.write_bytes(binary.dumps_deals([FULL]))
    target = tmp_path / "no" / "such" / "out.txt"
    assert main(["convert", "--to", "printall", str(source), str(target)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{target}: error:") and "Traceback" not in err


def test_undecodable_input_is_quoted_even_on_a_strict_stderr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Binary bytes in a text format: an input error (1) whose quoted line
    shows them as escapes, not an internal error (capsys's stderr is strict)."""
    source = tmp_path / "in.gib"
    source.write_bytes(binary.dumps_deals([FULL, FULL]))
    assert main(["convert", "--to", "printall", str(source), "-"]) == 1
    err = capsys.readouterr().err
    # An undecodable byte is shown as the byte it was (\x84), never as a surrogate.
    assert err.startswith(f"{source}:1:1: error:") and "\\x84" in err and "\\udc" not in err


def test_an_empty_input_name_is_blamed_not_the_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.hex"
    assert main(["convert", "", str(target)]) == 1
    assert capsys.readouterr().err == "'': error: No such file or directory\n"
    assert main(["show", ""]) == 1
    assert capsys.readouterr() == ("", "'': error: No such file or directory\n")
    assert not target.exists()


def test_show_prints_no_header_for_a_file_it_cannot_open(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.pbn"
    for args in ([str(missing)], [str(missing), "--from", "hex"], [str(tmp_path), "--from", "pbn"]):
        assert main(["show", *args]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"{args[0]}: error: "), (out, err)


def test_convert_binary_error_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "bad.deals"
    source.write_bytes(binary.dumps_deals([FULL]) + b"\0" * 7)
    assert main(["convert", str(source), str(tmp_path / "x.pbn")]) == 1
    assert capsys.readouterr().err.startswith(f"{source}: byte 32: error: ")


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert"]) == 2
    assert main(["convert", "a.pbn", "b.unknown"]) == 2
    assert main(["convert", "a.pbn", "b.pbn", "--to", "nonsense"]) == 2
    assert main(["convert", str(tmp_path / "missing.pbn"), str(tmp_path / "o.pbn")]) == 1
    assert "No such file" in capsys.readouterr().err
    assert main(["show"]) == 2


def test_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "x.hex"
    source.write_text("F2F25B5CC55E31928E2E32C949-1\n")
    assert main(["show", str(source)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == [f"{source}: hex (by its extension)", "",
                                    "Deal 1  Board 1  Dealer North  Vul None"]
    assert "S 5" in out and "H AKT3" in out and "D AK97654" in out
    bad = tmp_path / "y.hex"
    bad.write_text("F2F25B5CC55E31928E2E32C949\nZZ\n")
    assert main(["show", str(bad)]) == 1
    assert f"{bad}:2:1: error:" in capsys.readouterr().err
