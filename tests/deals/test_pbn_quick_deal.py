"""The PBN reader's quick way into a Deal: the deal string of dealer's
printpbn read by one match and table look-ups (checks.quick_full_deal),
and the objects its fast path makes (game.plain_game, model.full_deal),
held to what the slow ways say."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dealerpp.deals.formats.pbn.checks import quick_full_deal
from dealerpp.deals.formats.pbn.game import PbnGame, plain_game
from dealerpp.deals.model import Seat, Vul
from tests.deals.strategies import full_masks

RANKS = "AKQJT98765432"  # high to low


def written(masks: tuple[int, ...], first: int) -> str:
    """The deal string dealer writes, hands clockwise from ``first``."""
    hands = []
    for place in range(4):
        mask = masks[(first + place) % 4]
        hands.append(".".join("".join(RANKS[12 - rank] for rank in range(12, -1, -1)
                                      if mask >> (13 * suit + rank) & 1)
                              for suit in (3, 2, 1, 0)))
    return "NESW"[first] + ":" + " ".join(hands)


def usual_full_deal(value: str) -> tuple[int, ...] | None:
    """The masks N E S W of a deal string written the usual way, else None,
    worked out card by card (an oracle independent of the reader's tables
    and arithmetic): a seat and a colon, four hands one blank apart, each
    four suits by dots, upper-case ranks strictly high to low, 13 cards a
    hand, each of the 52 cards once."""
    if len(value) < 2 or value[0] not in "NESW" or value[1] != ":":
        return None
    hands = value[2:].split(" ")
    if len(hands) != 4:
        return None
    masks = [0, 0, 0, 0]
    seen: set[int] = set()
    for place, hand in enumerate(hands):
        suits = hand.split(".")
        if len(suits) != 4:
            return None
        for suit, ranks in zip((3, 2, 1, 0), suits, strict=True):
            places = [RANKS.find(char) for char in ranks]
            if -1 in places or places != sorted(set(places)):
                return None
            for found in places:
                card = 13 * suit + 12 - found
                if card in seen:
                    return None
                seen.add(card)
                masks["NESW".index(value[0]) + place & 3] |= 1 << card
        if sum(len(ranks) for ranks in suits) != 13:
            return None
    return tuple(masks)


def damaged(value: str, kind: int, place: int, other: int) -> str:
    """``value`` with one thing changed: a card moved to another hand, a
    rank written twice, a character made lower case, a blank doubled, two
    characters swapped, one dropped, or one put in."""
    at, to = place % len(value), other % len(value)
    if kind == 0:  # a card from one hand to another (14 and 12 cards)
        rank_places = [i for i, char in enumerate(value) if char in RANKS and i > 1]
        source = rank_places[place % len(rank_places)]
        without = value[:source] + value[source + 1:]
        target = [i for i, char in enumerate(without) if char in ". "][other % 15]
        return without[:target] + value[source] + without[target:]
    if kind == 1:  # a card written twice, in its own or another hand
        return value[:to] + value[at] + value[to:]
    if kind == 2:
        return value[:at] + value[at].lower() + value[at + 1:]
    if kind == 3:
        return value.replace(" ", "  ", 1 + place % 3)
    if kind == 4:
        chars = list(value)
        chars[at], chars[to] = chars[to], chars[at]
        return "".join(chars)
    if kind == 5:
        return value[:at] + value[at + 1:]
    return value[:at] + " .-x1\t"[other % 6] + value[at:]


@given(full_masks(), st.integers(0, 3), st.integers(0, 6), st.integers(0, 200),
       st.integers(0, 200))
def test_the_quick_read_of_a_deal_string_is_the_card_by_card_one(
        masks: tuple[int, int, int, int], first: int, kind: int, place: int,
        other: int) -> None:
    value = written(masks, first)
    assert quick_full_deal(value) == usual_full_deal(value) == masks
    changed = damaged(value, kind, place, other)
    assert quick_full_deal(changed) == usual_full_deal(changed), changed


def test_a_hand_of_fourteen_cards_is_not_a_usual_deal() -> None:
    """52 different cards, but 14 in one hand and 12 in the next."""
    value = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    assert quick_full_deal(value) is not None
    moved = "N:AKQJT98765432.A.. .KQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    assert quick_full_deal(moved) is None
    short_third = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.A ...KQJT98765432"
    assert quick_full_deal(short_third) is None


@given(full_masks(), st.integers(1, 99), st.sampled_from(Seat), st.sampled_from(Vul))
def test_the_plain_game_is_the_constructors_game(masks: tuple[int, int, int, int], board: int,
                                                dealer: Seat, vul: Vul) -> None:
    derived = (masks, board, dealer, vul, (), (), None, None)
    text = f'[Board "{board}"]\n[Deal "{written(masks, 0)}"]'
    made, built = plain_game(text, 7, derived), PbnGame(text, 7, derived)
    assert type(made) is PbnGame and vars(made) == vars(built)
    assert made.items == built.items and made.tag("Board") == built.tag("Board")
