"""Positioned messages shared by every stage: the shape compiler, the script
rewriter, the checker and the deal readers.

A message looks like a compiler's:

    script.dpp:3:17: error: a pattern needs exactly 4 suit lengths, this one has 8
    n = shape{north, 4432+5332}
                    ^

Lines and columns are 1-based; the column counts characters, not bytes.

Whatever the input, a message is safe to print and bounded: control
characters are shown escaped (``\\x1b``; an undecodable byte, kept as a lone
surrogate, is shown as the byte it was: ``\\xff``), and a quoted source line
longer than ``LINE_LIMIT`` characters is cut to a window around the caret,
marked with ``...``. Nothing here copies more of a long line than that window.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from dealerpp.records import Record

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Literal

    Severity = Literal["error", "warning", "note"]
else:
    Severity = str

# Codes of problems that more than one stage reports (see Diagnostic.code).
TOO_MANY_SHAPES = "too-many-shapes"
INTERNAL_ERROR = "internal-error"  # a bug of ours: always worth a report

# A quoted line up to this many shown characters is printed whole; a longer
# one is cut to WINDOW characters around the caret (plus the "..." marks).
LINE_LIMIT = 200
WINDOW = 160
# The message and hint are ours, but they may quote input: beyond this many
# characters their middle is cut.
MESSAGE_LIMIT = 400
# ``LineIndex.excerpt`` keeps this many characters on each side of the column
# of a longer line; ``Diagnostic.format`` needs far fewer.
EXCERPT_REACH = 1000
CUT = "..."

# What a terminal must not receive raw: C0 controls but tab, DEL, C1
# controls, lone surrogates (undecodable bytes), the line and paragraph
# separators and the bidirectional overrides that can reorder what is shown.
_UNSAFE_CHARACTERS = ("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff"
                      "\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_unsafe_pattern: re.Pattern[str] | None = None


def _unsafe() -> re.Pattern[str]:
    """``_UNSAFE_CHARACTERS`` compiled, on first use: compiling it costs a
    third of a millisecond, and most runs print no message."""
    global _unsafe_pattern
    if _unsafe_pattern is None:
        _unsafe_pattern = re.compile(_UNSAFE_CHARACTERS)
    return _unsafe_pattern


_WIDE = ("W", "F")  # east Asian wide and full-width: two columns on a terminal


def _escape_char(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def escape(text: str) -> str:
    """``text`` with every character a terminal must not receive raw escaped.

    >>> escape("a\\x1b[2Jb\\udcff\\tc")
    'a\\\\x1b[2Jb\\\\xff\\tc'
    """
    unsafe = _unsafe()
    if unsafe.search(text) is None:
        return text
    return unsafe.sub(lambda found: _escape_char(found.group()), text)


def shorten(text: str, limit: int = MESSAGE_LIMIT,
            escaped: Callable[[str], str] | None = None) -> str:
    """``text`` escaped (by ``escape``, or ``escaped``), its middle replaced by
    ``...`` when longer than ``limit`` (the slices are taken before escaping,
    so a huge text is never copied whole)."""
    escaped = escaped or escape
    if len(text) <= limit:
        return escaped(text)
    tail = limit // 4
    return escaped(text[: limit - tail - len(CUT)]) + CUT + escaped(text[len(text) - tail:])


def quote(text: str, limit: int = 40) -> str:
    r"""``text`` in single quotes for a message, cut in the middle when longer
    than ``limit``: its quotes and backslashes escaped, and every character a
    terminal must not receive raw shown as an escape. Unlike ``repr``, a byte
    that was not UTF-8 (read as a lone surrogate) is shown as that byte, as
    the quoted source line shows it.

    >>> quote("abc"), quote("9" * 50, limit=12), quote("S\udce9"), quote("it's")
    ("'abc'", "'999999...999'", "'S\\xe9'", "'it\\'s'")
    """
    return "'" + shorten(text, limit, _quoted) + "'"


def _quoted(text: str) -> str:
    return escape(text.replace("\\", "\\\\").replace("'", "\\'"))


class LineExcerpt(str):
    """A window of a long source line, for a message about one column of it.

    ``start`` is the 0-based index in the whole line where the window begins,
    and ``line_length`` the whole line's length, so the caret still goes under
    the right character and the cut ends are marked.
    """

    start: int
    line_length: int

    def __new__(cls, text: str, start: int, line_length: int) -> LineExcerpt:
        excerpt = super().__new__(cls, text)
        excerpt.start, excerpt.line_length = start, line_length
        return excerpt

    def __reduce__(self) -> tuple[type, tuple[str, int, int]]:
        return (LineExcerpt, (str(self), self.start, self.line_length))


class LineIndex:
    """Where each line of a text starts, found once; then the line and column
    of an offset, and the text of a line, in O(log n) each.

    Lines end at ``\\n`` only (as the lexers count them); a ``\\r`` before it
    is not part of the line's text.

    >>> index = LineIndex("ab\\ncd\\r\\nef")
    >>> index.line_col(4), index.line_text(2), index.line_count
    ((2, 2), 'cd', 3)
    """

    __slots__ = ("_byte_starts", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._byte_starts: list[int] | None = None  # see byte_offset
        starts = [0]
        find, position = text.find, text.find("\n")
        while position >= 0:
            starts.append(position + 1)
            position = find("\n", position + 1)
        self.starts = starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def offset(self, line: int, column: int = 1) -> int:
        """The character offset of a 1-based line and column."""
        return self.starts[line - 1] + column - 1

    def byte_offset(self, line: int | None, column: int | None) -> int | None:
        """The offset of a 1-based line and column in the text's UTF-8 bytes
        (an undecodable byte, kept as a lone surrogate, is one byte again):
        for a text decoded from a file as it was (line ends kept), the
        offset in the file. None when either is unknown or off the text."""
        if line is None or column is None or not 1 <= line <= len(self.starts):
            return None
        start = self.starts[line - 1]
        offset = start + column - 1
        if offset > len(self.text):
            return None
        if self._byte_starts is None:
            # ASCII (most scripts and deal files): a character is a byte
            self._byte_starts = [] if self.text.isascii() else _line_byte_starts(self.text)
        if not self._byte_starts:
            return offset
        return self._byte_starts[line - 1] + _utf8_length(self.text[start:offset])

    def line_span(self, line: int) -> tuple[int, int] | None:
        """Where 1-based ``line``'s text lies (its line ending left out)."""
        if not 1 <= line <= len(self.starts):
            return None
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        if end > start and self.text[end - 1] == "\r":
            end -= 1
        return start, end

    def line_text(self, line: int | None) -> str | None:
        """The text of 1-based ``line``: "" just past the last line, None elsewhere."""
        if line is None:
            return None
        span = self.line_span(line)
        if span is None:
            return "" if line == len(self.starts) + 1 else None
        return self.text[span[0]:span[1]]

    def excerpt(self, line: int | None, column: int | None) -> str | None:
        """The text of ``line`` for a message about ``column``: the whole line
        when it is short, else a ``LineExcerpt`` around the column, so that a
        message about a huge line never holds a copy of it."""
        if line is None:
            return None
        span = self.line_span(line)
        if span is None or column is None:
            return self.line_text(line)
        start, end = span
        if end - start <= 2 * EXCERPT_REACH:
            return self.text[start:end]
        center = min(max(column - 1, 0), end - start)
        low = max(0, center - EXCERPT_REACH)
        high = min(end - start, center + EXCERPT_REACH)
        return LineExcerpt(self.text[start + low:start + high], low, end - start)


def _utf8(text: str) -> bytes:
    """``text`` as the UTF-8 bytes it was read from (``surrogateescape``); a
    surrogate no decoding made (text from elsewhere) as three bytes."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _utf8_length(text: str) -> int:
    return len(_utf8(text))


def _line_byte_starts(text: str) -> list[int]:
    """Where each line starts in the UTF-8 bytes of ``text`` (a LF byte is
    never part of another character's bytes)."""
    data = _utf8(text)
    starts = [0]
    find, position = data.find, data.find(b"\n")
    while position >= 0:
        starts.append(position + 1)
        position = find(b"\n", position + 1)
    return starts


_last_index: LineIndex | None = None


def index_of(text: str) -> LineIndex:
    """The ``LineIndex`` of ``text``; the last one made is kept, so callers
    asking about the same text in a loop pay for the index once."""
    global _last_index
    index = _last_index
    if index is None or index.text is not text:
        index = _last_index = LineIndex(text)
    return index


def source_line_of(text: str, line: int | None, column: int | None = None) -> str | None:
    """The text of 1-based ``line`` in ``text`` (without its line ending); given
    the ``column`` a message is about, only a window of a very long line."""
    if line is None or line < 1:
        return None
    index = index_of(text)
    return index.excerpt(line, column) if column is not None else index.line_text(line)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    return index_of(text).line_col(offset)


def _width(shown: str) -> int:
    """Terminal columns a shown character takes (an escape takes its length)."""
    if len(shown) > 1 or shown < "\u1100":
        return len(shown)
    from unicodedata import east_asian_width  # only for text beyond ASCII and Latin

    return 2 if east_asian_width(shown) in _WIDE else 1


def quoted_line(source_line: str, column: int) -> tuple[str, str]:
    """The source line as shown under a headline, and the caret line under it.

    The line is escaped; when it is longer than ``LINE_LIMIT`` shown
    characters it is cut to a window around the caret, with ``...`` where text
    was left out. Only a bounded slice of ``source_line`` is ever looked at.
    """
    offset = getattr(source_line, "start", 0)  # a LineExcerpt starts mid-line
    end = len(source_line)
    while end and source_line[end - 1] in "\r\n":
        end -= 1
    line_length = getattr(source_line, "line_length", offset + end)
    caret = min(max(column - 1 - offset, 0), end)
    low, high = max(0, caret - LINE_LIMIT), min(end, caret + LINE_LIMIT + 1)
    unsafe = _unsafe().match
    shown = [_escape_char(c) if unsafe(c) else c for c in source_line[low:high]]
    widths = [_width(s) for s in shown]
    at = caret - low  # the caret's index in ``shown``
    cut_before, cut_after = offset + low > 0, offset + high < line_length
    if cut_before or cut_after or sum(widths) > LINE_LIMIT:
        left, right = _window(widths, at)
        cut_before, cut_after = cut_before or left > 0, cut_after or right < len(shown)
    else:
        left, right = 0, len(shown)
    text = (CUT if cut_before else "") + "".join(shown[left:right]) + (CUT if cut_after else "")
    # Keep tabs so the caret lines up under the same character.
    pad = "".join("\t" if s == "\t" else " " * w
                  for s, w in zip(shown[left:at], widths[left:at], strict=True))
    return text, (" " * len(CUT) if cut_before else "") + pad + "^"


def _window(widths: list[int], at: int) -> tuple[int, int]:
    """The slice of characters around index ``at`` that fits in ``WINDOW``
    columns, grown one character at a time on each side in turn."""
    left, right, used = at, at, 0
    if at < len(widths):
        right, used = at + 1, widths[at]
    grew = True
    while grew:
        grew = False
        if left > 0 and used + widths[left - 1] <= WINDOW:
            left, used, grew = left - 1, used + widths[left - 1], True
        if right < len(widths) and used + widths[right] <= WINDOW:
            right, used, grew = right + 1, used + widths[right], True
    return left, right


class Diagnostic(Record):
    """One message about one place in one source text (a read-only record)."""

    severity: Severity
    message: str
    line: int | None = None
    column: int | None = None
    filename: str | None = None
    source_line: str | None = None
    hint: str | None = None
    # A stable name for the kind of problem, where two stages can find the
    # same one (the rewriter and the checker both count shape() calls).
    code: str | None = None
    # A replacement that fixes it, where one is clear: (line, column,
    # end line, end column, text), the end exclusive, columns from 1.
    fix: tuple[int, int, int, int, str] | None = None
    # How many problems a summing-up note stands for (``N more errors on
    # this line``), for a caller that words it its own way.
    count: int | None = None
    # Another line the message names ("... on line 7 was read as ..."), so
    # that a caller need not look for it in the text.
    related_line: int | None = None
    # Where it is besides the line and column, as DppError has it: ``byte``,
    # the offset in the bytes read (None where the reader did not have
    # them: a stream, a text); ``deal``, the record's place from 1 in the
    # file (a PBN game); ``board``, the number it names; ``output``, true
    # when the output is at fault, not the input. Data for callers (JSON,
    # an editor): the text shows the line and column, not these.
    byte: int | None = None
    deal: int | None = None
    board: int | None = None
    output: bool = False

    def location(self) -> str:
        """``FILE:LINE:COL``, or ``FILE: byte N`` where no line places it
        (a binary file), for the parts known."""
        parts = [p for p in (self.filename,) if p]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        elif self.byte is not None:
            return ": ".join([*parts, f"byte {self.byte}"])
        return ":".join(parts)

    def headline(self) -> str:
        where = self.location()
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.severity}: {self.message}"

    def format(self) -> str:
        """The headline, then the source line with a caret under the column, then
        the hint: every part escaped and bounded (see the module's docstring)."""
        lines = [shorten(self.headline())]
        if self.source_line is not None and self.column is not None:
            lines.extend(quoted_line(self.source_line, self.column))
        if self.hint:
            lines.append("hint: " + shorten(self.hint))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def relocated(self, text: str, line_offset: int, column_offset: int,
                  filename: str | None) -> Diagnostic:
        """The same message placed inside a larger text (see ``DppError.relocated``)."""
        line, column = _shifted(self.line, self.column, line_offset, column_offset)
        return self.replace(line=line, column=column, filename=filename,
                            source_line=source_line_of(text, line, column),
                            byte=index_of(text).byte_offset(line, column))


class TextProblem(ValueError):
    """What is wrong at ``offset`` (0-based, in characters) of a piece of
    text a parser reads on its own (a PBN game's text, a tag value, a hex
    line), before it is known where that piece sits in a file: the reader
    that knows turns it into a DppError or a Diagnostic with a line and a
    column. ``kind`` names a kind of problem a caller acts on, so that no
    caller reads the message. The one error of the PBN lexer, the deal
    string's parser and the hex decoder."""

    def __init__(self, message: str, offset: int = 0, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.kind = kind


# DppError.kind of a shape{} that no '}' closes (an interactive session waits
# for the next line).
UNCLOSED_SHAPE = "unclosed-shape"


class DppError(Record, Exception, frozen=False):
    """An input that cannot be compiled, or deals that cannot be written:
    where, and what is wrong.

    ``str(error)`` is ``LINE:COL: error: MESSAGE`` (prefixed by the file name
    when one is known), then the source line and a caret. Two errors are
    equal when their fields are.

    ``message`` says what is wrong; where it is are fields, put into words
    in one place (``where_text``): ``line``/``column`` in a text, ``byte``
    (the offset in a binary file), ``deal`` (the deal's place from 1 in the
    file read, or in the output), ``board`` (the board number it names).
    ``output`` is true when the output is at fault (a deal the output format
    cannot hold), not the input; ``read_line`` is then the line of the input
    its deal was read at, where known (a PBN game's). ``kind`` names a kind
    of problem a caller acts on (``UNCLOSED_SHAPE``), so that no caller
    reads the message.
    """

    message: str
    line: int | None
    column: int | None
    filename: str | None
    source_line: str | None
    hint: str | None
    notes: list[Diagnostic]
    byte: int | None
    deal: int | None
    board: int | None
    output: bool
    kind: str | None
    read_line: int | None

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 filename: str | None = None, source_line: str | None = None,
                 hint: str | None = None, notes: list[Diagnostic] | None = None,
                 byte: int | None = None, deal: int | None = None, board: int | None = None,
                 output: bool = False, kind: str | None = None,
                 read_line: int | None = None) -> None:
        self.message, self.line, self.column = message, line, column
        self.filename, self.source_line, self.hint = filename, source_line, hint
        self.notes = [] if notes is None else notes
        self.byte, self.deal, self.board, self.output = byte, deal, board, output
        self.kind, self.read_line = kind, read_line
        Exception.__init__(self, message)  # (not Record.__init__: fields are set above)

    @classmethod
    def of(cls, problem: Diagnostic) -> DppError:
        """The error a reader raises for a problem it would report (without
        a report callback): the same fields."""
        return cls(problem.message, line=problem.line, column=problem.column,
                   filename=problem.filename, source_line=problem.source_line,
                   hint=problem.hint, byte=problem.byte, deal=problem.deal,
                   board=problem.board, output=problem.output, kind=problem.code)

    def where_text(self, *, byte: bool = True) -> str:
        """``byte N: deal N: board N: read at line N: `` for the parts
        known (the byte left out with ``byte=False``, for a caller that
        shows it apart, and where a line and column place the error: they
        say it to a reader of the text; the byte stays a field)."""
        shown = byte and self.byte is not None and self.line is None
        parts = [f"byte {self.byte}: "] if shown else []
        if self.deal is not None:
            parts.append(f"deal {self.deal}: ")
        if self.board is not None:
            parts.append(f"board {self.board}: ")
        if self.read_line is not None:
            parts.append(f"read at line {self.read_line}: ")
        return "".join(parts)

    @property
    def text(self) -> str:
        """The message with where it is in the file (not its line: see format)."""
        return self.where_text() + self.message

    @property
    def diagnostic(self) -> Diagnostic:
        """The error as a Diagnostic: where it is in its location (the byte
        there, as ``FILE: byte N``, where no line places it) and fields, the
        deal and board in its message."""
        return Diagnostic("error", self.where_text(byte=False) + self.message, self.line,
                          self.column, self.filename, self.source_line, self.hint,
                          byte=self.byte, deal=self.deal, board=self.board, output=self.output)

    def __str__(self) -> str:
        return self.diagnostic.format()

    def relocated(self, text: str, line_offset: int, column_offset: int,
                  filename: str | None) -> DppError:
        """The same error placed inside a larger text.

        ``line_offset``/``column_offset`` say where the smaller text started
        (0-based line offset, and the column offset applies to its first line
        only, as for a shape{} body that starts mid-line).
        """
        line, column = _shifted(self.line, self.column, line_offset, column_offset)
        return self.replace(line=line, column=column, filename=filename,
                            source_line=source_line_of(text, line, column))


def _shifted(line: int | None, column: int | None, line_offset: int,
             column_offset: int) -> tuple[int | None, int | None]:
    """A position in a piece of text moved to where the piece starts in a larger
    one; the column offset applies to the piece's first line only."""
    if line is not None:
        if line == 1 and column is not None:
            column += column_offset
        line += line_offset
    return line, column
