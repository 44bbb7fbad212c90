"""PBN: deal strings and PBN files (import rules of PBN 2.1).

Deal strings are ``F:h1 h2 h3 h4`` (clockwise from seat F, ``-`` for an
unknown hand) or, as in seed 003, four hands N E S W without ``F:``.

A file is a sequence of games separated by blank lines. Each game is tag
pairs ``[Name "value"]`` (``\\"`` and ``\\\\`` the only escapes, ``#`` copies
the previous game's value), each optionally followed by a section (the
auction, the play, a table); ``;`` and ``{}`` comments and ``%`` lines are
kept as items in order. A line holding only a deal string outside a game
(the seed-003 ``pbnin`` layout) is a game of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from dealerpp.deals._io import Source, Target, TextSink, source_name, text_lines
from dealerpp.deals.model import (
    RANK_CHARS,
    SEAT_CHARS,
    SUITS_HIGH_FIRST,
    Call,
    Card,
    Deal,
    PbnComment,
    PbnInfo,
    PbnItem,
    PbnTag,
    Seat,
    Strain,
    Vul,
    cards_of_mask,
    check_play,
    deal_trumps,
    gib_to_ddt,
    mask_problem,
    trick_winner,
)
from dealerpp.diagnostics import DppError

_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_VULS = {"NONE": Vul.NONE, "LOVE": Vul.NONE, "-": Vul.NONE, "NS": Vul.NS, "EW": Vul.EW,
         "ALL": Vul.BOTH, "BOTH": Vul.BOTH}


class PbnSyntax(ValueError):
    """A problem at a character offset of a parsed string (0-based)."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset


# -- deal strings -------------------------------------------------------------

def parse_deal_string(text: str) -> tuple[tuple[int, int, int, int], tuple[tuple[Card, ...], ...] | None]:
    """Masks N E S W of a deal string, and the cards as written when the
    order is not the canonical one (else None). Raises PbnSyntax."""
    first, start = Seat.NORTH, 0
    if len(text) > 1 and text[1] == ":":
        if text[0].upper() not in SEAT_CHARS:
            raise PbnSyntax(f"bad first seat {text[0]!r} (N, E, S or W)", 0)
        first, start = Seat.from_char(text[0]), 2
    hands = list(re.finditer(r"\S+", text[start:]))
    if len(hands) != 4:
        raise PbnSyntax(f"a deal needs 4 hands, got {len(hands)}", start)
    masks = [0, 0, 0, 0]
    orders: list[tuple[Card, ...]] = [(), (), (), ()]
    for i, match in enumerate(hands):
        seat = (first + i) % 4
        cards = _hand_cards(match.group(), start + match.start())
        orders[seat] = cards
        for card in cards:
            masks[seat] |= 1 << card
    result = (masks[0], masks[1], masks[2], masks[3])
    problem = mask_problem(result)
    if problem:
        raise PbnSyntax(problem, start)
    canonical = all(orders[s] == tuple(cards_of_mask(masks[s])) for s in range(4))
    return result, None if canonical else tuple(orders)


def _hand_cards(text: str, offset: int) -> tuple[Card, ...]:
    if text == "-":
        return ()
    suits = text.split(".")
    if len(suits) != 4:
        raise PbnSyntax(f"a hand needs 4 suits separated by '.', got {len(suits)}", offset)
    cards: list[Card] = []
    for suit, part in zip(SUITS_HIGH_FIRST, suits, strict=True):
        for char in part:
            rank = RANK_CHARS.find(char.upper())
            if rank < 0:
                raise PbnSyntax(f"bad rank character {char!r}", offset)
            card = Card(suit * 13 + rank)
            if card in cards:
                raise PbnSyntax(f"card {card} written twice", offset)
            cards.append(card)
            offset += 1
        offset += 1
    return tuple(cards)


def deal_from_string(text: str, **meta: object) -> Deal:
    """A deal from a deal string; ValueError (PbnSyntax) when it is not one."""
    masks, order = parse_deal_string(text.strip())
    return Deal(masks, order=order, **meta)  # type: ignore[arg-type]


def deal_string(deal: Deal, first: Seat = Seat.NORTH, prefix: bool = True) -> str:
    """``N:...`` (or four hands N E S W without the prefix), cards in the
    deal's own order when it has one."""
    parts = []
    for i in range(4):
        seat = (first + i) % 4
        mask = deal.masks[seat]
        if mask == 0 and deal.in_play:
            parts.append("-")
            continue
        cards = deal.cards_in_order(seat)
        parts.append(".".join("".join(c.rank_char for c in cards if c.suit == suit)
                              for suit in SUITS_HIGH_FIRST))
    body = " ".join(parts)
    return f"{SEAT_CHARS[first]}:{body}" if prefix else body


# -- reading files ------------------------------------------------------------

@dataclass
class _Game:
    items: list[PbnItem] = field(default_factory=list)
    line: int = 0  # where the game starts
    source_line: str = ""
    tag_lines: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    section_open: bool = False  # a section token followed the last tag

    def has_tags(self) -> bool:
        return any(isinstance(i, PbnTag) for i in self.items)


class _Reader:
    def __init__(self, source: Source, filename: str | None) -> None:
        self.name = source_name(source, filename)
        self.lines = text_lines(source)
        self.previous: dict[str, str] = {}

    def error(self, message: str, line: int, column: int | None, text: str | None) -> DppError:
        return DppError(message, line=line, column=column, filename=self.name, source_line=text)

    def deals(self) -> Iterator[Deal]:
        game = _Game()
        brace: tuple[int, int, str, list[str]] | None = None  # line, column, text, parts
        for number, line in enumerate(self.lines, 1):
            if brace is not None:
                close = line.find("}")
                if close < 0:
                    brace[3].append(line)
                    continue
                brace[3].append(line[:close])
                self._comment(game, "{", "\n".join(brace[3]))
                brace = None
                rest_start = close + 1
            else:
                rest_start = 0
                if line.startswith("%"):
                    game.items.append(PbnComment("%", line[1:]))
                    game.section_open = False
                    continue
                if not line.strip():
                    if game.has_tags():
                        yield self._finish(game)
                        game = _Game()
                    continue
                stripped = line.strip()
                if not game.has_tags() and not stripped.startswith(("[", "{", ";")):
                    yield self._bare_deal(game, line, number)
                    game = _Game()
                    continue
            brace = self._line(game, line, number, rest_start)
        if brace is not None:
            raise self.error("comment not closed: '{' without '}'", brace[0], brace[1], brace[2])
        if game.has_tags():
            yield self._finish(game)
        elif any(not (isinstance(i, PbnComment) and i.kind == "%") for i in game.items):
            raise self.error("comment after the last game, not attached to any deal",
                             game.line or 1, None, None)

    def _bare_deal(self, game: _Game, line: str, number: int) -> Deal:
        """A line with just a deal string (seed 003 ``pbnin``)."""
        text = line.strip()
        try:
            masks, order = parse_deal_string(text)
        except PbnSyntax as error:
            column = len(line) - len(line.lstrip()) + error.offset + 1
            raise self.error(f"not a deal string or tag: {error}", number, column, line) from None
        info = PbnInfo(tuple(game.items)) if game.items else None
        return Deal(masks, order=order, pbn=info)

    def _comment(self, game: _Game, kind: str, text: str) -> None:
        item = PbnComment(kind, text)
        tag = game.items[-1] if game.items else None
        if game.section_open and isinstance(tag, PbnTag):
            # A comment inside a section stays in the section's raw text.
            wrapped = f"{{{text}}}" if kind == "{" else f";{text}"
            game.items[-1] = PbnTag(tag.name, tag.value, _join(tag.section, wrapped))
        else:
            game.items.append(item)

    def _line(self, game: _Game, line: str, number: int,
              pos: int) -> tuple[int, int, str, list[str]] | None:
        """Tokens of one line; returns an open brace comment if one starts."""
        if not game.line:  # the first line read as tokens ('%' lines come before it)
            game.line, game.source_line = number, line
        while pos < len(line):
            char = line[pos]
            if char in " \t":
                pos += 1
            elif char == ";":
                self._comment(game, ";", line[pos + 1:])
                return None
            elif char == "{":
                close = line.find("}", pos + 1)
                if close < 0:
                    return (number, pos + 1, line, [line[pos + 1:]])
                self._comment(game, "{", line[pos + 1:close])
                pos = close + 1
            elif char == "[":
                pos = self._tag(game, line, number, pos)
            else:
                pos = self._section_token(game, line, number, pos)
        return None

    def _tag(self, game: _Game, line: str, number: int, pos: int) -> int:
        match = _TAG_NAME.match(line, pos + 1 + _spaces(line, pos + 1))
        if not match:
            raise self.error("a tag needs a name after '['", number, pos + 2, line)
        name = match.group()
        cursor = match.end() + _spaces(line, match.end())
        if cursor >= len(line) or line[cursor] != '"':
            raise self.error(f"tag {name}: the value must be a quoted string", number,
                             cursor + 1, line)
        value, cursor = self._string(line, number, cursor)
        cursor += _spaces(line, cursor)
        if cursor >= len(line) or line[cursor] != "]":
            raise self.error(f"tag {name}: ']' expected", number, cursor + 1, line)
        if value == "#":
            if name not in self.previous:
                raise self.error(f"tag {name}: '#' but no previous game has this tag",
                                 number, pos + 1, line)
            value = self.previous[name]
        if name in game.tag_lines:
            raise self.error(f"tag {name} given twice in one game", number, pos + 1, line)
        game.tag_lines[name] = (number, pos + 1, line)
        game.items.append(PbnTag(name, value))
        game.section_open = False
        return cursor + 1

    def _string(self, line: str, number: int, start: int) -> tuple[str, int]:
        out: list[str] = []
        pos = start + 1
        while pos < len(line):
            char = line[pos]
            if char == "\\" and pos + 1 < len(line) and line[pos + 1] in '"\\':
                out.append(line[pos + 1])
                pos += 2
            elif char == '"':
                return "".join(out), pos + 1
            else:
                out.append(char)
                pos += 1
        raise self.error("string not closed: '\"' expected", number, start + 1, line)

    def _section_token(self, game: _Game, line: str, number: int, pos: int) -> int:
        tag_at = _last_tag(game.items)
        if tag_at is None:
            raise self.error(f"unexpected text {line[pos:pos + 10]!r} outside a tag",
                             number, pos + 1, line)
        # Comments between a tag and its first section token join the section
        # so the order of everything stays as read.
        tag = game.items[tag_at]
        assert isinstance(tag, PbnTag)
        section = tag.section
        for item in game.items[tag_at + 1:]:
            assert isinstance(item, PbnComment)
            section = _join_line(section, _comment_text(item).rstrip("\n"))
        del game.items[tag_at + 1:]
        end = pos
        while end < len(line) and line[end] not in " \t;{[":
            end += 1
        token = line[pos:end]
        if section and game.section_open and _last_line(game) == number:
            section += " " + token
        else:
            section = _join_line(section, token)
        game.items[tag_at] = PbnTag(tag.name, tag.value, section)
        game.section_open = True
        game.tag_lines.setdefault(f"{tag.name}#section", (number, pos + 1, line))
        game.tag_lines["#last"] = (number, pos + 1, line)
        return end

    # -- a complete game --------------------------------------------------
    def _finish(self, game: _Game) -> Deal:
        for item in game.items:
            if isinstance(item, PbnTag):
                self.previous[item.name] = item.value
        info = PbnInfo(tuple(game.items))
        deal_tag = info.tag("Deal")
        if deal_tag is None:
            raise self.error("game has no Deal tag", game.line, None, game.source_line)
        try:
            masks, order = parse_deal_string(deal_tag.value)
        except PbnSyntax as error:
            raise self._tag_error("Deal", f"Deal tag: {error}", game) from None
        deal = Deal(masks, order=order)
        meta = self._meta(info, game)
        auction = self._auction(info, game)
        play = self._play(deal, info, auction, game)
        return Deal(masks, auction=auction, play=play, pbn=info, order=order, **meta)

    def _tag_error(self, name: str, message: str, game: _Game) -> DppError:
        line, column, text = game.tag_lines.get(name, (game.line, 1, game.source_line))
        return self.error(message, line, column, text)

    def _meta(self, info: PbnInfo, game: _Game) -> dict[str, object]:
        meta: dict[str, object] = {}
        board = info.tag("Board")
        if board is not None and board.value.strip().isdigit():
            meta["board"] = int(board.value)
        dealer = info.tag("Dealer")
        if dealer is not None and dealer.value not in ("", "?", "-"):
            if dealer.value.upper() not in SEAT_CHARS or len(dealer.value) != 1:
                raise self._tag_error("Dealer", f"Dealer must be N, E, S or W, got {dealer.value!r}", game)
            meta["dealer"] = Seat.from_char(dealer.value)
        vul = info.tag("Vulnerable")
        if vul is not None and vul.value not in ("", "?"):
            if vul.value.upper() not in _VULS:
                raise self._tag_error("Vulnerable", f"bad Vulnerable value {vul.value!r}", game)
            meta["vul"] = _VULS[vul.value.upper()]
        self._double_dummy(info, game)
        self._optimum_table(info, game)
        return meta

    def _optimum_table(self, info: PbnInfo, game: _Game) -> None:
        """Rows ``SEAT STRAIN TRICKS`` of an OptimumResultTable section."""
        tag = info.tag("OptimumResultTable")
        if tag is None:
            return
        tokens = _strip_comments(tag.section).split()
        if len(tokens) % 3:
            raise self._tag_error("OptimumResultTable#section",
                                  "OptimumResultTable rows need a seat, a strain and tricks", game)
        for index in range(0, len(tokens), 3):
            seat, strain, tricks = tokens[index:index + 3]
            if (seat.upper() not in ("N", "E", "S", "W") or strain.upper() not in
                    ("NT", "N", "S", "H", "D", "C") or not tricks.isdigit() or int(tricks) > 13):
                raise self._tag_error("OptimumResultTable#section",
                                      f"bad OptimumResultTable row: {seat} {strain} {tricks}", game)

    def _double_dummy(self, info: PbnInfo, game: _Game) -> None:
        tag = info.tag("DoubleDummyTricks")
        if tag is None or tag.value in ("", "?"):
            return
        if len(tag.value) != 20 or any(c.upper() not in "0123456789ABCD" for c in tag.value):
            raise self._tag_error("DoubleDummyTricks",
                                  "DoubleDummyTricks needs 20 characters 0-9 or A-D", game)

    def _auction(self, info: PbnInfo, game: _Game) -> tuple[Call, ...]:
        tag = info.tag("Auction")
        if tag is None:
            return ()
        try:
            return parse_auction(tag.section)
        except ValueError as error:
            raise self._tag_error("Auction#section", f"Auction: {error}", game) from None

    def _play(self, deal: Deal, info: PbnInfo, auction: tuple[Call, ...],
              game: _Game) -> tuple[Card, ...]:
        tag = info.tag("Play")
        if tag is None or not tag.section.strip():
            return ()
        trumps = contract_strain(info, auction)
        if trumps is None or tag.value.upper() not in SEAT_CHARS or len(tag.value) != 1:
            # Without a contract or leader the play cannot be put in time
            # order; it stays in the tag's section, as read.
            return ()
        try:
            play = parse_play(tag.section, Seat.from_char(tag.value), trumps)
        except ValueError as error:
            raise self._tag_error("Play#section", f"Play: {error}", game) from None
        problem = check_play(deal, play, trumps, Seat.from_char(tag.value))
        if problem:
            raise self._tag_error("Play#section", f"Play: {problem}", game)
        return play


def _spaces(line: str, pos: int) -> int:
    count = 0
    while pos + count < len(line) and line[pos + count] in " \t":
        count += 1
    return count


def _last_line(game: _Game) -> int:
    return game.tag_lines.get("#last", (0, 0, ""))[0]


def _join(section: str, text: str) -> str:
    return f"{section} {text}" if section else text


def _join_line(section: str, text: str) -> str:
    return f"{section}\n{text}" if section else text


def _last_tag(items: list[PbnItem]) -> int | None:
    """Index of the last tag when only comments follow it."""
    for index in range(len(items) - 1, -1, -1):
        if isinstance(items[index], PbnTag):
            return index
        if items[index].kind == "%":  # type: ignore[union-attr]
            return None
    return None


def _strip_comments(section: str) -> str:
    section = re.sub(r"\{[^}]*\}", " ", section)
    return re.sub(r";[^\n]*", " ", section)


def parse_auction(section: str) -> tuple[Call, ...]:
    """Calls of an auction section; notes (``=1=``), NAGs (``$1``), ``!``/``?``
    suffixes and the ``*`` end mark are ignored; ``AP`` closes the auction."""
    calls: list[Call] = []
    for token in _strip_comments(section).split():
        if token in ("*", "-", "+") or token.startswith(("=", "$")):
            continue
        word = token.rstrip("!?")
        if word.upper() == "AP":
            calls.extend(Call(1) for _ in range(_passes_to_close(calls)))
            continue
        calls.append(Call.from_str(word))
    return tuple(calls)


def _passes_to_close(calls: list[Call]) -> int:
    if not any(c.is_bid for c in calls):
        return 4 - len(calls)
    trailing = 0
    for call in reversed(calls):
        if int(call) != 1:
            break
        trailing += 1
    return max(0, 3 - trailing)


def contract_strain(info: PbnInfo, auction: tuple[Call, ...]) -> Strain | None:
    """The contract's strain from the Contract tag, else from the auction."""
    tag = info.tag("Contract")
    if tag is not None:
        match = re.fullmatch(r"([1-7])(NT|N|S|H|D|C)(X{0,2})", tag.value.strip().upper())
        if match:
            return Strain.from_text(match.group(2))
    for call in reversed(auction):
        if call.is_bid:
            return call.strain
    return None


def parse_play(section: str, leader: Seat, trumps: Strain) -> tuple[Card, ...]:
    """Play section (one trick a line, columns leader, LHO, partner, RHO)
    to cards in time order: each trick is led by the previous winner."""
    tokens = [t for t in _strip_comments(section).split()
              if t not in ("*", "+") and not t.startswith(("=", "$"))]
    if len(tokens) % 4:
        raise ValueError(f"{len(tokens)} play tokens, not a multiple of 4")
    play: list[Card] = []
    on_lead = leader
    for start in range(0, len(tokens), 4):
        column: dict[Seat, Card | None] = {}
        for i, token in enumerate(tokens[start:start + 4]):
            word = token.rstrip("!?")
            column[leader.next(i)] = None if word == "-" else Card.from_str(word)
        trick = [column[on_lead.next(i)] for i in range(4)]
        if None in trick:
            # A short last trick: the cards played so far, in turn order.
            cut = trick.index(None)
            if any(c is not None for c in trick[cut:]) or start + 4 < len(tokens):
                raise ValueError(f"trick {start // 4 + 1} has a gap")
            play.extend(c for c in trick[:cut] if c is not None)
            break
        cards = [c for c in trick if c is not None]
        play.extend(cards)
        on_lead = on_lead.next(trick_winner(cards, trumps))
    return tuple(play)


def read(source: Source, filename: str | None = None) -> Iterator[Deal]:
    """Deals of a PBN file (or of deal-string lines), streamed game by game."""
    return _Reader(source, filename).deals()


# -- writing --------------------------------------------------------------------

def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_game(deal: Deal) -> str:
    """One game's text (tags, sections, comments), ending with a newline."""
    items = list(deal.pbn.items) if deal.pbn else []
    if not any(isinstance(i, PbnTag) for i in items) and deal.pbn is not None and not deal.auction \
            and not deal.play and deal.board is None and deal.dealer is None and deal.vul is None:
        # A bare deal string read from a pbnin-style line: keep it bare.
        head = "".join(_comment_text(i) for i in items if isinstance(i, PbnComment))
        return head + deal_string(deal, prefix=False) + "\n"
    items = _updated(deal, items)
    return "".join(_item_text(item) for item in items)


def _updated(deal: Deal, items: list[PbnItem]) -> list[PbnItem]:
    """Items with Board, Dealer, Vulnerable, Deal, Auction and Play made to
    agree with the deal, keeping values that already mean the same."""
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
    out: list[PbnItem] = []
    for item in items:
        if isinstance(item, PbnTag) and item.name in wanted:
            value, section = wanted.pop(item.name)
            if not _same(deal, item, value):
                item = PbnTag(item.name, value, section or item.section)
        out.append(item)
    out.extend(PbnTag(name, value, section) for name, (value, section) in wanted.items())
    ddt = _ddt_from_gib(deal)
    if ddt is not None and not any(isinstance(i, PbnTag) and i.name == "DoubleDummyTricks"
                                   for i in out):
        out.append(PbnTag("DoubleDummyTricks", ddt))
    return out


def _ddt_from_gib(deal: Deal) -> str | None:
    """giblib trick values as a DoubleDummyTricks value, when all are known."""
    if deal.gib is None or deal.gib.tricks is None:
        return None
    return gib_to_ddt(deal.gib.tricks, bin(deal.masks[0]).count("1"))


def _same(deal: Deal, item: PbnTag, value: str) -> bool:
    """Does the existing tag already say what the deal says?"""
    if item.name == "Deal":
        try:
            return parse_deal_string(item.value) == (deal.masks, deal.order)
        except PbnSyntax:
            return False
    if item.name == "Vulnerable":
        return _VULS.get(item.value.upper()) == deal.vul
    if item.name == "Auction":
        try:
            return item.value == value and parse_auction(item.section) == deal.auction
        except ValueError:
            return False
    if item.name == "Play":
        return True if not deal.play else _play_matches(deal, item)
    if item.name == "Board":
        return item.value.strip().isdigit() and int(item.value) == deal.board
    return item.value.upper() == value.upper()


def _play_matches(deal: Deal, item: PbnTag) -> bool:
    info = deal.pbn or PbnInfo()
    trumps = contract_strain(info, deal.auction)
    if trumps is None or item.value.upper() not in SEAT_CHARS or len(item.value) != 1:
        return False
    try:
        return parse_play(item.section, Seat.from_char(item.value), trumps) == deal.play
    except ValueError:
        return False


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


def write(deals: Iterable[Deal], target: Target) -> None:
    with TextSink(target) as sink:
        for index, deal in enumerate(deals):
            sink.write(("\n" if index else "") + _formatted(deal, index + 1))


def dumps(deals: Iterable[Deal]) -> str:
    return "".join(("\n" if i else "") + _formatted(d, i + 1) for i, d in enumerate(deals))


def _formatted(deal: Deal, index: int) -> str:
    try:
        return format_game(deal)
    except ValueError as error:
        raise DppError(f"deal {index}: {error}") from None


__all__ = [
    "auction_section",
    "contract_strain",
    "deal_from_string",
    "deal_string",
    "dumps",
    "format_game",
    "parse_auction",
    "parse_deal_string",
    "parse_play",
    "play_section",
    "read",
    "write",
]
