"""Editors driven in batch mode against the real ``dealerpp lsp``, with the
configuration docs/editors.md gives (read from the page, so the page shows
what was tried): Emacs with eglot (built in from Emacs 29; Debian 12's
Emacs 28 has it as the package elpa-eglot) and Neovim's own client. Each
opens a .dpp file with an unknown variable after a card emoji, then asks
for hover and a definition, then inserts the missing definition. Without
the editor a test skips, saying so; under CI it must run (.ci/run installs
them)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT
from tests.editor.conftest import require_extra

DRIVERS = Path(__file__).parent / "editors"
# A card emoji before the error on its line: the squiggle must not move.
SAMPLE = ("generate 1000\n"
          "opener = shape{north, 5M(xxx)} && hcp(north) >= 12\n"
          "condition opener && /* \N{PLAYING CARD ACE OF SPADES} */ nothing\n"
          "action printall\n")


def documented(heading: str, language: str, number: int = 0) -> str:
    """The ``language`` block ``number`` (from 0) under ``heading`` in docs/editors.md."""
    page = (PROJECT_ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    section = page[page.index(f"\n### {heading}\n"):]
    section = section[:section.find("\n### ", 1)]
    blocks = re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert len(blocks) > number, f"no {language} block {number} under {heading}"
    return str(blocks[number])


def missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI must install it")
    pytest.skip(reason)


def environment(home: Path) -> dict[str, str]:
    """The editor's environment: a home of its own, and this dealerpp first on PATH."""
    return {**os.environ, "HOME": str(home),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def five_in_a_major() -> int:
    """5M(xxx): the shapes, of the 560, with five spades or five hearts."""
    return sum(1 for s in range(14) for h in range(14 - s) for _d in range(14 - s - h)
               if 5 in (s, h))


def test_emacs_eglot_shows_diagnostics_hover_and_definitions(tmp_path: Path) -> None:
    require_extra()
    emacs = shutil.which("emacs")
    hint = "apt-get install emacs-nox (Emacs 29+) or emacs-nox elpa-eglot (Emacs 28)"
    if emacs is None:
        missing(f"emacs is missing: {hint}")
    env = environment(tmp_path)
    has_eglot = subprocess.run([emacs, "--batch", "--eval", "(require 'eglot)"], env=env,
                               capture_output=True, check=False, timeout=60)
    if has_eglot.returncode != 0:
        missing(f"emacs has no eglot: {hint}")
    (tmp_path / "init.el").write_text(documented("Emacs (eglot)", "elisp"), encoding="utf-8")
    (tmp_path / "sample.dpp").write_text(SAMPLE, encoding="utf-8")
    done = subprocess.run(
        [emacs, "--batch", "-l", "init.el", "-l", str(DRIVERS / "eglot_driver.el")],
        cwd=tmp_path, env={**env, "SAMPLE": "sample.dpp"}, capture_output=True, text=True,
        check=False, timeout=240)
    said = [line for line in done.stdout.splitlines() if line.isupper() or " " in line]
    assert done.returncode == 0, done.stderr[-2000:]
    assert "MODE dealer-mode" in said and "MANAGED t" in said, said
    # The unknown variable, underlined exactly, after the card; nothing else.
    assert [line for line in said if line.startswith("DIAGNOSTIC")] == [
        "DIAGNOSTIC 3 nothing eglot-error"], said
    (hover,) = [line for line in said if line.startswith("HOVER")]
    assert f"{five_in_a_major()} shapes of 560" in hover and "shape(north, " in hover
    assert "DEFINITION 1" in said  # opener, on the second line (0-based 1)
    assert "AFTER-EDIT 0" in said


def test_neovim_shows_diagnostics_hover_and_definitions(tmp_path: Path) -> None:
    require_extra()
    nvim = shutil.which("nvim")
    if nvim is None:
        missing("nvim is missing: apt-get install neovim")
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, check=False,
                             timeout=60).stdout.split("\n", 1)[0]  # NVIM v0.7.2
    found = re.search(r"v(\d+)\.(\d+)", version)
    assert found is not None, version
    # The page has a configuration for 0.8 and later, and one for 0.7.
    block = 0 if (int(found[1]), int(found[2])) >= (0, 8) else 1
    (tmp_path / "init.lua").write_text(documented("Neovim", "lua", block), encoding="utf-8")
    (tmp_path / "sample.dpp").write_text(SAMPLE, encoding="utf-8")
    done = subprocess.run(
        [nvim, "--headless", "-u", "init.lua", "-c",
         f"luafile {DRIVERS / 'neovim_driver.lua'}"],
        cwd=tmp_path, env={**environment(tmp_path), "SAMPLE": "sample.dpp"},
        capture_output=True, text=True, check=False, timeout=240)
    said = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "FILETYPE dealer" in said, (said, done.stderr[-2000:])
    assert [line for line in said if line.startswith("DIAGNOSTIC")] == [
        "DIAGNOSTIC 3 nothing 1"], said  # 1: an error
    (hover,) = [line for line in said if line.startswith("HOVER")]
    assert f"{five_in_a_major()} shapes of 560" in hover and "shape(north, " in hover
    assert "DEFINITION 1" in said
    assert "AFTER-EDIT 0" in said
