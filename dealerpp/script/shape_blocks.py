"""One shape{} block of a script, compiled: the rewriter writes the result,
the checker reports its problems, so both always agree.

A block's comments become spaces before it is compiled (line breaks kept,
so positions inside it stay right); the rewriter writes them back after the
block's replacement (``kept_lines``) so that every later line keeps its
number.
"""

from __future__ import annotations

import re
from functools import lru_cache

from dealerpp.diagnostics import UNCLOSED_SHAPE, Diagnostic, DppError, LineIndex
from dealerpp.script.lexer import Region

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from dealerpp.shapes.emit import EmitMode

_NOT_LINE_BREAK = re.compile(r"[^\r\n]")
_LINE_BREAK = re.compile(r"\r?\n")


def compile_block(text: str, block: Region, lines: LineIndex, filename: str, *,
                  emit: EmitMode = "compact") -> tuple[str, list[Diagnostic]]:
    """dealer's ``shape(COMPASS, LIST)`` for the shape{} ``block`` of
    ``text``, and the compiler's warnings, placed in ``text``.

    Raises ``DppError`` placed in ``text`` when the block cannot compile.
    """
    if not block.closed:
        if block.string_at is not None:
            raise positioned_error("a string cannot stand inside shape{...}", block.string_at,
                                   lines, filename)
        raise positioned_error("unclosed 'shape{': no '}' ends it", block.start, lines,
                               filename).replace(kind=UNCLOSED_SHAPE)
    line, column = lines.line_col(block.start)
    body = blanked(text, block)
    outcome = _compiled(body, emit) if len(body) <= MEMO_BODY_LIMIT else _compile(body, emit)
    if outcome is None:
        # The shape compiler recurses on the expression's depth; until it no
        # longer does, a very deep or long one is an error, never a crash.
        raise positioned_error("this shape{} is nested too deeply or too long to compile",
                               block.start, lines, filename)
    if isinstance(outcome, DppError):
        raise _moved_error(outcome, line, column, lines, filename)
    dealer_text, warnings = outcome
    return dealer_text, _bounded(warnings, line, column, lines, filename)


# A script checked again and again (in an editor, at every change) compiles
# the same blocks every time: the last ones compiled are kept, if short.
MEMO_SIZE = 256
MEMO_BODY_LIMIT = 2000


def _compile(body: str, emit: EmitMode) -> tuple[str, list[Diagnostic]] | DppError | None:
    """A block's dealer text and warnings, placed in the block; its error;
    or None when it is too deep to compile."""
    from dealerpp.shapes.compiler import compile_shape  # loaded at the first shape{}

    try:
        compiled = compile_shape(body)
        return compiled.dealer_text(emit), compiled.warnings
    except DppError as error:
        return error
    except RecursionError:
        return None


_compiled = lru_cache(maxsize=MEMO_SIZE)(_compile)


def _bounded(warnings: list[Diagnostic], line: int, column: int, lines: LineIndex,
             filename: str) -> list[Diagnostic]:
    """The compiler's warnings placed in the script, each message once:
    repeats are counted in a note, so a block of a thousand alike terms
    does not print a thousand alike warnings."""
    first: dict[str, Diagnostic] = {}
    repeats: dict[str, int] = {}
    for warning in warnings:
        if warning.message in first:
            repeats[warning.message] += 1
        else:
            first[warning.message] = _moved(warning, line, column, lines, filename)
            repeats[warning.message] = 0
    found = []
    for message, warning in first.items():
        found.append(warning)
        if repeats[message]:
            plural = "s" if repeats[message] > 1 else ""
            found.append(Diagnostic("note", f"{repeats[message]} more warning{plural} like this "
                                    "one in this shape{}", warning.line, None, filename))
    return found


def blanked(text: str, block: Region) -> str:
    """The block's text with its comments turned into spaces (line breaks kept)."""
    pieces = []
    position = block.start
    for comment in block.comments:
        pieces.append(text[position:comment.start])
        pieces.append(_NOT_LINE_BREAK.sub(" ", text[comment.start:comment.end]))
        position = comment.end
    pieces.append(text[position:block.end])
    return "".join(pieces)


def kept_lines(text: str, block: Region) -> str:
    """The line breaks and comments of a shape{} block, in their order."""
    pieces: list[str] = []
    position = block.start
    close = block.end - 1
    for comment in [*block.comments, None]:
        stop = close if comment is None else comment.start
        pieces.extend(_LINE_BREAK.findall(text, position, stop))
        if comment is None:
            break
        body = comment.text(text)
        if comment.kind == "hash_comment":
            body = "//" + body[1:]
        if not pieces or not pieces[-1].endswith("\n"):
            body = " " + body
        pieces.append(body)
        position = comment.end
    return "".join(pieces)


def positioned_error(message: str, offset: int, lines: LineIndex, filename: str) -> DppError:
    line, column = lines.line_col(offset)
    return DppError(message, line, column, filename, lines.excerpt(line, column))


def _shifted(line: int | None, column: int | None, block_line: int,
             block_column: int) -> tuple[int | None, int | None]:
    """A position inside a block moved to where the block stands; the column
    moves on the block's first line only."""
    if line is None:
        return None, column
    if line == 1 and column is not None:
        column += block_column - 1
    return line + block_line - 1, column


def _moved_error(error: DppError, block_line: int, block_column: int, lines: LineIndex,
                 filename: str) -> DppError:
    line, column = _shifted(error.line, error.column, block_line, block_column)
    return error.replace(line=line, column=column, filename=filename,
                         source_line=lines.excerpt(line, column))


def _moved(warning: Diagnostic, block_line: int, block_column: int, lines: LineIndex,
           filename: str) -> Diagnostic:
    line, column = _shifted(warning.line, warning.column, block_line, block_column)
    return Diagnostic(warning.severity, warning.message, line, column, filename,
                      lines.excerpt(line, column), warning.hint, warning.code,
                      byte=lines.byte_offset(line, column))
