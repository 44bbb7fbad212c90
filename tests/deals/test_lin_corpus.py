"""Every LIN file of the corpus reads to the right deals, boards, dealers and
vulnerabilities, checked by a second reader: endplay's LIN parser (given
the same boards in the form it reads, skipped when endplay is absent), the
PBN twin a file was made with, and the match header's own facts."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from dealerpp.deals.formats import lin, pbn
from dealerpp.deals.game import Room
from dealerpp.deals.model import Deal, Seat, Vul, board_dealer_vul

CORPUS = Path(os.environ.get("DEALERPP_CORPUS", Path(__file__).resolve().parents[3] / "shared/corpus")) / "lin"
FILES = sorted(CORPUS.glob("*.lin"))
needs_corpus = pytest.mark.skipif(not FILES, reason=f"the shared LIN corpus is not in {CORPUS}")


def test_the_lin_corpus_is_there_or_the_skip_says_why() -> None:
    if not FILES:
        pytest.skip(f"the shared LIN corpus is not in {CORPUS}")
    assert len(FILES) == 9
    assert (CORPUS / "wrangler-alerts-notes-play.pbn").exists()


def endplay_text(text: str) -> str:
    """The file as endplay's parser reads it: no % lines, sv|o| for the
    sv|0| it rejects, and a pn| before each board where the file has none
    there (endplay cuts boards at pn|, and a header's eight names crash it),
    no commentary (endplay fails on nt| before the first call)."""
    text = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    text = re.sub(r"(?i)sv\|0\|", "sv|o|", text)
    text = re.sub(r"nt\|[^|]*\|", "", text)
    if text.count("pn|") < text.count("md|"):
        text = re.sub(r"pn\|[^|]*\|", "", text).replace("qx|", "pn|,,,|qx|")
    return text


_SUIT_SYMBOLS = str.maketrans("♠♥♦♣", "SHDC")
_ENDPLAY_SEATS = {"north": Seat.NORTH, "east": Seat.EAST, "south": Seat.SOUTH, "west": Seat.WEST}
_ENDPLAY_VULS = {"none": Vul.NONE, "ns": Vul.NS, "ew": Vul.EW, "both": Vul.BOTH}


def endplay_view(board: object) -> tuple[object, ...]:
    deal = board.deal  # type: ignore[attr-defined]
    hands = " ".join(str(getattr(deal, seat)).replace("-", "")
                     for seat in ("north", "east", "south", "west"))
    masks = Deal.from_pbn(hands).masks
    calls = [str(bid).replace("NT", "N") for bid in board.auction]  # type: ignore[attr-defined]
    play = [str(card).translate(_SUIT_SYMBOLS) for card in board.play]  # type: ignore[attr-defined]
    return (masks, _ENDPLAY_SEATS[board.dealer.name],  # type: ignore[attr-defined]
            _ENDPLAY_VULS[board.vul.name], len(calls), play)  # type: ignore[attr-defined]


def our_view(deal: Deal) -> tuple[object, ...]:
    return (deal.masks, deal.dealer, deal.vul, len(deal.auction), [str(c) for c in deal.play])


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_each_file_reads_as_endplay_reads_it(path: Path) -> None:
    endplay_lin = pytest.importorskip(
        "endplay.parsers.lin", reason="endplay is not installed (pip install -e '.[bench]')")
    text = path.read_text(encoding="utf-8")
    theirs = endplay_lin.load(io.StringIO(endplay_text(text)))
    ours = list(lin.read(path))
    assert len(ours) == len(theirs) > 0
    for mine, other in zip(ours, theirs, strict=True):
        assert our_view(mine) == endplay_view(other)
        if other.board_num is not None:
            assert mine.board == other.board_num


@needs_corpus
@pytest.mark.parametrize("name", ["wrangler-ABS2-2-NESW", "wrangler-alerts-notes-play"])
def test_the_pbn_twin_holds_the_same_boards(name: str) -> None:
    """BridgeComposer wrote each LIN from its PBN: the same boards (and the
    same calls and play, where the LIN has them: ABS2's LIN has no auction)."""
    ours = list(lin.read(CORPUS / f"{name}.lin"))
    twins = list(pbn.read(CORPUS / f"{name}.pbn"))
    assert [(d.masks, d.board, d.dealer, d.vul) for d in ours] == \
        [(d.masks, d.board, d.dealer, d.vul) for d in twins]
    for mine, twin in zip(ours, twins, strict=True):
        if mine.auction:
            assert (mine.auction, mine.play) == (twin.auction, twin.play)


def declarer_of(deal: Deal) -> Seat:
    """The first of the side that made the last bid to bid its strain."""
    assert deal.dealer is not None
    seats = [deal.dealer.next(i) for i in range(len(deal.auction))]
    last = max(i for i, call in enumerate(deal.auction) if call.is_bid)
    side = seats[last] % 2
    strain = deal.auction[last].strain
    return next(seats[i] for i, call in enumerate(deal.auction)
                if call.is_bid and call.strain == strain and seats[i] % 2 == side)


@needs_corpus
def test_the_vugraph_match_is_what_its_header_says() -> None:
    """vg says boards 46 to 60; rs gives each table's contract in turn (open
    room, then closed); pn names eight players, open room first."""
    path = CORPUS / "bridgebots-usbf_sf_14502.lin"
    deals = list(lin.read(path))
    text = path.read_text(encoding="utf-8")
    results = re.search(r"rs\|([^|]*)\|", text).group(1).split(",")  # type: ignore[union-attr]
    assert len(deals) == len(results) == 30
    assert [d.board for d in deals] == [b for b in range(46, 61) for _ in "oc"]
    assert [d.game.room for d in deals if d.game] == [Room.OPEN, Room.CLOSED] * 15
    for open_room, closed_room in zip(deals[::2], deals[1::2], strict=True):
        assert open_room.masks == closed_room.masks
    for deal, result in zip(deals, results, strict=True):
        assert board_dealer_vul(deal.board or 0) == (deal.dealer, deal.vul)
        level, strain, declarer = result[0], result[1], result[2]
        bids = [c for c in deal.auction if c.is_bid]
        assert f"{bids[-1].level}{str(bids[-1].strain)[0]}" == f"{level}{strain}"
        assert str(declarer_of(deal)) == declarer
    game = deals[0].game
    assert game is not None and game.match is not None
    assert (game.match.event, game.match.home_team, game.match.visit_team) == \
        ("2010 USBF SF A", "Nickell", "Fleisher")
    assert game.players is not None and game.players.south == "Meckstroth"
    closed = deals[1].game
    assert closed is not None and closed.players is not None and closed.players.south == "Stansby"


@needs_corpus
def test_the_practice_sets_go_past_99_and_keep_their_dealer() -> None:
    deals = list(lin.read(CORPUS / "pbs-BC-Dealer-Drury-S-first104.lin"))
    assert [d.board for d in deals] == list(range(1, 105))
    assert {d.dealer for d in deals} == {Seat.SOUTH}
    assert [d.vul for d in deals] == [board_dealer_vul(b)[1] for b in range(1, 105)]
    sandwich = list(lin.read(CORPUS / "pbs-Sandwich_NT_BPH-first66.lin"))
    assert [d.board for d in sandwich] == list(range(1, 67))  # ah, where qx says o64


def table_view(deal: Deal) -> tuple[object, ...]:
    """What a round trip keeps of every board: the deal, dealer and
    vulnerability, the calls with their alerts, the play and the claim (and
    the players and room)."""
    game = deal.game
    alerts = tuple((a.call, a.alerted, a.text) for a in game.alerts) if game else ()
    return (deal.masks, deal.board, deal.dealer, deal.vul, deal.auction, alerts, deal.play,
            game.claim if game else None, game.players if game else None,
            game.room if game else None)


@needs_corpus
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_each_file_round_trips_through_lin_and_through_pbn(path: Path) -> None:
    deals = list(lin.read(path))
    again = list(lin.read(lin.dumps(deals).encode()))
    assert [table_view(d) for d in again] == [table_view(d) for d in deals]
    through_pbn = list(lin.read(lin.dumps(pbn.read(pbn.dumps(deals))).encode()))
    assert [table_view(d) for d in through_pbn] == [table_view(d) for d in deals]
    kept = [d.game.kept if d.game else () for d in deals]
    assert [d.game.kept if d.game else () for d in through_pbn] == kept
    commentary = [[c.text for c in d.game.commentary] if d.game else [] for d in deals]
    assert [[c.text for c in d.game.commentary] if d.game else [] for d in through_pbn] == \
        commentary


@needs_corpus
def test_a_practice_set_written_again_is_the_same_file() -> None:
    """PbnToLin writes Big Deal's layout (with N E B for n e b): written
    again, each board's line is the file's own."""
    path = CORPUS / "pbs-BC-Dealer-Drury-S-first104.lin"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if not line.startswith("%")]
    expected = "".join(re.sub(r"sv\|([NEB])\|", lambda m: f"sv|{m.group(1).lower()}|", line)
                       + "\n" for line in lines)
    assert lin.dumps(lin.read(path)) == expected


@needs_corpus
@pytest.mark.parametrize("name", ["wrangler-ABS2-2-NESW", "wrangler-alerts-notes-play"])
def test_pbn_to_lin_gives_bridgecomposers_boards_calls_and_play(name: str) -> None:
    """BridgeComposer's own LIN of each PBN: the same boards; the same calls
    and play where its LIN has them (its ABS2 LIN leaves out the auctions
    and opening leads its PBN has, which ours keeps)."""
    ours = list(lin.read(lin.dumps(pbn.read(CORPUS / f"{name}.pbn")).encode()))
    theirs = list(lin.read(CORPUS / f"{name}.lin"))
    assert [(d.masks, d.board, d.dealer, d.vul) for d in ours] == \
        [(d.masks, d.board, d.dealer, d.vul) for d in theirs]
    for mine, other in zip(ours, theirs, strict=True):
        if other.auction:
            assert (mine.auction, mine.play) == (other.auction, other.play)
        else:
            assert mine.auction  # the PBN's auction, kept
