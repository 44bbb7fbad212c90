"""LIN: every producer's variations read alike, bad input is named by board
and place, and what is read comes back out.

The expected deals are written here in PBN's own notation (read by the PBN
deal-string parser) and LIN's facts are the published ones (docs/formats.md):
md lists S W N E after the dealer digit 1 S, 2 W, 3 N, 4 E."""

from __future__ import annotations

import re

import pytest

from dealerpp.deals import detect, formats
from dealerpp.deals.formats import lin
from dealerpp.deals.game import Room
from dealerpp.deals.model import Call, Card, Deal, Seat, Vul
from dealerpp.diagnostics import DppError

# One deal: N 5.76.AK97654.Q32  E AK84.AKT3.Q.J965  S T632.854.J.AK874  W QJ97.QJ92.T832.T
FULL = Deal.from_pbn("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")
S, W, N, E = "ST632H854DJCAK874", "SQJ97HQJ92DT832CT", "S5H76DAK97654CQ32", "SAK84HAKT3DQCJ965"
BOARD = f"qx|o1|md|3{S},{W},{N}|rh||ah|Board 1|sv|0|pg||\n"


def read(text: str | bytes) -> list[Deal]:
    return list(lin.read(text.encode() if isinstance(text, str) else text, filename="t.lin"))


def one(text: str) -> Deal:
    deals = read(text)
    assert len(deals) == 1
    return deals[0]


def error(text: str) -> DppError:
    with pytest.raises(DppError) as caught:
        read(text)
    return caught.value


# -- what every producer writes ---------------------------------------------------

@pytest.mark.parametrize("text", [
    BOARD,                                                        # Big Deal
    BOARD.replace("\n", "\r\n"),                                  # CR LF
    BOARD.rstrip("\n"),                                           # no final newline
    "% made by hand\n%\n" + BOARD,                                # % comment lines
    BOARD.replace("md|3", "md|\r\n3").replace("CAK874", "CAK\n874"),  # breaks anywhere
    BOARD.replace(f"{N}|", f"{N},{E}|"),                          # four hands
    BOARD.replace(f"{N}|", f"{N},|"),                             # a trailing comma
    BOARD.replace("ST632H854DJCAK874", "s2t63h458dJc47ak8"),      # any order, either case
    BOARD.replace("ST632", "S10632"),                             # 10 for T
    BOARD.replace("QX|", "qx|").replace("md|", "MD|").replace("sv|0|", "SV|O|"),  # key case
    BOARD.replace("sv|0|", "sv|o|"), BOARD.replace("sv|0|", "sv|-|"),
])
def test_each_producers_form_reads_to_the_same_board(text: str) -> None:
    deal = one(text)
    assert (deal.masks, deal.board, deal.dealer, deal.vul) == \
        (FULL.masks, 1, Seat.NORTH, Vul.NONE)


@pytest.mark.parametrize(("value", "vul"), [("n", Vul.NS), ("E", Vul.EW), ("b", Vul.BOTH),
                                            ("B", Vul.BOTH), ("O", Vul.NONE)])
def test_vulnerability_in_either_case(value: str, vul: Vul) -> None:
    assert one(BOARD.replace("sv|0|", f"sv|{value}|")).vul is vul


def test_a_dealer_that_does_not_follow_the_board_and_a_heading_that_names_it() -> None:
    deal = one(f"qx|o64,BOARD 65|md|1{S},{W},{N}|ah|Board 66|sv|n|")
    assert (deal.board, deal.dealer, deal.vul) == (66, Seat.SOUTH, Vul.NS)
    assert one(f"qx|c7|md|2{S},{W},{N}|sv|e|").board == 7


def test_boards_start_at_qx_or_at_a_second_md() -> None:
    text = (f"pn|a,b,c,d|st||md|3{S},{W},{N}|ah|Board 1|sv|o|pg||"
            f"pn|e,f,g,h|st||md|4{S},{W},{N}|ah|Board 2|sv|n|pg||"
            f"mn|x|qx|c3|rh||ah|Board 3|md|1{S},{W},{N}|sv|e|pg||")
    deals = read(text)
    assert [(d.board, d.dealer) for d in deals] == [(1, Seat.NORTH), (2, Seat.EAST), (3, Seat.SOUTH)]
    games = [d.game for d in deals]
    assert [g.players.south if g and g.players else None for g in games] == ["a", "e", None]
    assert games[2] is not None and games[2].room is Room.CLOSED


def test_more_than_99_boards() -> None:
    text = "".join(BOARD.replace("o1|", f"o{b}|").replace("Board 1", f"Board {b}")
                   for b in range(1, 121))
    assert [d.board for d in read(text)] == list(range(1, 121))


def test_eight_names_seat_each_room() -> None:
    text = ("vg|Cup,Final,I,1,1,Home,0,Away,0|pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||\n"
            + BOARD + BOARD.replace("qx|o1", "qx|c1"))
    open_room, closed_room = read(text)
    assert open_room.game and open_room.game.players and closed_room.game
    assert (open_room.game.players.north, open_room.game.room) == ("n1", Room.OPEN)
    assert closed_room.game.players == closed_room.game.players.__class__("n2", "e2", "s2", "w2")
    match = open_room.game.match
    assert match is not None and (match.event, match.stage, match.home_team, match.visit_team) \
        == ("Cup", "Final", "Home", "Away")


def test_calls_alerts_play_claim_and_commentary() -> None:
    text = BOARD.replace("pg||\n", "") + (
        "nt|hello|mb|1D|mb|1S!|an|5+ spades|mb|d|an|negative|mb|p|mb|1N|mb|p|mb|p|mb|p|pg||"
        "pc|s4|pc|S6|nt|nice|pc|S7|pc|S5|pg||mc|7|pg||\n")
    deal = one(text)
    assert [str(c) for c in deal.auction] == ["1D", "1S", "X", "Pass", "1NT", "Pass", "Pass",
                                              "Pass"]
    assert deal.play == tuple(Card.from_str(c) for c in ("S4", "S6", "S7", "S5"))
    game = deal.game
    assert game is not None and game.claim == 7
    assert [(a.call, a.alerted, a.text) for a in game.alerts] == \
        [(1, True, "5+ spades"), (2, False, "negative")]
    assert [(c.text, c.calls, c.cards) for c in game.commentary] == [("hello", 0, 0),
                                                                    ("nice", 8, 2)]


def test_unknown_keys_are_kept() -> None:
    deal = one(BOARD.replace("rh||", "rh||zz|what|sa|0|"))
    assert deal.game is not None
    assert [(k.key, k.value) for k in deal.game.kept] == [("rh", ""), ("zz", "what"), ("sa", "0")]


# -- bad input: named by board and place -----------------------------------------

@pytest.mark.parametrize(("text", "message", "at"), [
    (BOARD.replace("CAK874", "CAK87"), "md: South has 12 cards, a hand needs 13",
     "ST632"),
    (BOARD.replace(f"{N}|", f"{N},SAK84HAKT3DQCJ9652|"),
     "md: C2 is in two hands (the second is East)", "2|"),
    (BOARD.replace("SQJ97", "SQJ99"), "md: West: S9 written twice", "9H"),
    (BOARD.replace("DJCAK", "DJXAK"), "md: South: not a suit letter or rank: 'X'",
     "XAK"),
    (BOARD.replace("pg||", "mb|8C|pg||"), "mb: not a call: '8C'", "8C"),
    (BOARD.replace("pg||", "mb|p|pc|SZ|"), "pc: not a card: 'SZ'", "SZ"),
    (BOARD.replace("sv|0|", "sv|x|"), "sv: not a vulnerability: 'x'", "x|pg"),
    (BOARD.replace("md|3", "md|7"), "md: the dealer digit must be", "7S"),
])
def test_bad_boards_are_named_by_board_line_and_column(text: str, message: str, at: str) -> None:
    found = error(text + BOARD.replace("1", "2"))
    assert found.message.startswith(message)
    assert (found.filename, found.line, found.column, found.deal, found.board) == \
        ("t.lin", 1, text.index(at) + 1, 1, 1)
    assert found.text.startswith(f"deal 1: board 1: {message}")


def test_a_card_played_twice_is_named_where_it_is_played() -> None:
    played = "mb|1N|mb|p|mb|p|mb|p|pc|S4|pc|S6|pc|S7|pc|S5|pc|S4|"
    found = error(BOARD.replace("pg||", played))
    assert found.message.startswith("pc: card 5 (S4)") and found.board == 1
    assert found.column == BOARD.index("pg||") + played.rindex("S4") + 1


def test_a_board_without_a_number_is_named_by_its_place() -> None:
    found = error(f"md|3{S},{W},{N}|sv|0|md|3{S},{W},{N[:-1]}|sv|0|")
    assert (found.board, found.deal) == (None, 2)
    assert found.text.startswith("deal 2: md: North has 12 cards")


def test_a_key_that_is_not_two_letters() -> None:
    found = error("qx|o1|mdd|3S|")
    assert "two-letter" in found.message and found.column == 7
    assert "no '|' after it" in error(BOARD + "md").message


# -- detection ----------------------------------------------------------------------

@pytest.mark.parametrize("first", ["qx|o1|", "md|1", "pn|a,b,c,d|", "vg|x|", "ah|Board 1|",
                                   "% PbnToLin\nqx|o1|"])
def test_detected_by_content(first: str) -> None:
    assert detect.from_content(first.encode() + b"md|...") == "lin"


def test_detected_by_extension() -> None:
    assert formats.from_extension("Set.LIN") == "lin"


def test_calls_written_as_lin_writes_them() -> None:
    assert [lin.call_text(Call.from_str(c)) for c in ("Pass", "X", "XX", "1NT", "7S")] == \
        ["p", "d", "r", "1N", "7S"]


# -- writing ----------------------------------------------------------------------

def big_deal_line(deal: Deal, board: int, dealer: str, vul: str) -> str:
    """The line of a deal-only board as docs/formats.md gives Big Deal's
    layout: hands S W N, each S H D C with ranks high to low, East left out."""
    def hand(seat: Seat) -> str:
        return "".join(letter + holding for letter, holding
                       in zip("SHDC", str(deal[seat]).split("."), strict=True))
    return (f"qx|o{board}|md|{dealer}{hand(Seat.SOUTH)},{hand(Seat.WEST)},{hand(Seat.NORTH)}"
            f"|rh||ah|Board {board}|sv|{vul}|pg||\n")


def test_deal_only_sets_are_written_as_big_deal_writes_them() -> None:
    # Boards 1-17 by the standard cycle (dealer digit 3 N, 4 E, 1 S, 2 W;
    # vulnerability 0 n e b n e b 0 e b 0 n b 0 n e, then again).
    deals = [Deal(FULL.masks, board=b) for b in range(1, 18)]
    dealers = "3412" * 5
    vuls = "0neb" "neb0" "eb0n" "b0ne" "0"
    expected = "".join(big_deal_line(FULL, b, dealers[b - 1], vuls[b - 1]) for b in range(1, 18))
    assert lin.dumps(deals) == expected
    # a deal that names its dealer and vulnerability keeps them; no board: its place
    named = Deal(FULL.masks, board=120, dealer=Seat.SOUTH, vul=Vul.EW)
    assert lin.dumps([named, FULL]) == big_deal_line(FULL, 120, "1", "e") + \
        big_deal_line(FULL, 2, "4", "n")


def test_a_board_with_its_play_comes_back_as_it_was_read() -> None:
    text = ("pn|Sue,Wes,Ned,Ed|qx|c9|md|3" + f"{S},{W},{N}|rh||ah|Board 9|sv|e|zz|odd|"
            "nt|hello|mb|1D|mb|1S!|an|5+ spades|mb|d|an|negative|mb|p|mb|1N|mb|p|mb|p|mb|p|pg||"
            "pc|s4|pc|S6|nt|nice|pc|S7|pc|S5|pg||mc|7|pg||\n")
    deal = one(text)
    again = lin.dumps([deal])
    assert one(again) == deal
    assert again == ("pn|Sue,Wes,Ned,Ed|qx|c9|md|3" + f"{S},{W},{N}|rh||ah|Board 9|sv|e|zz|odd|"
                     "nt|hello|pg||mb|1D|mb|1S!|an|5+ spades|mb|d|an|negative|mb|p|mb|1N|mb|p|"
                     "mb|p|mb|p|pg||pc|S4|pc|S6|nt|nice|pg||pc|S7|pc|S5|pg||mc|7|pg||\n")


def test_through_pbn_and_back() -> None:
    from dealerpp.deals.formats import pbn

    text = ("vg|Cup,Final,I,9,9,Home,0,Away,0|rs|1NN-1,|pn|s1,w1,n1,e1,s2,w2,n2,e2|pg||\n"
            "qx|o9|st||md|3" + f"{S},{W},{N}|rh||ah|Board 9|sv|e|zz|odd|"
            "mb|1D|mb|1S!|an|5+ spades|mb|d|an|negative|mb|p|mb|1N|mb|p|mb|p|mb|p|pg||"
            "pc|s4|pc|S6|pc|S7|pc|S5|pg||mc|6|pg||\n")
    deal = one(text)
    through = pbn.dumps([deal])
    assert '[Room "Closed"]' not in through and '[Room "Open"]' in through
    for tag in ('[North "n1"]', '[HomeTeam "Home"]', '[Result "6"]', '[Contract "1NT"]',
                '[Declarer "N"]', "1S! =1= X =2=", '[Note "1:5+ spades"]', '[LinKeys "st||rh||zz|odd|"]'):
        assert tag in through
    back = one(lin.dumps(pbn.read(through)))
    assert back == deal
    assert lin.dumps([back]) == lin.dumps([deal])


def test_values_lin_cannot_hold_are_made_safe() -> None:
    from dataclasses import replace

    from dealerpp.deals.game import Alert, Game
    deal = one(BOARD.replace("pg||", "mb|1N|mb|p|mb|p|mb|p|"))
    odd = replace(deal, game=Game(alerts=(Alert(0, True, "a|b\nc"),)))
    assert "an|a/b c|" in lin.dumps([odd])


def test_the_quick_way_reads_what_the_pair_by_pair_way_reads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(BOARD.replace("o1|", f"o{b}|").replace("Board 1", f"Board {b}")
                   .replace("sv|0|", f"sv|{'0nebNEB-o'[b % 9]}|") for b in range(1, 30))
    quick = read(text)
    monkeypatch.setattr(lin, "_QUICK", re.compile("(?!)"))
    assert read(text) == quick
    assert all(deal.game is None for deal in quick)


def test_partial_deals_cannot_be_written() -> None:
    with pytest.raises(DppError, match="deal 1: LIN holds full deals only"):
        lin.dumps([Deal((FULL.masks[0], 0, 0, 0))])


@pytest.mark.dealer
def test_dealers_printpbn_becomes_a_big_deal_set(dealer_bin: str) -> None:
    """The real dealer's printpbn (its "-" names and "?" contract say
    nothing): each board is Big Deal's line, the deal as printpbn gave it."""
    import subprocess

    from dealerpp.deals.formats import pbn

    done = subprocess.run([dealer_bin, "-s", "3"], input="produce 20\naction printpbn\n",
                          capture_output=True, text=True, timeout=120, check=True)
    games = list(pbn.read(done.stdout))
    assert len(games) == 20
    written = lin.dumps(games)
    assert written == "".join(big_deal_line(g, g.board or 0, "3412"[(g.board or 1) - 1 & 3],
                                            "0nebneb0eb0nb0ne"[(g.board or 1) - 1 & 15])
                              for g in games)
    assert [(d.masks, d.board) for d in read(written)] == [(g.masks, g.board) for g in games]


def test_a_qx_naming_no_room_is_written_where_it_was() -> None:
    """``qx|1|`` (no room letter) is kept; written after md it started another
    board, so LIN -> LIN gave a file that did not read back."""
    text = ("qx|1|md|3SHAKQJT98765432DC,SAKQJT98765432HDC,SHDCAKQJT98765432|rh||ah|Board 1"
            "|sv|0|pg||\n")
    written = lin.dumps(list(lin.read(text)))
    assert written == text
    assert [deal.board for deal in lin.read(written)] == [1]
