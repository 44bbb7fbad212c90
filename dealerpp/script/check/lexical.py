"""The lexical pass: from the lexer's tokens to the parser's.

It reports what dealer's scanner stumbles on in comments and strings (an
unclosed /* comment or string, a ``#`` that starts no comment for dealer, a
last comment without its newline, the characters of /* */ comments dealer
echoes to its output), compiles every shape{} block with the preprocessor's
own compiler, and reads the mistakes that are clear from the characters
alone: a decimal number (``1.5``) and DealerV2's script parameters
(``$1``). Each of those is replaced by a placeholder, so the parser goes on
as if the script said what it meant. Other characters dealer rejects reach
the parser as BAD_CHAR tokens, to be reported where they break a statement.

Errors travel in the token stream as ``Problem`` tokens, for the syntax
pass to report in order with its own (at most one error a line); warnings
are reported at once.
"""

from __future__ import annotations

from collections.abc import Iterator

from dealerpp.diagnostics import DppError
from dealerpp.lalr import Token
from dealerpp.script.check.facts import DEALERV2_PARAMETER_HINT
from dealerpp.script.check.report import Report
from dealerpp.script.check.stream import Placeholder, Problem, TokenStream, adjacent
from dealerpp.script.lexer import Region, RegionToken, is_column_one, tokens

_NUMBERS = frozenset({"NUMBER", "DISTR_OR_NUMBER"})


class LexicalPass:
    """One script's tokens, checked on their way to the parser."""

    def __init__(self, report: Report, dpp: bool, blocks_compiled: bool = False) -> None:
        self.report = report
        self.dpp = dpp
        # The preprocessor compiled every block already and gave their warnings.
        self.blocks_compiled = blocks_compiled

    def parser_tokens(self) -> Iterator[Token]:
        """The tokens the parser reads: comments left out, mistakes replaced."""
        stream = TokenStream(tokens(self.report.text))
        while (token := stream.next()) is not None:
            kind = token.type
            if isinstance(token, RegionToken):
                region = token.region
                if kind == "STRING":
                    yield self.string(token, region)
                elif kind == "SHAPE_BLOCK":
                    yield self.shape_block(token, region)
                elif kind == "BLOCK_COMMENT" and not region.closed:
                    yield _problem(token, "this /* comment is never closed "
                                   "(dealer: EOF found in comment)")
                    return
                else:
                    problem = self.comment(token, region)
                    if problem is not None:
                        yield problem
            elif kind in _NUMBERS and _is_decimal_point(stream.peek(), token):
                yield self.decimal(token, stream)
            elif kind == "BAD_CHAR":
                replaced = self.bad_char(token, stream)
                if replaced is None:
                    return  # dealer stops reading here
                yield replaced
            else:
                yield token

    # -- comments and strings ---------------------------------------------------

    def comment(self, token: Token, region: Region) -> Problem | None:
        if region.kind == "block_comment":
            self.comment_echo(token)
            return None
        column_one = is_column_one(self.report.text, region.start)
        if region.kind == "hash_comment" and not self.dpp and not column_one:
            return _problem(token, "# starts a comment only in column 1",
                            "use // for a comment after code")
        if not region.closed:
            mark = "#" if region.kind == "hash_comment" and column_one else "//"
            return _problem(token, f"a {mark} comment on the last line needs a newline after it")
        return None

    def comment_echo(self, token: Token) -> None:
        """dealer's scanner prints E, O, F, < and > met in a /* */ comment."""
        body = str(token)
        for offset, char in enumerate(body):
            if char in "EOF<>":
                line = (token.line or 1) + body.count("\n", 0, offset)
                start = body.rfind("\n", 0, offset)
                column = (token.column or 1) + offset if start < 0 else offset - start
                self.report.add("warning", "dealer prints the characters E, O, F, < and > of "
                                "a /* */ comment to its output", line, column,
                                "reword the comment or use // comments")
                return

    def string(self, token: Token, region: Region) -> Token:
        if region.closed:
            return token
        return _problem(token, "this string is never closed",
                        replacement=Placeholder.instead_of("STRING", '""', token))

    # -- shape{} blocks -----------------------------------------------------------

    def shape_block(self, token: Token, region: Region) -> Token:
        """A shape{} block compiled as the preprocessor compiles it."""
        if self.blocks_compiled and self.dpp:
            return token  # (before any placeholder is made: the preprocessor's every block)
        placeholder = Placeholder.instead_of("SHAPE_BLOCK", str(token), token)
        if not self.dpp:
            return _problem(token, "shape{...} is dealerpp syntax; dealer rejects `{`",
                            "run the script through dealerpp first (or check it as dealerpp "
                            "input: --dpp, the default for *.dpp files)", placeholder)
        from dealerpp.script.shape_blocks import compile_block

        try:
            _text, warnings = compile_block(self.report.text, region, self.report.lines,
                                            self.report.filename)
        except DppError as error:
            return Problem.at(error.line or token.line or 1, error.column or 1, error.message,
                              error.hint, placeholder)
        for warning in warnings:
            self.report.add(warning.severity, warning.message, warning.line, warning.column,
                            warning.hint, warning.code)
        return token

    # -- characters dealer rejects ---------------------------------------------------

    def decimal(self, whole: Token, stream: TokenStream) -> Token:
        """`1.5`: dealer has whole numbers only."""
        point = stream.next()
        last = point
        following = stream.peek()
        if following is not None and following.type in _NUMBERS and adjacent(point, following):
            last = stream.next()
        return self.decimal_found(whole, last)

    def decimal_found(self, first: Token, last: Token | None) -> Token:
        text = _shown(self.report.text[first.start_pos:(last or first).end_pos])
        return _problem(first, f"dealer's numbers are whole numbers: `{text}` is not one",
                        "scale the other side instead, e.g. 2 * x > 3 for x > 1.5",
                        Placeholder.instead_of("NUMBER", "1", first, last))

    def bad_char(self, token: Token, stream: TokenStream) -> Token | None:
        """A character dealer's scanner rejects: a placeholder for what it
        surely meant, itself for the parser to report, or None where dealer
        stops reading."""
        char = str(token)
        following = stream.peek()
        digits = following is not None and following.type in _NUMBERS
        if char == "\x00" or ord(char) >= 0x80:
            self.report.at("warning", token, "dealer stops reading at a non-ASCII character or "
                           "NUL outside strings and comments: the rest of the file is ignored")
            return None
        if char == "$" and digits and adjacent(token, following):
            number = stream.next()
            return _problem(token, f"`${_shown(str(number))}` is a DealerV2 script parameter",
                            DEALERV2_PARAMETER_HINT,
                            Placeholder.instead_of("NUMBER", "1", token, number))
        if char == "." and digits and adjacent(token, following):
            return self.decimal_found(token, stream.next())
        return token


def _problem(token: Token, message: str, hint: str | None = None,
             replacement: Token | None = None) -> Problem:
    return Problem.at(token.line or 1, token.column or 1, message, hint, replacement)


def _shown(text: str) -> str:
    """Source text quoted in a message, cut if long."""
    return text if len(text) <= 30 else text[:27] + "..."


def _is_decimal_point(candidate: Token | None, number: Token) -> bool:
    return (candidate is not None and candidate.type == "BAD_CHAR" and str(candidate) == "."
            and adjacent(number, candidate))
