"""The preprocessor: ``shape{COMPASS, ...}`` → ``shape(COMPASS, LIST)``,
every other byte as it was.

    >>> from dealerpp import preprocess
    >>> preprocess("n = shape{north, 5M(xxx)}  # a five-card major\\n")
    'n = shape(north, x5xx + 5xxx)  // a five-card major\\n'

A shape{} may span lines; its replacement is written on one line and
followed by the same number of line breaks (and any comments the body held),
so every later line keeps its line number and dealer's messages still point
at the right line of the original script.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dealerpp.diagnostics import (
    TOO_MANY_SHAPES,
    Diagnostic,
    DppError,
    line_col,
    source_line_of,
)
from dealerpp.script.scan import Region, is_column_one, scan

SHAPE_OPEN = re.compile(r"(?<![A-Za-z0-9_])shape\s*\{")
SHAPE_CALL = re.compile(r"(?<![A-Za-z0-9_])shape\s*\(")
DEALER_SHAPE_LIMIT = 31  # dealer fails at the 32nd shape() ("only 32 allowed")


@dataclass
class Preprocessed:
    """The rewritten script and what the rewriter noticed on the way."""

    text: str
    warnings: list[Diagnostic] = field(default_factory=list)
    shape_lines: list[int] = field(default_factory=list)  # 1-based lines of shape( in the output


def preprocess(text: str, filename: str = "<stdin>", warnings: list[Diagnostic] | None = None,
               *, compact: bool = True) -> str:
    """Rewrite every shape{} of a dealer script; return the new script.

    Warnings are appended to ``warnings`` when a list is given. A problem
    raises ``DppError`` naming ``filename``, line and column.
    """
    result = preprocess_script(text, filename, compact=compact)
    if warnings is not None:
        warnings.extend(result.warnings)
    return result.text


def preprocess_script(text: str, filename: str = "<stdin>", *,
                      compact: bool = True) -> Preprocessed:
    """Like ``preprocess``, with the warnings and shape() lines in the result."""
    rewriter = _Rewriter(text, filename, compact)
    output = rewriter.run()
    result = Preprocessed(output, rewriter.warnings)
    result.shape_lines = shape_call_lines(output)
    if len(result.shape_lines) > DEALER_SHAPE_LIMIT:
        result.warnings.append(_too_many_shapes(result.shape_lines, filename))
    return result


class _Rewriter:
    def __init__(self, text: str, filename: str, compact: bool) -> None:
        self.text = text
        self.filename = filename
        self.compact = compact
        self.regions = scan(text)
        self.out: list[str] = []
        self.warnings: list[Diagnostic] = []

    def run(self) -> str:
        index = 0
        resume = None  # where to go on inside a code region after a shape{}
        while index < len(self.regions):
            region = self.regions[index]
            if region.kind != "code":
                self.out.append(self._comment_or_string(region))
                index += 1
                continue
            position = region.start if resume is None else resume
            resume = None
            match = SHAPE_OPEN.search(self.text, position, region.end)
            if match is None:
                self.out.append(self.text[position:region.end])
                index += 1
                continue
            self.out.append(self.text[position:match.start()])
            index, resume = self._shape_call(match.start(), match.end() - 1, index)
        return "".join(self.out)

    def _comment_or_string(self, region: Region) -> str:
        source = region.text(self.text)
        if region.kind == "hash_comment" and not is_column_one(self.text, region.start):
            # dealer accepts '#' only in column 1; dealer.dpp users write them anywhere.
            return "//" + source[1:]
        return source

    # -- one shape{...} -------------------------------------------------------

    def _shape_call(self, start: int, brace: int, index: int) -> tuple[int, int]:
        """Rewrite the shape{ at ``start``; return the region index and offset to go on from."""
        close, inner = self._find_close(start, brace, index)
        call_text = self._blank_regions(start, close + 1, inner)
        dealer_text, warnings = self._compile(call_text, start)
        self.warnings.extend(self._relocate(w, start) for w in warnings)
        self.out.append(dealer_text)
        self.out.append(self._kept_lines(start, close, inner))
        while self.regions[index].end <= close:
            index += 1
        return index, close + 1

    def _compile(self, call_text: str, start: int) -> tuple[str, list[Diagnostic]]:
        """The dealer text of one shape{...} and its warnings (positions in ``call_text``)."""
        from dealerpp.shapes.compiler import compile_shape  # loaded at the first shape{}

        try:
            compiled = compile_shape(call_text)
        except DppError as error:
            raise self._relocate_error(error, start) from None
        return compiled.dealer_text(compact=self.compact), compiled.warnings

    def _find_close(self, start: int, brace: int, index: int) -> tuple[int, list[Region]]:
        """The offset of the closing brace, and the comments met before it."""
        inner: list[Region] = []
        position = brace + 1
        for number in range(index, len(self.regions)):
            region = self.regions[number]
            if region.end <= position:
                continue
            if region.kind == "code":
                close = self.text.find("}", max(position, region.start), region.end)
                if close >= 0:
                    return close, inner
            elif region.kind == "string":
                raise self._error("a string cannot stand inside shape{...}", region.start)
            else:
                inner.append(region)
        raise self._error("unclosed 'shape{': no '}' ends it", start)

    def _blank_regions(self, start: int, end: int, inner: list[Region]) -> str:
        """The call's text with its comments turned into spaces (line breaks kept)."""
        text = self.text[start:end]
        for region in inner:
            a, b = region.start - start, region.end - start
            blank = re.sub(r"[^\r\n]", " ", text[a:b])
            text = text[:a] + blank + text[b:]
        return text

    def _kept_lines(self, start: int, close: int, inner: list[Region]) -> str:
        """The line breaks and comments of a shape{} body, in their order."""
        pieces: list[str] = []
        position = start
        for region in [*inner, None]:
            stop = close if region is None else region.start
            for newline in re.findall(r"\r?\n", self.text[position:stop]):
                pieces.append(newline)
            if region is None:
                break
            comment = region.text(self.text)
            if region.kind == "hash_comment":
                comment = "//" + comment[1:]
            if not pieces or not pieces[-1].endswith("\n"):
                comment = " " + comment
            pieces.append(comment)
            position = region.end
        return "".join(pieces)

    # -- positions --------------------------------------------------------------

    def _error(self, message: str, offset: int) -> DppError:
        line, column = line_col(self.text, offset)
        return DppError(message, line, column, self.filename, source_line_of(self.text, line))

    def _relocate_error(self, error: DppError, start: int) -> DppError:
        line, column = line_col(self.text, start)
        return error.relocated(self.text, line - 1, column - 1, self.filename)

    def _relocate(self, diagnostic: Diagnostic, start: int) -> Diagnostic:
        line, column = line_col(self.text, start)
        return diagnostic.relocated(self.text, line - 1, column - 1, self.filename)


def shape_call_lines(text: str) -> list[int]:
    """The line of every ``shape(`` that dealer will see (comments and strings skipped)."""
    lines = []
    line, counted = 1, 0  # newlines are counted once, from one match to the next
    for region in scan(text):
        if region.kind == "code":
            for match in SHAPE_CALL.finditer(text, region.start, region.end):
                line += text.count("\n", counted, match.start())
                counted = match.start()
                lines.append(line)
    return lines


def _too_many_shapes(lines: list[int], filename: str) -> Diagnostic:
    shown = ", ".join(str(n) for n in lines[DEALER_SHAPE_LIMIT:][:10])
    more = " ..." if len(lines) > DEALER_SHAPE_LIMIT + 10 else ""
    return Diagnostic(
        "warning",
        f"the output has {len(lines)} shape() calls; dealer accepts {DEALER_SHAPE_LIMIT} "
        f"and fails at the next (\"Too many shapes\"): the extra ones are on output "
        f"lines {shown}{more}",
        lines[DEALER_SHAPE_LIMIT],
        None,
        filename,
        hint="combine shape{} terms into fewer calls, or store one in a variable and reuse it",
        code=TOO_MANY_SHAPES,
    )
