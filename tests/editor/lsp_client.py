"""A small Language Server Protocol client: it starts ``dealerpp lsp`` as an
editor does and speaks JSON-RPC to it over the pipes (for the tests and
bench/bench_lsp.py).

It is written from the protocol's specification, independently of pygls:
frames are ``Content-Length: N\\r\\n\\r\\n`` then N bytes of UTF-8 JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]


class ServerError(Exception):
    """The server answered a request with an error."""


class Client:
    """One server process and what it has said."""

    def __init__(self, command: list[str] | None = None) -> None:
        command = command or [sys.executable, "-m", "dealerpp", "lsp"]
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env, cwd=PROJECT_ROOT)
        self.notifications: list[dict[str, Any]] = []
        self.responses: dict[int, dict[str, Any]] = {}
        self.stderr = b""
        self.stdout_noise = b""  # bytes on stdout that were not a frame
        self.capabilities: dict[str, Any] = {}  # the server's, once initialized
        self.opened: set[str] = set()  # documents opened since the last reset
        self._next_id = 0
        self._changed = threading.Condition()
        self._write_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # -- frames ------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        with self._write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self._closed()
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
                elif not name.strip().lower().startswith("content-type"):
                    self.stdout_noise += line
            if length is None:
                continue
            message = json.loads(stream.read(length).decode("utf-8"))
            if "id" in message and "method" in message:  # a request of the server's
                self.send({"id": message["id"], "result": None})
            with self._changed:
                if "id" in message and "method" not in message:
                    self.responses[message["id"]] = message
                else:
                    self.notifications.append(message)
                self._changed.notify_all()

    def _closed(self) -> None:
        with self._changed:
            self._changed.notify_all()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr += line

    # -- requests and notifications --------------------------------------------------

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        self._next_id += 1
        number = self._next_id
        self.send({"id": number, "method": method, "params": params})
        found = self._wait(lambda: self.responses.pop(number, None), timeout, method)
        if "error" in found:
            raise ServerError(found["error"])
        return found.get("result")

    def _wait(self, look: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = look()
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise TimeoutError(f"no {what} from the server; it said: "
                                       f"{self.stderr.decode(errors='replace')[-2000:]}")
                self._changed.wait(min(left, 0.5))

    def wait_for(self, method: str, accept: Callable[[Any], bool] = lambda _: True,
                 timeout: float = 30) -> Any:
        """The params of the first notification ``method`` that ``accept``s
        (it is taken off the list)."""
        def look() -> Any:
            for index, message in enumerate(self.notifications):
                if message.get("method") == method and accept(message.get("params")):
                    return self.notifications.pop(index)["params"]
            return None

        return self._wait(look, timeout, method)

    def heard(self, uri: str, version: int, timeout: float = 30) -> None:
        """Wait until the diagnostics of ``uri`` at ``version`` arrive, and
        leave them unread."""
        def look() -> bool | None:
            return any(message.get("method") == "textDocument/publishDiagnostics"
                       and message["params"]["uri"] == uri
                       and message["params"].get("version") == version
                       for message in self.notifications) or None

        self._wait(look, timeout, f"diagnostics of {uri} at version {version}")

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 30) -> list[Any]:
        """The diagnostics the server publishes for ``uri`` (at ``version``)."""
        params = self.wait_for(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri and (version is None or p.get("version") == version),
            timeout)
        return list(params["diagnostics"])

    # -- a session --------------------------------------------------------------------

    def initialize(self, capabilities: dict[str, Any] | None = None) -> Any:
        result = self.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                             "capabilities": capabilities or {}})
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1, language: str = "dealer") -> None:
        self.opened.add(uri)
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}})

    def reset(self, timeout: float = 120) -> None:
        """Close every document opened and forget what the server said, so
        that the next test starts afresh with the same server: after its
        document is closed, the server says nothing more about it.

        The server's word on closing is the empty list without a version
        (the diagnostics of a check carry their text's version): an empty
        list from an earlier check of the document, still unread, is not
        it, and taking it for it would leave the closing's own for the next
        test to read as its document's diagnostics."""
        for uri in sorted(self.opened):
            self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        for uri in sorted(self.opened):
            self.wait_for("textDocument/publishDiagnostics",
                          lambda p, uri=uri: (p["uri"] == uri and p["diagnostics"] == []
                                              and p.get("version") is None), timeout)
        self.opened.clear()
        with self._changed:
            self.notifications.clear()

    def close_document(self, uri: str) -> None:
        self.opened.discard(uri)
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def close(self, timeout: float = 30) -> int:
        """Shut the server down as an editor does; its exit status."""
        try:
            self.request("shutdown", None, timeout)
            self.notify("exit", None)
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


def span(start_line: int, start: int, end_line: int, end: int) -> dict[str, Any]:
    return {"start": at(start_line, start), "end": at(end_line, end)}
