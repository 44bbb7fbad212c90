"""The dealer-script linter behind ``dealerpp check``.

``check_text`` reports every problem it can find in a script: syntax
errors (one per mistake, recovering at the next statement so that one
mistake neither hides nor causes others), the errors dealer itself raises
while parsing (unknown or redefined variables, bad shapes, cards predealt
twice, ...), what makes dealer crash at run time, what DealerV2 has and
Debian's dealer has not, and mistakes dealer silently accepts but then
misbehaves on (warnings).

Severity follows real dealer: an *error* is something dealer rejects or
crashes on; a *warning* is something dealer accepts but does not do what the
script most likely means. Every fact used here was confirmed by running
Debian's dealer 20211121; see docs/check.md.

The preprocessor runs this on its output, so ``check_text`` never raises and
stays fast: the grammar's LALR tables run by ``dealerpp.lalr`` (no Lark
import), no heavy imports, and time and memory in proportion to the script.

It is a pipeline of passes over one stream of tokens from the one lexer
(``dealerpp.script.lexer``), each a class of its own module:

- ``lexical.LexicalPass``: comments, strings, shape{} blocks (compiled as
  the preprocessor compiles them), characters dealer's scanner rejects;
- ``syntax.SyntaxPass``: statements, parsed with recovery;
- ``semantics.SemanticPass``: definitions, uses, and what each statement,
  expression and action makes dealer do;

with ``report.Report`` collecting (and bounding) the diagnostics, and
``facts`` (dealer's vocabulary) and ``arithmetic`` (dealer's C integers)
beside them.
"""

from __future__ import annotations

from dealerpp.diagnostics import INTERNAL_ERROR, Diagnostic
from dealerpp.script.check.report import DEFAULT_MAX_ERRORS, Report, TooManyErrors

__all__ = ["DEFAULT_MAX_ERRORS", "check_text"]


def check_text(text: str, filename: str = "<stdin>", *, dpp: bool | None = None,
               max_errors: int = DEFAULT_MAX_ERRORS,
               blocks_compiled: bool = False) -> list[Diagnostic]:
    """Every problem found in dealer script ``text``, in source order.

    ``dpp`` allows dealerpp's ``shape{...}`` (a script before expansion);
    by default it is allowed when ``filename`` ends in ``.dpp``.
    ``blocks_compiled`` says the preprocessor has compiled every shape{}
    of ``text`` and reported their warnings: they are not compiled again. After
    ``max_errors`` errors the check stops and says so (0: no limit).
    Never raises.
    """
    if dpp is None:
        dpp = suffix_is_dpp(filename)
    report = Report(text, filename, max_errors)
    try:
        run_passes(report, dpp, blocks_compiled)
    except TooManyErrors:
        pass
    except Exception as exc:  # a linter must never take its caller down
        return [Diagnostic("error", f"internal error in the checker ({type(exc).__name__}: {exc})",
                           filename=filename, code=INTERNAL_ERROR)]
    return report.diagnostics()


def suffix_is_dpp(filename: str) -> bool:
    """Whether ``PurePath(filename).suffix == ".dpp"``, without importing
    pathlib: the last name but "." parts, with more than ".dpp" in it."""
    names = [name for name in filename.split("/") if name and name != "."]
    return bool(names) and len(names[-1]) > 4 and names[-1].endswith(".dpp")


def run_passes(report: Report, dpp: bool, blocks_compiled: bool = False) -> None:
    """The passes, in a pipeline: each statement goes through the semantic
    pass as soon as the syntax pass completes it."""
    from dealerpp.script.check.lexical import LexicalPass
    from dealerpp.script.check.semantics import SemanticPass
    from dealerpp.script.check.syntax import SyntaxPass

    syntax = SyntaxPass(report)
    semantics = SemanticPass(report, syntax.broken_names, syntax.assigned, dpp)
    for statement in syntax.statements(LexicalPass(report, dpp, blocks_compiled).parser_tokens()):
        semantics.statement(statement)
    semantics.finish()
