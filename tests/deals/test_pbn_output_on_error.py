"""What a PBN output holds when the input has an error, as
docs/formats.md says: an error that stops the conversion leaves a
named output untouched, and standard output empty on the per-deal path or
holding the games before the bad record on the bulk path; an error in a
PBN game leaves that game out of either output and nothing else. Outputs
are read back by the tests' own PBN tokenizer (tests/deals/pbn_oracle.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerpp.cli import main

from . import pbn_oracle as oracle

HEX = "F2F25B5CC55E31928E2E32C949\n"
HEX_DEAL = "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"
BAD_HEX = "F2F25B5CC55E31928E2E32C9Z9\n"  # a Z among the hex digits
TWICE = "N:5.76.AK97654.Q32 5.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"


def run(args: list[str], capsysbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes, str]:
    status = main(["convert", "-q", *args])
    captured = capsysbinary.readouterr()
    return status, captured.out, captured.err.decode()


def deal_values(data: bytes) -> list[list[str]]:
    return [oracle.tag_values(game, "Deal") for game in oracle.games(data)]


def test_stdout_on_the_bulk_path_holds_the_games_before_the_bad_record(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "in.hex"
    source.write_text(HEX * 2 + BAD_HEX + HEX)
    status, out, err = run([str(source), "-", "--to", "pbn"], capsysbinary)
    assert (status, err.partition("\n")[0]) == (1, f"{source}:3:25: error: deal 3: bad hex digit 'Z'")
    assert deal_values(out) == [[HEX_DEAL], [HEX_DEAL]]
    assert out.endswith(b'"]\n')  # the last game whole, to its line end


def test_stdout_on_the_per_deal_path_holds_nothing(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    source = tmp_path / "in.hex"
    source.write_text(HEX * 2 + BAD_HEX + HEX)
    # --pbn-export converts deal by deal
    status, out, err = run([str(source), "-", "--pbn-export"], capsysbinary)
    assert (status, out) == (1, b"")
    assert err.startswith(f"{source}:3:25: error:")


@pytest.mark.parametrize("options", [[], ["--pbn-export"]])  # bulk, deal by deal
def test_a_named_output_is_left_as_it_was(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], options: list[str]) -> None:
    source = tmp_path / "in.hex"
    source.write_text(HEX * 2 + BAD_HEX + HEX)
    old, new = tmp_path / "old.pbn", tmp_path / "new.pbn"
    old.write_bytes(b"old games\n")
    assert run([str(source), str(old), *options], capsysbinary)[0] == 1
    assert run([str(source), str(new), *options], capsysbinary)[0] == 1
    assert old.read_bytes() == b"old games\n"
    assert not new.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.hex", "old.pbn"]


def test_a_bad_pbn_game_is_left_out_of_stdout_and_of_a_file_alike(
        tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    games = [f'[Board "{board}"]\n[Deal "{deal}"]\n'
             for board, deal in ((1, HEX_DEAL), (2, TWICE), (3, HEX_DEAL))]
    source = tmp_path / "in.pbn"
    source.write_text("\n".join(games))
    status, out, err = run([str(source), "-", "--to", "pbn"], capsysbinary)
    assert status == 1 and err.startswith(f"{source}:5:")
    assert [oracle.tag_values(game, "Board") for game in oracle.games(out)] == [["1"], ["3"]]
    target = tmp_path / "out.pbn"
    assert run([str(source), str(target)], capsysbinary)[0] == 1
    assert target.read_bytes() == out
