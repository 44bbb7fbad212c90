"""The test vectors of deal-formats.md and the seeds."""

from __future__ import annotations

import pytest

from dealerpp.deals import Card, Deal, Seat, Strain
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.formats import giblib, listing, pbn
from dealerpp.deals.formats import hex as hex26
from dealerpp.deals.model import Call

GIB_EXAMPLE = ("JT852.93.KQ7.J82 AQ97.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9"
               ":88887777A9A977778888")
GIB_DEAL = Deal.from_pbn("W:JT852.93.KQ7.J82 AQ97.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9")


def test_giblib_example_hands_and_tricks() -> None:
    deal = giblib.parse_line(GIB_EXAMPLE)
    assert deal.masks == GIB_DEAL.masks
    assert deal[Seat.WEST].to_pbn() == "JT852.93.KQ7.J82"
    tricks = deal.tricks
    assert tricks is not None
    # The string is North-South's tricks by opening leader (S E N W within
    # NT S H D C); the table is the declarer's, the declarer being the
    # leader's right-hand opponent. NT: NS take 8 whoever leads.
    assert [tricks[seat, Strain.NOTRUMP] for seat in Seat] == [8, 5, 8, 5]
    # Hearts "A9A9": South leads (East declares) NS 10, East 3; East leads
    # (North declares) 9; North leads (West declares) NS 10, West 3; West
    # leads (South declares) 9.
    assert [tricks[seat, Strain.HEARTS] for seat in Seat] == [9, 3, 9, 3]
    assert [tricks[Seat.NORTH, s] for s in (Strain.SPADES, Strain.DIAMONDS, Strain.CLUBS)] == [7, 7, 8]
    assert giblib.trick_index(Seat.SOUTH, Strain.NOTRUMP) == 0
    assert giblib.trick_index(Seat.WEST, Strain.CLUBS) == 19


# The same table as PBN's DoubleDummyTricks says it, written by hand from the
# tag's definition (declarer's tricks in hex, declarers N S E W, each by
# strains NT S H D C) and the trick string above.
GIB_EXAMPLE_DDT = "87978" "87978" "56365" "56365"


def test_giblib_tricks_are_the_pbn_double_dummy_tricks() -> None:
    deal = giblib.parse_line(GIB_EXAMPLE)
    text = pbn.dumps([deal])
    assert f'[DoubleDummyTricks "{GIB_EXAMPLE_DDT}"]' in text
    game = (f'[Deal "{GIB_DEAL.to_pbn()}"]\n'
            f'[DoubleDummyTricks "{GIB_EXAMPLE_DDT.upper()}"]\n')
    read = next(pbn.read(game))
    assert read.tricks == deal.tricks
    assert giblib.dumps([read]) == GIB_EXAMPLE + "\n"
    assert pbn.dumps([read]) == game  # a copy keeps the tag as written


def test_an_optimum_result_table_is_the_same_table() -> None:
    """OptimumResultTable rows (declarer, strain, declarer's tricks) fill
    the entries they give; the giblib string then has those, written by
    hand from its definition (North-South's tricks by leader), '-' the rest.
    DoubleDummyTricks, when the game has both, is the one read."""
    rows = ("N NT  8", "E  H  3", "W  C  5", "S  S  7")
    game = (f'[Deal "{GIB_DEAL.to_pbn()}"]\n'
            '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n' + "\n".join(rows) + "\n")
    read = next(pbn.read(game))
    assert read.tricks is not None
    assert [read.tricks[Seat.NORTH, Strain.NOTRUMP], read.tricks[Seat.EAST, Strain.HEARTS],
            read.tricks[Seat.WEST, Strain.CLUBS], read.tricks[Seat.SOUTH, Strain.SPADES]] == [8, 3, 5, 7]
    assert sum(value is not None for value in read.tricks.values) == 4
    # N NT: East leads, NS 8 (index 1); E H: South leads, NS 10 (index 8);
    # W C: North leads, NS 8 (index 18); S S: West leads, NS 7 (index 7).
    expected = list("-" * 20)
    expected[1], expected[8], expected[18], expected[7] = "8", "A", "8", "7"
    assert giblib.dumps([read]).endswith(":" + "".join(expected) + "\n")
    assert pbn.dumps([read]) == game
    both = game.replace("[Optimum", f'[DoubleDummyTricks "{GIB_EXAMPLE_DDT}"]\n[Optimum')
    assert next(pbn.read(both)).tricks == giblib.parse_line(GIB_EXAMPLE).tricks
    bad = game.replace("W  C  5", "W  X  5")
    assert next(pbn.read(bad)).tricks is None


def test_giblib_without_tricks_is_valid_and_written_without() -> None:
    text = GIB_EXAMPLE.split(":")[0] + "\n"
    deal = giblib.parse_line(text)
    assert deal.tricks is None
    assert giblib.dumps([deal]) == text


def test_deals_bytes_vector() -> None:
    data = bytes.fromhex("081022700c500a0036a0010261030000804d5884100804004102840982a40100")
    assert binary.deal_to_bytes(GIB_DEAL) == data
    assert list(binary.read_deals(data)) == [GIB_DEAL]


@pytest.mark.parametrize(("text", "code"), [
    ("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T",
     "F2F25B5CC55E31928E2E32C949"),
    ("N:J76.J98542.74.AK 52..AKQ8652.QJ83 AKQT8.KT6.J3.965 943.AQ73.T9.T742",
     "4B0B4FAC05918F6623B3965CB7"),
    ("W:JT852.93.KQ7.J82 AQ97.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9",
     "EBC121949260D42D8E9BBF7C17"),
])
def test_hex26_vectors(text: str, code: str) -> None:
    deal = Deal.from_pbn(text)
    assert hex26.encode(deal) == code
    assert hex26.decode(code) == deal
    assert hex26.decode(code.lower()) == deal


def test_hex26_suffix() -> None:
    deal = hex26.decode("EBC121949260D42D8E9BBF7C17-0")
    assert (deal.board, deal.dealer, str(deal.vul)) == (16, Seat.WEST, "EW")
    assert hex26.encode(deal) == "EBC121949260D42D8E9BBF7C17-0"
    deal = hex26.decode("EBC121949260D42D8E9BBF7C17-5")
    assert (deal.board, deal.dealer, str(deal.vul)) == (5, Seat.NORTH, "NS")


SEED3_IN = ("5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T\n"
            "J76.J98542.74.AK 52..AKQ8652.QJ83 AKQT8.KT6.J3.965 943.AQ73.T9.T742\n")
SEED3_OUT = """\
Deal #1: Player North: S5 H7 H6 DA DK D9 D7 D6 D5 D4 CQ C3 C2
Player East : SA SK S8 S4 HA HK HT H3 DQ CJ C9 C6 C5
Player South: ST S6 S3 S2 H8 H5 H4 DJ CA CK C8 C7 C4
Player West : SQ SJ S9 S7 HQ HJ H9 H2 DT D8 D3 D2 CT
Deal #2: Player North: SJ S7 S6 HJ H9 H8 H5 H4 H2 D7 D4 CA CK
Player East : S5 S2 DA DK DQ D8 D6 D5 D2 CQ CJ C8 C3
Player South: SA SK SQ ST S8 HK HT H6 DJ D3 C9 C6 C5
Player West : S9 S4 S3 HA HQ H7 H3 DT D9 CT C7 C4 C2
"""


def test_seed3_listing_exact() -> None:
    deals = list(pbn.read(SEED3_IN))
    assert listing.dumps(deals) == SEED3_OUT
    assert [d.masks for d in listing.read(SEED3_OUT)] == [d.masks for d in deals]


def test_seed3_listing_run_together_reads() -> None:
    flat = SEED3_OUT.replace("\n", " ")
    assert [d.masks for d in listing.read(flat)] == [d.masks for d in pbn.read(SEED3_IN)]


def test_listing_keeps_input_order() -> None:
    deal = pbn.deal_from_string("5.67.KA97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")
    out = listing.dumps([deal])
    assert out.startswith("Deal #1: Player North: S5 H6 H7 DK DA D9")
    assert list(listing.read(out)) == [deal]
    assert pbn.deal_string(deal, prefix=False).startswith("5.67.KA97654")


def test_dx_bid_bytes() -> None:
    assert int(Call.from_str("4H")) == 132
    assert int(Call.from_str("1C")) == 33
    assert int(Call.from_str("7NT")) == 240
    assert (int(Call.from_str("Pass")), int(Call.from_str("X")), int(Call.from_str("XX"))) == (1, 2, 4)


def test_card_index_and_str() -> None:
    assert Card.from_str("C2") == 0 and Card.from_str("SA") == 51
    assert str(Card(26)) == "H2" and str(Seat.EAST) == "E"


def test_seed0_played_example() -> None:
    text = ("{name=cpt leader=w played=c8.c9.ct.ck-h7.h2.hk.hj-d3.d8.dk.d5-h9.h3.ha}\n"
            "j95.t8632.j65.85 t862.ak54.73.q92 k743.j.a98.ajt76 aq.q97.kqt42.k43\n")
    deal = giblib.parse_line(text)
    assert isinstance(deal.extra, giblib.GibInfo)
    assert deal.extra.name == "cpt" and deal.extra.leader == Seat.WEST
    assert [str(c) for c in deal.play[:4]] == ["C8", "C9", "CT", "CK"]
    assert len(deal.play) == 15
    assert giblib.dumps([deal]) == text.replace(
        "j95.t8632.j65.85 t862.ak54.73.q92 k743.j.a98.ajt76 aq.q97.kqt42.k43",
        "J95.T8632.J65.85 T862.AK54.73.Q92 K743.J.A98.AJT76 AQ.Q97.KQT42.K43")
