"""The one lexer of dealer's language, for the rewriter and the checker alike.

It works at two levels, so that the rewriter pays only for the first:

1. ``regions`` cuts a script into code, comments, strings and dealerpp's
   ``shape{...}`` blocks; every character belongs to exactly one region.
   The rewriter copies regions through and expands the blocks.
2. ``tokens`` also cuts each code region into the terminals of
   ``grammar/dealer.lark``; the checker parses these.

dealer's rules (docs/check.md, "The grammar"), and dealerpp's additions:

- ``//`` comments run to the end of the line and need the newline;
- ``/* ... */`` comments may span lines and do not nest;
- ``#`` starts a comment: dealer accepts it in column 1 only (and needs the
  newline); dealerpp turns a ``#`` comment elsewhere into a ``//`` comment,
  because dealer.dpp users write them;
- strings are ``"..."`` with no escapes and may span lines; a ``"`` that no
  other closes is a string to the end of its line (dealer rejects it; the
  checker goes on at the next line);
- ``shape{ ... }`` starts where the word ``shape`` is a token of its own and
  ends at the first ``}`` outside comments; a string may not stand inside.

Both levels decide "is this a token of its own?" the same way
(``starts_token``), so the rewriter expands exactly the blocks the checker
sees.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from dealerpp.lalr import Token
from dealerpp.lalr.terminals import Terminals

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Literal

    RegionKind = Literal["code", "line_comment", "block_comment", "hash_comment", "string",
                         "shape"]
else:
    RegionKind = str

# What can start a region other than code.
_OPENER = re.compile(r'//|/\*|#|"|shape\s*\{')
# What can end a shape{} block, or stand inside it.
_IN_SHAPE = re.compile(r'//|/\*|#|"|\}')
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# The token kinds of non-code regions.
REGION_TOKEN = {
    "line_comment": "LINE_COMMENT", "block_comment": "BLOCK_COMMENT",
    "hash_comment": "HASH_COMMENT", "string": "STRING", "shape": "SHAPE_BLOCK",
}


class Region:
    """A stretch of a script: ``text[start:end]``.

    ``closed`` says whether it ends as it should: a string or /* comment
    with its closing delimiter, a // or # comment with a newline after it,
    a shape{} block with its ``}``. A block that is not closed ends at its
    ``{``, or at the string that stands in it (``string_at``).
    ``comments`` are the comment regions inside a shape{} block.
    """

    __slots__ = ("closed", "comments", "end", "kind", "start", "string_at")

    def __init__(self, kind: RegionKind, start: int, end: int, closed: bool = True,
                 comments: tuple[Region, ...] = (), string_at: int | None = None) -> None:
        self.kind, self.start, self.end, self.closed = kind, start, end, closed
        self.comments, self.string_at = comments, string_at

    def text(self, source: str) -> str:
        return source[self.start:self.end]

    def __repr__(self) -> str:
        return f"Region({self.kind!r}, {self.start}, {self.end}, closed={self.closed})"


class RegionToken(Token):
    """A token for a whole non-code region (a comment, a string, a shape{}
    block), carrying the region."""

    __slots__ = ("region",)

    region: Region


class _Misses:
    """What searches for the end of a region failed to find, so that a later
    search bound to fail the same way is not made again: without them, the
    text ``shape{`` written ten thousand times is scanned to its end ten
    thousand times.

    ``block_end``/``comment_end``: from here on there is no ``}`` (nor
    anything else a shape{} block stops at), no ``*/``. ``dead_ends``: the
    comments a shape{} block that was never closed went through; a later
    block that meets one of them goes on exactly as that one did.
    """

    __slots__ = ("block_end", "comment_end", "dead_ends")

    def __init__(self) -> None:
        self.block_end = self.comment_end = 1 << 62
        self.dead_ends: set[int] = set()


def regions(text: str) -> Iterator[Region]:
    """Cut ``text`` into code, comment, string and shape{} regions, in order."""
    position = code_start = 0
    search = _OPENER.search
    misses = _Misses()
    while True:
        match = search(text, position)
        if match is None:
            break
        start = match.start()
        opener = match.group()
        if opener[0] == "s":
            if not starts_token(text, start):
                position = start + 5
                continue
            region = _shape_block(text, start, match.end() - 1, misses)
        else:
            region = _simple_region(text, start, opener, misses)
        if start > code_start:
            yield Region("code", code_start, start)
        yield region
        position = code_start = region.end
    if code_start < len(text):
        yield Region("code", code_start, len(text))


def _simple_region(text: str, start: int, opener: str, misses: _Misses) -> Region:
    """The comment or string that ``opener`` starts at ``start``."""
    if opener == '"':
        end = text.find('"', start + 1)
        if end < 0:
            return Region("string", start, _line_end(text, start), closed=False)
        return Region("string", start, end + 1)
    if opener == "/*":
        end = -1 if start + 2 >= misses.comment_end else text.find("*/", start + 2)
        if end < 0:
            misses.comment_end = min(misses.comment_end, start + 2)
            return Region("block_comment", start, len(text), closed=False)
        return Region("block_comment", start, end + 2)
    kind: RegionKind = "line_comment" if opener == "//" else "hash_comment"
    end = _line_end(text, start)
    return Region(kind, start, end, closed=text.find("\n", end) >= 0)


def _shape_block(text: str, start: int, brace: int, misses: _Misses) -> Region:
    """The shape{} block starting at ``start`` whose ``{`` is at ``brace``."""
    comments: list[Region] = []
    position = brace + 1
    while True:
        found = None if position >= misses.block_end else _IN_SHAPE.search(text, position)
        if found is None or found.start() in misses.dead_ends:
            if found is None:
                misses.block_end = min(misses.block_end, position)
            misses.dead_ends.update(comment.start for comment in comments)
            return Region("shape", start, brace + 1, closed=False)
        opener = found.group()
        if opener == "}":
            return Region("shape", start, found.end(), comments=tuple(comments))
        if opener == '"':
            return Region("shape", start, found.start(), closed=False,
                          comments=tuple(comments), string_at=found.start())
        comment = _simple_region(text, found.start(), opener, misses)
        comments.append(comment)
        if comment.kind == "block_comment" and not comment.closed:
            misses.dead_ends.update(comment.start for comment in comments)
            return Region("shape", start, brace + 1, closed=False)
        position = comment.end


def _line_end(text: str, start: int) -> int:
    """The offset of the line ending after ``start`` (before a CR of a CRLF)."""
    end = text.find("\n", start)
    if end < 0:
        return len(text)
    return end - 1 if end > start and text[end - 1] == "\r" else end


def is_column_one(text: str, offset: int) -> bool:
    return offset == 0 or text[offset - 1] == "\n"


def starts_token(text: str, offset: int) -> bool:
    """Whether dealer's scanner starts a token at ``offset`` (a word there is
    a token of its own, not the tail of a longer one).

    After a character that cannot continue a token, surely. After letters or
    digits, it depends on how the scanner cuts them: ``5xxxshape`` is a shape
    then ``shape``, ``xshape`` one name; so the run of word characters before
    ``offset`` is cut with the grammar's own terminals.
    """
    if offset == 0 or text[offset - 1] not in _WORD_CHARS:
        return True
    run = offset - 1
    while run > 0 and text[run - 1] in _WORD_CHARS:
        run -= 1
    if run > 0 and text[run - 1] == "\\" and text[run] == "n":
        run += 1  # `\n` outside a string is one token (a newline for printes)
    match = _scanner().match
    while run < offset:
        found = match(text, run, len(text))
        if found is None:  # cannot happen: BAD_CHAR matches any character
            return False
        run = found[1]
    return run == offset


_SHAPE_WORD = re.compile(r"shape(?![A-Za-z0-9_])")


def shape_words(text: str, start: int, end: int) -> Iterator[int]:
    """Offsets of the word ``shape`` as a token of its own in code ``text[start:end]``."""
    for found in _SHAPE_WORD.finditer(text, start, end):
        if starts_token(text, found.start()):
            yield found.start()


# -- level 2: the grammar's terminals -------------------------------------------

# Terminals that level 1 finds as regions, and the one that matches nothing.
_NOT_IN_CODE = frozenset({"LINE_COMMENT", "HASH_COMMENT", "BLOCK_COMMENT",
                          "UNTERMINATED_COMMENT", "SHAPE_BLOCK", "NEVER"})


@cache
def _terminals() -> list[dict[str, object]]:
    from dealerpp import lalr

    return [t for t in lalr.load("dealer").terminals if t["name"] not in _NOT_IN_CODE]


@cache
def _scanner() -> Terminals:
    """The terminals found in code, tried in the order Lark's basic lexer
    tries them (priority, then longest possible match, then the longer
    pattern, then name), so it gives Lark's tokens.

    It is several times faster than a lexer that builds a rich object per
    token, whitespace included.
    """
    terminals = sorted(
        _terminals(),
        key=lambda t: (-int(t["priority"]), -int(t["max_width"]),  # type: ignore[call-overload]
                       -len(str(t["value"])), str(t["name"])),
    )
    from dealerpp import lalr

    return Terminals([(str(t["name"]), str(t["regexp"])) for t in terminals], union_after=64,
                     known=lalr.load("dealer").starts, by_start=True)


# The common case, blanks and whole words, found without trying every
# terminal; a word is then classified once per distinct spelling.
_FAST = re.compile(
    r"(?P<WS>[ \t]+)|(?P<NEWLINE>\r*\n)|(?P<WORD>[A-Za-z]\w*)"
    # Punctuation that never starts a longer token, and plain numbers.
    r"|(?P<PUNCT>[(),+*%?:])|(?P<DIGITS>[0-9]+)(?![0-9xCDHS])",
    re.ASCII,
)
_BLANKS = frozenset({"NEWLINE", "WS"})


@cache
def _punctuation() -> dict[str, str]:
    """Terminal names of the one-character tokens _FAST finds."""
    return {str(t["value"]): str(t["name"]) for t in _terminals()
            if t["type"] == "str" and len(str(t["value"])) == 1}


@lru_cache(maxsize=4096)
def _word_kind(word: str) -> str:
    """The terminal a whole word is: a keyword, holding, card, ... or IDENT."""
    return _scanner().kind_of(word) or "IDENT"


def tokens(text: str) -> Iterator[Token]:
    """Every token of ``text`` but blanks and newlines, with lines and columns:
    the grammar's terminals in code, and one ``RegionToken`` per comment,
    string and shape{} block (types LINE_COMMENT, BLOCK_COMMENT,
    HASH_COMMENT, STRING, SHAPE_BLOCK)."""
    match, fast, punctuation = _scanner().match, _FAST.match, _punctuation()
    line, line_start = 1, 0
    for region in regions(text):
        start, end = region.start, region.end
        if region.kind != "code":
            value = text[start:end]
            newlines = value.count("\n")
            end_line, end_start = line, line_start
            if newlines:
                end_line, end_start = line + newlines, start + value.rfind("\n") + 1
            token = RegionToken(REGION_TOKEN[region.kind], value, start, line,
                                start - line_start + 1, end_line, end - end_start + 1, end)
            token.region = region
            yield token
            line, line_start = end_line, end_start
            continue
        position = start
        while position < end:
            found = fast(text, position, end)
            if found is not None:
                kind, stop = found.lastgroup or "BAD_CHAR", found.end()
            else:
                scanned = match(text, position, end)
                if scanned is None:  # cannot happen: BAD_CHAR matches any character
                    break
                kind, stop = scanned[0] or "BAD_CHAR", scanned[1]
            value = text[position:stop]
            if kind == "WORD":
                kind = _word_kind(value)
            elif kind == "PUNCT":
                kind = punctuation[value]
            elif kind == "DIGITS":
                kind = "DISTR_OR_NUMBER" if len(value) == 4 else "NUMBER"
            if kind in _BLANKS:
                if kind == "NEWLINE":
                    line, line_start = line + 1, stop
                position = stop
                continue
            yield Token(kind, value, position, line, position - line_start + 1,
                        line, stop - line_start + 1, stop)
            position = stop
