"""``convert --pbn-export``: the PBN 2.1 export layout (chapter 3 of the
standard), checked on the corpus by the tests' own tokenizer
(tests/deals/pbn_oracle.py): the same tags, values, section tokens and
comments as the input, the tags in the order of the standard, one tag a
line, CR LF line ends; and exporting the export gives the same bytes."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings

from dealerpp.cli import main
from dealerpp.deals.formats import pbn
from dealerpp.deals.formats.pbn import export as pbn_export
from dealerpp.deals.model import Deal
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import Diagnostic
from tests.conftest import examples

from . import pbn_oracle as oracle
from .test_pbn_reader import mutated

CORPUS = Path(__file__).parent / "pbn_corpus"
FILES = sorted(CORPUS.glob("*.pbn"))
# PBN 2.1, 3.4: the Mandatory Tag Set, in its order (written here from the
# standard, not imported from the writer).
MANDATORY = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
DIRECTIVE = re.compile(r"\s*(PBN\s+\d+(\.\d+)?|EXPORT|IMPORT)\s*", re.IGNORECASE)


def export(source: Path, target: Path, capsys: pytest.CaptureFixture[str]) -> bytes:
    status = main(["convert", "--pbn-export", "-q", str(source), str(target)])
    assert status == 0, capsys.readouterr().err
    return target.read_bytes()


def meant(value: str) -> str:
    r"""A tag value as the standard (3.2) reads it: ``\"`` and ``\\`` escapes."""
    return re.sub(r'\\(["\\])', r"\1", value)


def tags_with_sections(game: list[oracle.Event]) -> list[tuple[str, str, list[str]]]:
    """(name, value as meant, the tokens after it) of each tag of a game."""
    out: list[tuple[str, str, list[str]]] = []
    for event in game:
        if event.kind == "tag":
            out.append((event.text, meant(event.value), []))
        elif event.kind == "token" and out:
            out[-1][2].append(event.text)
    return out


def expected_order(tags: list[tuple[str, str, list[str]]]) -> list[str]:
    """Tag names in the order of 3.1 and 3.4: the mandatory tags, the other
    tags of the identification section by name, the auction section and the
    play section (each with the Note tags after it), the other sections by
    name."""
    given = [name for name, _, _ in tags]
    head = [name for name in MANDATORY for _ in range(max(1, given.count(name)))]
    others, auction, play, tables = [], [], [], []
    follows: list[str] | None = None
    for name, _, section in tags:
        if name in ("Auction", "Play"):
            follows = auction if name == "Auction" else play
            follows.append(name)
        elif name == "Note" and follows is not None:
            follows.append(name)
        else:
            follows = None
            if name not in MANDATORY:
                (tables if section else others).append(name)
    return head + sorted(others) + auction + play + sorted(tables)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_export_keeps_everything_in_the_standards_order(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = export(path, tmp_path / "out.pbn", capsys)
    assert data.startswith(b"% PBN 2.1\r\n% EXPORT\r\n")
    assert data.count(b"\n") == data.count(b"\r\n")  # every line ends with CR LF
    before, after = oracle.games(path.read_bytes()), oracle.games(data)
    assert len(after) == len(before)
    for old, new in zip(before, after, strict=True):
        old_tags, new_tags = tags_with_sections(old), tags_with_sections(new)
        hands = [e.text for e in old if e.kind == "token"]
        if not old_tags and hands:  # a line of bare hands (N E S W) becomes a Deal tag
            joined = " ".join(hands)
            old_tags = [("Deal", joined if joined[1:2] == ":" else "N:" + joined, [])]
        missing = [(name, "?", []) for name in MANDATORY
                   if name not in [n for n, _, _ in old_tags]]
        # the same tags, values and section tokens, and '?' for a missing mandatory tag
        assert sorted(new_tags) == sorted(old_tags + missing)
        assert [name for name, _, _ in new_tags] == expected_order(old_tags + missing)
        # comments kept (what each refers to is checked in the test below)
        assert Counter(e.bare() for e in new if e.kind == "comment") == Counter(
            e.bare() for e in old if e.kind == "comment")
        # each tag pair alone on its line, at its start
        lines = [e.line for e in new if e.kind == "tag"]
        assert len(set(lines)) == len(lines) and all(e.column == 1 for e in new if e.kind == "tag")
    escapes = [e.text for e in oracle.events(path.read_bytes()) if e.kind == "escape"]
    assert [e.text for e in oracle.events(data) if e.kind == "escape"][2:] == [
        text for text in escapes if not DIRECTIVE.fullmatch(text)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_export_is_a_fixed_point_and_says_the_same_deals(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    once = tmp_path / "once.pbn"
    data = export(path, once, capsys)
    assert export(once, tmp_path / "twice.pbn", capsys) == data

    def meaning(source: bytes) -> list[tuple[object, ...]]:
        return [(d.masks, d.board, d.dealer, d.vul, d.auction, d.play)
                for d in pbn.read(source, options=ReadOptions(need_deal=False))]

    assert meaning(data) == meaning(path.read_bytes())


def test_calls_and_cards_four_a_line_with_their_annotations_and_comments(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.pbn"
    source.write_text(
        '[Dealer "N"]\n[Contract "3NT"]\n[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 '
        'T632.854.J.AK874 QJ97.QJ92.T832.T"]\n[Auction "N"]\n1D   Pass\n1NT =1= {strong}\n'
        'Pass   3NT\t! $12 Pass Pass ; all pass\nPass\n[Note "1:15-17"]\n'
        '[Play "E"]\nC9 ^R S2 SK S5\nCA - - -\n[Event "Club"]\n')
    text = export(source, tmp_path / "out.pbn", capsys).decode().replace("\r\n", "\n")
    auction = text[text.index('[Auction "N"]\n'):text.index("[Note")]
    assert auction == ('[Auction "N"]\n1D Pass 1NT =1= {strong} Pass\n'
                       "3NT ! $12 Pass Pass ; all pass\nPass\n")
    play = text[text.index('[Play "E"]\n'):]
    assert play == '[Play "E"]\nC9 ^R S2 SK S5\nCA - - -\n'
    assert text.index('[Event "Club"]') < text.index('[Site "?"]') < text.index("[Auction")


def test_pbn_export_needs_a_pbn_output(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    source = FILES[0]
    assert main(["convert", "--pbn-export", str(source), str(tmp_path / "out.hex")]) == 2
    assert "--pbn-export is for a PBN output" in capsys.readouterr().err


@settings(max_examples=examples(150), deadline=None)
@given(mutated())
def test_mutated_files_export_to_the_same_deals_and_a_fixed_point(data: bytes) -> None:
    """Whatever the reader accepts, from files cut and spliced anywhere
    (comments, '%' lines, bare hands, marks...), exports without error, reads
    back to the same deals, and exports again to the same text."""
    problems: list[Diagnostic] = []
    deals = list(pbn.read(data, "in", ReadOptions(report=problems.append, need_deal=False)))
    text = pbn_export.dumps(deals)
    again_problems: list[Diagnostic] = []
    again = list(pbn.read(text, "out", ReadOptions(report=again_problems.append, need_deal=False)))
    assert [e for e in again_problems if e.severity == "error"] == []

    def meaning(found: list[Deal]) -> list[tuple[object, ...]]:
        return [(d.masks, d.board, d.dealer, d.vul, d.auction, d.play) for d in found]

    assert meaning(again) == meaning(deals)
    assert pbn_export.dumps(again) == text


GAME = ('[Board "1"]\n[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 '
        'QJ97.QJ92.T832.T"]\n')


@pytest.mark.parametrize(("data", "games"), [
    (GAME + "\ufeff", 1), (GAME + "\n\ufeff", 1), (GAME + "\n\ufeff\n", 1),
    (GAME + "\n\ufeff" + GAME, 2), (GAME + "\n\ufeff\n" + GAME, 2),
    (GAME + '[Auction "N"]\n1D \ufeff\n', 1),
])
def test_a_byte_order_mark_inside_a_file_is_a_blank_there_and_in_the_export(
        data: str, games: int) -> None:
    """U+FEFF mid-file (two files joined) or at its end: a blank wherever it
    stands, as the lexer reads one before a token: no game, no word, and the
    export reads back to the same deals and exports to the same text."""
    problems: list[Diagnostic] = []
    deals = list(pbn.read(data.encode(), "in", ReadOptions(report=problems.append,
                                                           need_deal=False)))
    assert problems == [] and len(deals) == games
    text = pbn_export.dumps(deals)
    again = list(pbn.read(text, "out", ReadOptions(need_deal=False)))
    assert [(d.masks, d.board, d.auction) for d in again] == \
        [(d.masks, d.board, d.auction) for d in deals]
    assert pbn_export.dumps(again) == text
