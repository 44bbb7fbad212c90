"""PBN text in pieces: games out of lines, tokens out of a game.

In the manner of python-chess's PGN reader the lexer knows nothing about
bridge: it cuts a file into games (an empty line ends a game, except inside
a ``{}`` comment) and a game's text into tokens that keep their place in
the text, so everything above it can point at the exact character and
write back exactly what was read.

A token is a tuple ``(kind, start, end, a, b)``, offsets into the game's
text (lines joined by LF):

* ``TAG``: a tag pair (its ``[``, name, value and ``]`` may be on lines of
  their own); ``a`` the name, ``b`` the value as written (escapes left in), so ``[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]``
  keeps its single backslashes;
* ``BRACE``, ``SEMI``: a ``{}`` or ``;`` comment, ``a`` the text inside;
* ``ESCAPE``: a ``%`` line, ``a`` the text after the ``%``;
* ``WORD``: a section token (a call, a card, ``=1=``, ``$3``, ``!``, ``^R``,
  ``*``, a table cell), or a ``"..."`` table string with its quotes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any

from dealerpp.deals._io import ENCODING, ERRORS, is_path
from dealerpp.deals.options import Source
from dealerpp.diagnostics import TextProblem, quote

TAG, BRACE, SEMI, ESCAPE, WORD = "tag", "{", ";", "%", "word"

Token = tuple[str, int, int, str, str]

# Statistics dealer prints after its games: not PBN, passed over between games.
_STATS = re.compile(r"\s*(?:(?:Generated|Produced) \d+ hands|Initial random seed -?\d+"
                    r"|Time needed\s+[\d.]+ sec)\s*")
_TOKEN = re.compile(r'''
    [ \t\r\n\f\v\ufeff]*
    (?:
        \[[ \t\n]*(?P<name>[A-Za-z0-9_]+)[ \t\n]*"(?P<value>[^"\\\n]*(?:\\[^\n][^"\\\n]*)*)"[ \t\n]*\]
      | (?P<tag>\[)
      | (?P<brace>\{[^}]*\}?)
      | (?P<semi>;[^\n]*)
      | (?P<escape>(?<![^\n])%[^\n]*)
      | (?P<string>"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"?)
      | (?P<word>[^\s\[\]{};"\ufeff][^\s\[\]{};"]*)
      | (?P<other>[^\s\ufeff])
    )''', re.VERBOSE)
# (U+FEFF, a byte-order mark in the middle of a file where two were joined,
# is a blank wherever it stands: no word or token starts with one.)
# A game of tag lines only, as dealer and most dealing programs write them.
_PLAIN_GAME = re.compile(r'(?:\[[A-Za-z0-9_]+ "[^"\\\n]*"\]\n)*\[[A-Za-z0-9_]+ "[^"\\\n]*"\]\n?')
_PLAIN_TAG = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\\n]*)"\]')


# The tokens of _TOKEN without the leading blanks' positions, for findall.
# A run of section tokens goes on over the lines that start with one (a
# table of 20 rows is one match, not 20). Quoted text is matched as
# "plain run, then (escape, plain run)*": a third faster in re than an
# alternation tried at every character.
_QUICK_TOKEN = re.compile(r'''
    \[[ \t\n]*([A-Za-z0-9_]+)[ \t\n]*"([^"\\\n]*(?:\\[^\n][^"\\\n]*)*)"[ \t\n]*\]
  | (\{[^}]*\}?|;[^\n]*|(?<![^\n])%[^\n]*)
  | ("[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"?)
  | ([^\s\[\]{};"\ufeff][^\[\]{};"\n]*(?:\n[^\s\[\]{};"%\ufeff][^\[\]{};"\n]*)*)
  | ([^\s\ufeff])''', re.VERBOSE)


def plain_tags(text: str) -> list[tuple[str, str]] | None:
    """The (name, value) pairs of a game made of plain tag lines only (no
    escapes, comments or sections), else None: the common case, read by two
    regular expressions instead of a token loop."""
    if _PLAIN_GAME.fullmatch(text) is None:
        return None
    return _PLAIN_TAG.findall(text)


def quick_scan(text: str) -> tuple[list[tuple[str, str]], list[list[str]]] | None:
    """The tags (name, value as written) of a game that starts with a tag,
    and what follows each as pieces: a ``"..."`` string, or a run of section
    tokens over its lines (split into tokens only where someone
    looks: :func:`section_words`); comments passed over. None when the game
    needs the full lexer (anything malformed, text before the first tag).
    One ``findall`` and no positions: the reader asks the full lexer for
    positions when it has something to say about a place."""
    pairs: list[tuple[str, str]] = []
    sections: list[list[str]] = []
    section: list[str] | None = None
    for name, value, comment, string, run, other in _QUICK_TOKEN.findall(text):
        if name:
            pairs.append((name, value))
            section = []
            sections.append(section)
        elif run:
            if section is None:
                return None
            section.append(run)
        elif string:
            if section is None or len(string) < 2 or string[-1] != '"' or _escaped(
                    string, len(string) - 1):
                return None
            section.append(string)
        elif other or (comment[0] == "{" and comment[-1] != "}"):
            return None
    return pairs, sections


def section_words(pieces: list[str]) -> list[str]:
    """The tokens of a section's pieces (as quick_scan gives them)."""
    words: list[str] = []
    for piece in pieces:
        if piece[0] == '"':
            words.append(piece)
        else:
            words.extend(piece.split())
    return words


def tokens(text: str) -> list[Token]:
    """The tokens of a game's text. Raises TextProblem at the bad character."""
    out: list[Token] = []
    append = out.append
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "value":
            append((TAG, match.start("name") - 1 - _blanks_before(text, match.start("name")),
                    match.end(), match.group("name"), match.group("value")))
            continue
        start = match.start(kind)  # type: ignore[arg-type]
        end = match.end()
        if kind == "word":
            append((WORD, start, end, match.group(kind), ""))
        elif kind == "string":
            if end - start < 2 or text[end - 1] != '"' or _escaped(text, end - 1):
                raise TextProblem("string not closed: '\"' expected", start)
            append((WORD, start, end, match.group(kind), ""))
        elif kind == "brace":
            if text[end - 1] != "}":
                raise TextProblem("comment not closed: '{' without '}'", start)
            append((BRACE, start, end, text[start + 1:end - 1], ""))
        elif kind == "semi":
            append((SEMI, start, end, text[start + 1:end], ""))
        elif kind == "escape":
            append((ESCAPE, start, end, text[start + 1:end], ""))
        elif kind == "tag":
            raise TextProblem(_tag_problem(text, end), _tag_problem_at(text, end))
        else:
            raise TextProblem(f"unexpected {quote(match.group(kind))}", start)  # type: ignore[arg-type]
    return out


# A tag's parts may be spread over lines: '[', the name, the value and ']'
# each on its own line (the PBN verifier's test set has such a game).
_NAME_AFTER_BRACKET = re.compile(r"[ \t\n]*([A-Za-z0-9_]*)[ \t\n]*")


def _blanks_before(text: str, position: int) -> int:
    """Blanks (line ends too) between a tag's '[' and its name (import
    format allows them)."""
    count = 0
    while text[position - count - 1] in " \t\n":
        count += 1
    return count


def _escaped(text: str, quote: int) -> bool:
    """Is the quote at ``quote`` escaped (an odd run of backslashes before it)?"""
    count = 0
    while quote - count - 1 >= 0 and text[quote - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _tag_problem(text: str, position: int) -> str:
    name = _NAME_AFTER_BRACKET.match(text, position)
    assert name is not None
    if not name.group(1):
        return "a tag needs a name after '['"
    label = f"tag {name.group(1)}"
    after = name.end()
    if text[after:after + 1] != '"':
        return f"{label}: the value must be a quoted string"
    value = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"').match(text, after)
    if value is None:
        return f"{label}: string not closed: '\"' expected"
    return f"{label}: ']' expected"


def _tag_problem_at(text: str, position: int) -> int:
    name = _NAME_AFTER_BRACKET.match(text, position)
    assert name is not None
    if not name.group(1):
        return position
    after = name.end()
    value = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"[ \t\n]*').match(text, after)
    if text[after:after + 1] != '"' or value is None:
        return after
    return value.end()


# -- text in chunks ----------------------------------------------------------------

CHUNK = 1 << 20  # characters read at a time


def text_chunks(source: Source, size: int = CHUNK) -> Iterator[str]:
    """The text of a source in chunks, line ends made LF (CR LF and a lone
    CR too, as Python's universal newlines read them), without a leading
    byte-order mark. Paths and files are read a chunk at a time."""
    first = True
    for chunk in _raw_chunks(source, size):
        if first:
            chunk = chunk.removeprefix("\ufeff")
            first = False
        if chunk:
            yield chunk


def _raw_chunks(source: Source, size: int) -> Iterator[str]:
    if is_path(source):
        with open(source, encoding=ENCODING, errors=ERRORS, newline=None) as handle:
            yield from _read_all(handle, size)
        return
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = bytes(source).decode(ENCODING, ERRORS)
    if isinstance(source, str):
        yield io.StringIO(source, newline=None).read()
        return
    yield from _handle_chunks(source, size)  # type: ignore[arg-type]


def _handle_chunks(handle: IO[Any], size: int) -> Iterator[str]:
    buffer = getattr(handle, "buffer", None) if isinstance(handle, io.TextIOBase) else handle
    if buffer is None:  # a text stream without bytes under it (StringIO)
        text = handle.read()
        yield io.StringIO(text, newline=None).read()
        return
    wrapper = io.TextIOWrapper(buffer, encoding=ENCODING, errors=ERRORS, newline=None)
    try:
        yield from _read_all(wrapper, size)
    finally:
        # Detached, the wrapper cannot close the caller's file when it is
        # collected. A file the caller closed already (a reader dropped
        # before its end) needs nothing: detaching would flush into it.
        if not buffer.closed:
            wrapper.detach()


def _read_all(handle: IO[str], size: int) -> Iterator[str]:
    """Chunks of growing size up to ``size``: taking the first game of a
    large file reads only its start. (Universal newlines: a CR LF cut
    between two reads still comes out as one LF.)"""
    step = min(size, 1 << 14)
    while chunk := handle.read(step):
        yield chunk
        step = min(size, step * 2)


# -- games out of lines -------------------------------------------------------------

class RawGame:
    """The text of one game (its lines joined by LF, without the last line
    end) and the number of its first line."""

    __slots__ = ("_lines", "first", "text")

    def __init__(self, first: int, text: str) -> None:
        self.first = first
        self.text = text
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    def position(self, offset: int) -> tuple[int, int]:
        """Line number and 1-based column of an offset into the text."""
        start = self.text.rfind("\n", 0, offset) + 1
        return self.first + self.text.count("\n", 0, start), offset - start + 1

    def offset(self, line: int, column: int) -> int:
        lines = self.lines[:line - self.first]
        return sum(len(x) + 1 for x in lines) + column - 1


# Where the quick split of a chunk on empty lines is not the whole story:
# brace comments (which may hold empty lines), escape lines, lines of blanks,
# text that is not a tag at the start of a game.
_ODD_CHARS = ("\r", "\f", "\v", "\n ", "\n\t")
_BRACE_OVER_EMPTY_LINE = re.compile(r"\{[^}]*\n\n")


def _quick_to_split(text: str, cut: int) -> bool:
    """Can ``text[:cut]`` be cut into games at its empty lines (and at the
    one at ``cut``)? Every game starts with a tag, no line starts with a
    blank (it might be a line of blanks), no brace comment holds an empty
    line. Searches for single characters and counts run at memory speed;
    the regular expression only where a brace is."""
    head = text[:cut]
    return (head.startswith("[") and not any(c in head for c in _ODD_CHARS)
            and head.count("\n\n") == head.count("\n\n[")
            and ("{" not in head
                 or _BRACE_OVER_EMPTY_LINE.search(text, 0, cut + 2) is None))


class QuickBlock:
    """Games that each start with a tag, separated by single empty lines,
    with nothing that makes an empty line anything else (see
    _quick_to_split): text and the number of its first line."""

    __slots__ = ("first", "text")

    def __init__(self, first: int, text: str) -> None:
        self.first = first
        self.text = text

    def games(self, start: int = 0, line: int | None = None) -> Iterator[RawGame]:
        """The games from ``start`` (at line ``line``) on."""
        line = self.first if line is None else line
        for piece in self.text[start:].split("\n\n"):
            body = piece.strip("\n")  # a third LF of "\n\n\n" is a blank line too
            if body:
                yield RawGame(line + len(piece) - len(piece.lstrip("\n")), body)
            line += piece.count("\n") + 2


def games_of_text(chunks: Iterable[str], quick: bool = True) -> Iterator[RawGame]:
    """Games of a text given in chunks (each ends with a line end, except
    perhaps the last). While the text is plain tag games separated by empty
    lines, it is cut with ``str.split``; from the first chunk that holds
    anything else on, line by line (``split_games``)."""
    for block in blocks_of_text(chunks, quick):
        if isinstance(block, QuickBlock):
            yield from block.games()
        else:
            yield block


def blocks_of_text(chunks: Iterable[str], quick: bool = True) -> Iterator[RawGame | QuickBlock]:
    """Games as games_of_text finds them, those of the quick split still
    together in blocks (a reader may read a block faster than game by game)."""
    line = 1
    rest = ""
    chunks = iter(chunks)
    if not quick:
        yield from split_games(_lines_of("", chunks))
        return
    for chunk in chunks:
        text = rest + chunk
        cut = text.rfind("\n\n")
        if cut < 0:
            rest = text
            continue
        head, rest = text[:cut], text[cut + 2:]
        if not _quick_to_split(text, cut) or rest.startswith("\n"):
            yield from split_games(_lines_of(head + "\n\n" + rest, chunks), line)
            return
        if head:
            yield QuickBlock(line, head)
        line += head.count("\n") + 2
    if rest:
        yield from split_games(_lines_of(rest, ()), line)


def _lines_of(head: str, chunks: Iterable[str]) -> Iterator[str]:
    """The lines of ``head`` and then of the chunks, without line ends."""
    carry = head
    for chunk in chunks:
        lines = (carry + chunk).split("\n")
        carry = lines.pop()
        yield from lines
    if carry:
        lines = carry.split("\n")
        if lines[-1] == "":
            lines.pop()  # the end of the last line, not a line
        yield from lines


def split_games(lines: Iterable[str], first_number: int = 1) -> Iterator[RawGame]:
    """Games of a file's lines: an empty line (or one of blanks) ends a game
    that has begun; ``%`` lines and comments before a game's first tag
    belong to it; a line of tokens before any tag is a game of its own (the
    layout of bare deal strings); dealer's statistics lines between
    games are passed over."""
    current: list[str] = []
    first = 0
    content = False  # the game has more than '%' lines
    tagged = False  # ... and a tag (else a line of tokens is a bare deal)
    bare = False  # the game is a bare deal line, ended by its line
    in_brace = False
    for number, line in enumerate(lines, first_number):
        if in_brace:
            current.append(line)
            in_brace = _brace_open_after(line, True)
            if not in_brace and bare:
                yield RawGame(first, "\n".join(current))
                current, content, tagged, bare = [], False, False, False
            continue
        if line[:1] == "%":
            if not current:
                first = number
            current.append(line)
            continue
        stripped = _stripped(line)
        if not stripped:
            if content:
                yield RawGame(first, "\n".join(current))
                current, content, tagged = [], False, False
            elif current:
                current.append(line)  # between '%' lines and their game: kept
            continue
        kind = _content_kind(line, stripped, content, tagged)
        if kind == _STATISTICS:
            continue
        bare, tagged = bare or kind == _BARE, tagged or kind == _TAG
        if not current:
            first = number
        current.append(line)
        content = True
        if "{" in line:
            in_brace = _brace_open_after(line, False)
        if bare and not in_brace:
            yield RawGame(first, "\n".join(current))
            current, content, tagged, bare = [], False, False, False
    while current and not _stripped(current[-1]):
        current.pop()  # blank lines after '%' lines that no game follows
    if current:
        yield RawGame(first, "\n".join(current))  # the last game, or '%' lines alone


# What a line of content is to the game it is in (see _content_kind).
_STATISTICS, _BARE, _TAG, _MORE = range(4)


def _content_kind(line: str, stripped: str, content: bool, tagged: bool) -> int:
    """A line with content (``stripped``: it without blanks around it) in a
    game that has ``content`` and is ``tagged`` so far: dealer's statistics
    between games (passed over), the start of a bare deal (tokens before any
    tag: the game is that line), a tag, or more of the game."""
    if not tagged and stripped[0] not in "[{;":
        return _STATISTICS if not content and _STATS.fullmatch(line) else _BARE
    return _TAG if stripped[0] == "[" else _MORE


def _stripped(line: str) -> str:
    """The line without blanks around it, a byte-order mark (U+FEFF, where
    two files were joined) counted as one, as the lexer counts it. Only the
    lexer's blanks: str.strip() would take control and Unicode spaces too
    (a line of U+001C), which the quick split of games keeps as text."""
    return (line.replace("\ufeff", "") if "\ufeff" in line else line).strip(_BLANKS)


_BLANKS = " \t\r\f\v"


def _brace_open_after(line: str, open_at_start: bool) -> bool:
    """Is a ``{`` comment still open at the end of the line? Quotes and ``;``
    comments are followed so a brace inside them does not count."""
    position = 0
    length = len(line)
    if open_at_start:
        close = line.find("}")
        if close < 0:
            return True
        position = close + 1
    while position < length:
        char = line[position]
        if char == "{":
            close = line.find("}", position + 1)
            if close < 0:
                return True
            position = close + 1
        elif char == '"':
            position += 1
            while position < length and line[position] != '"':
                position += 2 if line[position] == "\\" else 1
            position += 1
        elif char == ";":
            return False
        else:
            position += 1
    return False
