"""What the PBN sections mean, checked apart from reading them.

The lexer keeps every token; this module says what the Deal value, the
auction and the play mean and whether they follow the rules. Offsets in
the problems it returns are where the token starts in the game's text, so
the reader can point at the exact character.

* A Deal value that is not a deal (a bad character, a card twice, a hand of
  more than 13 cards, hands of unequal length) raises :class:`~dealerpp.diagnostics.TextProblem`:
  such a game cannot be converted.
* An auction or play that breaks the rules (an insufficient bid, a double of
  partner, a call after the auction ended, a card of another hand, a card
  played twice, a revoke) is a warning: the data is kept as written. A call
  or card marked with an irregularity (``^I``, ``^R``, ...) is not warned
  about, the file says already that it is irregular.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from dealerpp.deals.model import (
    FULL_MASK,
    RANK_CHARS,
    SEAT_CHARS,
    SUIT_MASK,
    SUITS_HIGH_FIRST,
    Call,
    Card,
    Seat,
    Strain,
    cards_of_mask,
)
from dealerpp.diagnostics import TextProblem, quote

NOT_A_CALL, NOT_A_CARD = "not-a-call", "not-a-card"


class Problem(NamedTuple):
    """A problem of an auction or a play: its message, its offset in the
    game's text, and its kind when a caller acts on it (NOT_A_CALL,
    NOT_A_CARD: a word that is none; None: a rule broken)."""

    message: str
    offset: int
    kind: str | None = None

_RANK_BITS = {char: 1 << index for index, char in enumerate(RANK_CHARS)}
_RANK_BITS.update({char.lower(): bit for char, bit in list(_RANK_BITS.items())})
# Holdings seen before: text -> (13-bit holding, count, written high to low).
_HOLDINGS: dict[str, tuple[int, int, bool]] = {}
_SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}


def seat_of(text: str) -> Seat | None:
    """N, E, S or W (any case, blanks around allowed), else None."""
    return _SEATS.get(text.strip().upper())


# -- the Deal value ---------------------------------------------------------------

# Holdings written high to low in upper case -> their 13 bits, shifted to
# the place of the hand's first, second, third, fourth suit (filled as met).
_USUAL: tuple[dict[str, int], ...] = ({}, {}, {}, {})
_USUAL_HOLDING = r"([AKQJT98765432]*)"
_USUAL_HAND = r"\.".join([_USUAL_HOLDING] * 4)
# N: (or E: S: W:) then four hands of four suits, one blank between hands
_USUAL_DEAL = re.compile(r"([NESW]):" + " ".join([_USUAL_HAND] * 4))
_SEAT_PREFIX = {"N": 0, "E": 1, "S": 2, "W": 3}


def quick_full_deal(value: str) -> tuple[int, int, int, int] | None:
    """The masks of a full deal written the usual way (``N:`` then four
    hands of 13 cards, ranks high to low in upper case, one blank between
    hands), else None: most deal strings, read by one match and a look-up
    a suit instead of a loop per card."""
    match = _USUAL_DEAL.fullmatch(value)
    if match is None:
        return None
    seat, *suits = match.groups()
    first, second, third, fourth = _USUAL
    try:
        north = first[suits[0]] | second[suits[1]] | third[suits[2]] | fourth[suits[3]]
        east = first[suits[4]] | second[suits[5]] | third[suits[6]] | fourth[suits[7]]
        south = first[suits[8]] | second[suits[9]] | third[suits[10]] | fourth[suits[11]]
        west = first[suits[12]] | second[suits[13]] | third[suits[14]] | fourth[suits[15]]
    except KeyError:
        if not all(suit in first or _learn(suit) for suit in suits):
            return None
        return quick_full_deal(value)
    # 13 cards a hand and all 52 dealt: no card can be in two hands
    if (north | east | south | west) != FULL_MASK or north.bit_count() != 13 or \
            east.bit_count() != 13 or south.bit_count() != 13 or west.bit_count() != 13:
        return None
    at = _SEAT_PREFIX[seat]
    if at == 0:
        return north, east, south, west
    masks = (north, east, south, west)  # as written, from the first seat
    return masks[-at], masks[1 - at], masks[2 - at], masks[3 - at]


def _learn(holding: str) -> bool:
    """Remember a holding written the usual way; False for any other."""
    known = _holding(holding)
    if known is None or not known[2]:
        return False
    for place, table in enumerate(_USUAL):
        table[holding] = known[0] << (39 - 13 * place)
    return True


def parse_deal(value: str) -> tuple[tuple[int, int, int, int], tuple[tuple[Card, ...], ...] | None]:
    """Masks N E S W of a deal string and the cards as written when they are
    not in the usual order (else None). Blanks around the value are allowed.
    Raises TextProblem at the offending character."""
    quick = quick_full_deal(value)
    if quick is not None:
        return quick, None
    text = value.strip()
    base = len(value) - len(value.lstrip())
    first, start = Seat.NORTH, 0
    if text[1:2] == ":":
        seat = seat_of(text[0])
        if seat is None:
            raise TextProblem(f"bad first seat {quote(text[0])} (N, E, S or W)", base)
        first, start = seat, 2
    hands = text[start:].split()
    if len(hands) != 4:
        raise TextProblem(f"a deal needs 4 hands, got {len(hands)}",
                          base + (len(text) if len(hands) < 4 else _word_start(text, start, 4)))
    masks = [0, 0, 0, 0]
    counts: list[int | None] = [None, None, None, None]
    canonical = True
    seen = 0
    for index, hand in enumerate(hands):
        owner = (first + index) % 4
        if hand == "-":
            continue
        mask = 0
        count = 0
        suits = hand.split(".")
        if len(suits) == 4:
            for suit, holding in zip(SUITS_HIGH_FIRST, suits, strict=True):
                known = _HOLDINGS.get(holding)
                if known is None:
                    known = _holding(holding)
                    if known is None:
                        break
                bits, length, ordered = known
                mask |= bits << (13 * suit)
                count += length
                canonical = canonical and ordered
            else:
                if count <= 13 and not seen & mask:
                    masks[owner], counts[owner] = mask, count
                    seen |= mask
                    continue
        _hand_problem(text, base, start, index, hand, seen, Seat(owner))
    _check_lengths(text, base, start, counts, first)
    result = (masks[0], masks[1], masks[2], masks[3])
    if canonical:
        return result, None
    return result, tuple(_written_order(hands[(seat - first) % 4]) for seat in range(4))


def _holding(text: str) -> tuple[int, int, bool] | None:
    """A suit holding's bits, length and whether it is written high to low;
    None when it has a bad or repeated rank (the slow path says which)."""
    bits = 0
    ordered = True
    last = 1 << 13
    for char in text:
        bit = _RANK_BITS.get(char)
        if bit is None or bits & bit:
            return None
        ordered = ordered and bit < last
        last = bit
        bits |= bit
    if len(_HOLDINGS) > 50_000:
        _HOLDINGS.clear()
    known = (bits, len(text), ordered)
    _HOLDINGS[text] = known
    return known


def _word_start(text: str, start: int, index: int) -> int:
    return [m.start() for m in re.finditer(r"\S+", text[start:])][index] + start


def _hand_problem(text: str, base: int, start: int, index: int, hand: str, seen: int,
                  seat: Seat) -> None:
    """Raise the problem of a hand that failed the quick checks, at its card."""
    offset = base + _word_start(text, start, index)
    suits = hand.split(".")
    if len(suits) != 4:
        raise TextProblem(f"a hand needs 4 suits separated by '.', got {len(suits)}", offset)
    count = 0
    earlier = seen  # the cards of the hands before this one
    for suit, holding in zip(SUITS_HIGH_FIRST, suits, strict=True):
        for char in holding:
            bit = _RANK_BITS.get(char)
            if bit is None:
                raise TextProblem(f"bad rank character {quote(char)}", offset)
            card = Card(suit * 13 + bit.bit_length() - 1)
            if earlier >> card & 1:
                raise TextProblem(f"card {card} is in two hands", offset)
            if seen >> card & 1:
                raise TextProblem(f"card {card} written twice in one hand", offset)
            seen |= 1 << card
            count += 1
            if count == 14:
                raise TextProblem(f"{seat.name_title} has more than 13 cards (over 13 from here)",
                                  offset)
            offset += 1
        offset += 1
    raise AssertionError("a hand failed the quick checks but not the slow ones")


def lengths_problem(masks: tuple[int, int, int, int]) -> str | None:
    """Why four hands are no PBN deal: three hands of 13 cards and a fourth
    of fewer (but some) is a full deal with cards missing, not an end
    position. Other partial deals are fine (an empty hand is written '-')."""
    counts = [mask.bit_count() for mask in masks]
    short = [seat for seat in range(4) if 0 < counts[seat] < 13]
    if counts.count(13) == 3 and short:
        seat = Seat(short[0])
        return (f"{seat.name_title} has {counts[seat]} cards and the other hands 13: "
                "a full deal needs 13 cards a hand")
    return None


def _check_lengths(text: str, base: int, start: int, counts: list[int | None],
                   first: Seat) -> None:
    """Three hands of 13 cards and a fourth written with fewer: an error at
    the short hand (an end position has no hand of 13)."""
    if counts.count(13) != 3:
        return
    for index in range(4):
        seat = Seat((first + index) % 4)
        count = counts[seat]
        if count is not None and count < 13:
            raise TextProblem(
                f"{seat.name_title} has {count} cards and the other hands 13: "
                "a full deal needs 13 cards a hand", base + _word_start(text, start, index))


def _written_order(hand: str) -> tuple[Card, ...]:
    if hand == "-":
        return ()
    cards: list[Card] = []
    for suit, holding in zip(SUITS_HIGH_FIRST, hand.split("."), strict=True):
        cards.extend(Card(suit * 13 + RANK_CHARS.index(c.upper())) for c in holding)
    return tuple(cards)


def deal_string(masks: tuple[int, ...], first: Seat = Seat.NORTH,
                order: tuple[tuple[Card, ...], ...] | None = None) -> str:
    """``N:...`` clockwise from ``first``; an empty hand is ``-`` when other
    hands hold cards."""
    in_play = masks[0] | masks[1] | masks[2] | masks[3]
    parts = []
    for index in range(4):
        seat = (first + index) % 4
        if masks[seat] == 0 and in_play:
            parts.append("-")
            continue
        cards = order[seat] if order is not None else tuple(cards_of_mask(masks[seat]))
        parts.append(".".join("".join(c.rank_char for c in cards if c.suit == suit)
                              for suit in SUITS_HIGH_FIRST))
    return f"{SEAT_CHARS[first]}:" + " ".join(parts)


# -- section tokens -----------------------------------------------------------------

_CALL = re.compile(r"(?i)(pass|p|xx|x|[1-7](?:nt|[cdhsn]))([!?]{0,2})")
_CARD = re.compile(r"(?i)([shdc])(10|[2-9tjqka])([!?]{0,2})")
# A note reference (=1=), a NAG ($3), a suffix written apart (!, ?!):
# says nothing of the auction or the play.
REMARK_WORD = re.compile(r"=\d+=|\$\d+|[!?]{1,2}")
_IRREGULAR = re.compile(r"\^[A-Za-z]")


def _is_remark(word: str) -> bool:
    return REMARK_WORD.fullmatch(word) is not None


# -- the auction ------------------------------------------------------------------

_AUCTION_WORDS: dict[str, Call | str] = {}


def _auction_word(word: str) -> Call | str:
    """What an auction token is: a Call, "AP", "-", "^" (an irregularity
    mark), "" (a remark or end mark) or "?" (none of those). Remembered:
    an auction uses few distinct tokens."""
    known = _AUCTION_WORDS.get(word)
    if known is not None:
        return known
    kind: Call | str
    if _IRREGULAR.fullmatch(word):
        kind = "^"
    elif word in ("*", "+") or _is_remark(word):
        kind = ""
    elif word == "-":
        kind = "-"
    elif word.upper() == "AP":
        kind = "AP"
    else:
        match = _CALL.fullmatch(word)
        kind = Call.from_str(match.group(1)) if match else "?"
    if len(_AUCTION_WORDS) < 10_000:
        _AUCTION_WORDS[word] = kind
    return kind

class _AuctionState:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.last_bid: Call | None = None
        self.last_bid_by = -1  # index in calls
        self.doubled = 0  # 0, 2 (X) or 4 (XX) on the last bid
        self.last_action_by = -1  # index of the last bid, double or redouble
        self.passes = 0

    @property
    def ended(self) -> bool:
        if self.last_bid is None:
            return self.passes >= 4
        return self.passes >= 3

    def problem(self, call: Call) -> str | None:
        """Why ``call`` may not be made now, or None."""
        if self.ended:
            return "a call after the auction ended"
        index = len(self.calls)
        if call.is_bid:
            if self.last_bid is not None and call <= self.last_bid:
                return f"insufficient bid: {call} after {self.last_bid}"
            return None
        if int(call) == 2:
            if self.last_bid is None:
                return "a double before any bid"
            if self.doubled:
                return f"a double of {self.last_bid}, doubled already"
            if (index - self.last_bid_by) % 2 == 0:
                return f"a double of partner's {self.last_bid}"
            return None
        if int(call) == 4 and (self.doubled != 2 or (index - self.last_action_by) % 2 == 0):
            return "a redouble without an opponent's double"
        return None

    def add(self, call: Call) -> None:
        index = len(self.calls)
        self.calls.append(call)
        if call.is_bid:
            self.last_bid, self.last_bid_by, self.doubled = call, index, 0
            self.last_action_by, self.passes = index, 0
        elif int(call) in (2, 4):
            self.doubled, self.last_action_by, self.passes = int(call), index, 0
        else:
            self.passes += 1

    def close_with_passes(self) -> int:
        """How many passes ``AP`` stands for."""
        return 4 - self.passes if self.last_bid is None else max(0, 3 - self.passes)


# Auctions read before: their tokens -> calls and problems (at token indexes).
# Most auctions of a file are among a few hundred sequences.
_AUCTIONS: dict[tuple[str, ...], tuple[tuple[Call, ...] | None, list[Problem]]] = {}


def read_auction(words: list[tuple[str, int]]) -> tuple[tuple[Call, ...] | None, list[Problem]]:
    """Calls of an auction section's tokens (``AP`` expanded), or None when a
    call is unknown (``-``) or not a call; and the rule breaks found."""
    key = tuple(word for word, _ in words)
    known = _AUCTIONS.get(key)
    if known is None:
        known = _auction_of(key)
        if len(_AUCTIONS) < 10_000:
            _AUCTIONS[key] = known
    calls, problems = known
    return calls, [problem._replace(offset=words[problem.offset][1]) for problem in problems]


def _auction_of(words: tuple[str, ...]) -> tuple[tuple[Call, ...] | None, list[Problem]]:
    """read_auction on the tokens alone: problems at token indexes."""
    state = _AuctionState()
    problems: list[Problem] = []
    known = True
    pending: Problem | None = None  # a problem waiting for a '^' mark
    for index, word in enumerate(words):
        kind = _auction_word(word)
        if kind == "^":
            pending = None
            continue
        if pending is not None:
            problems.append(pending)
            pending = None
        if kind == "":
            continue
        if kind == "-":
            known = False
            continue
        if kind == "AP":
            for _ in range(state.close_with_passes()):
                state.add(Call(1))
            continue
        if isinstance(kind, str):  # "?", the last kind that is no call
            problems.append(Problem(f"not a call: {quote(word)}", index, NOT_A_CALL))
            known = False
            continue
        call = kind
        if known:
            why = state.problem(call)
            if why is not None:
                pending = Problem(why, index)
        state.add(call)
    if pending is not None:
        problems.append(pending)
    return (tuple(state.calls) if known else None), problems


# -- the play ---------------------------------------------------------------------

_CARDS = tuple(Card(index) for index in range(52))
_SEAT_NAMES = tuple(seat.name_title for seat in Seat)
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_UNKNOWN_CARD, _MARK, _REMARK, _NOT_A_CARD = -1, -2, -3, -4
_PLAY_WORDS: dict[str, int] = {}


def _play_word(word: str) -> int:
    """A play token as a card number 0-51, or what else it is (_UNKNOWN_CARD
    for '-', _MARK for an irregularity mark, _REMARK, _NOT_A_CARD).
    Remembered: a play has few distinct tokens."""
    known = _PLAY_WORDS.get(word)
    if known is not None:
        return known
    if _IRREGULAR.fullmatch(word):
        kind = _MARK
    elif word in ("*", "+") or _is_remark(word):
        kind = _REMARK
    elif word == "-":
        kind = _UNKNOWN_CARD
    else:
        match = _CARD.fullmatch(word)
        if match is None:
            kind = _NOT_A_CARD
        else:
            rank = "T" if match.group(2) == "10" else match.group(2).upper()
            kind = int(Card.from_str(match.group(1) + rank))
    if len(_PLAY_WORDS) < 10_000:
        _PLAY_WORDS[word] = kind
    return kind


def read_play(words: list[tuple[str, int]], leader: Seat, trumps: Strain | None,
              masks: tuple[int, int, int, int]) -> tuple[tuple[Card, ...] | None, list[Problem]]:
    """Cards of a play section in the order they were played, or None when
    that order cannot be known (a card unknown or out of place, the
    contract's strain unknown); and the rule breaks found.

    The section lists tricks by seat, starting with ``leader``'s column;
    each trick is led by the winner of the one before."""
    columns: list[tuple[int, int]] = []  # card (or _UNKNOWN_CARD), offset
    problems: list[Problem] = []
    marked: set[int] = set()  # columns whose card carries an irregularity mark
    usable = True
    for word, offset in words:
        kind = _play_word(word)
        if kind >= _UNKNOWN_CARD:
            columns.append((kind, offset))
        elif kind == _MARK:
            marked.add(len(columns) - 1)
        elif kind == _NOT_A_CARD:
            problems.append(Problem(f"not a card: {quote(word)}", offset, NOT_A_CARD))
            usable = False
    trump = -1 if trumps is None or trumps == Strain.NOTRUMP else int(trumps)
    play, rule_breaks = _follow(columns, int(leader), trump, masks, marked)
    problems.extend(rule_breaks)
    return (play if usable and trumps is not None else None), problems


def _owners(masks: tuple[int, int, int, int]) -> list[int]:
    """The seat holding each card, -1 for none."""
    owner = [-1] * 52
    for seat, mask in enumerate(masks):
        while mask:
            low = mask & -mask
            owner[low.bit_length() - 1] = seat
            mask ^= low
    return owner


def _winner(cards: list[int], trump: int) -> int:
    """Index of the winning card of a full trick (cards as numbers)."""
    best = 0
    for index in (1, 2, 3):
        card, top = cards[index], cards[best]
        if card // 13 == top // 13:
            if card > top:
                best = index
        elif card // 13 == trump:
            best = index
    return best


def _follow(columns: list[tuple[int, int]], leader: int, trump: int,
            masks: tuple[int, int, int, int],
            marked: set[int]) -> tuple[tuple[Card, ...] | None, list[Problem]]:
    hands = list(masks)
    owner = _owners(masks)
    played = 0  # mask of the cards played so far
    problems: list[Problem] = []
    order: list[int] = []
    in_order = True
    on_lead = leader
    for start in range(0, len(columns), 4):
        trick = columns[start:start + 4]
        by_seat: dict[int, int] = {}  # seat -> card
        for index, (card, _) in enumerate(trick):
            if card >= 0:
                by_seat[(leader + index) & 3] = card
        for index, (card, offset) in enumerate(trick):
            if card < 0 or start + index in marked:
                continue
            why = _card_problem(card, (leader + index) & 3, owner, played, hands,
                                by_seat.get(on_lead), on_lead)
            if why is not None:
                problems.append(Problem(why, offset))
                in_order = False
        for card in by_seat.values():
            played |= 1 << card
            if owner[card] >= 0:
                hands[owner[card]] &= ~(1 << card)
        seats = [(on_lead + i) & 3 for i in range(4)]
        if len(by_seat) < 4 or len(trick) < 4:
            cut = next((i for i, seat in enumerate(seats) if seat not in by_seat), 4)
            order.extend(by_seat[seat] for seat in seats[:cut])
            if start + 4 < len(columns) or any(seat in by_seat for seat in seats[cut:]):
                in_order = False
            break
        cards = [by_seat[seat] for seat in seats]
        order.extend(cards)
        on_lead = seats[_winner(cards, trump)]
    return (tuple(_CARDS[c] for c in order) if in_order else None), problems


def _card_problem(card: int, seat: int, owner: list[int], played: int, hands: list[int],
                  lead: int | None, on_lead: int) -> str | None:
    """Why ``seat`` may not play ``card`` (as a number), or None; ``lead``
    is the card led to this trick by ``on_lead``."""
    holder = owner[card]
    if played >> card & 1:
        return f"card {_CARDS[card]} was played already"
    if holder < 0:
        if not hands[seat]:
            return None  # an unknown hand ('-' in the Deal): nothing to check
        return f"card {_CARDS[card]} is in no hand of the deal"
    if holder != seat:
        return (f"card {_CARDS[card]} is {_SEAT_NAMES[holder]}'s, but it is in "
                f"{_SEAT_NAMES[seat]}'s column")
    if lead is not None and seat != on_lead:
        led = lead // 13
        if card // 13 != led and hands[seat] >> (13 * led) & SUIT_MASK:
            return (f"card {_CARDS[card]} is a revoke: {_SEAT_NAMES[seat]} holds "
                    f"{_SUIT_NAMES[led]}")
    return None


def contract_strain(contract: str | None, auction: tuple[Call, ...] | None) -> Strain | None:
    """The strain of a Contract value (``4HX``, ``3NT``), else of the last bid."""
    if contract is not None:
        match = re.fullmatch(r"\s*[1-7](NT|N|S|H|D|C)X{0,2}\s*", contract.upper())
        if match:
            return Strain.from_text(match.group(1))
    for call in reversed(auction or ()):
        if call.is_bid:
            return call.strain
    return None
