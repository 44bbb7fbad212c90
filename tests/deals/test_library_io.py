"""deals.read / loads / dumps / write as a library user calls them."""

from __future__ import annotations

import contextlib
import gc
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealerpp import deals
from dealerpp.deals import formats
from dealerpp.deals.model import Deal
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic, DppError

LINES = ("N:AQJ432.8.764.T86 K5.AKQ97.AJ.Q972 T9.JT54.KQ532.A4 876.632.T98.KJ53",
         "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")
SAMPLE = [Deal.from_pbn(line) for line in LINES]


def test_a_missing_path_is_not_read_as_text(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as raised:
        deals.read(str(tmp_path / "lesson1.pbm"))  # raised now, not on the first deal
    assert raised.value.filename == str(tmp_path / "lesson1.pbm")
    with pytest.raises(FileNotFoundError):
        deals.read(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        deals.read(tmp_path)


def test_a_name_without_extension_is_still_a_path(tmp_path: Path, monkeypatch:
                                                   pytest.MonkeyPatch) -> None:
    (tmp_path / "deals").write_text(LINES[0] + "\n")
    monkeypatch.chdir(tmp_path)
    assert list(deals.read("deals")) == SAMPLE[:1]


def test_read_takes_paths_and_files_not_content(tmp_path: Path) -> None:
    path = tmp_path / "two.pbn"
    path.write_text("\n".join(LINES) + "\n")
    assert [d.masks for d in deals.read(path)] == [d.masks for d in SAMPLE]
    with open(path, "rb") as handle:
        assert [d.masks for d in deals.read(handle, "pbn")] == [d.masks for d in SAMPLE]
    with pytest.raises(TypeError, match="loads"):
        deals.read(path.read_bytes())  # type: ignore[arg-type]


@pytest.mark.filterwarnings("ignore::ResourceWarning")  # the file the test leaves to Python
@pytest.mark.parametrize("format_name", [None, "hex", "deals"])
def test_a_text_file_the_caller_drops_is_read_to_the_end(format_name: str | None,
                                                          tmp_path: Path) -> None:
    """``deals.read(open(path))``: the caller keeps no reference to the file
    opened in text mode, whose binary file the reader reads; collected, the
    text file would close it under the reader."""
    path = tmp_path / "many"
    data = deals.dumps(SAMPLE * 300, format_name or "pbn")
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    got = [d.masks for d in deals.read(open(path, encoding="utf-8"), format_name)]  # noqa: SIM115
    assert got == [d.masks for d in SAMPLE * 300]


def test_loads_takes_text_and_bytes() -> None:
    text = "\n".join(LINES) + "\n"
    assert deals.loads(text) == deals.loads(text.encode()) == SAMPLE
    # one line that looks like no file name, and no newline: still content
    assert deals.loads(LINES[0]) == SAMPLE[:1]


@pytest.mark.parametrize("fmt", formats.WRITABLE)
def test_dumps_and_loads_agree(fmt: str) -> None:
    data = deals.dumps(SAMPLE, fmt)
    assert isinstance(data, bytes) == formats.get(fmt).binary
    assert [d.masks for d in deals.loads(data, fmt)] == [d.masks for d in SAMPLE]


def test_write_a_path_by_its_extension(tmp_path: Path) -> None:
    path = tmp_path / "out.hex"
    deals.write(path, SAMPLE)
    assert path.read_text() == deals.dumps(SAMPLE, "hex")
    out = io.StringIO()
    deals.write(out, SAMPLE, "pbn")
    assert deals.loads(out.getvalue()) == SAMPLE


def test_write_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "club.deals"
    path.write_bytes(b"old")

    def failing() -> Iterator[Deal]:
        yield SAMPLE[0]
        raise RuntimeError("the source failed")

    with pytest.raises(RuntimeError):
        deals.write(path, failing())
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["club.deals"]  # nothing left beside it


@pytest.mark.parametrize("wrong", [42, None, 2.5, ["in.pbn"]])
def test_what_is_not_a_file_is_refused_by_name(wrong: object, tmp_path: Path) -> None:
    """Neither a path nor a file: TypeError naming the call and the type,
    raised at the call and before anything is written (it was an
    AttributeError from inside a reader or writer, or, for convert's dst,
    'cannot tell the output format')."""
    source = tmp_path / "in.pbn"
    source.write_text("\n".join(LINES) + "\n")
    shown = type(wrong).__name__
    calls = {"deals.read takes a path or a file open for reading": lambda: deals.read(wrong),
             "deals.write takes a path or a file open for writing":
                 lambda: deals.write(wrong, SAMPLE, "pbn"),
             "deals.convert takes as src a path or a file open for reading":
                 lambda: deals.convert(wrong, tmp_path / "out.hex"),
             "deals.convert takes as dst a path or a file open for writing":
                 lambda: deals.convert(source, wrong, "hex")}
    for said, call in calls.items():
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == f"{said}, not {shown}"
    assert os.listdir(tmp_path) == ["in.pbn"]


def test_write_says_the_file_comes_first(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="file comes first"):
        deals.write(SAMPLE, str(tmp_path / "x.pbn"))  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["pbn", "deals"])
def test_one_deal_where_deals_are_asked_for_says_so(fmt: str, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"\[deal\]"):
        deals.dumps(SAMPLE[0], fmt)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[deal\]"):
        deals.write(tmp_path / f"one.{fmt}", SAMPLE[0])  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
    assert deals.loads(deals.dumps([SAMPLE[0]], fmt), fmt) == SAMPLE[:1]


def test_convert_takes_the_bulk_path_when_it_applies(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from dealerpp.deals.bulk import stream

    source = tmp_path / "in.deals"
    source.write_bytes(deals.dumps(SAMPLE * 3, "deals"))  # type: ignore[arg-type]
    calls: list[tuple[str, str]] = []
    bulk = stream.convert_file

    def counted(src: object, dst: object, src_fmt: str, dst_fmt: str, *args: object,
                **kwargs: object) -> int:
        calls.append((src_fmt, dst_fmt))
        return bulk(src, dst, src_fmt, dst_fmt, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stream, "convert_file", counted)
    assert deals.convert(source, tmp_path / "out.hex") == 6
    assert calls == [("deals", "hex")]
    # the same text the per-deal writer makes
    assert (tmp_path / "out.hex").read_text() == deals.dumps(SAMPLE * 3, "hex")
    # a pair without a bulk path goes deal by deal, with the same result
    assert deals.convert(source, tmp_path / "out.dup", "dup") == 6
    assert calls == [("deals", "hex")]
    back = deals.read(tmp_path / "out.dup", "dup")
    assert [d.masks for d in back] == [d.masks for d in SAMPLE * 3]


def test_convert_is_atomic_and_names_a_missing_input(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        deals.convert(tmp_path / "missing.deals", tmp_path / "out.pbn")
    bad = tmp_path / "bad.deals"
    bad.write_bytes(deals.dumps(SAMPLE, "deals")[:40])  # type: ignore[arg-type]
    out = tmp_path / "out.pbn"
    out.write_text("kept\n")
    with pytest.raises(DppError) as raised:
        deals.convert(bad, out)
    assert raised.value.byte == 32 and not raised.value.output
    assert out.read_text() == "kept\n"


WINDOWS_PBN = "".join(f'[Board "{n}"]\r\n[Deal "{line}"]\r\n\r\n'
                      for n, line in enumerate(LINES, 1))
@pytest.mark.parametrize("fmt", ["oneline", "pbn", "hex"])
def test_a_text_file_read_from_already_goes_on_where_its_text_stands(fmt: str,
                                                                    tmp_path: Path) -> None:
    """A file opened in text mode whose first line the caller took: its
    deals are the rest. The readers take the bytes under the text, which
    the text layer had read ahead (8 KiB): they gave no deal, silently."""
    many = SAMPLE * 50
    path = tmp_path / f"in.{fmt}"
    path.write_text("% a line of the caller's own\n" + deals.dumps(many, fmt))
    with path.open() as handle:
        assert handle.readline() == "% a line of the caller's own\n"
        assert list(deals.read(handle, fmt)) == many
    with path.open() as handle:
        handle.readline()
        assert deals.convert(handle, tmp_path / "out.deals", src_format=fmt) == len(many)
    assert list(deals.read(tmp_path / "out.deals")) == many


@pytest.mark.parametrize("skip", ["next", "for"])
@pytest.mark.parametrize("fmt", ["oneline", "pbn"])
def test_a_text_file_whose_lines_the_caller_iterated_goes_on_where_its_text_stands(
        fmt: str, skip: str, tmp_path: Path) -> None:
    """A header skipped with next(file) or a for loop: the text layer has
    read ahead and, iterated, cannot tell where its text stands (tell()
    raises), so its bytes cannot be put back: the rest is read as text
    (all of it, its file's name in errors). It gave no deal, silently."""
    many = SAMPLE * 50
    path = tmp_path / f"in.{fmt}"
    path.write_text("% a line of the caller's own\n" + deals.dumps(many, fmt))
    for convert in (False, True):
        with path.open() as handle:
            if skip == "next":
                next(handle)
            else:
                for _line in handle:
                    break
            if convert:
                assert deals.convert(handle, tmp_path / "out.deals", src_format=fmt) == len(many)
            else:
                assert list(deals.read(handle, fmt)) == many
    assert list(deals.read(tmp_path / "out.deals")) == many
    path.write_text("% header\nnot a deal\n")
    with path.open() as handle, pytest.raises(DppError) as caught:
        next(handle)
        list(deals.read(handle, "oneline"))
    assert (caught.value.filename, caught.value.line, caught.value.byte) == (str(path), 1, None)



class _Pipe(io.RawIOBase):
    """A pipe whose writer sends one line at a time: each read gives the
    next line (a read past what was sent would wait for the writer)."""

    def __init__(self, lines: list[bytes]) -> None:
        super().__init__()
        self.lines, self.reads = lines, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self.reads += 1
        line = self.lines.pop(0) if self.lines else b""
        buffer[:len(line)] = line
        return len(line)


@pytest.mark.parametrize("fmt", ["oneline", "hex"])
def test_a_pipe_is_read_as_its_deals_come(fmt: str) -> None:
    """deals.read(sys.stdin.buffer) gives each deal once its line is there:
    a program that deals slowly into the pipe is followed deal by deal.
    Counted for the error's byte (df72e73), the stream was read 64 KiB at a
    time, and the first deal came after the writer's last (21 reads here)."""
    line = deals.dumps(SAMPLE[:1], fmt).encode()
    pipe = _Pipe([line] * 20)
    found = deals.read(io.BufferedReader(pipe), fmt)
    assert next(found) == SAMPLE[0]
    assert pipe.reads <= 2
    assert len(list(found)) == 19



@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])  # with a mark, without
@pytest.mark.parametrize("suffix", [".pbn", ".txt"])  # by name, by content
def test_read_decodes_utf16_as_convert_does(codec: str, suffix: str, tmp_path: Path) -> None:
    twin, wide = tmp_path / f"twin{suffix}", tmp_path / f"wide{suffix}"
    twin.write_bytes(WINDOWS_PBN.encode("utf-8"))
    wide.write_bytes(WINDOWS_PBN.encode(codec))
    expected = list(deals.read(twin))
    assert [d.masks for d in expected] == [d.masks for d in SAMPLE]
    assert [d.board for d in expected] == [1, 2]
    assert list(deals.read(wide)) == expected
    with wide.open("rb") as handle:
        assert list(deals.read(handle)) == expected
    assert deals.loads(WINDOWS_PBN.encode(codec)) == expected
    for fmt in ("hex", "dup"):  # the bulk path, deal by deal
        assert deals.convert(wide, tmp_path / "wide.out", fmt) == 2
        deals.convert(twin, tmp_path / "twin.out", fmt)
        assert (tmp_path / "wide.out").read_bytes() == (tmp_path / "twin.out").read_bytes()


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le"])
def test_a_utf16_text_read_from_bytes_or_a_stream_names_no_byte(codec: str,
                                                                tmp_path: Path) -> None:
    """A UTF-16 text is read from its UTF-8 twin: a bad deal's line and
    column are the twin's, and there is no byte (the twin's bytes are not the
    file's), whether it comes from a path, as bytes or from an open file.
    Counted as it passed, a stream gave the twin's byte (157 here, where
    the file's is 314, or 316 after a byte-order mark)."""
    text = WINDOWS_PBN.replace(LINES[1][:5], "N:5.5")  # the second deal, a card twice
    wide = tmp_path / "wide.pbn"
    wide.write_bytes(text.encode(codec))
    with wide.open("rb") as handle:
        sources = [wide, handle, io.BytesIO(text.encode(codec))]
        for source in sources:
            with pytest.raises(DppError) as raised:
                list(deals.read(source, "pbn"))
            assert (raised.value.line, raised.value.byte) == (5, None), source
        with pytest.raises(DppError) as raised:
            deals.loads(text.encode(codec))
        assert (raised.value.line, raised.value.byte) == (5, None)


@pytest.mark.parametrize("fmt", ["hex", "deals", "pbn", "dup"])  # the bulk path; dup deal by deal
def test_a_utf16_text_converted_names_no_byte(fmt: str, tmp_path: Path) -> None:
    """deals.convert of a UTF-16 text: the bad deal's error, or its problem
    reported, has the twin's line and no byte, on the bulk path as deal by
    deal (the bulk path gave the twin's byte, 157)."""
    text = WINDOWS_PBN.replace(LINES[1][:5], "N:5.5")
    wide, out = tmp_path / "wide.pbn", tmp_path / f"out.{fmt}"
    wide.write_bytes(text.encode("utf-16"))
    with wide.open("rb") as handle:
        for source in (wide, handle):
            with pytest.raises(DppError) as raised:
                deals.convert(source, out, src_format="pbn")
            assert (raised.value.line, raised.value.byte) == (5, None), source
    found: list[Diagnostic] = []
    with contextlib.suppress(DppError):  # a set that moves a board: not written
        deals.convert(wide, out, options=ReadOptions(report=found.append))
    assert [(problem.line, problem.byte) for problem in found] == [(5, None)]


def test_convert_numbers_boards_beyond_the_bulk_paths_integers(tmp_path: Path) -> None:
    source = tmp_path / "in.deals"
    deals.write(source, SAMPLE)
    first = 10 ** 19  # more than a 64-bit integer holds: deal by deal, as the command does
    assert formats.is_fast_pair("deals", "pbn")
    assert not formats.takes_bulk_path("deals", "pbn", first_board=first)
    assert deals.convert(source, tmp_path / "out.pbn", first_board=first) == 2
    assert [d.board for d in deals.read(tmp_path / "out.pbn")] == [first, first + 1]


@pytest.mark.parametrize("to", ["hex", "dup"])  # the bulk path, deal by deal
def test_convert_takes_the_readers_options_on_either_path(to: str, tmp_path: Path) -> None:
    from dealerpp.deals.conversion import LEFT_OUT, NotWritten
    from dealerpp.deals.options import ReadOptions

    source = tmp_path / "in.pbn"
    bad = LINES[1].replace("Q32", "Q3X")
    source.write_text(f'[Deal "{LINES[0]}"]\n\n[Deal "{bad}"]\n\n[Deal "{LINES[1]}"]\n')
    with pytest.raises(DppError):
        deals.convert(source, tmp_path / f"out.{to}", to)
    problems: list[object] = []
    # the game left out would move the third into its place in a format
    # without board numbers: nothing is written, as by dealerpp convert
    with pytest.raises(NotWritten) as refused:
        deals.convert(source, tmp_path / "out", to, options=ReadOptions(report=problems.append))
    assert refused.value.kind == LEFT_OUT and refused.value.lines == (3,)
    assert len(problems) == 1 and not (tmp_path / "out").exists()
    # one that holds them is written, the game left out
    ignored: list[object] = []
    total = deals.convert(source, tmp_path / "out.csv", options=ReadOptions(report=ignored.append))
    assert total == 2
    assert [d.masks for d in deals.read(tmp_path / "out.csv")] == [d.masks for d in SAMPLE]


def test_convert_takes_the_writers_options(tmp_path: Path) -> None:
    from dealerpp.deals.options import WriteOptions

    source = tmp_path / "in.deals"
    deals.write(source, SAMPLE)
    deals.convert(source, tmp_path / "out.html", write_options=WriteOptions(title="Club night"))
    assert "<title>Club night</title>" in (tmp_path / "out.html").read_text()


@pytest.mark.parametrize("format_name", ["pbn", "hex", "giblib"])
def test_a_reader_dropped_early_says_nothing_and_closes_nothing(
        format_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Take the first deal of a large open file, drop the reader: the
    caller's file stays open; closed first, then dropped, Python has no
    error it cannot raise to report (a flush into the closed file)."""
    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    path = tmp_path / "many"
    path.write_bytes(deals.dumps(SAMPLE * 500, format_name).encode())
    for close_first in (False, True):
        with path.open("rb") as handle:
            reader = iter(deals.read(handle, format=format_name))
            assert next(reader).north == SAMPLE[0].north
            if close_first:
                handle.close()
            del reader
            gc.collect()
            assert handle.closed == close_first
    assert unraisable == []
