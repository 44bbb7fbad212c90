"""The deal model as a Python user meets it: seats, hands, holdings, and
hand values counted as the real dealer counts them."""

from __future__ import annotations

import subprocess
from dataclasses import FrozenInstanceError, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp import ShapeSet, expand
from dealerpp.deals.game import Game, Players
from dealerpp.deals.model import Card, Deal, FormatData, Hand, Holding, Seat, Suit, Vul, numbered
from dealerpp.lengths import Shape
from tests.conftest import examples
from tests.deals.strategies import full_masks

TEXT = "N:AQJ432.8.764.T86 K5.AKQ97.AJ.Q972 T9.JT54.KQ532.A4 876.632.T98.KJ53"


def test_suit_and_seat_iterate_in_bridge_order() -> None:
    assert list(Suit) == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    assert list(Seat) == [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST]
    # the values stay the .deals bit order underneath
    assert [int(s) for s in Suit] == [3, 2, 1, 0]


def test_seats_of_a_deal() -> None:
    deal = Deal.from_pbn(TEXT)
    assert deal.north == deal["N"] == deal["north"] == deal[Seat.NORTH] == deal[0]
    assert [str(hand) for hand in deal] == TEXT[2:].split()
    assert (deal.east, deal.south, deal.west) == (deal["e"], deal["S"], deal["West"])
    with pytest.raises(ValueError, match="not a seat"):
        deal["X"]
    with pytest.raises(IndexError):
        deal[4]


def test_text_forms_and_round_trip() -> None:
    deal = Deal.from_pbn(TEXT, board=3, dealer=Seat.SOUTH, vul=Vul.EW)
    assert str(deal) == deal.to_pbn() == TEXT
    assert repr(deal).startswith(f"Deal({TEXT!r}, board=3")
    assert eval(repr(deal)) == deal  # the repr builds the same deal
    assert Deal(TEXT) == Deal.from_pbn(TEXT)
    assert (deal.board, deal.dealer, deal.vulnerability) == (3, Seat.SOUTH, Vul.EW)
    # a PBN string starting at another seat names the same deal
    east_first = "E:" + " ".join(TEXT[2:].split()[1:] + TEXT[2:].split()[:1])
    assert Deal.from_pbn(east_first) == Deal.from_pbn(TEXT)


def test_equality_and_hashing() -> None:
    one, two = Deal.from_pbn(TEXT), Deal.from_pbn(TEXT)
    assert one == two and hash(one) == hash(two) and len({one, two}) == 1
    assert one != Deal.from_pbn(TEXT, board=1)
    assert len({Hand("AQJ432.8.764.T86"), Deal(TEXT).north}) == 1


def test_hand_and_holding() -> None:
    hand = Deal.from_pbn(TEXT).north
    assert str(hand) == "AQJ432.8.764.T86"
    assert repr(hand) == "Hand('AQJ432.8.764.T86')"
    assert str(hand.spades) == "AQJ432" and len(hand.spades) == 6
    assert "A" in hand.spades and "K" not in hand.spades and "t" in hand.clubs
    assert "10" in hand.clubs and 14 in hand.spades and Card.from_str("SQ") in hand.spades
    assert Card.from_str("HQ") not in hand.spades and 1 not in hand.spades
    assert str(Hand("AKQJT98765432...").hearts) == ""
    assert hand[Suit.DIAMONDS] == hand.diamonds == Holding("D", "764")
    assert [str(card) for card in hand.hearts] == ["H8"]
    assert "SA" in hand and "SK" not in hand
    with pytest.raises(AttributeError):
        hand.spades.bits = 0  # type: ignore[misc]


def test_shape_works_with_the_shape_language() -> None:
    hand = Hand("AQJ432.8.764.T86")
    assert hand.shape == Shape(6, 1, 3, 3) == (6, 1, 3, 3)
    assert isinstance(hand.shape, Shape)
    assert hand.shape in expand("6+M(xxx)")
    assert hand.shape in ShapeSet.of(["6133"])
    assert hand.shape not in expand("5M(xxx)")


@pytest.mark.parametrize(("text", "balanced"), [
    ("AQJ4.K32.Q43.K86", True), ("AQ.K432.Q843.K86", True), ("AQ432.K32.Q4.K86", True),
    ("AQJ432.8.764.T86", False), ("AQ43.K432.Q843.K", False), ("AQ.K4.Q8432.K862", False),
])
def test_is_balanced(text: str, balanced: bool) -> None:
    assert Hand(text).is_balanced is balanced


def test_a_hand_of_more_than_thirteen_cards_has_its_shape() -> None:
    hand = Hand("AKQJT98765432.AKQJT98765432.2.")  # not a bridge hand, but a Hand
    assert hand.shape == (13, 13, 1, 0) and not hand.is_balanced and len(hand) == 27
    assert (hand.hcp, hand.controls, hand.losers) == (20, 6, 1)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=13, unique=True))
def test_a_hands_counts_are_its_suits_counts_first_read_or_later(cards: list[int]) -> None:
    """hcp, controls and losers each equal the sum over the four holdings
    (each holding's count is checked against dealer below), the shape is
    the suits' lengths counted card by card, balanced is 4333, 4432 or
    5332; and reading in any order, or again, or on an equal hand, gives
    the same."""
    hand = Hand.from_cards(cards)
    holdings = [hand.spades, hand.hearts, hand.diamonds, hand.clubs]
    lengths = tuple(sum(1 for card in cards if card // 13 == suit) for suit in (3, 2, 1, 0))
    expected = (sum(h.hcp for h in holdings), sum(h.controls for h in holdings),
                sum(h.losers for h in holdings), lengths,
                sorted(lengths) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]))
    assert (hand.hcp, hand.controls, hand.losers, hand.shape, hand.is_balanced) == expected
    again = Hand(hand.mask)
    assert (again.is_balanced, again.shape, again.losers, again.controls, again.hcp) == \
        expected[::-1]
    assert (hand.hcp, hand.shape) == (expected[0], expected[3]) and again == hand
    assert hash(again) == hash(hand)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, (1 << 52) - 1))
def test_the_shape_of_any_mask_is_its_text_counted(mask: int) -> None:
    """Any 52-bit mask, over 13 cards too: the shape is the lengths of the
    four holdings its text shows (the text made rank by rank, apart from
    the shape's tables), read first, again, and on the hand of a deal."""
    hand = Hand(mask)
    lengths = tuple(len(part) for part in str(hand).split("."))
    assert hand.shape == lengths and hand.shape == lengths
    assert hand.is_balanced == (sorted(lengths) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]))
    if mask.bit_count() <= 13:
        deal = Deal((mask, 0, 0, 0))
        assert deal.north == hand and deal.north.shape == lengths and type(deal.north) is Hand


def test_a_deals_hands_are_hands_as_made_by_their_masks() -> None:
    """deal.north and the others are made without Hand.__init__ (the deal
    checked the masks): the same Hands, immutable, pickled the same."""
    import pickle

    deal = Deal.from_pbn("N:AQJ432.8.764.T86 K5.AKQ2.AJ3.AQ74 T6.JT9765.T8.K32 987.43.KQ952.J95")
    made = [Hand(mask) for mask in deal.masks]
    assert [deal.north, deal.east, deal.south, deal.west] == list(deal) == list(deal.hands) \
        == [deal[seat] for seat in "NESW"] == made
    for hand in deal:
        assert hash(hand) == hash(Hand(hand.mask)) and pickle.loads(pickle.dumps(hand)) == hand
        with pytest.raises(FrozenInstanceError):
            hand.mask = 0  # type: ignore[misc]


def test_a_hand_stays_immutable_once_counted() -> None:
    import copy
    import pickle
    from dataclasses import FrozenInstanceError

    hand = Hand("AQJ432.8.764.T86")
    assert hand.hcp == 7
    with pytest.raises(FrozenInstanceError):
        hand.mask = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        hand.hcp = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(hand)) == hand == copy.deepcopy(hand)
    assert pickle.loads(pickle.dumps(hand)).hcp == 7



@pytest.mark.parametrize("protocol", range(6))
def test_a_holding_pickles_and_copies_and_stays_immutable(protocol: int) -> None:
    """Pickled at every protocol and copied, a holding is the same suit and
    ranks; no attribute can be set or deleted."""
    import copy
    import pickle

    holding = Holding("H", "AQT32")
    for again in (pickle.loads(pickle.dumps(holding, protocol)), copy.copy(holding),
                  copy.deepcopy(holding)):
        assert again == holding and str(again) == "AQT32" and again.suit is Suit.HEARTS
    for name in ("bits", "suit"):
        with pytest.raises(FrozenInstanceError):
            setattr(holding, name, 0)
        with pytest.raises(FrozenInstanceError):
            delattr(holding, name)
    assert (holding.bits, holding.suit) == (0b1_0101_0000_0011, Suit.HEARTS)


PBN_GAME = """% a comment
[Event "Club night"]
[Board "5"]
[Dealer "N"]
[Vulnerable "NS"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
[North "Ann"]
[Auction "N"]
1S Pass Pass Pass
[Play "E"]
HJ - - -
"""


@pytest.mark.parametrize("protocol", range(6))
def test_a_deal_read_from_pbn_pickles_once_its_game_was_asked_for(protocol: int) -> None:
    """Its game record and tags worked out (deal.game, extra.items), a PBN
    deal pickled at every protocol: 0 and 1 raised TypeError (the tags'
    entries, slotted, were pickled with it). Loaded, it says the same."""
    import pickle

    from dealerpp import deals

    (deal,) = deals.loads(PBN_GAME, "pbn")
    assert deal.game is not None and deal.game.players == Players(north="Ann")
    assert deal.extra is not None
    items = deal.extra.items  # type: ignore[attr-defined]
    again = pickle.loads(pickle.dumps(deal, protocol))
    assert again == deal and again.game == deal.game
    assert again.extra.items == items  # type: ignore[union-attr]
    assert deals.dumps([again], "pbn") == deals.dumps([deal], "pbn") == PBN_GAME

# -- hcp, controls and losers against the real dealer ---------------------------

SEATS = ("north", "east", "south", "west")
SUITS = ("spades", "hearts", "diamonds", "clubs")
COUNT = 3000


def _values_script() -> str:
    items = []
    for seat in SEATS:
        for function in ("hcp", "control", "loser"):
            items.append(f"{function}({seat})")
            items += [f"{function}({seat}, {suit})" for suit in SUITS]
    printed = ', " ", '.join(items)
    return f"produce {COUNT}\naction printoneline, printes({printed}, \\n)\n"


@pytest.mark.dealer
def test_hand_values_are_dealers(dealer_bin: str) -> None:
    done = subprocess.run([dealer_bin, "-s", "25"], input=_values_script(),
                          capture_output=True, text=True, timeout=120, check=True)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    deals_seen = 0
    for deal_line, value_line in zip(lines[0::2], lines[1::2], strict=False):
        if not deal_line.startswith("n "):
            break
        words = deal_line.split()
        hands = [Hand(words[i]) for i in (1, 3, 5, 7)]
        values = iter(int(v) for v in value_line.split())
        for hand in hands:
            holdings = [hand.spades, hand.hearts, hand.diamonds, hand.clubs]
            for name in ("hcp", "controls", "losers"):
                assert getattr(hand, name) == next(values), (name, str(hand))
                for holding in holdings:
                    assert getattr(holding, name) == next(values), (name, str(hand))
        deals_seen += 1
    assert deals_seen == COUNT


def test_every_deal_is_made_by_its_constructor() -> None:
    """No reader builds a Deal behind the constructor's back: nothing makes
    one with ``__new__`` or fills its fields but ``deal.full_deal``, the
    one path for masks a reader has checked (test below: it makes what the
    constructor makes)."""
    import re

    from tests.conftest import PROJECT_ROOT

    places = []
    for path in (PROJECT_ROOT / "dealerpp").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"__new__\(Deal\b|_NEW\(Deal\b", text):
            functions = re.findall(r"^def (\w+)", text[:found.start()], re.MULTILINE)
            places.append((path.name, functions[-1] if functions else None))
    assert places == [("deal.py", "full_deal")]


@given(full_masks(), st.none() | st.integers(1, 10**6), st.none() | st.sampled_from(Seat),
       st.none() | st.sampled_from(Vul), st.booleans())
def test_full_deal_is_the_constructors_deal(masks: tuple[int, int, int, int], board: int | None,
                                            dealer: Seat | None, vul: Vul | None,
                                            with_extra: bool) -> None:
    """The readers' path for checked masks gives the very deal Deal() gives:
    every field as stored (the game record left to the format data when
    there is one), equality and hash."""
    from dealerpp.deals.model import full_deal

    extra = _Says(None) if with_extra else None
    made = full_deal(masks, board, dealer, vul, extra)
    built = Deal(masks, board, dealer, vul, extra=extra)
    assert type(made) is Deal and vars(made) == vars(built)
    assert made == built and hash(made) == hash(built) and made.game == built.game


def test_a_deal_is_format_neutral() -> None:
    """No field of Deal names a format: what one format alone says is one
    slot, ``extra``, holding that format's own class, defined in that
    format's module."""
    import dataclasses

    from dealerpp.deals.formats import dlm, giblib
    from dealerpp.deals.formats.pbn import game
    from dealerpp.deals.model import FormatData

    assert [f.name for f in dataclasses.fields(Deal)] == [
        "masks", "board", "dealer", "vul", "auction", "play", "tricks", "extra", "order", "game"]
    for kind, module, fmt in ((giblib.GibInfo, giblib, "giblib"), (game.PbnInfo, game, "pbn"),
                              (dlm.DlmInfo, dlm, "dlm")):
        assert issubclass(kind, FormatData) and kind.__module__ == module.__name__
        assert kind.fmt == fmt


def test_the_constructor_checks_what_a_reader_passes() -> None:
    import dataclasses

    import pytest

    masks = (Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
                           "...AKQJT98765432").masks)
    with pytest.raises(ValueError, match="in two hands"):
        Deal((masks[0], masks[0] | masks[1], masks[2], masks[3] & ~masks[0]), board=1)
    deal = Deal(masks, 7, extra=None)
    assert dataclasses.replace(deal, board=8) == Deal(masks, board=8)
    assert Deal(str(deal)) == Deal(masks)


# -- the game record a deal's format data says -----------------------------------

class _Says(FormatData):
    """Format data that says a game record, and counts how often it is asked."""

    __slots__ = ("asked", "record")

    def __init__(self, record: Game | None) -> None:
        self.record, self.asked = record, 0

    def game_record(self, deal: Deal) -> Game | None:
        self.asked += 1
        return self.record


_FULL = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def test_a_deal_takes_the_game_record_its_format_data_says_when_asked() -> None:
    record = Game(claim=9, players=Players("n", "e", "s", "w"))
    says = _Says(record)
    deal = Deal(_FULL.masks, extra=says)
    assert says.asked == 0  # made without asking: reading costs nothing for it
    first = deal.game
    assert first == record and says.asked == 1  # asked when asked for
    assert deal == Deal(_FULL.masks, game=record) and hash(deal) == hash(Deal(_FULL.masks, game=record))
    asked = says.asked
    assert Deal(_FULL.masks, extra=_Says(record)) != Deal(_FULL.masks)
    assert Deal(_FULL.masks, extra=_Says(None)).game is None
    given = Game(claim=3)
    assert Deal(_FULL.masks, extra=says, game=given).game == given and says.asked == asked
    assert replace(deal, board=4).game == record
    with pytest.raises(FrozenInstanceError):
        deal.game = given  # type: ignore[misc]


def test_numbering_deals_leaves_their_game_record_unasked() -> None:
    says = _Says(Game(claim=7))
    numbered_deal = next(numbered([Deal(_FULL.masks, extra=says)], 5))
    assert (numbered_deal.board, says.asked) == (5, 0)
    assert numbered_deal.game == Game(claim=7) and says.asked == 1
