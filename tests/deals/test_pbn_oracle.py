"""The tests' second PBN reader, checked on text whose events are known."""

from __future__ import annotations

import pytest

from . import pbn_oracle as oracle


def test_events_of_a_small_file() -> None:
    text = ('\ufeff% PBN 2.1\r\n[Board "1"] ; one\r\n[Table "A\\2R;B"]\r\n"x y" 1\r\n'
            '{multi\r\n\r\nline} =1= 1S!\r\n\r\n\r\n[Board "2"]\r\n')
    assert oracle.signature(text.encode()) == [
        ("escape", " PBN 2.1", ""), ("tag", "Board", "1"), ("comment", " one", ";"),
        ("tag", "Table", "A\\2R;B"), ("token", '"x y"', ""), ("token", "1", ""),
        ("comment", "multi\n\nline", "{"), ("token", "=1=", ""), ("token", "1S!", ""),
        ("game", "", ""), ("tag", "Board", "2")]


def test_bare_deal_lines_are_games_and_dealer_statistics_are_skipped() -> None:
    text = "N:A... - - -\nE:- K... - -\n\n[Board \"1\"]\nGenerated 5 hands\n"
    # statistics only count as such after the last game, not inside one
    assert [len(g) for g in oracle.games(text)] == [4, 4, 4]
    text = "[Board \"1\"]\n\nGenerated 5 hands\nProduced 1 hands\n"
    assert oracle.signature(text) == [("tag", "Board", "1")]


@pytest.mark.parametrize("text, line, column", [
    ('[Board "1"', 1, 11), ('[ "1"]', 1, 1), ("{open\n\nstill", 1, 1), ('x "open', 1, 3),
    ("ok ]", 1, 4)])
def test_broken_files_name_a_place(text: str, line: int, column: int) -> None:
    with pytest.raises(oracle.OracleError) as caught:
        oracle.events(text)
    assert (caught.value.line, caught.value.column) == (line, column)
