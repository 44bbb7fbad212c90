"""giblib text files, with all the extensions docs/formats.md lists.

A record is four hands West North East South (``S.H.D.C``, ranks in either
case), then optionally ``:`` and 20 trick characters (``0``-``9``, ``A``-``D``,
``-`` unknown): NS tricks for leader S E N W within strains NT S H D C.
End positions (equal hands of 1 to 13 cards) are allowed. ``{...}``
comments, which may span lines, precede a deal and may hold the options
``name=``, ``trumps=``, ``leader=`` and ``played=``; the raw comment text is
kept so a round trip writes it back verbatim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from dealerpp.deals._io import numbered_errors, record_errors, source_name, text_lines, text_writers
from dealerpp.deals.model import (
    SUITS_HIGH_FIRST,
    Call,
    Card,
    Deal,
    FormatData,
    Hand,
    Seat,
    Strain,
    Tricks,
    auction_strain,
    check_play,
    mask_problem,
    parse_holding,
    popcount,
)
from dealerpp.deals.options import READ, ReadOptions, Source
from dealerpp.diagnostics import DppError, quote

HAND_ORDER = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)
TRICK_CHARS = "0123456789ABCD-"
# The trick string: North-South's tricks, in groups of four opening leaders
# S E N W, one group a strain NT S H D C (docs/formats.md, "giblib").
_LEADERS_ORDER = (Seat.SOUTH, Seat.EAST, Seat.NORTH, Seat.WEST)
_STRAINS_ORDER = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_OPTION = re.compile(r"(?<![^\s{])(name|trumps|leader|played)=([^\s}]*)")
_TRUMPS = {"s": Strain.SPADES, "h": Strain.HEARTS, "d": Strain.DIAMONDS,
           "c": Strain.CLUBS, "n": Strain.NOTRUMP}
_LEADERS = {"w": Seat.WEST, "n": Seat.NORTH, "e": Seat.EAST, "s": Seat.SOUTH}


@dataclass(frozen=True)
class GibInfo(FormatData):
    """What a giblib record says besides the cards, the play and the tricks
    (``Deal.extra`` of a deal read from giblib).

    ``comments`` are the raw texts of the ``{...}`` comments before the
    deal, kept verbatim; ``name``/``trumps``/``leader`` are the options read
    from them. The ``played=`` cards are the deal's ``play``, the trick
    string the deal's ``tricks``.
    """

    fmt: ClassVar[str] = "giblib"

    name: str | None = None
    trumps: Strain | None = None
    leader: Seat | None = None
    comments: tuple[str, ...] = ()

    def label(self) -> str | None:
        return self.name or None

    def contract_strain(self, auction: tuple[Call, ...]) -> Strain | None:
        """``trumps=``, else the last bid, else notrump (giblib's default)."""
        if self.trumps is not None:
            return self.trumps
        return auction_strain(auction) or Strain.NOTRUMP


def info_of(deal: Deal) -> GibInfo | None:
    """The giblib record's own of a deal read from giblib (else None)."""
    extra = deal.extra
    return extra if isinstance(extra, GibInfo) else None


@dataclass
class _Comment:
    text: str
    line: int
    column: int  # of the opening brace
    source_line: str

    def where(self, offset: int) -> tuple[int, int]:
        """Line and column of ``offset`` inside the comment text."""
        before = self.text[:offset]
        newlines = before.count("\n")
        if newlines == 0:
            return self.line, self.column + 1 + offset
        return self.line + newlines, offset - before.rfind("\n")


@dataclass
class _Options:
    name: str | None = None
    trumps: Strain | None = None
    leader: Seat | None = None
    played: tuple[Card, ...] = ()
    played_at: tuple[_Comment, int] | None = None
    leader_at: tuple[_Comment, int] | None = None


class _Reader:
    def __init__(self, source: Source, filename: str | None) -> None:
        self.name = source_name(source, filename)
        self.lines = text_lines(source)

    def error(self, message: str, line: int, column: int | None,
              source_line: str | None = None) -> DppError:
        return DppError(message, line=line, column=column, filename=self.name,
                        source_line=source_line)

    def deals(self) -> Iterator[Deal]:
        pending: list[_Comment] = []
        open_comment: _Comment | None = None
        number = 0
        for number, line in enumerate(self.lines, 1):
            pos = 0
            while pos <= len(line):
                if open_comment is not None:
                    close = line.find("}", pos)
                    if close < 0:
                        open_comment.text += line[pos:] + "\n"
                        break
                    open_comment.text += line[pos:close]
                    self._check_comment(open_comment)
                    pending.append(open_comment)
                    open_comment, pos = None, close + 1
                    continue
                while pos < len(line) and line[pos] in " \t":
                    pos += 1
                if pos >= len(line):
                    break
                if line[pos] == "{":
                    open_comment = _Comment("", number, pos + 1, line)
                    pos += 1
                    continue
                if line[pos] == "}":
                    raise self.error("'}' without an opening '{'", number, pos + 1, line)
                yield self._deal(line, pos, number, pending)
                pending = []
                break
        if open_comment is not None:
            raise self.error("comment not closed: '{' without '}'", open_comment.line,
                             open_comment.column, open_comment.source_line)
        if pending:
            raise self.error("comment not followed by a deal", pending[0].line,
                             pending[0].column, pending[0].source_line)

    def _check_comment(self, comment: _Comment) -> None:
        if "{" in comment.text:
            line, column = comment.where(comment.text.index("{"))
            raise self.error("'{' inside a comment", line, column)

    # -- the deal line ----------------------------------------------------
    def _deal(self, line: str, start: int, number: int, comments: list[_Comment]) -> Deal:
        body, colon, tricks = line[start:].rstrip().partition(":")
        masks = [0, 0, 0, 0]
        fields = list(re.finditer(r"\S+", body))
        if len(fields) != 4:
            raise self.error(f"a deal needs 4 hands (West North East South), got {len(fields)}",
                             number, start + 1, line)
        for seat, match in zip(HAND_ORDER, fields, strict=True):
            masks[seat] = self._hand(match.group(), number, start + match.start() + 1, line)
        problem = mask_problem(tuple(masks))
        if problem:
            raise self.error(problem, number, start + 1, line)
        counts = {popcount(m) for m in masks}
        if len(counts) != 1 or 0 in counts:
            detail = ", ".join(f"{s.name_title} {popcount(masks[s])}" for s in HAND_ORDER)
            raise self.error(f"hands must hold the same number of cards (1-13): {detail}",
                             number, start + 1, line)
        per_hand = counts.pop()
        table = None
        if colon:
            trick_column = start + len(body) + 2
            table = tricks_of_text(self._tricks(tricks, per_hand, number, trick_column, line),
                                   per_hand)
        options = self._options(comments)
        deal = Deal(tuple(masks))  # type: ignore[arg-type]
        self._check_played(deal, options)
        gib = GibInfo(options.name, options.trumps, options.leader,
                      tuple(c.text for c in comments))
        return Deal(deal.masks, play=options.played, tricks=table, extra=gib)

    def _hand(self, text: str, number: int, column: int, line: str) -> int:
        suits = text.split(".")
        if len(suits) != 4:
            raise self.error(f"a hand needs 4 suits separated by '.', got {len(suits)}",
                             number, column, line)
        mask = 0
        offset = 0
        for suit, part in zip(SUITS_HIGH_FIRST, suits, strict=True):
            try:
                mask |= parse_holding(part) << (13 * suit)
            except ValueError as error:
                at = _bad_rank_index(part)
                raise self.error(f"{error} in {suit.name.lower()}", number,
                                 column + offset + at, line) from None
            offset += len(part) + 1
        return mask

    def _tricks(self, text: str, per_hand: int, number: int, column: int, line: str) -> str:
        text = text.strip().upper()
        if len(text) != 20:
            raise self.error(f"the trick string needs 20 characters, got {len(text)}",
                             number, column, line)
        for index, char in enumerate(text):
            if char not in TRICK_CHARS:
                raise self.error(f"bad trick character {quote(char)} (0-9, A-D or -)",
                                 number, column + index, line)
            if char != "-" and int(char, 16) > per_hand:
                raise self.error(f"trick value {char} is above the {per_hand} cards per hand",
                                 number, column + index, line)
        return text

    # -- options in comments ----------------------------------------------
    def _options(self, comments: list[_Comment]) -> _Options:
        options = _Options()
        seen: set[str] = set()
        for comment in comments:
            for match in _OPTION.finditer(comment.text):
                key, value = match.group(1), match.group(2)
                line, column = comment.where(match.start())
                if key in seen:
                    raise self.error(f"option {key}= given twice", line, column)
                seen.add(key)
                self._option(options, key, value, comment, match.start(2))
        return options

    def _option(self, options: _Options, key: str, value: str, comment: _Comment,
                offset: int) -> None:
        line, column = comment.where(offset)
        if key == "name":
            options.name = value
        elif key == "trumps":
            if value.lower() not in _TRUMPS:
                raise self.error(f"trumps= must be one of s h d c n, got {quote(value)}", line, column)
            options.trumps = _TRUMPS[value.lower()]
        elif key == "leader":
            if value.lower() not in _LEADERS:
                raise self.error(f"leader= must be one of w n e s, got {quote(value)}", line, column)
            options.leader = _LEADERS[value.lower()]
            options.leader_at = (comment, offset)
        else:
            options.played = self._played(value, comment, offset)
            options.played_at = (comment, offset)

    def _played(self, value: str, comment: _Comment, offset: int) -> tuple[Card, ...]:
        cards: list[Card] = []
        tricks = value.split("-")
        position = offset
        for number, trick in enumerate(tricks, 1):
            texts = trick.split(".")
            if len(texts) > 4 or (number < len(tricks) and len(texts) != 4):
                line, column = comment.where(position)
                raise self.error(f"played=: trick {number} must have 4 cards"
                                 f"{'' if number < len(tricks) else ' or fewer'}", line, column)
            for text in texts:
                try:
                    cards.append(Card.from_str(text))
                except ValueError:
                    line, column = comment.where(position)
                    raise self.error(f"played=: {quote(text)} is not a card (suit then rank)",
                                     line, column) from None
                position += len(text) + 1
        return tuple(cards)

    def _check_played(self, deal: Deal, options: _Options) -> None:
        if not options.played:
            return
        assert options.played_at is not None
        comment, offset = options.played_at
        line, column = comment.where(offset)
        problem = check_play(deal, options.played, options.trumps)
        if problem:
            raise self.error(f"played=: {problem}", line, column)
        first = deal.owner(options.played[0])
        if options.leader is not None and options.leader != first and options.leader_at:
            where = options.leader_at
            line, column = where[0].where(where[1])
            raise self.error(f"leader= says {options.leader.name_title} but the first played "
                             f"card ({options.played[0]}) is {first.name_title if first else '?'}'s",
                             line, column)


def _bad_rank_index(text: str) -> int:
    """Index of the first bad or repeated rank character of a holding."""
    seen: set[str] = set()
    for index, char in enumerate(text.upper()):
        if char not in "AKQJT98765432" or char in seen:
            return index
        seen.add(char)
    return 0


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """Deals of a giblib text, streamed line by line."""
    return options.numbered(record_errors(_Reader(source, filename).deals()))


def parse_line(text: str) -> Deal:
    """One giblib record (``W N E S[:tricks]``), comments included if any."""
    deals = list(read(text))
    if len(deals) != 1:
        raise DppError(f"expected one deal, got {len(deals)}")
    return deals[0]


# -- writing ----------------------------------------------------------------

def format_deal(deal: Deal) -> str:
    """The comment lines (if any) and the record line of one deal, each
    ending in a newline."""
    counts = {popcount(m) for m in deal.masks}
    if len(counts) != 1 or 0 in counts:
        raise ValueError("giblib needs hands of the same number of cards (1-13)")
    gib = info_of(deal) or GibInfo()
    lines = [f"{{{text}}}\n" for text in _comment_texts(deal, gib)]
    record = " ".join(Hand(deal.masks[s]).to_pbn() for s in HAND_ORDER)
    if deal.tricks is not None:
        record += ":" + trick_text(deal.tricks, counts.pop())
    lines.append(record + "\n")
    return "".join(lines)


def trick_index(leader: Seat, strain: Strain) -> int:
    """Where North-South's tricks with ``leader`` on lead in ``strain`` stand
    in the trick string."""
    return _STRAINS_ORDER.index(strain) * 4 + _LEADERS_ORDER.index(leader)


def tricks_of_text(text: str, per_hand: int) -> Tricks:
    """The table a trick string says (hands of ``per_hand`` cards): the
    declarer is the leader's right-hand opponent; East-West take what
    North-South do not."""
    def declarers(declarer: Seat, strain: Strain) -> int | None:
        char = text[trick_index(declarer.next(), strain)]
        if char == "-":
            return None
        north_south = int(char, 16)
        return north_south if declarer in _NORTH_SOUTH else per_hand - north_south

    return Tricks.of(declarers)


def trick_text(tricks: Tricks, per_hand: int) -> str:
    """The trick string of a table, for hands of ``per_hand`` cards;
    ValueError for an entry above ``per_hand``."""
    chars = []
    for strain in _STRAINS_ORDER:
        for leader in _LEADERS_ORDER:
            declarer = leader.next(3)
            value = tricks[declarer, strain]
            if value is None:
                chars.append("-")
                continue
            if value > per_hand:
                raise ValueError(f"{value} tricks for {declarer.name_title} in {strain}, "
                                 f"above the {per_hand} cards per hand")
            chars.append(f"{value if declarer in _NORTH_SOUTH else per_hand - value:X}")
    return "".join(chars)


_NORTH_SOUTH = (Seat.NORTH, Seat.SOUTH)


def _comment_texts(deal: Deal, gib: GibInfo) -> list[str]:
    """The raw comments when their options still match the deal; otherwise
    the comments' other text with the options written anew."""
    wanted = _option_text(deal, gib)
    if _raw_options(gib.comments) == wanted:
        texts = list(gib.comments)
    else:
        rest = [_OPTION.sub("", t).strip() for t in gib.comments]
        kept = [t for t in rest if t]
        texts = kept + ([" ".join(wanted)] if wanted else [])
    for text in texts:
        if "{" in text or "}" in text:
            raise ValueError("a giblib comment cannot contain braces")
    return texts


def _raw_options(comments: tuple[str, ...]) -> list[str]:
    found: dict[str, str] = {}
    for text in comments:
        for match in _OPTION.finditer(text):
            key, value = match.group(1), match.group(2)
            if key == "trumps" or key == "leader":
                value = value.lower()
            if key == "played":
                value = _played_text(tuple(Card.from_str(c) for c in re.split(r"[.-]", value)
                                           if _is_card(c)))
            found[key] = f"{key}={value}"
    return [found[k] for k in ("name", "trumps", "leader", "played") if k in found]


def _is_card(text: str) -> bool:
    try:
        Card.from_str(text)
    except ValueError:
        return False
    return True


def _option_text(deal: Deal, gib: GibInfo) -> list[str]:
    options = []
    if gib.name is not None:
        if not gib.name or re.search(r"[\s{}]", gib.name):
            raise ValueError(f"a giblib name cannot be empty or hold blanks or braces: {quote(gib.name)}")
        options.append(f"name={gib.name}")
    if gib.trumps is not None:
        options.append(f"trumps={'cdhsn'[gib.trumps]}")
    if gib.leader is not None:
        options.append(f"leader={'nesw'[gib.leader]}")
    if deal.play:
        options.append(f"played={_played_text(deal.play)}")
    return options


def _played_text(play: tuple[Card, ...]) -> str:
    tricks = [play[i:i + 4] for i in range(0, len(play), 4)]
    return "-".join(".".join(str(c).lower() for c in trick) for trick in tricks)


# write(deals, target) and dumps(deals): a record a deal
write, dumps = text_writers(numbered_errors(format_deal))
