"""The 52-slot array and the 13 x 5 trick array (docs/formats.md), for interop.

Slot = suit * 13 + (14 - rank) with suits in the order S H D C and ranks
A=14 .. 2 (slot 0 is the spade ace, 51 the club two, 20 the heart seven).
A slot holds the seat of its card: 0 not in play, 1 West, 2 North, 3 East,
4 South. The trick array is 13 rows ``[leader, c1, c2, c3, c4]`` with the
leader's seat code and the cards' slots in the order played; unused rows
are all 0. As the seed notes, a 0 card in a trick is the spade ace only when
the spade ace is out of play in the layout; otherwise it means "no card".
"""

from __future__ import annotations

from collections.abc import Sequence

from dealerpp.deals.model import Card, Deal, Seat, deal_trumps, trick_winner

# Seat <-> slot value (0 is "not in play").
SEAT_CODE = {Seat.WEST: 1, Seat.NORTH: 2, Seat.EAST: 3, Seat.SOUTH: 4}
CODE_SEAT = {code: seat for seat, code in SEAT_CODE.items()}


def card_to_slot(card: int) -> int:
    suit, rank = divmod(card, 13)
    return (3 - suit) * 13 + (12 - rank)


def slot_to_card(slot: int) -> Card:
    if not 0 <= slot < 52:
        raise ValueError(f"slot out of range: {slot}")
    group, position = divmod(slot, 13)
    return Card((3 - group) * 13 + (12 - position))


def to_slots(deal: Deal) -> list[int]:
    """The 52-slot layout of the deal's hands."""
    slots = [0] * 52
    for seat in Seat:
        mask = deal.masks[seat]
        for card in range(52):
            if mask >> card & 1:
                slots[card_to_slot(card)] = SEAT_CODE[seat]
    return slots


def to_tricks(deal: Deal) -> list[list[int]]:
    """The 13 x 5 trick array of the deal's play (each trick's leader found
    with the deal's trumps, notrump when unknown)."""
    trumps = deal_trumps(deal)
    rows = [[0] * 5 for _ in range(13)]
    if not deal.play:
        return rows
    leader = deal.owner(deal.play[0])
    if leader is None:
        raise ValueError(f"played card {deal.play[0]} is in no hand")
    for index in range(0, len(deal.play), 4):
        trick = list(deal.play[index:index + 4])
        rows[index // 4] = [SEAT_CODE[leader], *(card_to_slot(c) for c in trick),
                            *([0] * (4 - len(trick)))]
        if len(trick) == 4:
            leader = leader.next(trick_winner(trick, trumps))
    return rows


def from_slots(slots: Sequence[int], tricks: Sequence[Sequence[int]] | None = None) -> Deal:
    """A deal from a 52-slot layout. With a trick array, the layout is taken
    as the position after those tricks: each played card goes back to the
    seat that played it (clockwise from the trick's leader), and the play
    is kept. ValueError on a bad slot value or an inconsistent trick."""
    if len(slots) != 52:
        raise ValueError(f"a layout has 52 slots, got {len(slots)}")
    masks = [0, 0, 0, 0]
    for slot, code in enumerate(slots):
        if code == 0:
            continue
        if code not in CODE_SEAT:
            raise ValueError(f"slot {slot}: seat code {code} (0-4)")
        masks[CODE_SEAT[code]] |= 1 << slot_to_card(slot)
    play: list[Card] = []
    if tricks is not None:
        play = _replay(masks, slots, tricks)
    return Deal((masks[0], masks[1], masks[2], masks[3]), play=tuple(play))


def _replay(masks: list[int], slots: Sequence[int], tricks: Sequence[Sequence[int]]) -> list[Card]:
    play: list[Card] = []
    ace_free = _ace_played(slots, tricks)
    for number, row in enumerate(tricks, 1):
        if len(row) != 5:
            raise ValueError(f"trick {number}: a row has 5 entries")
        if row[0] == 0:
            if any(row[1:]):
                raise ValueError(f"trick {number}: cards without a leader")
            continue
        if row[0] not in CODE_SEAT:
            raise ValueError(f"trick {number}: leader code {row[0]} (1-4)")
        seat = CODE_SEAT[row[0]]
        for index, slot in enumerate(row[1:], 1):
            if slot == 0 and not (ace_free and (any(row[index + 1:]) or ace_free == "last")):
                break
            if slot == 0:
                ace_free = False
            card = slot_to_card(slot)
            if any(m >> card & 1 for m in masks):
                raise ValueError(f"trick {number}: {card} is played but still in a hand")
            masks[seat] |= 1 << card
            play.append(card)
            seat = seat.next()
    return play


def _ace_played(slots: Sequence[int], tricks: Sequence[Sequence[int]]) -> bool | str:
    """Whether a 0 in the trick array may be the spade ace: only when the
    ace is out of the layout. A 0 followed by a card in its trick must be
    the ace; a trailing 0 is the ace ("last") only when the layout and the
    other played cards account for exactly the other 51 cards."""
    if slots[0] != 0:
        return False
    known = sum(1 for code in slots if code) + sum(1 for row in tricks for s in row[1:] if s)
    return "last" if known == 51 else True
