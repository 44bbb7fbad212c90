"""The corpus of broken scripts: check flags each one on the line dealer
names (or a more precise one), and real dealer still says what the manifest
recorded (see corpus/record.py)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from dealerpp.script.check import check_text

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text())
ERRORS = [entry for entry in MANIFEST if entry["kind"] == "error"]
WARNINGS = [entry for entry in MANIFEST if entry["kind"] == "warning"]


def _read(name: str) -> str:
    # Bytes, not text mode: a lone carriage return must survive.
    return (CORPUS / name).read_bytes().decode("utf-8", errors="surrogateescape")


def _dealer_line(said: str) -> int | None:
    found = re.match(r"line (\d+):", said)
    return int(found.group(1)) if found else None


def test_corpus_is_big_enough() -> None:
    assert len(ERRORS) >= 60


@pytest.mark.parametrize("entry", ERRORS, ids=lambda e: e["file"])
def test_check_flags_what_dealer_rejects(entry: dict) -> None:
    assert entry["dealer_status"] != 0
    found = check_text(_read(entry["file"]), entry["file"])
    lines = [d.line for d in found if d.severity == "error"]
    assert entry["check_line"] in lines, [d.format() for d in found]
    dealer_line = _dealer_line(entry["dealer_says"])
    if dealer_line is not None:
        # dealer names the line of the token after the mistake; never earlier.
        assert entry["check_line"] <= dealer_line


@pytest.mark.parametrize("entry", WARNINGS, ids=lambda e: e["file"])
def test_check_warns_about_what_dealer_gets_wrong(entry: dict) -> None:
    assert entry["dealer_status"] == 0
    found = check_text(_read(entry["file"]), entry["file"])
    assert [d for d in found if d.severity == "error"] == []
    assert entry["check_line"] in [d.line for d in found if d.severity == "warning"]


@pytest.mark.dealer
def test_dealer_still_says_what_the_manifest_records(dealer_bin: str) -> None:
    changed = []
    for entry in MANIFEST:
        done = subprocess.run([dealer_bin, "-s", "1", "-g", "3", entry["file"]], cwd=CORPUS,
                              capture_output=True, timeout=30)
        lines = done.stderr.decode("latin-1").strip().splitlines()
        said = lines[0] if lines else ""
        if (done.returncode, said) != (entry["dealer_status"], entry["dealer_says"]):
            changed.append((entry["file"], done.returncode, said))
    assert changed == []
