"""PBN written in the PBN 2.1 *export* format (``convert --pbn-export``,
``pbn_export.write(deals, target)``).

The usual PBN output is a lossless copy: every game as it was read. The
export format of the standard (chapter 3) is one layout for every file, so
two programs that write it write the same bytes; this module lays games
out that way, keeping every tag value, section token and comment:

* a file opens with the escape lines ``% PBN 2.1`` and ``% EXPORT`` (those
  of the input, and of any game, are not repeated); lines end with CR LF
  (the PBN homepage's FAQ: "the end-of-line marker is a (MS-DOS) CRLF"); an
  empty line comes before each game but the first (chapter 3); no game, no
  text;
* each tag pair alone on its line, left justified, no blank inside the
  brackets, one blank between name and value (3.3); its value written with
  the escapes only where needed (``\\"``, a backslash doubled only before a
  quote, a backslash or the end: ``\\2R`` of a table's column format stays);
* the sections in the order of 3.1: the identification section (the 15
  tags of the Mandatory Tag Set in the order of 3.4, a missing one given as
  ``"?"``, then the other tags by name), the auction section (``Auction``,
  its calls, the Note tags after it: 3.5.5), the play section (likewise:
  3.6.5), then the supplemental sections (tables), by tag name;
* auction and play lines of four calls or cards each (3.5, 3.6), a call or
  card with its annotations and irregularity mark, tokens one blank apart,
  a comment after the token it follows (3.8: a comment refers to what
  precedes it), after a tag on the lines below it, a ``;`` comment ending
  its line.

What is kept as written, though the export format would change it: tag
values (``Love``, a Deal from another seat than the dealer, lower case, a
``#`` copied from the game before), the annotations' order and suffixes
(not made NAGs), an auction that does not start with the dealer, a tag
given twice, and the layout of a table's rows (their column widths mean
something to the reader). So reading an exported file gives the same deals,
and exporting it again gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from dealerpp.deals._io import piece_writers
from dealerpp.deals.formats.pbn.checks import REMARK_WORD
from dealerpp.deals.formats.pbn.game import escape, unescape
from dealerpp.deals.formats.pbn.lexer import ESCAPE, SEMI, TAG, WORD, Token, tokens
from dealerpp.deals.formats.pbn.writer import game_text
from dealerpp.deals.model import Deal

# PBN 2.1, 3.4: the Mandatory Tag Set, in the order of an export file.
MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
HEAD = "% PBN 2.1\n% EXPORT\n"
_DIRECTIVE = re.compile(r"\s*(PBN\s+\d+(\.\d+)?|EXPORT|IMPORT)\s*", re.IGNORECASE)
# Tokens that go with the call or card before them (3.5.2, 3.6.2): a note
# reference, a NAG, a suffix, the end mark; and the irregularity marks that
# go with the call or card after them (3.9; ^S stands for a call itself).
_ANNOTATION = re.compile(f"{REMARK_WORD.pattern}|\\*")  # a remark, or a section's closing *
_MARK_BEFORE = re.compile(r"\^[IRLirl]")
_PER_LINE = 4


class _Tag:
    """A tag pair, the comments right after it, and its section's tokens
    (words and the comments among and after them)."""

    __slots__ = ("after", "name", "raw", "section")

    def __init__(self, name: str, raw: str) -> None:
        self.name = name
        self.raw = raw
        self.after: list[Token] = []
        self.section: list[Token] = []


def pieces(deals: Iterable[Deal]) -> Iterator[str]:
    """The file's text a game at a time, CR LF line ends; no games, no text
    (the head's '%' lines alone would read back as a game of comments)."""
    for index, deal in enumerate(deals):
        text = export_game(deal, index + 1)
        yield ("\n" + text if index else HEAD + text).replace("\n", "\r\n")


def export_game(deal: Deal, index: int = 1) -> str:
    """One game in export format, LF line ends (``index``: its number in
    the output, for the writer's messages)."""
    text = game_text(deal, index).removeprefix("\ufeff")
    found = tokens(text)
    lead = [t for t in _before_first_tag(found) if t[0] != WORD and not _is_directive(t)]
    tags = _tags(found)
    hands = [t[3] for t in found if t[0] == WORD]
    if not tags and hands:  # a line of bare hands (N E S W, or from F:) as its Deal tag
        value = " ".join(hands)
        tags = [_Tag("Deal", value if value[1:2] == ":" else "N:" + value)]
    lines = [_comment(t) for t in lead]
    if tags:
        for tag in _in_export_order(tags):
            lines.extend(_tag_lines(tag, text))
    return "".join(line + "\n" for line in lines)


def _before_first_tag(found: list[Token]) -> list[Token]:
    first = next((i for i, t in enumerate(found) if t[0] == TAG), len(found))
    return found[:first]


def _is_directive(token: Token) -> bool:
    return token[0] == ESCAPE and _DIRECTIVE.fullmatch(token[3]) is not None


def _tags(found: list[Token]) -> list[_Tag]:
    tags: list[_Tag] = []
    for token in found:
        if token[0] == TAG:
            tags.append(_Tag(token[3], token[4]))
        elif tags:
            tag = tags[-1]
            if token[0] == WORD or tag.section:
                tag.section.append(token)
            else:
                tag.after.append(token)
    return tags


def _in_export_order(tags: list[_Tag]) -> list[_Tag]:
    """The sections of 3.1 in order; Note tags stay in the auction or play
    section they follow."""
    identification: list[_Tag] = []
    auction: list[_Tag] = []
    play: list[_Tag] = []
    supplemental: list[_Tag] = []
    notes_to: list[_Tag] | None = None
    for tag in tags:
        if tag.name in ("Auction", "Play"):
            notes_to = auction if tag.name == "Auction" else play
            notes_to.append(tag)
        elif tag.name == "Note" and notes_to is not None:
            notes_to.append(tag)
        else:
            notes_to = None
            has_section = any(t[0] == WORD for t in tag.section)
            (supplemental if has_section and tag.name not in MANDATORY
             else identification).append(tag)
    given = {tag.name for tag in identification}
    missing = [_Tag(name, "?") for name in MANDATORY if name not in given]
    rank = {name: place for place, name in enumerate(MANDATORY)}
    identification = sorted(identification + missing,
                            key=lambda t: (rank.get(t.name, len(MANDATORY)), t.name))
    return identification + auction + play + sorted(supplemental, key=lambda t: t.name)


def _tag_lines(tag: _Tag, text: str) -> list[str]:
    lines = [f'[{tag.name} "{escape(unescape(tag.raw))}"]']
    lines.extend(_comment(t) for t in tag.after)
    if tag.section:
        if tag.name in ("Auction", "Play"):
            lines.extend(_flow(tag.section))
        else:
            lines.extend(_as_written(tag.section, text))
    return lines


def _flow(section: list[Token]) -> list[str]:
    """Calls or cards four to a line, each with its annotations and the
    comments after it."""
    lines: list[str] = []
    line: list[str] = []
    on_line = 0

    def end_line() -> None:
        if line:
            lines.append(_not_escape(" ".join(line)))
            line.clear()

    for unit in _units(section):
        if on_line == _PER_LINE:
            end_line()
            on_line = 0
        for token in unit:
            if token[0] == ESCAPE:  # a '%' line is a line of its own
                end_line()
                lines.append(_comment(token))
                on_line = -1
                continue
            line.append(token[3] if token[0] == WORD else _comment(token))
            if token[0] == SEMI:  # runs to the end of its line
                end_line()
                on_line = -1
        on_line += 1
    end_line()
    return lines


def _units(section: list[Token]) -> list[list[Token]]:
    """A call or card with what goes with it: the marks before it, the
    annotations after it, and the comments among and after them."""
    units: list[list[Token]] = []
    for token in section:
        word = token[3] if token[0] == WORD else None
        if units and (word is None or _ANNOTATION.fullmatch(word)
                      or all(_is_mark(t) for t in units[-1] if t[0] == WORD)):
            units[-1].append(token)
        else:
            units.append([token])
    return units


def _comment(token: Token) -> str:
    """A comment or '%' line as written."""
    if token[0] == SEMI:
        return ";" + token[3]
    if token[0] == ESCAPE:
        return "%" + token[3]
    return "{" + token[3] + "}"


def _is_mark(token: Token) -> bool:
    return _MARK_BEFORE.fullmatch(token[3]) is not None


def _as_written(section: list[Token], text: str) -> list[str]:
    """A table's rows as they were (the blanks between its cells too), from
    its first token to its last; line ends are the file's."""
    written = text[section[0][1]:section[-1][2]]
    lines = [line.rstrip() for line in written.split("\n")]
    return [_not_escape(lines[0]), *lines[1:]]


def _not_escape(line: str) -> str:
    """A line that starts with a section token: one that starts with '%'
    gets a blank before it, or it would be read as a '%' line. (The other
    lines of a table start where they started in the input.)"""
    return " " + line if line.startswith("%") else line


write, dumps = piece_writers(pieces)  # the deals as a PBN file in the export format
