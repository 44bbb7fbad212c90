"""``dealerpp convert`` takes the bulk path by itself, and behaves as the
per-deal path does: same output, same errors, same summary."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dealerpp.cli import main
from dealerpp.deals import formats
from dealerpp.deals.bulk.progress import Progress
from dealerpp.deals.bulk.stream import convert_file
from dealerpp.diagnostics import DppError

from .helpers import per_deal
from .test_properties import random_deals

GOOD = b"QJ97.QJ92.T832.T 5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874\n"


def run_both(tmp_path: Path, data: bytes, name: str, out: str, capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch, *extra: str) -> list[tuple[int, bytes, str]]:
    source = tmp_path / name
    source.write_bytes(data)
    results = []
    for fast in (True, False):
        target = tmp_path / f"{fast}{out}"
        if not fast:
            monkeypatch.setattr(formats, "is_fast_pair", lambda *_: False)
        status = main(["convert", str(source), str(target), *extra])
        err = capsys.readouterr().err.replace(f"{fast}{out}", out)
        results.append((status, target.read_bytes() if target.exists() else b"", err))
    return results


def test_same_output_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    raw = random_deals(50, 4).masks.astype("<u8").tobytes()
    fast, slow = run_both(tmp_path, raw, "in.deals", ".gib", capsys, monkeypatch)
    assert fast == slow
    assert fast[0] == 0 and "50 deals converted" in fast[2]


def test_same_error_and_no_output(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    data = GOOD * 3 + GOOD.replace(b"QJ97", b"QJ99") + GOOD
    fast, slow = run_both(tmp_path, data, "in.gib", ".hex", capsys, monkeypatch)
    assert fast == slow
    assert fast[0] == 1 and ":4:" in fast[2] and fast[1] == b""


def test_format_from_content_and_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = run_both(tmp_path, GOOD * 4, "deals.txt", ".txt", capsys, monkeypatch,
                          "--to", "oneline", "-q")
    assert fast == slow and fast[2] == ""


def test_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch,
                         capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(GOOD * 2)))
    assert main(["convert", "-", "-", "--to", "hex", "-q"]) == 0
    # four bare hands without a trick string are a PBN deal string (N E S W)
    assert capsysbinary.readouterr().out == per_deal(GOOD * 2, "pbn", "hex")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "in.deals"
    source.write_bytes(random_deals(300, 5).masks.astype("<u8").tobytes())
    for quiet, terminal, drawn in ((False, True, True), (True, True, False),
                                   (False, False, False)):
        err = _Terminal() if terminal else io.StringIO()
        monkeypatch.setattr("sys.stderr", err)
        assert convert_file(source, tmp_path / "out.hex", "deals", "hex", quiet=quiet,
                            chunk=32 * 64) == 300
        text = err.getvalue()
        assert ("300 deals" in text and "\r[" in text) is drawn, (quiet, terminal, text)
        assert bool(text) is drawn


def test_progress_line() -> None:
    bar = Progress(1000, io.StringIO(), enabled=True)
    bar.update(500, 20)
    assert "50%" in bar.line(bar.started + 1) and "20 deals" in bar.line(bar.started + 1)
    assert "MB" in Progress(None, io.StringIO(), enabled=True).line(0.0)


def test_error_leaves_existing_output(tmp_path: Path) -> None:
    source = tmp_path / "in.gib"
    source.write_bytes(GOOD + b"junk\n")
    target = tmp_path / "out.hex"
    target.write_text("old\n")
    with pytest.raises(DppError, match="4 hands"):
        convert_file(source, target, "giblib", "hex", progress=False)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(("command", "deals"), [
    (["convert", "-q", "{}", "-", "--to", "giblib"], 50_000),  # the bulk path: 3.5 MB out
    (["convert", "-q", "{}", "-", "--to", "listing"], 2000),  # per deal: output held to the end
    (["show", "{}"], 2000),
], ids=["bulk", "per-deal", "show"])
def test_reader_going_away_is_status_141_and_quiet(tmp_path: Path, command: list[str],
                                                   deals: int) -> None:
    """Like `| head -c 100`: the shell's status for a death by SIGPIPE, and
    nothing on stderr. The output is far larger than a pipe holds, so the
    reader leaves in the middle of a write."""
    import subprocess
    import sys

    source = tmp_path / "in.deals"
    source.write_bytes(random_deals(deals, 6).masks.astype("<u8").tobytes())
    argv = [part.format(source) for part in command]
    process = subprocess.Popen([sys.executable, "-m", "dealerpp", *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[2])
    assert process.stdout is not None and process.stderr is not None
    assert len(process.stdout.read(100)) == 100
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert process.stderr.read() == b""


FAST_EXTENSIONS = [(ext, f.name) for f in formats.FORMATS if f.fast for ext in f.extensions]


@pytest.mark.parametrize(("ext", "fmt"), FAST_EXTENSIONS)
def test_every_fast_extension_takes_the_bulk_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  ext: str, fmt: str) -> None:
    """Read from the registry, so no extension is left out (.giblib was)."""
    from dealerpp.deals.bulk import stream

    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(stream, "convert_file",
                        lambda src, dst, src_fmt, dst_fmt, **_: calls.append((src_fmt, dst_fmt)) or 1)
    other = ".hex" if fmt != "hex" else ".deals"
    (tmp_path / f"in{ext}").write_bytes(b"")
    (tmp_path / f"in{other}").write_bytes(b"")
    assert main(["convert", "-q", str(tmp_path / f"in{other}"), str(tmp_path / f"out{ext}")]) == 0
    assert main(["convert", "-q", str(tmp_path / f"in{ext}"), str(tmp_path / f"out{other}")]) == 0
    other_fmt = formats.from_extension(f"in{other}")
    assert calls == [(other_fmt, fmt), (fmt, other_fmt)]


def test_bulk_path_names_the_file_an_os_error_is_about(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.deals"
    source.write_bytes(random_deals(5, 1).masks.astype("<u8").tobytes())
    target = tmp_path / "no" / "such" / "out.gib"
    assert main(["convert", str(source), str(target)]) == 1
    assert capsys.readouterr().err.startswith(f"{target}: error: No such file")
    missing = tmp_path / "missing.deals"
    assert main(["convert", "--from", "deals", str(missing), str(tmp_path / "out.gib")]) == 1
    assert capsys.readouterr().err.startswith(f"{missing}: error: No such file")
