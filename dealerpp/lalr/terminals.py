"""Matching a lexer's terminals, shared by the grammars' lexer
(``dealerpp.lalr.runtime.Lexer``) and dealer-script scanning
(``dealerpp.script.lexer``): the first terminal, in order, that matches.
"""

from __future__ import annotations

import re
from functools import cache

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Literal


class Terminals:
    """Terminals tried in order: the first that matches wins.

    For its first ``union_after`` look-ups it tries one regexp at a time,
    each compiled on first use (``re`` keeps them), and skips those that
    cannot start with the character at hand; then it compiles them all into
    one alternation, faster per look-up but slower to build than a short
    text takes to lex. Both give the same answer: an alternation's match is
    its first alternative that matches.

    ``by_start``: instead of one alternation of them all, one for each
    character a look-up starts at, of the terminals that can start with it
    (made when first needed): the dealer-script scanner's one alternation
    tried all its 67 terminals in turn on each word and each ``=``
    (~30,000 instructions a look-up); a word starting with ``v`` has 7 to try.
    A terminal left out cannot match there, so the first that matches is
    the same.
    """

    def __init__(self, terminals: list[tuple[str, str]], union_after: int = 64,
                 known: Mapping[str, str | None] | None = None, by_start: bool = False) -> None:
        self.terminals = terminals
        self.union_after = union_after
        # ``known``: start characters shipped with the tables (STARTS), so
        # that a process does not work them out from the regexps again.
        self.starts = [_starts(regexp, known) for _, regexp in terminals]
        self._union: re.Pattern[str] | None = None
        self._looked_up = 0
        # by start character: its alternation, or None if no terminal can start so
        self._by_start: dict[str, re.Pattern[str] | None] | None = {} if by_start else None

    @property
    def union(self) -> re.Pattern[str] | None:
        """The one compiled alternation, if it is compiled yet."""
        return self._union

    def _alternation(self) -> re.Pattern[str] | None:
        """The one compiled alternation, once it is worth compiling."""
        if self._union is None:
            self._looked_up += 1
            if self._looked_up <= self.union_after:
                return None
            self._union = _compiled(self.terminals)
        return self._union

    def _alternation_at(self, first: str) -> re.Pattern[str] | Literal[False] | None:
        """With ``by_start``, once worth compiling, the alternation of the
        terminals that can start with ``first`` (None: not one can); False
        while each terminal is still tried on its own."""
        if self._by_start is None:
            union = self._alternation()
            return False if union is None else union
        if first in self._by_start:
            return self._by_start[first]
        if self._looked_up < self.union_after:
            self._looked_up += 1
            return False
        chosen = [terminal for terminal, starts in zip(self.terminals, self.starts, strict=True)
                  if starts is None or first in starts]
        found = self._by_start[first] = _compiled(chosen) if chosen else None
        return found

    def _candidates(self, first: str) -> Iterator[tuple[str, re.Pattern[str]]]:
        for (name, regexp), starts in zip(self.terminals, self.starts, strict=True):
            if starts is None or first in starts:
                yield name, re.compile(regexp)

    def match(self, text: str, position: int, end: int) -> tuple[str, int] | None:
        """The first terminal matching at ``text[position:end]``, and where its match ends."""
        first = text[position] if position < end else ""
        union = self._alternation_at(first)
        if union is None:
            return None
        if union is not False:
            found = union.match(text, position, end)
            return None if found is None else (found.lastgroup or "", found.end())
        for name, pattern in self._candidates(first):
            one = pattern.match(text, position, end)
            if one is not None:
                return name, one.end()
        return None

    def kind_of(self, word: str) -> str | None:
        """The first terminal matching the whole of ``word``, if any."""
        union = self._alternation_at(word[:1])
        if union is None:
            return None
        if union is not False:
            found = union.fullmatch(word)
            return None if found is None else (found.lastgroup or "")
        for name, pattern in self._candidates(word[:1]):
            if pattern.fullmatch(word) is not None:
                return name
        return None


def _compiled(terminals: list[tuple[str, str]]) -> re.Pattern[str]:
    """One alternation of ``terminals``, in order, each a group named for it."""
    return re.compile("|".join(f"(?P<{name}>{regexp})" for name, regexp in terminals))


# --- which characters a terminal's match can start with -------------------------


def _starts(regexp: str, known: Mapping[str, str | None] | None) -> frozenset[str] | None:
    if known is not None and regexp in known:
        chars = known[regexp]
        return None if chars is None else frozenset(chars)
    return literal_starts(regexp)

_META = frozenset(".^$|?*+{}[]()\\")


@cache  # the grammars' lexers share most of their terminals
def literal_starts(regexp: str) -> frozenset[str] | None:
    """The characters a match of ``regexp`` can start with, when that is plain
    to see: every top-level alternative starts with a literal character, a
    simple character class or a plain group of such, not made optional.
    None when it is not plain (the regexp must then be tried)."""
    starts: set[str] = set()
    for alternative in _alternatives(regexp):
        first = _first_characters(alternative)
        if first is None:
            return None
        starts |= first
    return frozenset(starts)


def _alternatives(regexp: str) -> list[str]:
    """``regexp`` cut at its top-level ``|``."""
    parts, start = [], 0
    for index, char, depth in _syntax(regexp):
        if char == "|" and depth == 0:
            parts.append(regexp[start:index])
            start = index + 1
    parts.append(regexp[start:])
    return parts


def _group_end(regexp: str) -> int:
    """The index just past the group that opens ``regexp``."""
    for index, _char, depth in _syntax(regexp):
        if depth == 0:
            return index + 1
    return len(regexp)


def _syntax(regexp: str) -> Iterator[tuple[int, str, int]]:
    """Each character of ``regexp`` that is neither escaped nor in a character
    class: its index, itself, and the depth of groups after it."""
    depth, index = 0, 0
    while index < len(regexp):
        char = regexp[index]
        if char == "\\":
            index += 2
        elif char == "[":
            index = _class_end(regexp, index)
        else:
            depth += (char == "(") - (char == ")")
            yield index, char, depth
            index += 1


def _class_end(regexp: str, index: int) -> int:
    """The index just past the character class opening at ``index``."""
    index += 1
    if regexp[index:index + 1] == "^":
        index += 1
    if regexp[index:index + 1] == "]":  # a ] first is a member
        index += 1
    while index < len(regexp) and regexp[index] != "]":
        index += 2 if regexp[index] == "\\" else 1
    return index + 1


def _first_characters(alternative: str) -> frozenset[str] | None:
    """What a match of one alternative can start with (see ``literal_starts``)."""
    char = alternative[:1]
    first: frozenset[str] | None
    if char == "(" and not alternative.startswith("(?"):
        close = _group_end(alternative)
        first, rest = literal_starts(alternative[1:close - 1]), alternative[close:]
    elif char == "[":
        close = _class_end(alternative, 0)
        first, rest = _class_members(alternative[1:close - 1]), alternative[close:]
    elif char == "\\" and len(alternative) > 1 and not alternative[1].isalnum():
        first, rest = frozenset(alternative[1]), alternative[2:]
    elif char and char not in _META:
        first, rest = frozenset(char), alternative[1:]
    else:
        return None
    return None if first is None or rest[:1] in ("?", "*", "{") else first


def _class_members(body: str) -> frozenset[str] | None:
    """The characters of a simple class body (``CDHS``, ``0-9a-z``); None
    for a negated class or one with escapes."""
    if not body or body[0] == "^" or "\\" in body:
        return None
    members: set[str] = set()
    index = 0
    while index < len(body):
        if index + 2 < len(body) and body[index + 1] == "-":
            members.update(chr(code) for code in range(ord(body[index]), ord(body[index + 2]) + 1))
            index += 3
        else:
            members.add(body[index])
            index += 1
    return frozenset(members)
