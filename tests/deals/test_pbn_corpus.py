"""The PBN corpus (tests/deals/pbn_corpus/): files of several producers
(dealer's printpbn, Big Deal-style files, the PBN 2.1 standard's examples
and tables, commentary-heavy files, double-dummy analysis files), each
converted by ``dealerpp convert`` and checked by the second reader in
``pbn_oracle``, never by dealerpp's own."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from dealerpp.cli import main
from dealerpp.diagnostics import Diagnostic

from . import pbn_oracle as oracle

CORPUS = Path(__file__).parent / "pbn_corpus"
FILES = sorted(CORPUS.glob("*.pbn"))
BAD = sorted((CORPUS / "bad").glob("*.pbn"))
RANKS = "23456789TJQKA"
SUITS = "SHDC"


def convert(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["convert", *argv])
    return status, capsys.readouterr().err


def test_the_corpus_has_four_producers_at_least() -> None:
    producers = {path.name.split("_")[0] for path in FILES}
    assert {"dealer", "bigdeal", "standard", "commentary", "dds"} <= producers


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pbn_to_pbn_keeps_every_tag_token_and_comment(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pbn"
    status, err = convert(capsys, str(path), str(out))
    assert status == 0, err
    assert "Traceback" not in err
    assert oracle.signature(out.read_bytes()) == oracle.signature(path.read_bytes())


def _normalised(data: bytes) -> str:
    """The text a lossless copy writes: LF line ends, no byte-order mark, one
    empty line between games, no dealer statistics lines."""
    lines = oracle.normalised_lines(data)
    while lines and (not lines[-1].strip() or re.fullmatch(
            r"(Generated|Produced) \d+ hands|Initial random seed \d+|Time needed\s+[\d.]+ sec",
            lines[-1])):
        lines.pop()
    out: list[str] = []
    for line in lines:
        if not line.strip():
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", [p for p in FILES if p.name != "bare_deals.pbn"],
                         ids=lambda p: p.name)
def test_pbn_to_pbn_writes_each_game_as_it_was_read(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pbn"
    status, err = convert(capsys, str(path), str(out), "--quiet")
    assert status == 0, err
    assert out.read_text(encoding="utf-8") == _normalised(path.read_bytes())


def _hand_masks(value: str) -> list[int] | None:
    """The four masks N E S W of a Deal tag value (None for a hand '-')."""
    value = value.strip()
    first = 0
    if value[1:2] == ":":
        first = "NESW".index(value[0].upper())
        value = value[2:]
    masks = [0, 0, 0, 0]
    for index, hand in enumerate(value.split()):
        seat = (first + index) % 4
        if hand == "-":
            continue
        for suit, holding in zip(SUITS, hand.split("."), strict=True):
            for rank in holding.upper():
                masks[seat] |= 1 << ((3 - SUITS.index(suit)) * 13 + RANKS.index(rank))
    return masks


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pbn_to_deals_gives_each_deal_tag(path: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.deals"
    expected = []
    skipped = []
    games = oracle.games(path.read_bytes())
    for game in games:
        values = oracle.tag_values(game, "Deal")
        tokens = [e.text for e in game if e.kind == "token"]
        if values:
            expected.append(_hand_masks(values[0]))
        elif not any(e.kind == "tag" for e in game) and len(tokens) == 4:
            expected.append(_hand_masks(" ".join(tokens)))
        else:
            skipped.append(game[0].line)
    # a game without a deal moves the boards after it in .deals, which is
    # refused unless they are numbered by place on purpose
    by_place = ["--first-board", "1"] if skipped else []
    status, err = convert(capsys, str(path), str(out), "--quiet", *by_place)
    assert status == 0, err
    data = out.read_bytes()
    got = [list(struct.unpack("<4Q", data[i:i + 32])) for i in range(0, len(data), 32)]
    assert got == expected
    for line in skipped:  # games without a deal are named, not dropped silently
        assert re.search(rf"{re.escape(str(path))}:{line}:\d+: warning: .*no Deal tag", err), err


def _problem_offset(value: str) -> tuple[int, str]:
    """Where the first problem of a bad Deal value is (0-based offset in the
    value) and a word its message must contain."""
    hands = [(m.start(), m.group()) for m in re.finditer(r"\S+", value[2:])]
    if len(hands) != 4:
        return len(value), "4 hands"
    seen: set[str] = set()
    counts = []
    for start, hand in hands:
        offset = 2 + start
        count = 0
        in_hand: set[str] = set()
        for suit, holding in zip(SUITS, hand.split("."), strict=True):
            for rank in holding:
                if rank not in RANKS:
                    return offset, "rank"
                card = suit + rank
                count += 1
                if card in seen:
                    return offset, "twice" if card in in_hand else "two hands"
                if count == 14:
                    return offset, "over 13"
                seen.add(card)
                in_hand.add(card)
                offset += 1
            offset += 1
        counts.append(count)
    short = next(i for i, c in enumerate(counts) if c < 13)  # the three others have 13
    return 2 + hands[short][0], "13 cards a hand"


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_a_bad_deal_is_an_error_at_its_card_and_the_others_are_converted(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.pbn"
    status, err = convert(capsys, str(path), str(out), "--quiet")
    assert status == 1
    assert "Traceback" not in err
    text = path.read_text()
    games = oracle.games(text)
    bad_game = games[1]
    deal = next(e for e in bad_game if e.kind == "tag" and e.text == "Deal")
    source_line = text.splitlines()[deal.line - 1]
    offset, word = _problem_offset(deal.value)
    column = oracle.value_column(source_line, deal) + offset
    first = err.splitlines()[0]
    assert first.startswith(f"{path}:{deal.line}:{column}: error: "), err
    assert word in first
    assert source_line in err  # the line and a caret under the card
    kept = [e.bare() for game in (games[0], games[2]) for e in game]
    assert [e for e in oracle.signature(out.read_bytes()) if e[0] != "game"] == kept


# Where irregular.pbn breaks the rules, found by reading the file by hand:
# (line, column, words of the message).
IRREGULAR = [(16, 1, "CQ is North's"), (43, 4, "double of 2H"), (44, 6, "after the auction ended"),
             (44, 11, "after the auction ended"), (56, 11, "dealer is W")]


def test_rule_breaks_are_warnings_at_their_token_and_strict_makes_them_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "irregular.pbn"
    out = tmp_path / "out.pbn"
    status, err = convert(capsys, str(path), str(out), "--quiet")
    assert status == 0
    warnings = [line for line in err.splitlines() if ": warning: " in line]
    assert len(warnings) == len(IRREGULAR)
    for line, (number, column, words) in zip(warnings, IRREGULAR, strict=True):
        assert line.startswith(f"{path}:{number}:{column}: warning: ") and words in line
    assert out.read_bytes() == path.read_bytes()  # everything kept as written
    status, err = convert(capsys, str(path), str(out), "--quiet", "--strict")
    assert status == 1
    assert [line.replace(": error: ", ": warning: ") for line in err.splitlines()
            if ": error: " in line] == warnings
    kept = oracle.games(out.read_bytes())
    assert [oracle.tag_values(game, "Board") for game in kept] == [["2"]]  # no rule broken


def test_standard_output_holds_the_good_games_after_an_error(
        monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = CORPUS / "bad" / "duplicate_card.pbn"
    assert main(["convert", str(path), "-", "--to", "pbn"]) == 1
    out = capsysbinary.readouterr().out
    games = oracle.games(path.read_bytes())
    assert [e for e in oracle.signature(out) if e[0] != "game"] == [
        e.bare() for game in (games[0], games[2]) for e in game]


@pytest.mark.parametrize("path", FILES + BAD, ids=lambda p: p.name)
def test_bulk_and_per_deal_paths_agree(path: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """pbn -> .deals takes the bulk path, pbn -> listing the per-deal one:
    the same deals, the same problems at the same places, the same status."""
    bulk_status, bulk_err = convert(capsys, str(path), str(tmp_path / "a.deals"), "-q")
    slow_status, slow_err = convert(capsys, str(path), str(tmp_path / "a.txt"), "-q",
                                    "--to", "listing")
    assert bulk_status == slow_status
    assert bulk_err == slow_err.replace(str(tmp_path / "a.txt"), str(tmp_path / "a.deals")).replace(
        "and listing holds", "and deals holds").replace("listing numbers", "deals numbers")
    if bulk_status:
        # a board left out: neither format holds board numbers, neither is written,
        # and through the library both paths leave out the same games
        assert sorted(p.name for p in tmp_path.iterdir()) == []
        assert library_paths_agree(path)
        return
    status, _ = convert(capsys, str(tmp_path / "a.txt"), str(tmp_path / "b.deals"), "-q",
                        "--from", "listing")
    assert status == 0
    assert (tmp_path / "a.deals").read_bytes() == (tmp_path / "b.deals").read_bytes()


def unplaced(problem: Diagnostic) -> Diagnostic:
    """A problem without its byte and game's place, which the bulk path
    does not know for a piece of a file read per deal."""
    return problem.replace(byte=None, deal=None)


def library_paths_agree(path: Path) -> bool:
    """The bulk path and the PBN reader (each reporting its problems and
    going on) give the same .deals bytes and the same problems."""
    import io

    from dealerpp import deals
    from dealerpp.deals.bulk.fallback import ModelPerDeal
    from dealerpp.deals.bulk.stream import convert_stream
    from dealerpp.deals.formats import pbn
    from dealerpp.deals.options import ReadOptions

    bulk_problems: list[Diagnostic] = []
    slow_problems: list[Diagnostic] = []
    bulk_out, slow_out = io.BytesIO(), io.BytesIO()
    with path.open("rb") as source:
        convert_stream(source, bulk_out, "pbn", "deals", filename=str(path),
                       per_deal=ModelPerDeal(ReadOptions(report=bulk_problems.append)))
    deals.write(slow_out, pbn.read(path, options=ReadOptions(report=slow_problems.append)), "deals")
    assert [unplaced(p) for p in bulk_problems] == [unplaced(p) for p in slow_problems]
    for fast, slow in zip(bulk_problems, slow_problems, strict=True):
        assert fast.byte in (None, slow.byte) and fast.deal in (None, slow.deal)
    return bool(bulk_problems) and bulk_out.getvalue() == slow_out.getvalue()


def test_a_pbn_copy_shows_a_progress_bar_on_a_terminal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from dealerpp.deals.bulk import progress

    monkeypatch.setattr(progress, "_is_terminal", lambda stream: True)
    status, err = convert(capsys, str(CORPUS / "dealer_printpbn.pbn"), str(tmp_path / "o.pbn"))
    assert status == 0
    assert "] " in err and " 8 deals " in err and err.count("\r") >= 1
    status, err = convert(capsys, str(CORPUS / "dealer_printpbn.pbn"), str(tmp_path / "o.pbn"),
                          "--quiet")
    assert err == ""
