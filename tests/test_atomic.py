"""dealerpp.atomic: an output file is replaced whole, or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dealerpp.atomic import atomic_writer, write_atomically


def test_replaces_the_file_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.dl"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.dl"]


def test_a_new_file_gets_the_usual_permissions(tmp_path: Path) -> None:
    old_mask = os.umask(0o027)
    try:
        write_atomically(tmp_path / "new.dl", b"x")
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE((tmp_path / "new.dl").stat().st_mode) == 0o640


def test_an_error_while_writing_leaves_the_old_file_and_no_litter(tmp_path: Path) -> None:
    target = tmp_path / "out.dl"
    target.write_bytes(b"old\n")
    with pytest.raises(ValueError, match="bad record"), atomic_writer(target) as handle:
        handle.write(b"half of the new content")
        raise ValueError("bad record")
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.dl"]


def test_a_leftover_temporary_name_is_not_reused(tmp_path: Path) -> None:
    target = tmp_path / "out.dl"
    squatter = tmp_path / f".out.dl.{os.getpid()}.0.tmp"
    squatter.write_bytes(b"someone else's")
    write_atomically(target, b"new\n")
    assert target.read_bytes() == b"new\n" and squatter.read_bytes() == b"someone else's"


def test_an_output_in_a_missing_folder_is_named_as_given(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The error names the output the caller gave, not the temporary file
    that could not be made beside it."""
    monkeypatch.chdir(tmp_path)
    for target in ("no-folder/out.dl", tmp_path / "no-folder" / "out.dl"):
        with pytest.raises(FileNotFoundError) as raised:
            write_atomically(target, b"x")
        assert raised.value.filename == os.fspath(target)
    assert list(tmp_path.iterdir()) == []
