"""What ``dealerpp`` and ``dealerpp.deals`` offer a user is what they list:
``dir()`` (and so a notebook's tab completion) shows the names they import
on first use, and every name listed can be taken."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["dealerpp", "dealerpp.deals"])
def test_dir_lists_the_names_not_imported_yet(module: str) -> None:
    # A fresh process: in this one, other tests have imported the names.
    code = (f"import importlib, json; m = importlib.import_module({module!r}); "
            "print(json.dumps([dir(m), m.__all__, [n for n, v in vars(m).items() "
            "if type(v) is type(json) and not n.startswith('_')]]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    shown, listed, modules = json.loads(done.stdout)
    assert set(listed) <= set(shown)
    assert {"Deal", "Hand", "Seat", "Suit"} <= set(shown)
    # nothing else but the modules loaded and the dunders: no TYPE_CHECKING,
    # Any or annotations (the module's own helpers) offered to a user
    offered = {name for name in shown if not name.startswith("__")}
    assert offered == {name for name in [*listed, *modules] if not name.startswith("__")}


@pytest.mark.parametrize("module", ["dealerpp", "dealerpp.deals"])
def test_every_name_listed_can_be_taken(module: str) -> None:
    import importlib

    found = importlib.import_module(module)
    assert all(getattr(found, name) is not None for name in found.__all__)
