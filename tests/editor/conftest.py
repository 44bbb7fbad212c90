"""The language server's tests drive the real ``dealerpp lsp`` over its
pipes, as an editor does. They need the extra ``lsp``: locally they skip,
saying so, without it; under CI (``CI=true``) its absence is a failure."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from importlib.util import find_spec

import pytest

from tests.editor.lsp_client import Client


def require_extra() -> None:
    missing = [name for name in ("pygls", "lsprotocol") if find_spec(name) is None]
    if missing:
        message = f"the lsp extra is missing ({', '.join(missing)}): pip install -e '.[lsp]'"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}; CI must install it")
        pytest.skip(message)


def start(capabilities: dict[str, object] | None = None) -> Client:
    require_extra()
    client = Client([sys.executable, "-m", "dealerpp", "lsp"])
    client.capabilities = client.initialize(capabilities)["capabilities"]
    return client


@pytest.fixture(scope="session")
def shared_server() -> Iterator[Client]:
    """One server for all the tests of a process (a pytest-xdist worker)
    that take ``server``, initialized with no particular capabilities
    (UTF-16 positions): a start costs about a second of CPU, and work
    stealing spreads a module's tests over the workers. ``server`` leaves
    no document open between tests. At the end it must exit 0 having
    written nothing but frames on standard output."""
    yield from _served(start())


@pytest.fixture(scope="session")
def negotiated_server() -> Iterator[Client]:
    """One more server a process, for the tests of what a client may
    negotiate: UTF-8 positions and completion snippets, both asked for at
    its start (each test looks at its own), a start for both tests rather
    than one each. It leaves no document open between tests and must exit
    0 at the end."""
    yield from _served(start({"general": {"positionEncodings": ["utf-8", "utf-16"]},
                              "textDocument": {"completion": {"completionItem": {"snippetSupport": True}}}}))


def _served(client: Client) -> Iterator[Client]:
    """Lend a started server to the tests, then require a clean exit 0 with
    nothing but frames written on standard output; kill it if it hangs on."""
    try:
        yield client
        assert client.close() == 0
        assert client.stdout_noise == b""
    finally:
        if client.process.poll() is None:
            client.process.kill()


@pytest.fixture
def negotiated(negotiated_server: Client) -> Iterator[Client]:
    """The process's negotiating server, with no document open when the test starts."""
    yield negotiated_server
    negotiated_server.reset()


@pytest.fixture
def server(shared_server: Client) -> Iterator[Client]:
    """The module's server, with no document open when the test starts."""
    yield shared_server
    shared_server.reset()
