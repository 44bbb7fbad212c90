"""Hypothesis strategies for deals and what travels with them."""

from __future__ import annotations

from hypothesis import strategies as st

from dealerpp.deals.model import (
    SUIT_MASK,
    Call,
    Card,
    Deal,
    Seat,
    Strain,
    check_play,
    trick_winner,
)


@st.composite
def full_masks(draw: st.DrawFn) -> tuple[int, int, int, int]:
    cards = draw(st.permutations(range(52)))
    masks = [0, 0, 0, 0]
    for index, card in enumerate(cards):
        masks[index // 13] |= 1 << card
    return masks[0], masks[1], masks[2], masks[3]


@st.composite
def equal_masks(draw: st.DrawFn, low: int = 1) -> tuple[int, int, int, int]:
    """Four hands of the same number of cards (an end position)."""
    per_hand = draw(st.integers(low, 13))
    cards = draw(st.permutations(range(52)))
    masks = [0, 0, 0, 0]
    for index, card in enumerate(cards[: 4 * per_hand]):
        masks[index % 4] |= 1 << card
    return masks[0], masks[1], masks[2], masks[3]


@st.composite
def any_masks(draw: st.DrawFn) -> tuple[int, int, int, int]:
    """Partial deals: each hand 0-13 cards, some cards in no hand (never
    three hands of 13 and a fourth of 1-12: a full deal with a card missing
    is no deal in PBN)."""
    cards = draw(st.permutations(range(52)))
    return masks_from_counts(cards, no_full_deal_short(
        [draw(st.integers(0, 13)) for _ in range(4)]))


def no_full_deal_short(counts: list[int]) -> list[int]:
    """The counts, the short hand made full when the three others are."""
    if counts.count(13) == 3:
        return [13] * 4
    return counts


def masks_from_counts(cards: list[int], counts: list[int]) -> tuple[int, int, int, int]:
    """Deal ``cards`` in order: ``counts[seat]`` cards to each seat, N E S W."""
    masks = [0, 0, 0, 0]
    position = 0
    for seat, count in enumerate(counts):
        for card in cards[position:position + count]:
            masks[seat] |= 1 << card
        position += count
    return masks[0], masks[1], masks[2], masks[3]


def legal_play(draw: st.DrawFn, masks: tuple[int, ...], trumps: Strain | None,
               leader: Seat) -> tuple[Card, ...]:
    """A random legal play sequence from the position (possibly empty)."""
    hands = list(masks)
    total = min(bin(m).count("1") for m in masks) * 4
    count = draw(st.integers(0, total))
    play: list[Card] = []
    trick: list[Card] = []
    seats: list[Seat] = []
    turn = leader
    for _ in range(count):
        hand = hands[turn]
        if trick:
            follow = hand & (SUIT_MASK << (13 * trick[0].suit))
            hand = follow or hand
        choices = [c for c in range(52) if hand >> c & 1]
        if not choices:
            break
        card = Card(draw(st.sampled_from(choices)))
        hands[turn] &= ~(1 << card)
        play.append(card)
        trick.append(card)
        seats.append(turn)
        turn = turn.next()
        if len(trick) == 4:
            turn = seats[trick_winner(trick, trumps)]
            trick, seats = [], []
    result = tuple(play)
    assert check_play(Deal(tuple(masks)), result, trumps, leader) is None  # type: ignore[arg-type]
    return result


calls = st.sampled_from([1, 2, 4] + [lv << 5 | 1 << s for lv in range(1, 8) for s in range(5)]).map(Call)


@st.composite
def auctions(draw: st.DrawFn) -> tuple[Call, ...]:
    """An auction whose last bid sets the strain (for play) - not
    necessarily legal bridge, which no format checks."""
    head = draw(st.lists(calls, max_size=8))
    bid = Call.bid(draw(st.integers(1, 7)), draw(st.sampled_from(list(Strain))))
    return (*head, bid, Call(1), Call(1), Call(1))


safe_text = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF,
                           blacklist_characters="{}", blacklist_categories=("Cs",)),
    max_size=20)
