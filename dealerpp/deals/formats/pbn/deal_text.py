"""The model as PBN text and back: a deal string, an auction section and a
play section, as the PBN writer (:mod:`dealerpp.deals.formats.pbn.writer`)
and the game record's tags (:mod:`dealerpp.deals.formats.pbn.game_record`)
write them, and as a library user parses them (``parse_auction``,
``parse_play``, ``deal_from_string``)."""

from __future__ import annotations

from dealerpp.deals.formats.pbn.checks import (
    NOT_A_CALL,
    NOT_A_CARD,
    parse_deal,
    read_auction,
    read_play,
)
from dealerpp.deals.formats.pbn.checks import contract_strain as _strain_of
from dealerpp.deals.formats.pbn.lexer import WORD, tokens
from dealerpp.deals.model import (
    RANK_CHARS,
    SEAT_CHARS,
    SUITS_HIGH_FIRST,
    Call,
    Card,
    Deal,
    Seat,
    Strain,
    Vul,
    deal_trumps,
    trick_winner,
)
from dealerpp.diagnostics import TextProblem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dealerpp.deals.formats.pbn.game import PbnInfo

# A Vulnerable tag's values (upper-cased, without blanks around them).
VUL_NAMES = {"NONE": Vul.NONE, "LOVE": Vul.NONE, "-": Vul.NONE, "NS": Vul.NS, "EW": Vul.EW,
             "ALL": Vul.BOTH, "BOTH": Vul.BOTH}


def deal_string(deal: Deal, first: Seat = Seat.NORTH, prefix: bool = True) -> str:
    """``N:...`` (or four hands N E S W without the prefix), cards in the
    deal's own order when it has one."""
    parts = []
    for i in range(4):
        seat = (first + i) % 4
        if deal.masks[seat] == 0 and deal.in_play:
            parts.append("-")
            continue
        held: list[list[str]] = [[], [], [], []]  # rank characters by suit, clubs first
        for card in deal.cards_in_order(seat):  # one pass: no Suit made a card
            held[card // 13].append(RANK_CHARS[card % 13])
        parts.append(".".join("".join(held[suit]) for suit in SUITS_HIGH_FIRST))
    body = " ".join(parts)
    return f"{SEAT_CHARS[first]}:{body}" if prefix else body


def auction_section(auction: tuple[Call, ...]) -> str:
    rows = [auction[i:i + 4] for i in range(0, len(auction), 4)]
    return "\n".join(" ".join(str(c) for c in row) for row in rows)


def play_section(deal: Deal) -> tuple[str, str] | None:
    """Play tag value and section for the deal's play, or None when the
    contract's strain is unknown (PBN lists tricks by seat, not in time order)."""
    trumps = deal_trumps(deal)
    first = deal.owner(deal.play[0])
    if trumps is None or first is None:
        return None
    rows: list[str] = []
    on_lead = first
    for start in range(0, len(deal.play), 4):
        trick = deal.play[start:start + 4]
        by_seat = {on_lead.next(i): card for i, card in enumerate(trick)}
        rows.append(" ".join(str(by_seat[first.next(i)]) if first.next(i) in by_seat else "-"
                             for i in range(4)))
        if len(trick) == 4:
            on_lead = on_lead.next(trick_winner(list(trick), trumps))
    return str(first), "\n".join(rows)


# -- deal strings -------------------------------------------------------------

def parse_deal_string(text: str) -> tuple[tuple[int, int, int, int], tuple[tuple[Card, ...], ...] | None]:
    """Masks N E S W of a deal string, and the cards as written when the
    order is not the canonical one (else None). Raises TextProblem."""
    return parse_deal(text)


def deal_from_string(text: str, **meta: object) -> Deal:
    """A deal from a deal string; ValueError (TextProblem) when it is not one."""
    masks, order = parse_deal_string(text.strip())
    return Deal(masks, order=order, **meta)  # type: ignore[arg-type]


# -- sections as text ---------------------------------------------------------

def _words(section: str) -> list[tuple[str, int]]:
    return [(t[3], t[1]) for t in tokens(section) if t[0] == WORD]


def parse_auction(section: str) -> tuple[Call, ...]:
    """Calls of an auction section; notes (``=1=``), NAGs (``$1``), ``!``/``?``
    suffixes, irregularity marks and the ``*`` end mark are passed over;
    ``AP`` closes the auction. ValueError on a token that is no call or an
    unknown call (``-``)."""
    calls, problems = read_auction(_words(section))
    for problem in problems:
        if problem.kind == NOT_A_CALL:
            raise TextProblem(problem.message, problem.offset, problem.kind)
    if calls is None:
        raise ValueError("the auction has an unknown call ('-')")
    return calls


def contract_strain(info: PbnInfo, auction: tuple[Call, ...]) -> Strain | None:
    """The contract's strain from the Contract tag, else from the auction."""
    tag = info.tag("Contract")
    return _strain_of(tag.value if tag else None, auction)


def parse_play(section: str, leader: Seat, trumps: Strain) -> tuple[Card, ...]:
    """Play section (tricks as rows of four, columns from ``leader``) to
    cards in time order: each trick is led by the previous winner. Cards are
    not checked against a deal here; ValueError on a token that is no card
    or a gap before the last trick."""
    words = _words(section)
    owners = (0, 0, 0, 0)
    play, problems = read_play(words, leader, trumps, owners)
    bad = [problem for problem in problems if problem.kind == NOT_A_CARD]
    if bad:
        raise TextProblem(bad[0].message, bad[0].offset, bad[0].kind)
    if play is None:
        raise ValueError("the play has a gap before its last trick")
    return play
