"""check_text's diagnostics again after an edit, re-reading only what changed.

``IncrementalCheck`` keeps one document's script cut into *stretches*:
from one line where a statement surely starts to the next. Reading a
stretch (the lexical and syntax passes: lexing, shape{} compilation,
parsing with recovery) is recorded once, keyed by the stretch's text:
what it told the report, in order, and the statement trees it made. A
check then plays the records back, in order, into a fresh ``Report`` and
``SemanticPass``; only the stretches an edit touched are read again. The
semantic pass (definitions and uses, the logic analysis, everything that
depends on other statements) runs over the whole script every time.

Stretches are cut at some of those lines only (chosen by each line's own
text, so an edit moves no other cut), about eight statements a stretch.

Why a stretch read alone is read as check_text reads it in the script:

- it starts at a line start that no comment, string or shape{} block of
  the script spans, so the lexer starts afresh there, as it does on the
  stretch alone (dealer stops reading at a NUL or non-ASCII character
  outside comments and strings: no stretch starts after one);
- its first token surely starts a statement (``SyntaxPass.starts_statement``
  says a keyword or ``NAME =``), so the syntax pass starts a new segment,
  with a fresh parser, there, and closes the one before as it does at the
  end of a stretch read with ``at_end=False``;
- what the syntax pass reads from outside the stretch is recorded and
  checked on play back: which names were assigned before it (a record is
  used only where the same names answer the same), and whether the report
  has an error on a line (asked again of the real report; where it answers
  otherwise, because the semantic pass reported there, the whole check is
  made with check_text instead);
- its tokens are moved to the stretch's place (lines and offsets; columns
  do not change, a stretch starting at a line start), and so are the lines
  of what it reported; a record whose messages name a line number is read
  again where its stretch moves to another line.

tests/editor/test_incremental.py compares the result with check_text on
scripts edited at random.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from itertools import pairwise

from dealerpp.diagnostics import Diagnostic
from dealerpp.lalr import Token, Tree
from dealerpp.script.check import check_text, suffix_is_dpp
from dealerpp.script.check.facts import STATEMENT_KEYWORDS
from dealerpp.script.check.lexical import LexicalPass
from dealerpp.script.check.report import DEFAULT_MAX_ERRORS, Report, TooManyErrors
from dealerpp.script.check.semantics import SemanticPass
from dealerpp.script.check.stream import TokenStream
from dealerpp.script.check.syntax import SyntaxPass
from dealerpp.script.lexer import RegionToken, regions, tokens

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

# What a record holds, in order: calls of the report, the syntax pass's
# names, and the statements it completed.
_ADD, _ERROR_ONCE, _COUNT_MORE, _HAS_ERROR, _ASSIGN, _BROKEN, _STATEMENT = range(7)
# A line that may start a statement: a word at its start.
_LINE_WORD = re.compile(r"^[ \t]*[A-Za-z_]", re.MULTILINE)
# Where dealer stops reading, outside comments and strings.
_STOP_CHAR = re.compile("[\x00\x80-\U0010ffff]")
_STARTS = ("keyword", "assignment")
# Line texts remembered as starting a statement or not, at most.
_LINES_KEPT = 20_000
# Stretches are cut at some of the lines that start a statement, chosen by
# the line's text (so that an edit moves no cut but its own line's): one in
# _STRETCH_MEAN, and at least one in _STRETCH_MOST. Several statements a
# stretch cost less to keep and play back than one; an edit reads again
# the few statements of its stretch.
_STRETCH_MEAN = 8
_STRETCH_MOST = 32
_OTHER_LINE, _STATEMENT_LINE, _CUT = range(3)


class _Stale(Exception):
    """A record does not hold where it is played back: check it all afresh."""


class _Recorder(Report):
    """A report that records what a stretch's reading tells it, and keeps
    only what that reading asks back (the lines with an error)."""

    def __init__(self, text: str, filename: str) -> None:
        super().__init__(text, filename, 0)
        self.events: list[tuple[Any, ...]] = []

    def add(self, severity: Any, message: str, line: int | None, column: int | None,
            hint: str | None = None, code: str | None = None,
            fix: tuple[int, int, int, int, str] | None = None,
            related_line: int | None = None) -> None:
        self.events.append((_ADD, severity, message, line, column, hint, code, fix,
                            related_line))
        if severity == "error" and line is not None:
            self.error_lines.add(line)

    def error_once(self, line: int | None, column: int | None, message: str,
                   hint: str | None = None, related_line: int | None = None) -> None:
        self.events.append((_ERROR_ONCE, line, column, message, hint, related_line))
        if line is not None:
            self.error_lines.add(line)

    def count_more(self, line: int | None) -> None:
        self.events.append((_COUNT_MORE, line))

    def has_error_on(self, line: int | None) -> bool:
        answer = line in self.error_lines
        self.events.append((_HAS_ERROR, line, answer))
        return answer


class _Forwarder(Report):
    """A report for a stretch read in its place (after as many empty lines
    as come before it): what the reading tells goes to the script's report."""

    def __init__(self, text: str, filename: str, target: Report) -> None:
        super().__init__(text, filename, 0)
        self.target = target

    def add(self, severity: Any, message: str, line: int | None, column: int | None,
            hint: str | None = None, code: str | None = None,
            fix: tuple[int, int, int, int, str] | None = None,
            related_line: int | None = None) -> None:
        self.target.add(severity, message, line, column, hint, code, fix, related_line)

    def error_once(self, line: int | None, column: int | None, message: str,
                   hint: str | None = None, related_line: int | None = None) -> None:
        self.target.error_once(line, column, message, hint, related_line)

    def count_more(self, line: int | None) -> None:
        self.target.count_more(line)

    def has_error_on(self, line: int | None) -> bool:
        return self.target.has_error_on(line)


class _AssignedNames(set[str]):
    """The syntax pass's names assigned so far: those of earlier stretches
    (``before``, asked about and the answers noted) and the stretch's own."""

    def __init__(self, before: set[str], events: list[tuple[Any, ...]]) -> None:
        super().__init__()
        self.before = before
        self.events = events
        self.asked: dict[str, bool] = {}

    def add(self, name: str) -> None:
        self.events.append((_ASSIGN, name))
        super().add(name)

    def __contains__(self, name: object) -> bool:
        if super().__contains__(name):
            return True
        answer = name in self.before
        self.asked[str(name)] = answer
        return answer


class _BrokenNames(set[str]):
    def __init__(self, events: list[tuple[Any, ...]], target: set[str] | None = None) -> None:
        super().__init__()
        self.events = events
        self.target = target

    def add(self, name: str) -> None:
        self.events.append((_BROKEN, name))
        super().add(name)
        if self.target is not None:
            self.target.add(name)


class _Record:
    """What reading one stretch alone told the report and made, with its
    tokens where they lie now (``line_base`` lines and ``offset_base``
    characters after their place in the stretch)."""

    __slots__ = ("asked", "bound_line", "event_base", "events", "line_base", "live",
                 "newlines", "offset_base", "tokens")

    def __init__(self, events: list[tuple[Any, ...]], asked: dict[str, bool],
                 tokens: list[Token], newlines: int, base: int) -> None:
        self.events = events
        self.asked = asked
        self.tokens = tokens
        self.newlines = newlines
        self.line_base = self.offset_base = self.event_base = base
        # Messages name lines: the record holds only at the line it was read at.
        self.bound_line: int | None = None
        # The reading asked the report about errors on its lines, which the
        # semantic pass may have reported meanwhile: it is done again in
        # place at every check (``read_in_place``) rather than played back.
        self.live = any(event[0] == _HAS_ERROR for event in events)
        if self.live:
            self.events, self.tokens, self.asked = [], [], {}

    def holds(self, assigned: set[str], line_base: int) -> bool:
        if self.bound_line is not None and self.bound_line != line_base:
            return False
        return all((name in assigned) == answer for name, answer in self.asked.items())

    def place(self, line_base: int, offset_base: int) -> None:
        """Move the tokens to a stretch starting after ``line_base`` lines, at
        offset ``offset_base``."""
        lines, offsets = line_base - self.line_base, offset_base - self.offset_base
        if not lines and not offsets:
            return
        for token in self.tokens:
            _move(token, lines, offsets)
        self.line_base, self.offset_base = line_base, offset_base

    def play(self, report: Report, semantics: SemanticPass, assigned: set[str],
             broken: set[str]) -> None:
        """Tell ``report`` and ``semantics`` what the reading told and made, in order."""
        shift = self.line_base - self.event_base
        for event in self.events:
            kind = event[0]
            if kind == _STATEMENT:
                semantics.statement(event[1])
            elif kind == _ASSIGN:
                assigned.add(event[1])
            elif kind == _ADD:
                _, severity, message, line, column, hint, code, fix, related = event
                if fix is not None and shift:
                    fix = (fix[0] + shift, fix[1], fix[2] + shift, fix[3], fix[4])
                report.add(severity, message, _moved(line, shift), column, hint, code, fix,
                           _moved(related, shift))
            elif kind == _ERROR_ONCE:
                _, line, column, message, hint, related = event
                report.error_once(_moved(line, shift), column, message, hint,
                                  _moved(related, shift))
            elif kind == _HAS_ERROR:
                if report.has_error_on(_moved(event[1], shift)) != event[2]:
                    raise _Stale
            elif kind == _COUNT_MORE:
                report.count_more(_moved(event[1], shift))
            else:
                broken.add(event[1])


def _move(token: Token, lines: int, offsets: int) -> None:
    if lines:
        if token.line is not None:
            token.line += lines
        if token.end_line is not None:
            token.end_line += lines
    if token.start_pos is not None:
        token.start_pos += offsets
    if token.end_pos is not None:
        token.end_pos += offsets
    if isinstance(token, RegionToken):
        token.region.start += offsets
        token.region.end += offsets


def _moved(line: int | None, shift: int) -> int | None:
    return None if line is None else line + shift


class IncrementalCheck:
    """One document's check, kept between its edits."""

    def __init__(self, filename: str, dpp: bool | None = None,
                 max_errors: int = DEFAULT_MAX_ERRORS) -> None:
        self.filename = filename
        self.dpp = dpp if dpp is not None else suffix_is_dpp(filename)
        self.max_errors = max_errors
        # Records used by the last check, and those the check before used and
        # the last did not (kept for one check more: an edit undone soon).
        self._records: dict[tuple[str, bool], list[_Record]] = {}
        self._older: dict[tuple[str, bool], list[_Record]] = {}
        self._starts: dict[str, int] = {}
        # How the last check went: stretches read afresh, and whether it
        # fell back on check_text (for tests and the bench).
        self.read = 0
        self.fell_back = False

    def records_kept(self) -> int:
        """How many records are kept: those of the last check's stretches and
        at most as many of the check's before (memory in proportion to the
        document)."""
        return sum(len(records) for kept in (self._records, self._older)
                   for records in kept.values())

    def check(self, text: str) -> list[Diagnostic]:
        """``check_text(text, filename, dpp=dpp, max_errors=max_errors)``."""
        self.read, self.fell_back = 0, False
        try:
            return self._check(text)
        except _Stale:
            pass
        except Exception:  # a fault of ours: check_text has the answer
            self._records, self._older = {}, {}
        self.fell_back = True
        return check_text(text, self.filename, dpp=self.dpp, max_errors=self.max_errors)

    def _check(self, text: str) -> list[Diagnostic]:
        report = Report(text, self.filename, self.max_errors)
        assigned: set[str] = set()
        broken: set[str] = set()
        semantics = SemanticPass(report, broken, assigned, self.dpp)
        kept, older, self._records = self._records, self._older, {}
        line_base = 0
        bounds = self.bounds(text)
        try:
            for start, end in pairwise(bounds):
                last = end == len(text)
                record = self._record((kept, older), text, start, end, last, assigned,
                                      line_base)
                if record.live:
                    self.read_in_place(text[start:end], last, line_base, start, report,
                                       semantics, assigned, broken)
                else:
                    record.place(line_base, start)
                    record.play(report, semantics, assigned, broken)
                line_base += record.newlines
            semantics.finish()
        except TooManyErrors:
            pass
        self._older = kept
        return report.diagnostics()

    # -- stretches ------------------------------------------------------------------

    def bounds(self, text: str) -> list[int]:
        """Where the stretches of ``text`` start, and its end."""
        spanned: list[tuple[int, int]] = []  # comments, strings and blocks over lines
        stop = len(text)
        for region in regions(text):
            if region.kind == "code":
                found = _STOP_CHAR.search(text, region.start, region.end)
                if found is not None:
                    stop = found.start()
                    break
            elif text.count("\n", region.start, region.end):
                spanned.append((region.start, region.end))
        bounds = [0]
        index = passed = 0
        for found in _LINE_WORD.finditer(text, 1, stop):
            start = found.start()
            while index < len(spanned) and spanned[index][1] <= start:
                index += 1
            if index < len(spanned) and spanned[index][0] < start:
                continue
            kind = self.line_kind(text, start)
            if kind == _CUT or (kind == _STATEMENT_LINE and passed >= _STRETCH_MOST):
                bounds.append(start)
                passed = 0
            elif kind == _STATEMENT_LINE:
                passed += 1
        bounds.append(len(text))
        return bounds

    def line_kind(self, text: str, start: int) -> int:
        """Whether the line at ``start`` surely starts a statement, and if so
        whether a stretch starts there (``_CUT``)."""
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        known = self._starts.get(line)
        if known is None:
            known = _OTHER_LINE
            if _starts_statement(line):
                known = _CUT if _line_hash(line) % _STRETCH_MEAN == 0 else _STATEMENT_LINE
            self._starts[line] = known
            if len(self._starts) > _LINES_KEPT:
                self._starts.clear()
        return known

    def _record(self, kept: tuple[dict[tuple[str, bool], list[_Record]], ...], text: str,
                start: int, end: int, last: bool, assigned: set[str],
                line_base: int) -> _Record:
        """The record of ``text[start:end]`` for a check, kept or read afresh
        (a record serves one place in one check: its tokens are moved there)."""
        stretch = text[start:end]
        key = (stretch, last)
        found: _Record | None = None
        for records in kept:
            candidates = records.get(key)
            if found is None and candidates:
                for index, candidate in enumerate(candidates):
                    if candidate.holds(assigned, line_base):
                        found = candidates.pop(index)
                        break
        if found is None:
            found = self.read_stretch(stretch, last, assigned, start > 0, line_base)
        self._records.setdefault(key, []).append(found)
        return found

    def read_in_place(self, stretch: str, last: bool, line_base: int, offset: int,
                      report: Report, semantics: SemanticPass, assigned: set[str],
                      broken: set[str]) -> None:
        self.read += 1
        _read_in_place(stretch, self.filename, self.dpp, last, line_base, offset, report,
                       semantics, assigned, broken)

    def read_stretch(self, stretch: str, last: bool, assigned: set[str], checks_start: bool,
                     line_base: int) -> _Record:
        """The record of the lexical and syntax passes over ``stretch`` alone."""
        self.read += 1
        record = _read(stretch, self.filename, self.dpp, last, assigned, checks_start, 0)
        if any(_names_line(event) for event in record.events):
            record = _read("\n" * line_base + stretch, self.filename, self.dpp, last, assigned,
                           checks_start, line_base)
            record.newlines = stretch.count("\n")
            record.bound_line = line_base
        return record


def _read_in_place(text: str, filename: str, dpp: bool, last: bool, line_base: int,
                   offset: int, report: Report, semantics: SemanticPass, assigned: set[str],
                   broken: set[str]) -> None:
    """``text``, a stretch at ``offset`` after ``line_base`` lines, read as
    check_text reads it there: what the reading tells goes to ``report``
    at once, and each statement to ``semantics`` as soon as it is complete."""
    padded = "\n" * line_base + text
    events: list[tuple[Any, ...]] = []
    syntax = SyntaxPass(_Forwarder(padded, filename, report))
    names = _AssignedNames(assigned, events)
    syntax.assigned = names
    syntax.broken_names = _BrokenNames(events, broken)
    if offset:
        _check_first_start(syntax, line_base + 1)
    lexical = LexicalPass(syntax.report, dpp)
    moved = offset - line_base  # the padding is one character a line
    for tree in syntax.statements(lexical.parser_tokens(), at_end=last):
        for token in _tokens_of([tree]):
            _move(token, 0, moved)
        semantics.statement(tree)
    assigned.update(names)


def _read(text: str, filename: str, dpp: bool, last: bool, assigned: set[str],
          checks_start: bool, base: int) -> _Record:
    """``text`` (a stretch, after ``base`` empty lines) read alone."""
    report = _Recorder(text, filename)
    events = report.events
    syntax = SyntaxPass(report)
    names = _AssignedNames(assigned, events)
    syntax.assigned = names
    syntax.broken_names = _BrokenNames(events)
    if checks_start:
        _check_first_start(syntax, base + 1)
    lexical = LexicalPass(report, dpp)
    trees = []
    for tree in syntax.statements(lexical.parser_tokens(), at_end=last):
        events.append((_STATEMENT, tree))
        trees.append(tree)
    return _Record(events, names.asked, _tokens_of(trees), text.count("\n"), base)


def _check_first_start(syntax: SyntaxPass, line: int) -> None:
    """Make sure the first token the syntax pass meets starts a statement, on
    the stretch's first line (else the stretch was cut where it must not be)."""
    starts_statement = syntax.starts_statement
    first = True

    def checked(token: Token, previous: Token | None, stream: TokenStream) -> str | None:
        nonlocal first
        kind = starts_statement(token, previous, stream)
        if first:
            first = False
            if token.line != line or kind not in _STARTS:
                raise _Stale
        return kind

    syntax.starts_statement = checked  # type: ignore[method-assign]


def _tokens_of(trees: list[Tree]) -> list[Token]:
    found: dict[int, Token] = {}
    stack: list[Any] = list(trees)
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            found[id(node)] = node
        elif isinstance(node, Tree):
            stack.extend(node.children)
    return list(found.values())


def _line_hash(line: str) -> int:
    """A hash of a line's text that is the same in every process (``hash``
    of a str changes with PYTHONHASHSEED, and with it where stretches were
    cut: the server's work, and its tests, changed from run to run)."""
    return zlib.crc32(line.encode("utf-8", "surrogatepass"))


def _names_line(event: tuple[Any, ...]) -> bool:
    """Whether a recorded diagnostic's message names another line (its text
    holds that line's number, so its record is bound to where it was read)."""
    return event[0] in (_ADD, _ERROR_ONCE) and event[-1] is not None


_PROBE: list[SyntaxPass] = []


def _starts_statement(line: str) -> bool:
    """Whether a line's first token surely starts a statement for the syntax
    pass, whatever comes before the line: a statement keyword, or ``NAME =``
    (``SyntaxPass.starts_statement``)."""
    found: Iterator[Token] = tokens(line)
    first = next(found, None)
    if first is None or isinstance(first, RegionToken):
        return False
    if not _PROBE:
        _PROBE.append(SyntaxPass(Report("", "")))
    kind = _PROBE[0].starts_statement(first, None, TokenStream(found))
    # `vulnerable` starts a statement for the main loop, but not for the
    # arguments of a misspelt call before it, which run on to the next
    # statement keyword or `NAME =` (syntax._skip_call).
    return kind == "assignment" or (kind == "keyword" and first.type in STATEMENT_KEYWORDS)

