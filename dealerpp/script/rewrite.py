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

from dealerpp.diagnostics import TOO_MANY_SHAPES, Diagnostic, LineIndex
from dealerpp.records import Record
from dealerpp.script.lexer import is_column_one, regions, shape_words
from dealerpp.script.parallel import compile_blocks, may_go_parallel
from dealerpp.script.shape_blocks import compile_block, kept_lines

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable

    from dealerpp.script.lexer import Region
    from dealerpp.shapes.emit import EmitMode

DEALER_SHAPE_LIMIT = 31  # dealer fails at the 32nd shape() ("only 32 allowed")


class Preprocessed(Record, frozen=False):
    """The rewritten script, what the rewriter noticed on the way and what
    the checker found. Equal when all their parts are."""

    text: str
    warnings: list[Diagnostic]
    shape_lines: list[int]  # 1-based lines of shape( in the output
    findings: list[Diagnostic]  # the checker's, when asked for (see check_preprocessed)

    def __init__(self, text: str, warnings: list[Diagnostic] | None = None,
                 shape_lines: list[int] | None = None,
                 findings: list[Diagnostic] | None = None) -> None:
        super().__init__(text, [] if warnings is None else warnings,
                         [] if shape_lines is None else shape_lines,
                         [] if findings is None else findings)


def preprocess(text: str, filename: str = "<stdin>", warnings: list[Diagnostic] | None = None,
               *, emit: EmitMode = "compact") -> str:
    """Rewrite every shape{} of a dealer script; return the new script.

    Warnings are appended to ``warnings`` when a list is given. A problem
    raises ``DppError`` naming ``filename``, line and column.
    """
    result = preprocess_script(text, filename, emit=emit)
    if warnings is not None:
        warnings.extend(result.warnings)
    return result.text


def preprocess_script(text: str, filename: str = "<stdin>", *, emit: EmitMode = "compact",
                      cores: int = 1, check: bool = False) -> Preprocessed:
    """Like ``preprocess``, with the warnings and shape() lines in the result,
    and with ``check`` the checker's findings (``check_preprocessed``).
    ``cores`` > 1 lets a long script's blocks compile on two cores
    (``dealerpp.script.parallel``; the result is the same)."""
    if not isinstance(text, str):
        raise TypeError(f"a script is a str, not {type(text).__name__}")
    out: list[str] = []
    copied = 0  # text before this offset is in ``out``
    result = Preprocessed("")
    lines = LineIndex(text)

    def run_checker() -> None:
        result.findings = check_preprocessed(text, filename)

    found: Iterable[Region] = regions(text)
    compiled = None
    if may_go_parallel(text, cores):  # the blocks are compiled first, all together
        found = list(found)
        blocks = [region for region in found if region.kind == "shape"]
        compiled = iter(compile_blocks(text, blocks, lines, filename, emit=emit, cores=cores,
                                       meanwhile=run_checker if check else None))
    elif check:
        run_checker()
    # The output keeps every line where it was, so a shape( lies on the
    # same line in the output as its shape( or shape{ in the input.
    shape_offsets: list[int] = []
    for region in found:
        kind, start, end = region.kind, region.start, region.end
        if kind == "code":
            shape_offsets.extend(shape_words(text, start, end))
        elif kind == "shape":
            dealer_text, warnings = (
                compile_block(text, region, lines, filename, emit=emit) if compiled is None
                else next(compiled))
            result.warnings.extend(warnings)
            out.extend((text[copied:start], dealer_text, kept_lines(text, region)))
            copied = end
            shape_offsets.append(start)
        elif kind == "hash_comment" and not is_column_one(text, start):
            # dealer accepts '#' only in column 1; dealer.dpp users write them anywhere.
            out.extend((text[copied:start], "//"))
            copied = start + 1
    out.append(text[copied:])
    result.text = "".join(out)
    result.shape_lines = [lines.line_col(offset)[0] for offset in shape_offsets]
    if len(result.shape_lines) > DEALER_SHAPE_LIMIT:
        result.warnings.append(_too_many_shapes(result.shape_lines, filename))
    if result.findings:  # the rewriter's own warning, found by both, is given once
        given = {warning.code for warning in result.warnings if warning.code}
        result.findings = [finding for finding in result.findings if finding.code not in given]
    return result


def check_preprocessed(text: str, filename: str) -> list[Diagnostic]:
    """The checker's findings on a script the rewriter preprocesses, all as
    warnings (``dealer will reject this: ...``): they never block the output.

    The checker reads the script as written, each shape{} one expression it
    does not compile again: the rewriter compiles them all and gives their
    warnings, and the lists it writes are exactly the sets (the tests read
    every list back). Reading the output instead would parse every term of
    every list once more, most of the time of a run."""
    from dealerpp.script.check import check_text

    findings = check_text(text, filename, dpp=True, blocks_compiled=True)
    return [_as_warning(found) for found in findings]


def _as_warning(found: Diagnostic) -> Diagnostic:
    """A finding of the checker as the preprocessor words it."""
    from dealerpp.script.check.report import ERROR_LIMIT, MORE_ERRORS

    if found.severity == "error":
        return found.replace(severity="warning", message=f"dealer will reject this: {found.message}")
    if found.code == MORE_ERRORS:  # "N more errors on this line"
        count = found.count
        plural = "" if count == 1 else "s"
        return found.replace(message=f"{count} more problem{plural} dealer will reject on this line")
    if found.code == ERROR_LIMIT:
        return found.replace(message="too many problems dealer will reject; the check stopped here",
                             hint="`dealerpp check --max-errors 0 FILE` shows them all")
    return found


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
