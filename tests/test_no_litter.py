"""A property: whatever the input, the flags and what the output name is, a
failed run leaves the folder exactly as it was (no new file, no temporary
file, no changed file), and a successful one adds at most its output."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.cli import main
from tests.conftest import examples

SCRIPT_LINES = [
    "generate 1000", "produce 2", "n = shape{north, 5+M(xxx)}", "s = shape{south, (4432)}",
    "x = shape{west, 4432+5332}", "y = shape{east, 5+s:h>", "condition n && hcp(north) > 11",
    "action printall", "# a comment", "z = shape{north, xxxx:s/0>1}", "}", "shape{",
]
DEAL_LINES = [
    "F2F25B5CC55E31928E2E32C949", "4B0B4FAC05918F6623B3965CB7", "F2F25B5CC55E31928E2E32C94",
    "ZZ", "", '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]',
]


def text_of(lines: list[str]) -> st.SearchStrategy[str]:
    piece = st.sampled_from(lines) | st.text(alphabet="{}(),:+-x0123456789 \n#\x00é", max_size=12)
    return st.lists(piece, max_size=6).map(lambda parts: "\n".join(parts) + "\n")


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[str], str, str]:
    """Arguments with IN and OUT as placeholders, the input's text, and what
    OUT is when the run starts."""
    if draw(st.booleans()):
        flags = draw(st.lists(st.sampled_from(["--no-check", "--emit=list"]), unique=True))
        args, text = [*flags, "IN", "-o", "OUT"], draw(text_of(SCRIPT_LINES))
    else:
        fmt = draw(st.sampled_from(["hex", "pbn", "giblib", "listing", "deals"]))
        to = draw(st.sampled_from(["hex", "pbn", "giblib", "listing", "dx"]))
        args, text = ["convert", "-q", "IN", "OUT", "--from", fmt, "--to", to], draw(
            text_of(DEAL_LINES))
    out = draw(st.sampled_from(["absent", "file", "link to file", "dangling link", "the input"]))
    return args, text, out


def snapshot(folder: Path) -> dict[str, bytes | str]:
    return {p.name: (f"-> {p.readlink()}" if p.is_symlink() else p.read_bytes())
            for p in folder.iterdir()}


@settings(max_examples=examples(150), deadline=None)
@given(runs())
def test_a_failure_leaves_the_folder_as_it_was(run: tuple[list[str], str, str]) -> None:
    args, text, out_kind = run
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "in.txt"
        source.write_text(text, errors="surrogateescape")
        out = folder / "out.txt"
        if out_kind == "file":
            out.write_text("old\n")
        elif out_kind == "link to file":
            (folder / "target.txt").write_text("old\n")
            out.symlink_to("target.txt")
        elif out_kind == "dangling link":
            out.symlink_to("nowhere.txt")
        elif out_kind == "the input":
            out = source
        before = snapshot(folder)
        argv = [str(source) if a == "IN" else str(out) if a == "OUT" else a for a in args]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(argv)
        after = snapshot(folder)
        assert status in (0, 1, 2)
        # A PBN input's bad games are left out and the others written (status 1).
        partial = status == 1 and "the games that have them are left out" in err.getvalue()
        if status != 0 and not partial:
            assert after == before
        else:
            written = out.resolve()
            assert {k: v for k, v in after.items() if k != written.name} == {
                k: v for k, v in before.items() if k != written.name}
            assert out_kind != "the input"
