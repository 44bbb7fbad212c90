"""The language server's incremental check gives exactly check_text's
diagnostics: on scripts built from statements, comments, strings and
shape{} blocks (good and broken, some over several lines), edited at
random, one IncrementalCheck kept across the edits as the server keeps it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.editor import incremental
from dealerpp.editor.incremental import IncrementalCheck
from dealerpp.script.check import check_text
from tests.conftest import examples, sized
from tests.editor.conftest import require_extra

# Lines a script is built of: statements good and bad, and the pieces that
# span lines or stop dealer's reading.
LINES = [
    "generate 1000", "produce 10", "dealer north", "vulnerable NS", "predeal north SAK, HQJ",
    "predeal south AS", "pointcount 4 3 2 1", "altcount 8 2 2 1", "altcount 2 1 1",
    "a = hcp(north) >= 12", "b = a && shape(north, any 4333 + 5xxx)", "c = b || a",
    "a = 1", "d = spades(east) / 0", "e = loser(west, clubs) > 3 // a comment",
    "f = shape{north, 5M(xxx)}", "g = shape{south, 4+s}", "x = (hcp(north) + ", "  1)",
    "condition a && b", "condition c", "conditon hcp(south) > 10", "action printall",
    "action", "    printoneline,", "    average \"v\" c", "    frequency \"f\" (hcp(north), 0, 40)",
    "# a hash comment", "x = 1 # late hash", "/* a comment", "E O F */", "/* E */",
    "s = \"a string", "over lines\"", "shape{north,", "5xxx}", "h = foo(north, ",
    "1)", "seed 5", "title \"t\"", "Import,URL", "y", "= 3", "z = 1.5", "w = $1",
    "k = hcp(north) > 10 +", "♠ = 1", "q = 2 // ♥ emoji", "n = 99999999999",
    "v = hpc(north)", "condition v && undefined", "u = u + 1", "t = tricks(north, spades)",
    "p = hcp(north, east)", "printall", "m = (((1)))", "r = 3 >", "", "   ", "\t",
    "pointcount 1 2", "3 4", "condition 1 ? 2 : 3", "c2 = hcp(north) = 3",
]
FRAGMENTS = ["\n", "/*", "*/", '"', "shape{", "}", "=", " ", "x", "condition ", "(", ")",
             "1", "#", "//", "\x00", "é", "a = ", "action\n", "\r\n", ";", "&&", "hcp(north)"]


def full_check(text: str, filename: str) -> list[object]:
    return list(check_text(text, filename))


@st.composite
def scripts(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(LINES), min_size=0, max_size=25))
    ending = draw(st.sampled_from(["\n", ""]))
    return "\n".join(lines) + ending


@st.composite
def edits(draw: st.DrawFn, length: int) -> tuple[int, int, str]:
    start = draw(st.integers(0, length))
    end = draw(st.integers(start, min(length, start + draw(st.sampled_from([0, 1, 3, 20])))))
    text = draw(st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(LINES).map(
        lambda line: line + "\n")))
    return start, end, text


@settings(max_examples=examples(200), deadline=None)
@given(st.data(), scripts(), st.sampled_from(["edit.dl", "edit.dpp"]))
def test_edited_at_random_it_says_what_check_text_says(data: st.DataObject, text: str,
                                                          filename: str) -> None:
    # Stretches of one statement each (every cut taken), or a few.
    saved = incremental._STRETCH_MEAN, incremental._STRETCH_MOST
    incremental._STRETCH_MEAN, incremental._STRETCH_MOST = data.draw(
        st.sampled_from([(1, 1), (2, 3), saved]))
    try:
        check = IncrementalCheck(filename)
        assert check.check(text) == full_check(text, filename)
        for _ in range(data.draw(st.integers(1, 6))):
            start, end, new = data.draw(edits(len(text)))
            text = text[:start] + new + text[end:]
            assert check.check(text) == full_check(text, filename), repr(text)
    finally:
        incremental._STRETCH_MEAN, incremental._STRETCH_MOST = saved


def script_of(lines: int) -> str:
    out = ["generate 1000", "produce 10"]
    for index in range(lines):
        out.append(f"v{index} = hcp(north) > {index % 20}" if index % 2 else
                   f"v{index} = v{index - 1} && shape(south, 5xxx) // {index}" if index else
                   "v0 = hcp(south) > 10")
    out += [f"condition v{lines - 1}", "action printall"]
    return "\n".join(out) + "\n"


def test_an_edit_reads_again_only_the_statement_it_touched() -> None:
    text = script_of(300)
    check = IncrementalCheck("edit.dl")
    check.check(text)
    stretches = len(check.bounds(text)) - 1
    assert check.read == stretches and 300 // 32 <= stretches < 300  # several statements each
    edited = text.replace("v150 = v149", "v150 = 1 + v149")
    assert check.check(edited) == full_check(edited, "edit.dl")
    assert (check.read, check.fell_back) == (1, False)
    # A new line moves every statement after it, which is not read again.
    moved = edited.replace("v20 = ", "\nv20 = ")
    assert check.check(moved) == full_check(moved, "edit.dl")
    assert (check.read, check.fell_back) == (1, False)


def test_a_comment_opened_over_the_rest_is_one_stretch_then_many_again() -> None:
    text = script_of(100)
    check = IncrementalCheck("edit.dl")
    check.check(text)
    opened = text.replace("v50 =", "/* v50 =")
    assert check.check(opened) == full_check(opened, "edit.dl")
    closed = opened.replace("v60 =", "*/ v60 =")
    assert check.check(closed) == full_check(closed, "edit.dl")
    assert check.read <= 12 and not check.fell_back


def test_a_record_is_used_once_a_check_though_its_text_repeats() -> None:
    text = "generate 10\nproduce 5\nproduce 5\nproduce 5\ncondition 1\naction printall\n"
    check = IncrementalCheck("edit.dl")
    assert check.check(text) == full_check(text, "edit.dl")
    again = "generate 10\n" + text
    assert check.check(again) == full_check(again, "edit.dl")


def test_what_is_kept_is_in_proportion_to_the_document() -> None:
    text = script_of(100)
    check = IncrementalCheck("edit.dl")
    check.check(text)
    stretches = len(check.bounds(text)) - 1
    assert check.records_kept() == stretches
    for index in range(50):  # each edit makes one new stretch's text
        text = text.replace(f"v{index} = ", f"v{index} = 1 + ", 1)
        check.check(text)
    assert check.records_kept() <= 2 * stretches


def test_the_server_keeps_checks_for_the_last_documents_only() -> None:
    require_extra()
    from dealerpp.editor import server
    from dealerpp.editor.text import Document

    kept = server.CHECKS_KEPT
    lsp_server = server.DealerServer()
    uris = [f"file:///many/{index}.dl" for index in range(3 * kept)]
    for uri in uris:
        lsp_server.check_document(script_of(10), uri, "dealer")
    assert list(lsp_server._checks) == uris[-kept:]
    # Closing a document drops its check (in the checker's thread).
    lsp_server.documents[uris[-1]] = Document(uris[-1], "", 1)
    lsp_server.close(uris[-1])
    lsp_server._checker.submit(lambda: None).result()
    assert list(lsp_server._checks) == uris[-kept:-1]


def test_past_the_error_limit_it_stops_where_check_text_stops() -> None:
    lines = [f"x{index} = hpc(north) + @" if index % 3 else f"y{index} = nothing{index}"
             for index in range(200)]
    text = "\n".join(lines) + "\ncondition x1\naction printall\n"
    check = IncrementalCheck("edit.dl")
    assert check.check(text) == full_check(text, "edit.dl")
    for edited in (text.replace("x100 =", "x100 = 1 +"), text.replace("y0 = ", "y0 = 1\n")):
        found = check.check(edited)
        assert found == full_check(edited, "edit.dl")
        assert found[-1].code == "error-limit" and not check.fell_back


def test_stretches_are_cut_at_the_same_lines_in_every_process() -> None:
    """Where stretches are cut must not depend on PYTHONHASHSEED: with ``hash``
    of a line's text, the work an edit costs (and the test above) changed from
    one process to the next."""
    program = ("from dealerpp.editor.incremental import IncrementalCheck\n"
               "from tests.editor.test_incremental import script_of\n"
               "text = script_of(200)\n"
               "print(IncrementalCheck('a.dl').bounds(text))\n")
    root = Path(__file__).resolve().parents[2]
    cuts = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                           check=True, cwd=root, env={**os.environ, "PYTHONHASHSEED": seed}
                           ).stdout
            for seed in sized(("1", "2", "3"), ("1", "2"))}  # a process a seed
    assert len(cuts) == 1 and cuts != {""}


def test_a_message_naming_another_line_carries_it_and_moves_with_it() -> None:
    # "`10` on line N was read as one more pointcount value": the line it
    # names is a field of the diagnostic (the incremental check binds such a
    # record to its place by that field, not by reading the message).
    text = script_of(60).replace("v40 = ", "pointcount 4 3 2 1\n10 <= hcp(north)\nv40 = ")
    check = IncrementalCheck("edit.dl")
    assert check.check(text) == full_check(text, "edit.dl")
    moved = text.replace("v20 = ", "\n\nv20 = ")
    found = check.check(moved)
    assert found == full_check(moved, "edit.dl")
    named = [d for d in found if d.related_line is not None]
    assert [d.related_line for d in named] == [moved.splitlines().index("10 <= hcp(north)") + 1]
    assert f"on line {named[0].related_line} " in named[0].message
