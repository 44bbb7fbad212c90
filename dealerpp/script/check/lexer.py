"""Lexical checks: tokens, comments, and characters dealer's scanner rejects.

``_lex`` splits a script into the grammar's terminals, comments included
(the parser never sees them, but dealer echoes parts of /* */ comments).
``_Lexical.lexical_pass`` reports what dealer's scanner stumbles on: bad
characters, unclosed comments and strings, a ``#`` that starts no comment,
a ``//`` comment without a final newline, and the characters of /* */
comments dealer echoes to its output. It is separate because it works on the
flat token list alone, before any parsing, and decides which tokens the
parser gets to see.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from dealerpp.lalr import Token
from dealerpp.script.check.facts import _grammar
from dealerpp.script.check.report import _Report

# Comment tokens; the parser never sees them.
_COMMENTS = frozenset({"LINE_COMMENT", "HASH_COMMENT", "BLOCK_COMMENT"})
_BLANKS = frozenset({"NEWLINE", "WS"})
_IGNORED = _COMMENTS | _BLANKS


@cache
def _scanner() -> re.Pattern[str]:
    """The grammar's terminals as one regex, tried in the order Lark's basic
    lexer tries them (priority, then longest possible match, then the
    longer pattern, then name).

    Lark's own lexer gives the same tokens but builds a rich object per
    token, whitespace included; this is several times faster and lets the
    checker keep comments, which the parser ignores.
    """
    terminals = sorted(
        _grammar().terminals,
        key=lambda t: (-t["priority"], -t["max_width"], -len(t["value"]), t["name"]),
    )
    return re.compile("|".join(f"(?P<{t['name']}>{t['regexp']})" for t in terminals))


# The common case, blanks and whole words, found without trying every
# terminal; a word is then classified once per distinct spelling. (shape{ is
# left to the full scanner.)
_FAST = re.compile(
    r"(?P<WS>[ \t]+)|(?P<NEWLINE>\r*\n)|(?P<WORD>(?!shape[ \t]*\{)[A-Za-z]\w*)"
    # Punctuation that never starts a longer token, and plain numbers.
    r"|(?P<PUNCT>[(),+*%?:])|(?P<DIGITS>[0-9]+)(?![0-9xCDHS])",
    re.ASCII,
)


@cache
def _punctuation() -> dict[str, str]:
    """Terminal names of the one-character tokens _FAST finds."""
    return {t["value"]: t["name"] for t in _grammar().terminals
            if t["type"] == "str" and len(t["value"]) == 1}


@lru_cache(maxsize=4096)
def _word_kind(word: str) -> str:
    """The terminal a whole word is: a keyword, holding, card, ... or IDENT."""
    found = _scanner().fullmatch(word)
    return (found.lastgroup or "IDENT") if found else "IDENT"


def _lex(text: str) -> list[Token]:
    """Every token but blanks and newlines, with lines and columns."""
    match, fast, punctuation = _scanner().match, _FAST.match, _punctuation()
    tokens: list[Token] = []
    position, line, line_start = 0, 1, 0
    while position < len(text):
        found = fast(text, position) or match(text, position)
        if found is None:  # cannot happen: BAD_CHAR matches any character
            break
        kind, value, end = found.lastgroup or "BAD_CHAR", found.group(), found.end()
        if kind == "WORD":
            kind = _word_kind(value)
        elif kind == "PUNCT":
            kind = punctuation[value]
        elif kind == "DIGITS":
            kind = "DISTR_OR_NUMBER" if len(value) == 4 else "NUMBER"
        newlines = value.count("\n")
        end_line, end_start = line, line_start
        if newlines:
            end_line, end_start = line + newlines, position + value.rfind("\n") + 1
        if kind not in _BLANKS:
            tokens.append(Token(kind, value, position, line, position - line_start + 1,
                                end_line, end - end_start + 1, end))
        position, line, line_start = end, end_line, end_start
    return tokens


class _Lexical(_Report):
    """The lexical pass (a part of ``_Checker``)."""

    def lexical_pass(self, tokens: list[Token]) -> list[Token]:
        """Report lexical problems; return the tokens the parser should see."""
        kept: list[Token] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "BLOCK_COMMENT":
                self.comment_echo(token)
            elif kind == "UNTERMINATED_COMMENT":
                self.at("error", token, "this /* comment is never closed "
                        "(dealer: EOF found in comment)")
                break
            elif kind == "BAD_CHAR":
                skip_line = self.bad_char(token)
                if skip_line is None:
                    break  # dealer stops reading here
                if skip_line:
                    index = _next_line(tokens, index)
                    continue
            elif kind == "SLASH" and self.unterminated_line_comment(tokens, index):
                index = _next_line(tokens, index)
                continue
            elif kind not in _IGNORED:
                kept.append(token)
            index += 1
        return kept

    def comment_echo(self, token: Token) -> None:
        body = str(token)
        for offset, char in enumerate(body):
            if char in "EOF<>":
                line = token.line + body.count("\n", 0, offset)
                start = body.rfind("\n", 0, offset)
                column = token.column + offset if start < 0 else offset - start
                self.report("warning", "dealer prints the characters E, O, F, < and > of a "
                            "/* */ comment to its output", line, column,
                            "reword the comment or use // comments")
                return

    def bad_char(self, token: Token) -> bool | None:
        """Report a character dealer's scanner rejects.

        Returns None when dealer treats it as the end of the file, True when
        the rest of the line should be skipped, False to skip just it.
        """
        char = str(token)
        if char == "\x00" or ord(char) >= 0x80:
            self.at("warning", token, "dealer stops reading at a non-ASCII character or NUL "
                    "outside strings and comments: the rest of the file is ignored")
            return None
        if char == "#":
            if self.dpp:
                return True  # dealer.dpp deletes trailing # comments before dealer runs
            if token.column == 1:
                self.at("error", token, "a # comment on the last line needs a newline after it")
            else:
                self.at("error", token, "# starts a comment only in column 1",
                        "use // for a comment after code")
            return True
        if char == '"':
            self.at("error", token, "this string is never closed")
            return True  # what follows on the line was meant as text
        message = {
            "&": "dealer has no `&`; logical and is `&&` or `and`",
            "|": "dealer has no `|`; logical or is `||` or `or`",
            "\r": "a carriage return not followed by a newline",
        }.get(char, f"dealer does not accept the character {char!r} here")
        self.at("error", token, message)
        return False

    def unterminated_line_comment(self, tokens: list[Token], index: int) -> bool:
        """`//` on a last line without newline: two divisions to dealer."""
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or following.type != "SLASH":
            return False
        if following.start_pos != token.start_pos + 1:
            return False
        if "\n" in self.text[token.start_pos:]:
            return False
        self.at("error", token, "a // comment on the last line needs a newline after it")
        return True


def _next_line(tokens: list[Token], index: int) -> int:
    line = tokens[index].line
    while index < len(tokens) and tokens[index].line == line:
        index += 1
    return index
