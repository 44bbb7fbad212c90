"""dealer's printpbn games on the bulk path (dealerpp/deals/bulk/printpbn.py):
the same deals, boards and first error as the full PBN reader, for games
the real dealer writes and for games a little off its layout, which the
full reader must get."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.deals import formats
from dealerpp.deals.bulk import printpbn
from dealerpp.deals.bulk.pbn import PbnCodec
from tests.conftest import examples, run_dealer, some_of
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal
from .test_parity import mutated, printpbn_games

CHUNKS = (64, 300, 1000, 4096, 1 << 20)
TARGETS = tuple(f for f in formats.FAST if f != "pbn")


@pytest.fixture(scope="module")
def dealt(dealer_bin: str) -> bytes:
    done = run_dealer(dealer_bin, "produce 40\naction printpbn\n", "-s", "5")
    assert done.returncode == 0, done.stderr
    return done.stdout.encode()


def both_paths(data: bytes, dst: str) -> bytes | str:
    expected = per_deal(data, "pbn", dst)
    for chunk in CHUNKS:
        assert bulk(data, "pbn", dst, chunk=chunk) == expected, (dst, chunk)
    return expected


def test_printpbn_games_are_laid_out_as_dealer_writes_them(dealt: bytes) -> None:
    games = dealt[:dealt.rindex(b"\n\n[") + 2]
    games = games[:games.index(b"\n\nGenerated")] if b"\n\nGenerated" in games else games
    masks = [d.masks for d in deals_api.read_source(dealt, "pbn")]
    ours = printpbn_games(masks, 1, event="E")
    theirs = re.sub(rb'\[Event "[^"]*"\]', b'[Event "E"]', dealt)
    theirs = re.sub(rb'\[Date "[^"]*"\]', b'[Date "2026.11.25"]', theirs)
    assert theirs.startswith(ours)
    assert printpbn.games(ours) is not None  # all of them bulk
    assert len(games) > 0


@pytest.mark.sampled(3)
@pytest.mark.parametrize("dst", TARGETS)
def test_dealers_own_printpbn_output_reads_the_same_on_both_paths(dealt: bytes,
                                                                  dst: str) -> None:
    out = both_paths(dealt, dst)
    assert isinstance(out, bytes) and out


def test_the_bulk_path_keeps_the_boards(dealt: bytes) -> None:
    hexes = both_paths(dealt, "hex")
    assert isinstance(hexes, bytes)
    assert [line[27:] for line in hexes.splitlines()[:17]] == \
        [b"%X" % (board % 16) for board in range(1, 18)]


ODD_GAMES = {
    "dealer off the cycle": (rb'\[Dealer "."\]', b'[Dealer "W"]'),  # board 5: N
    "vulnerability off the cycle": (rb'\[Vulnerable "[^"]*"\]', b'[Vulnerable "All"]'),
    "a card twice": (b'[Deal "N:', b'[Deal "N:A'),
    "lower case ranks": (b'[Deal "N:', b'[Deal "N:'),
    "a quote escaped": (b'[Site "-"]', b'[Site "a\\"b"]'),
    "a copied value": (b'[Site "-"]', b'[Site "#"]'),
    "an extra tag": (b'[Site "-"]', b'[Site "-"]\n[Room "Open"]'),
    "a non-ASCII event": (b'[Site "-"]', b'[Site "caf\xc3\xa9"]'),
    "a bad byte": (b'[Site "-"]', b'[Site "\xff"]'),
    "a missing blank line": (b'[Result "?"]\n\n', b'[Result "?"]\n'),
    "CR LF": (b"\n", b"\r\n"),
    "a comment": (b'[Site "-"]', b'[Site "-"]\n{a comment}'),
    "board zero": (b'[Board "', b'[Board "0'),
    "no deal": (b'[Deal "N:', b'[Deal "?"]\n[X "'),
    "a player's name": (b'[North "-"]', b'[North "Smith"]'),
    "an odd player": (b'[North "-"]', b'[North ".-"]'),  # found by hypothesis (LIN's pn)
    "a result": (b'[Result "?"]', b'[Result "9"]'),
    "a contract": (b'[Contract "?"]', b'[Contract "3NT"]'),
}


def with_odd_game(copies: int, odd: str, at: int) -> bytes:
    """printpbn games of the sample ``copies`` times over, game ``at`` (from
    0) made odd as ODD_GAMES[odd] says."""
    masks = [d.masks for d in deals_api.read_source(_sample(), "pbn")]
    games = printpbn_games(masks * copies)
    starts = [m.start() for m in re.finditer(rb"(?m)^\[Event", games)] + [len(games)]
    game = games[starts[at]:starts[at + 1]]
    old, new = ODD_GAMES[odd]
    if odd == "lower case ranks":
        deal = re.search(rb'\[Deal "([^"]*)"', game)
        assert deal is not None
        game = game.replace(deal.group(1), deal.group(1).lower())
    else:
        game = re.sub(old if odd.endswith("cycle") else re.escape(old), new, game,
                      count=0 if odd == "CR LF" else 1)
    return games[:starts[at]] + game + games[starts[at + 1]:]


@pytest.mark.sampled(3)
@pytest.mark.parametrize("odd", sorted(ODD_GAMES))
@pytest.mark.parametrize("dst", ["hex", "deals", "giblib", "lin"])
def test_an_odd_game_among_printpbn_games_goes_to_the_full_reader(odd: str, dst: str) -> None:
    data = with_odd_game(3, odd, 4)
    found = printpbn.games(data)
    assert found is None or printpbn.decode(found, PbnCodec().decode)[1] is not None  # not all bulk
    both_paths(data, dst)
    both_paths(data + data, dst)


def _sample() -> bytes:
    return (b'[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"]\n\n'
            b'[Deal "E:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"]\n\n')


def test_a_hash_after_printpbn_games_copies_the_last_of_them() -> None:
    masks = [d.masks for d in deals_api.read_source(_sample(), "pbn")]
    games = printpbn_games(masks * 4, 3)
    data = games + b'[Board "#"]\n[Deal "#"]\n\n'
    out = both_paths(data, "hex")
    assert isinstance(out, bytes)
    lines = out.splitlines()
    assert lines[-1] == lines[-2] and lines[-1].endswith(b"-A")  # board 10, copied


@pytest.mark.parametrize("first_board", [None, 1, 30])
def test_first_board_numbers_printpbn_games_as_any_others(first_board: int | None) -> None:
    masks = [d.masks for d in deals_api.read_source(_sample(), "pbn")]
    data = printpbn_games(masks * 5, 3)
    expected = per_deal(data, "pbn", "hex", first_board)
    assert bulk(data, "pbn", "hex", first_board=first_board) == expected


def _values_by_match(data: bytes) -> list[tuple[bytes, bytes, bytes, bytes]] | None:
    """What games() must give, by the pattern with its groups, one game
    matched after the other from the start (the reference)."""
    pattern = printpbn._one()
    if not data.endswith(b"\n\n") or b'"#"' in data:
        return None
    found, position = [], 0
    while position < len(data):
        match = pattern.match(data, position)
        if match is None:
            return None
        found.append(match.group(1, 2, 3, 4))
        position = match.end()
    return found or None


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(full_masks(), min_size=1, max_size=4), st.integers(1, 10**9 - 10),
       st.data())
def test_games_reads_the_values_the_pattern_matches(masks: list[tuple[int, int, int, int]],
                                                    first_board: int,
                                                    data: st.DataObject) -> None:
    """The values of every game of a text of printpbn games, read at their
    places in the lines, are those the pattern's groups take; with a byte
    changed anywhere, games() is None exactly when the games no longer all
    match (a '#' value aside: the full reader's)."""
    text = printpbn_games(masks, first_board,
                          event=data.draw(st.sampled_from(["", "x", "Club \\ night", "a#b"])))
    text = data.draw(mutated(text)) if data.draw(st.booleans()) else text
    expected = _values_by_match(text)
    found = printpbn.games(text)
    if expected is None:
        assert found is None
        return
    assert found is not None
    reference = printpbn.Games.of(expected)
    for column in ("boards", "dealers", "vuls", "deals"):
        assert np.array_equal(getattr(found, column), getattr(reference, column)), column


def _vouched(data: bytes) -> bool:
    """What the numpy check of games() says of ``data`` (15 lines a game;
    a '#' value, which games() turns down first, is no game of its)."""
    if printpbn._copies(data):
        return False
    arr = np.frombuffer(data, np.uint8)
    line_ends = np.flatnonzero(arr == 10)
    count = len(line_ends) // printpbn.LINES
    if not count or count * printpbn.LINES != len(line_ends) or not data.endswith(b"\n\n"):
        return False
    ends = line_ends.reshape(count, printpbn.LINES)
    starts = np.empty_like(ends)
    starts[:, 0] = np.concatenate(([0], ends[:-1, -1] + 1))
    starts[:, 1:] = ends[:, :-1] + 1
    return printpbn._laid_out(data, arr, starts, ends)


# bytes a game's text is changed to, at each of its places
_ODD_BYTES = b'\x00\n\r "#09:?NS[\\]x\x7f\x80'


def test_the_check_at_fixed_places_vouches_only_for_what_the_pattern_matches(
        dealt: bytes) -> None:
    """games() reads a text of printpbn games without the pattern when its
    numpy check vouches for every game (the pattern is asked otherwise):
    it does for dealer's own games, and for no text the pattern turns
    down, with any byte of three games (boards 9 to 11: one digit and two;
    vulnerabilities of 2, 3 and 4 letters) replaced by another, deleted, or doubled (a fifth of them drawn in a
    local run, all under CI)."""
    games = dealt[:dealt.index(b"\n\nGenerated") + 2] if b"\n\nGenerated" in dealt else dealt
    assert _vouched(games)
    masks = [d.masks for d in deals_api.read_source(_sample(), "pbn")]
    text = printpbn_games((masks * 2)[:3], 9)  # vulnerable EW, All, None
    assert _vouched(text)
    changed = set()
    for at in range(len(text)):
        changed.add(text[:at] + text[at + 1:])
        changed.add(text[:at] + text[at:at + 1] * 2 + text[at + 1:])
        changed.update(text[:at] + bytes([byte]) + text[at + 1:] for byte in _ODD_BYTES)
    vouched = 0
    for odd in some_of(sorted(changed - {text}), 5):
        if _vouched(odd):
            vouched += 1
            assert _values_by_match(odd) is not None, odd
    assert vouched  # (a value's byte changed to another it may hold)
