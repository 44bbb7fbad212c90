"""The server never dies: whatever a buffer holds, it gets diagnostics or
none, the server keeps answering, and standard output carries frames only."""

from __future__ import annotations

import random

import pytest

from tests.editor.lsp_client import Client, span


def garbage(size: int, seed: int) -> str:
    chooser = random.Random(seed)
    alphabet = "shape{}()/*#\"\n\r\t 0123456789xnorth,+-<>=!&|:?" + "\x00\x7f\u00e9\U0001f0a1\u2028"
    return "".join(chooser.choices(alphabet, k=size))


# Each made when its test runs, not at import (every pytest-xdist worker
# imports each module).
BUFFERS = {
    "200 KB of garbage": lambda: garbage(200_000, 1),
    "NUL bytes": lambda: "x = 1\n\x00\x00\x00 dealr\n" + "\x00" * 10_000,
    "a 100 KB line": lambda: "x = " + "hcp(north) + " * 8_000 + "1\n",
    "half-typed text": lambda: "n = shape{north, 5+M(x\ncondition n && hcp(",
    "shape{ 10,000 times": lambda: "shape{" * 10_000,  # (the lexer once scanned to the end for each)
    "lone surrogates": lambda: "x = 1 // \ud800 \udfff\ny = \udc80\n",
    "deep parentheses": lambda: "x = " + "(" * 50_000,
}


@pytest.mark.parametrize("name", sorted(BUFFERS))
def test_any_buffer_gets_an_answer(server: Client, name: str) -> None:
    uri = "file:///home/player/scripts/bad.dpp"
    server.open(uri, BUFFERS[name]())
    found = server.diagnostics(uri, timeout=120)
    assert all(d["range"]["start"]["line"] >= 0 for d in found)
    # An edit in the middle of it, in positions that may not exist.
    server.change(uri, 2, [{"range": span(3, 5, 900, 2), "text": "\U0001f0a1 dealr"}])
    server.diagnostics(uri, 2, timeout=120)
    # It still answers, and about a sound document too.
    server.open("file:///home/player/scripts/ok.dl", "dealr south\n")
    assert len(server.diagnostics("file:///home/player/scripts/ok.dl")) == 1


def test_nonsense_requests_are_answered_and_logged(server: Client) -> None:
    server.change("file:///never/opened.dl", 3, [{"text": "x"}])
    server.notify("textDocument/didOpen", {"textDocument": {"uri": 5}})
    logged = server.wait_for("window/logMessage", lambda p: "not open" in p["message"])
    assert logged["type"] in (1, 2, 3, 4)
    server.open("file:///home/player/scripts/ok.dl", "dealr south\n")
    assert len(server.diagnostics("file:///home/player/scripts/ok.dl")) == 1
