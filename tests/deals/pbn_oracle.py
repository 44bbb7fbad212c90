"""A second reader of PBN, for the tests only.

It is written from the PBN 2.1 standard's description of the file layout,
without looking at dealerpp's reader, and it is deliberately dumb: it does
not know what a deal, a call or a card is. It turns a file into a flat list
of events (a tag with its value exactly as written between the quotes, a
section token, a comment, a ``%`` escape line, a game boundary), each with
the line and column where it starts. Two files say the same thing when
their events, without positions, are equal.

Layout rules it follows (PBN 2.1, sections 2-3, import format):

* a line starting with ``%`` is an escape line, whatever follows;
* a ``;`` comment runs to the end of the line, a ``{`` comment to the next
  ``}`` (across lines: an empty line inside it ends nothing);
* ``[Name "value"]`` is a tag pair, its four parts on one line or spread
  over lines (blanks and line ends between them); inside the value ``\\"`` and ``\\\\``
  are escapes, any other backslash is itself;
* in sections, a ``"..."`` string is one token, anything else is a run of
  characters up to white space or one of ``[ { ; "``;
* an empty line (or one of only blanks) ends a game;
* a line of tokens met before any tag of a game is a game of its own (the
  seed-003 layout of bare deal strings, one a line);
* dealer's closing statistics lines are not PBN and are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STATS = re.compile(r"\s*((Generated|Produced) \d+ hands|Initial random seed -?\d+"
                    r"|Time needed\s+[\d.]+ sec)\s*")
_NAME_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_TOKEN_STOP = set(" \t[{;\"")


class OracleError(ValueError):
    """The file is not PBN as this reader understands it."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}: {message}")
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Event:
    kind: str  # game, tag, token, comment, escape
    text: str = ""  # tag: its name; token: as written; comment: between delimiters
    value: str = ""  # tag: the value as written; comment: "{" or ";"
    line: int = 0
    column: int = 0

    def bare(self) -> tuple[str, str, str]:
        return self.kind, self.text, self.value


def normalised_lines(data: bytes | str) -> list[str]:
    """Lines without their ends (LF, CR LF or CR), without a byte-order mark."""
    text = data.decode("utf-8", "surrogateescape") if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Scanner:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.events: list[Event] = []
        self.in_game = False  # something of the current game was seen
        self.tags_seen = False

    def run(self) -> list[Event]:
        row = 0
        while row < len(self.lines):
            row = self._line(row)
        return self.events

    def _boundary(self) -> None:
        if self.in_game:
            self.events.append(Event("game"))
        self.in_game = False
        self.tags_seen = False

    def _line(self, row: int) -> int:
        """Scan the line at ``row``; return the next row to scan."""
        line = self.lines[row]
        if line.startswith("%"):
            # Escape lines belong to no game: they neither start nor end one.
            self.events.append(Event("escape", line[1:], "", row + 1, 1))
            return row + 1
        if not line.strip():
            self._boundary()
            return row + 1
        if not self.tags_seen and _STATS.fullmatch(line) and self._only_stats_follow(row):
            return len(self.lines)
        bare_line = not self.tags_seen and not line.lstrip().startswith(("[", "{", ";"))
        if bare_line and self.in_game and self._tokens_only_so_far():
            self._boundary()  # a bare deal line ends the bare game before it
        self.in_game = True
        column = 0
        while column < len(line):
            char = line[column]
            if char in " \t":
                column += 1
            elif char == ";":
                self.events.append(Event("comment", line[column + 1:], ";", row + 1, column + 1))
                column = len(line)
            elif char == "{":
                row, line, column = self._brace(row, column)
            elif char == "[":
                row, line, column = self._tag(row, column)
                self.tags_seen = True
            elif char == '"':
                end = self._string_end(line, row, column)
                self.events.append(Event("token", line[column:end], "", row + 1, column + 1))
                column = end
            elif char in "]}":
                raise OracleError(f"stray {char!r}", row + 1, column + 1)
            else:
                start = column
                while column < len(line) and line[column] not in _TOKEN_STOP:
                    column += 1
                self.events.append(Event("token", line[start:column], "", row + 1, start + 1))
        if bare_line:
            self._boundary()
        return row + 1

    def _only_stats_follow(self, row: int) -> bool:
        return all(not line.strip() or _STATS.fullmatch(line) for line in self.lines[row:])

    def _tokens_only_so_far(self) -> bool:
        for event in reversed(self.events):
            if event.kind == "game":
                return True
            if event.kind != "token":
                return False
        return True

    def _brace(self, row: int, column: int) -> tuple[int, str, int]:
        start_row, start_column = row, column
        parts = []
        line = self.lines[row]
        position = column + 1
        while True:
            close = line.find("}", position)
            if close >= 0:
                parts.append(line[position:close])
                break
            parts.append(line[position:])
            row += 1
            if row >= len(self.lines):
                raise OracleError("'{' never closed", start_row + 1, start_column + 1)
            line = self.lines[row]
            position = 0
        self.events.append(Event("comment", "\n".join(parts), "{", start_row + 1,
                                 start_column + 1))
        return row, line, close + 1

    def _string_end(self, line: str, row: int, column: int) -> int:
        """Index just past the closing quote of the string opened at ``column``."""
        position = column + 1
        while position < len(line):
            if line[position] == "\\" and line[position + 1:position + 2] in ('"', "\\"):
                position += 2
            elif line[position] == '"':
                return position + 1
            else:
                position += 1
        raise OracleError("string never closed", row + 1, column + 1)

    def _skip_blanks(self, row: int, position: int) -> tuple[int, int]:
        """The next character that is not a blank, over line ends (a tag's
        parts may each be on a line of their own); at the end of the file,
        the end of its last line."""
        while True:
            line = self.lines[row]
            while position < len(line) and line[position] in " \t":
                position += 1
            if position < len(line) or row + 1 == len(self.lines):
                return row, position
            row, position = row + 1, 0

    def _tag(self, row: int, column: int) -> tuple[int, str, int]:
        """Read the tag whose '[' is at (row, column); the row, line and
        column just past its ']'."""
        start_row = row
        row, position = self._skip_blanks(row, column + 1)
        line = self.lines[row]
        name_start = position
        while position < len(line) and line[position] in _NAME_CHARS:
            position += 1
        name = line[name_start:position]
        if not name:
            raise OracleError("tag without a name", start_row + 1, column + 1)
        row, position = self._skip_blanks(row, position)
        line = self.lines[row]
        if line[position:position + 1] != '"':
            raise OracleError("tag without a value", row + 1, position + 1)
        end = self._string_end(line, row, position)
        value = line[position + 1:end - 1]
        row, position = self._skip_blanks(row, end)
        line = self.lines[row]
        if line[position:position + 1] != "]":
            raise OracleError("tag not closed", row + 1, position + 1)
        self.events.append(Event("tag", name, value, start_row + 1, column + 1))
        return row, line, position + 1


def events(data: bytes | str) -> list[Event]:
    """All events of a file, a ``game`` event between games."""
    found = _Scanner(normalised_lines(data)).run()
    while found and found[-1].kind == "game":
        found.pop()
    return found


def games(data: bytes | str) -> list[list[Event]]:
    """The events of each game."""
    out: list[list[Event]] = [[]]
    for event in events(data):
        if event.kind == "game":
            out.append([])
        else:
            out[-1].append(event)
    return [game for game in out if game]


def signature(data: bytes | str) -> list[tuple[str, str, str]]:
    """What a file says, without where it says it."""
    return [event.bare() for event in events(data)]


def tag_values(game: list[Event], name: str) -> list[str]:
    return [e.value for e in game if e.kind == "tag" and e.text == name]


def value_column(line: str, event: Event) -> int:
    """1-based column of the first character of a tag's value on its line."""
    return line.index('"', event.column - 1) + 2
