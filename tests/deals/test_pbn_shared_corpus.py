"""The shared PBN corpus (../shared/corpus/pbn/ beside the checkout: the PBN verifier's test
set, club files, endplay's examples), read from where it is and never
copied: every file, converted PBN to PBN, says what it said (the second
reader in ``pbn_oracle``) and is written back as it was read (line ends
LF, one empty line between games). Skipped when the corpus is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dealerpp.cli import main

from . import pbn_oracle as oracle
from .test_pbn_corpus import _normalised

SHARED = Path(os.environ.get("DEALERPP_CORPUS", Path(__file__).resolve().parents[3] / "shared/corpus")) / "pbn"
FILES = sorted(SHARED.glob("*.pbn"))
BIG = 1 << 20  # a file this long takes seconds through both readers: a slow test
# A tag spread over lines: '[', the name, the value and ']' each on a line.
SPREAD_TAG = ' [\n   Event\n         "use new lines"\n                         ]\n'


def test_the_shared_corpus_is_there_or_the_skip_says_why() -> None:
    if not FILES:
        pytest.skip(f"the shared PBN corpus is not in {SHARED}")
    assert len(FILES) == 13
    assert "correct_10.pbn" in {path.name for path in FILES}


@pytest.mark.parametrize("path", [
    pytest.param(path, marks=[pytest.mark.slow] if path.stat().st_size > BIG else [])
    for path in FILES], ids=lambda p: p.name)
def test_a_shared_corpus_file_round_trips_losslessly(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pbn"
    status = main(["convert", str(path), str(out), "--quiet"])
    err = capsys.readouterr().err
    assert status == 0 and "error" not in err, err
    assert oracle.signature(out.read_bytes()) == oracle.signature(path.read_bytes())
    assert out.read_bytes().decode("utf-8", "surrogateescape") == _normalised(path.read_bytes())


def test_a_tag_spread_over_lines_is_read_and_written_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
    source, out = tmp_path / "spread.pbn", tmp_path / "out.pbn"
    text = SPREAD_TAG + deal + "\n" + "[\nBoard\n\"2\"\n]\n" + deal
    source.write_text(text)
    assert main(["convert", str(source), str(out), "--quiet"]) == 0, capsys.readouterr().err
    assert out.read_text() == text
    events = [event.bare() for event in oracle.events(text) if event.kind == "tag"]
    assert events[0] == ("tag", "Event", "use new lines")
    assert events[2] == ("tag", "Board", "2")
    main(["convert", str(source), "-", "--to", "hex", "--quiet"])
    assert capsys.readouterr().out.count("\n") == 2  # both games read
    from dealerpp import deals

    assert [d.board for d in deals.read(source)] == [None, 2]
