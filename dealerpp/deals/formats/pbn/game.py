"""One PBN game as read: its exact text, and its tags, sections and
comments found in it.

:class:`PbnInfo` is what PBN alone says of a deal (``Deal.extra``): its
tags with their sections and its comments, in order. :class:`PbnGame` is
the ``extra`` of a deal read from a PBN file. It is a
:class:`PbnInfo` (its ``items`` are the plain tags and
comments, built when first asked for) that also remembers the text it came
from, where each item sits in it, what the reader made of it and the
warnings it had. The writer gives the text back unchanged while the deal
says what was read, and otherwise rewrites only the tags that changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from dealerpp.deals.formats.pbn.lexer import TAG, WORD, Token, tokens
from dealerpp.deals.formats.pbn.record_of_tags import game_of_tags, may_hold
from dealerpp.deals.model import Call, Deal, FormatData, Strain, auction_strain
from dealerpp.diagnostics import Diagnostic, TextProblem

if TYPE_CHECKING:
    from dealerpp.deals.game import Game


@dataclass(frozen=True)
class PbnTag:
    """One PBN tag pair with the raw section text that followed it (the
    auction or play section, a table, ...), kept as read."""

    name: str
    value: str
    section: str = ""


@dataclass(frozen=True)
class PbnComment:
    """A PBN comment: ``kind`` is ``;`` (to end of line), ``{`` (brace
    comment) or ``%`` (escape line); ``text`` excludes the delimiters."""

    kind: str
    text: str


PbnItem = PbnTag | PbnComment
# Tags that name the set a game is in, and values that say nothing.
TITLE_TAGS = ("Event", "Site", "Date")
_UNKNOWN = ("", "?", "-", "#")


def title_of_values(values: Iterable[str]) -> str | None:
    """A game's title from the values of its TITLE_TAGS, in that order:
    those known, stripped, joined by commas (None: none is)."""
    known = [value for value in (value.strip() for value in values) if value not in _UNKNOWN]
    return ", ".join(known) if known else None


@dataclass(frozen=True)
class PbnInfo(FormatData):
    """Tags and comments of one PBN game, in the order they were read
    (``Deal.extra`` of a deal read from PBN, or made to be written as PBN)."""

    fmt: ClassVar[str] = "pbn"

    items: tuple[PbnItem, ...] = ()

    def tag(self, name: str) -> PbnTag | None:
        for item in self.items:
            if isinstance(item, PbnTag) and item.name == name:
                return item
        return None

    def title(self) -> str | None:
        """Event, Site and Date (those known), joined by commas."""
        return title_of_values(tag.value for tag in map(self.tag, TITLE_TAGS) if tag is not None)

    def contract_strain(self, auction: tuple[Call, ...]) -> Strain | None:
        """The Contract tag's strain, else the last bid."""
        tag = self.tag("Contract")
        text = tag.value.strip().upper() if tag else ""
        if len(text) >= 2 and text[0] in "1234567" and text[1] in "CDHSN":
            return Strain.from_text(text[1])
        return auction_strain(auction)

    def game_record(self, deal: Deal) -> Game | None:
        """The players, claim, room, match, alerts and commentary the tags
        and comments say (``deal.game`` of a deal with this as its extra,
        worked out when asked: reading a file costs nothing for it)."""
        return game_of_info(self, len(deal.auction), len(deal.play))


def game_of_info(info: PbnInfo, calls: int, cards: int) -> Game | None:
    """What a game's items (tags and comments) say of the record (None when
    nothing), for a deal of ``calls`` calls and ``cards`` cards played."""
    text = getattr(info, "text", None)  # a game as read: one search says "nothing"
    if isinstance(text, str) and not may_hold(text):
        return None
    values: dict[str, str] = {}
    notes: list[str] = []
    comments: list[str] = []
    for item in info.items:
        if isinstance(item, PbnComment):
            if item.kind in "{;":
                comments.append(item.text)
        elif item.name == "Note":
            notes.append(item.value)
        else:
            values.setdefault(item.name, item.value)
    auction = info.tag("Auction")
    words = None
    if auction is not None:
        try:
            words = [token[3] for token in tokens(auction.section) if token[0] == WORD]
        except TextProblem:
            words = []
    return game_of_tags(values, notes, comments, words, calls, cards)


def info_of(deal: Deal) -> PbnInfo | None:
    """What PBN says of a deal read from PBN (else None)."""
    extra = deal.extra
    return extra if isinstance(extra, PbnInfo) else None


class Entry:
    """A tag with its section, or a comment outside sections; offsets in
    the game's text. ``words``: the section's tokens and where they start."""

    __slots__ = ("end", "kind", "name", "raw", "section_end", "section_start", "start", "words")

    def __init__(self, kind: str, name: str, raw: str, start: int, end: int) -> None:
        self.kind = kind  # TAG, or the comment's kind: "{", ";", "%"
        self.name = name  # a tag's name; a comment's text
        self.raw = raw  # a tag's value as written
        self.start = start
        self.end = end
        self.words: list[tuple[str, int]] = []
        self.section_start = -1
        self.section_end = -1


def entries_of(found: list[Token]) -> list[Entry]:
    """Tags and comments of a game's tokens. Comments after a tag join its
    section when section tokens follow the tag, so a comment inside an
    auction or a play stays there; otherwise they are items of their own."""
    out: list[Entry] = []
    tag: Entry | None = None
    loose: list[Token] = []  # comments since the last tag or section token
    for token in found:
        kind = token[0]
        if kind == TAG:
            if loose:
                _settle(out, tag, loose)
                loose = []
            tag = Entry(TAG, token[3], token[4], token[1], token[2])
            out.append(tag)
        elif kind == WORD:
            if tag is None:
                out.extend(Entry(c[0], c[3], "", c[1], c[2]) for c in loose)
                loose = []
                out.append(Entry(WORD, token[3], "", token[1], token[2]))
                continue
            if tag.section_start < 0:
                tag.section_start = loose[0][1] if loose else token[1]
            tag.words.append((token[3], token[1]))
            tag.section_end = tag.end = token[2]
            loose = []
        else:
            loose.append(token)
    _settle(out, tag, loose)
    return out


def _settle(out: list[Entry], tag: Entry | None, loose: list[Token]) -> None:
    """Comments after a tag: into its section if it has one, else items."""
    if tag is not None and tag.section_start >= 0 and loose:
        tag.section_end = tag.end = loose[-1][2]
        return
    out.extend(Entry(c[0], c[3], "", c[1], c[2]) for c in loose)


_ESCAPED = re.compile(r'\\(["\\])')


def unescape(raw: str) -> str:
    r"""A tag value as meant: ``\"`` and ``\\`` are the only escapes."""
    if "\\" not in raw:
        return raw
    return _ESCAPED.sub(r"\1", raw)


def escape(value: str) -> str:
    r"""A value as written: ``"`` as ``\"``, a backslash doubled only where
    it would otherwise be read as an escape (before ``"``, ``\`` or the end),
    so ``Declarer;Denomination\2R`` stays as the standard writes it."""
    out = []
    for index, char in enumerate(value):
        if char == '"':
            out.append('\\"')
        elif char == "\\" and value[index + 1:index + 2] in ('"', "\\", ""):
            out.append("\\\\")
        else:
            out.append(char)
    return "".join(out)


class PbnGame(PbnInfo):
    """The ``extra`` of a deal read from a PBN file (see the module doc)."""

    def __init__(self, text: str, line: int, derived: tuple[object, ...],
                 problems: tuple[Diagnostic, ...] = (), inherited: dict[int, str] | None = None,
                 entries: list[Entry] | None = None, has_deal: bool = True) -> None:
        # (one update, not a frozen dataclass's setattr per field: a game is
        # made for every game read)
        object.__setattr__(self, "__dict__", {
            "text": text,  # the game's lines joined by LF
            "line": line,  # where it starts in the input
            "derived": derived,  # the deal's fields as read
            "problems": problems,  # its warnings, as python-chess keeps a game's errors
            "inherited": inherited or {},  # tag index -> value copied for '#'
            "has_deal": has_deal,
            "_entries": entries,
            "_items": None,
            "_record": None})

    text: str
    line: int
    derived: tuple[object, ...]
    problems: tuple[Diagnostic, ...]
    inherited: dict[int, str]
    has_deal: bool
    _entries: list[Entry] | None  # made on first use
    _items: tuple[PbnItem, ...] | None
    _record: tuple[int, int, Game | None] | None  # game_record's last answer: calls, cards, it

    def __getstate__(self) -> dict[str, object]:
        # pickled without what is made from the text on first use: an
        # Entry is slotted, which protocols 0 and 1 cannot pickle
        return {**self.__dict__, "_entries": None, "_items": None, "_record": None}

    def entries(self) -> list[Entry]:
        found = self._entries
        if found is None:
            found = entries_of(tokens(self.text))
            object.__setattr__(self, "_entries", found)
        return found

    @property
    def items(self) -> tuple[PbnItem, ...]:
        built = self._items
        if built is None:
            built = tuple(self._items_of(self.entries()))
            object.__setattr__(self, "_items", built)
        return built

    def game_record(self, deal: Deal) -> Game | None:
        """The record the game's tags and comments say, worked out the first
        time a deal asks and kept (a deal of as many calls and cards played
        gets it again)."""
        calls, cards = len(deal.auction), len(deal.play)
        kept = self._record
        if kept is not None and kept[0] == calls and kept[1] == cards:
            return kept[2]
        found = game_of_info(self, calls, cards)
        object.__setattr__(self, "_record", (calls, cards, found))
        return found

    def _items_of(self, found: list[Entry]) -> list[PbnItem]:
        out: list[PbnItem] = []
        tag_index = -1
        for entry in found:
            if entry.kind == TAG:
                tag_index += 1
                value = self.inherited.get(tag_index)
                if value is None:
                    value = unescape(entry.raw)
                section = self.text[entry.section_start:entry.section_end] \
                    if entry.section_start >= 0 else ""
                out.append(PbnTag(entry.name, value, section))
            elif entry.kind != WORD:
                out.append(PbnComment(entry.kind, entry.name))
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PbnInfo):
            return self.items == other.items
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.items)

    def __repr__(self) -> str:
        return f"PbnGame(line={self.line}, items={self.items!r})"


_NEW = object.__new__
_SET_STATE = object.__setattr__


def plain_game(text: str, line: int, derived: tuple[object, ...]) -> PbnGame:
    """``PbnGame(text, line, derived)``: a game read without problems or
    values copied by ``#``, as the reader makes one for every game of
    dealer's printpbn. The same object, without the constructor's call
    and its defaults (~600 instructions a game, 0.7% of reading one)."""
    game = _NEW(PbnGame)
    _SET_STATE(game, "__dict__", {
        "text": text, "line": line, "derived": derived, "problems": (), "inherited": {},
        "has_deal": True, "_entries": None, "_items": None, "_record": None})
    return game
