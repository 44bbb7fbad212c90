"""Writing PBN files: each game as it was read when the deal still says
what was read, else its tags made again (a deal from another format: its
game record's tags)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dealerpp.deals._io import piece_writers
from dealerpp.deals.formats.pbn.checks import lengths_problem, parse_deal, seat_of
from dealerpp.deals.formats.pbn.deal_text import (
    VUL_NAMES,
    auction_section,
    contract_strain,
    deal_string,
    parse_auction,
    parse_play,
    play_section,
)
from dealerpp.deals.formats.pbn.game import (
    PbnComment,
    PbnGame,
    PbnInfo,
    PbnItem,
    PbnTag,
    escape,
    info_of,
)
from dealerpp.deals.formats.pbn.lexer import TAG, WORD
from dealerpp.deals.formats.pbn.tricks import ddt_of_tricks
from dealerpp.deals.model import Deal, Seat
from dealerpp.deals.numbers import digits_value
from dealerpp.diagnostics import DppError, TextProblem

# -- writing --------------------------------------------------------------------

def format_game(deal: Deal, match_is_new: bool = True) -> str:
    """One game's text (tags, sections, comments), ending with a newline.
    ValueError for a deal PBN cannot hold (hands of unequal lengths). A deal
    with a game record (``deal.game``) and no PBN of its own has the tags
    that say it (dealerpp.deals.formats.pbn.game_record); ``match_is_new``: it is
    the first game of its match in the output."""
    info = info_of(deal)
    if isinstance(info, PbnGame) and _fields(deal) == info.derived:
        return info.text + "\n"
    problem = lengths_problem(deal.masks)
    if problem is not None:
        raise ValueError(problem)
    if isinstance(info, PbnGame):
        return _rewritten(deal, info)
    items = list(info.items) if info else []
    if info is None and deal.game is not None:
        from dealerpp.deals.formats.pbn.game_record import pbn_items

        items = pbn_items(deal, deal.game, match_is_new)
    if not any(isinstance(i, PbnTag) for i in items) and info is not None and not deal.auction \
            and not deal.play and deal.board is None and deal.dealer is None and deal.vul is None:
        # A bare deal string read from a pbnin-style line: keep it bare.
        head = "".join(_comment_text(i) for i in items if isinstance(i, PbnComment))
        return head + deal_string(deal, prefix=False) + "\n"
    return "".join(_item_text(item) for item in _updated(deal, items, _wanted(deal)))


def _fields(deal: Deal) -> tuple[object, ...]:
    return (deal.masks, deal.board, deal.dealer, deal.vul, deal.auction, deal.play, deal.order,
            deal.tricks)


def _wanted(deal: Deal, changed: set[str] | None = None) -> dict[str, tuple[str, str]]:
    """Tag values (and sections) that say what the deal says; only those of
    ``changed`` when given."""
    wanted: dict[str, tuple[str, str]] = {}
    if deal.board is not None:
        wanted["Board"] = (str(deal.board), "")
    if deal.dealer is not None:
        wanted["Dealer"] = (str(deal.dealer), "")
    if deal.vul is not None:
        wanted["Vulnerable"] = (str(deal.vul), "")
    wanted["Deal"] = (deal_string(deal), "")
    if deal.auction:
        wanted["Auction"] = (str(deal.dealer or Seat.NORTH), auction_section(deal.auction))
    if deal.play:
        section = play_section(deal)
        if section is not None:
            wanted["Play"] = section
    ddt = ddt_of_tricks(deal.tricks) if deal.tricks is not None else None
    if ddt is not None:
        wanted["DoubleDummyTricks"] = (ddt, "")
    if changed is not None:
        wanted = {name: value for name, value in wanted.items() if name in changed}
    return wanted


_FIELD_TAGS = ("Deal", "Board", "Dealer", "Vulnerable", "Auction", "Play", "Deal",
               "DoubleDummyTricks")


def _rewritten(deal: Deal, game: PbnGame) -> str:
    """The game's text with the tags whose meaning changed written anew (in
    place, the rest of the text as it was) and missing ones added."""
    changed = {_FIELD_TAGS[i] for i, (a, b) in enumerate(zip(_fields(deal), game.derived,
                                                             strict=True)) if a != b}
    wanted = _wanted(deal, changed)
    text = game.text
    pieces: list[str] = []
    position = 0
    for entry in game.entries():
        if entry.kind == TAG and entry.name in wanted:
            value, section = wanted.pop(entry.name)
            section = section or (text[entry.section_start:entry.section_end]
                                  if entry.section_start >= 0 else "")
            pieces.append(text[position:entry.start])
            pieces.append(f'[{entry.name} "{escape(value)}"]' + (f"\n{section}" if section else ""))
            position = entry.end
    pieces.append(text[position:])
    body = "".join(pieces)
    added = "".join(_item_text(PbnTag(name, value, section))
                    for name, (value, section) in wanted.items())
    return body + "\n" + added


def _updated(deal: Deal, items: list[PbnItem], wanted: dict[str, tuple[str, str]]) -> list[PbnItem]:
    """Items with Board, Dealer, Vulnerable, Deal, Auction and Play made to
    agree with the deal, keeping values that already mean the same."""
    out: list[PbnItem] = []
    for item in items:
        if isinstance(item, PbnTag) and item.name in wanted:
            value, section = wanted.pop(item.name)
            if not _same(deal, item, value):
                item = PbnTag(item.name, value, section or item.section)
        out.append(item)
    out.extend(PbnTag(name, value, section) for name, (value, section) in wanted.items())
    return out


def _same(deal: Deal, item: PbnTag, value: str) -> bool:
    """Does the existing tag already say what the deal says?"""
    if item.name == "Deal":
        try:
            return parse_deal(item.value) == (deal.masks, deal.order)
        except TextProblem:
            return False
    if item.name == "Vulnerable":
        return VUL_NAMES.get(item.value.strip().upper()) == deal.vul
    if item.name == "Auction":
        try:
            return item.value == value and parse_auction(item.section) == deal.auction
        except ValueError:
            return False
    if item.name == "Play":
        return True if not deal.play else _play_matches(deal, item)
    if item.name == "Board":
        board = digits_value(item.value.strip())
        return board is not None and board == deal.board
    return item.value.strip().upper() == value.upper()


def _play_matches(deal: Deal, item: PbnTag) -> bool:
    info = info_of(deal) or PbnInfo()
    trumps = contract_strain(info, deal.auction)
    leader = seat_of(item.value)
    if trumps is None or leader is None:
        return False
    try:
        return parse_play(item.section, leader, trumps) == deal.play
    except ValueError:
        return False


def _item_text(item: PbnItem) -> str:
    if isinstance(item, PbnComment):
        return _comment_text(item)
    text = f'[{item.name} "{escape(item.value)}"]\n'
    if item.section:
        text += item.section + "\n"
    return text


def _comment_text(item: PbnComment) -> str:
    if item.kind == "%":
        return f"%{item.text}\n"
    if item.kind == ";":
        return f";{item.text}\n"
    return f"{{{item.text}}}\n"


def _pieces(deals: Iterable[Deal]) -> Iterator[str]:
    """The games' texts, a blank line between them. A game read from the
    middle of a file may start with a byte-order mark (two files joined);
    at the start of the output a reader would take it for the file's own
    mark and drop it, so it is not written there."""
    match = None
    for index, deal in enumerate(deals):
        # a game read from PBN is written from its own text: its record
        # (worked out only when asked) is not looked at
        game = None if info_of(deal) is not None else deal.game
        new_match = game is not None and game.match not in (None, match)
        if new_match:
            match = game.match  # type: ignore[union-attr]
        text = game_text(deal, index + 1, new_match)
        yield "\n" + text if index else text.removeprefix("\ufeff")


def game_text(deal: Deal, index: int, match_is_new: bool = True) -> str:
    """format_game, its ValueError a DppError naming the game in its
    fields: ``index`` (its number in the output), its board, and the line
    it was read at when known (``read_line``)."""
    try:
        return format_game(deal, match_is_new)
    except ValueError as error:
        info = info_of(deal)
        read_line = _line_of_first_tag(info) if isinstance(info, PbnGame) else None
        raise DppError(str(error), deal=index, board=deal.board, output=True,
                       read_line=read_line) from None


def _line_of_first_tag(game: PbnGame) -> int:
    """The line of a game's first tag, or of its hands for a bare deal line
    (``%`` lines and comments before it belong to the game, but that is
    where a reader looks for it); its first line when it has neither."""
    first = next((entry for entry in game.entries() if entry.kind in (TAG, WORD)), None)
    return game.line + (game.text.count("\n", 0, first.start) if first is not None else 0)


# The deals as a PBN file, each game as it was read (or made); for the PBN 2.1
# export format see dealerpp.deals.formats.pbn.export.
write, dumps = piece_writers(_pieces)

