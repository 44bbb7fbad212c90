"""The dealer-script linter behind ``dealerpp check``.

``check_text`` lexes and parses a script with ``grammar/dealer.lark`` and
reports every problem it can find: syntax errors (recovering at the next
statement so one mistake does not hide the others), the errors dealer itself
raises while parsing (unknown or redefined variables, bad shapes, cards
predealt twice, ...), what makes dealer crash at run time, and mistakes dealer
silently accepts but then misbehaves on (warnings).

Severity follows real dealer: an *error* is something dealer rejects or
crashes on; a *warning* is something dealer accepts but does not do what the
script most likely means. Every fact used here was confirmed by running
Debian's dealer 20211121; see docs/check.md.

The preprocessor runs this on its output, so ``check_text`` never raises and
stays fast: the grammar's LALR tables run by ``dealerpp.lalr`` (no Lark
import), no heavy imports.

The checker is split by pass, each module importing only the ones listed
after it:

- ``lexer``: tokens, comments, and characters dealer's scanner rejects;
- ``syntax``: parsing with recovery, stack-depth limits, syntax errors;
- ``semantics``: definitions, uses, and the statement, expression and
  action checks;
- ``arithmetic``: dealer's C integer arithmetic (literals, constants);
- ``facts``: dealer's vocabulary (keywords, reserved words, functions) and
  the grammar;
- ``report``: the diagnostics found so far and the script they quote.

This module runs the passes in order (``_Checker.run``).
"""

from __future__ import annotations

from pathlib import PurePath

from dealerpp.diagnostics import INTERNAL_ERROR, Diagnostic
from dealerpp.script.check.lexer import _lex, _Lexical
from dealerpp.script.check.semantics import _Semantics
from dealerpp.script.check.syntax import _Syntax

__all__ = ["check_text"]


def check_text(
    text: str, filename: str = "<stdin>", *, dpp: bool | None = None
) -> list[Diagnostic]:
    """Every problem found in dealer script ``text``, in source order.

    ``dpp`` allows dealerpp's ``shape{...}`` (a script before expansion);
    by default it is allowed when ``filename`` ends in ``.dpp``.
    Never raises.
    """
    if dpp is None:
        dpp = PurePath(filename).suffix == ".dpp"
    try:
        return _Checker(text, filename, dpp).run()
    except Exception as exc:  # a linter must never take its caller down
        return [Diagnostic("error", f"internal error in the checker ({type(exc).__name__}: {exc})",
                           filename=filename, code=INTERNAL_ERROR)]


class _Checker(_Lexical, _Syntax):
    """One check of one script: the lexical and the syntax pass are methods
    it inherits, the semantic pass a separate walk over the statements."""

    def run(self) -> list[Diagnostic]:
        tokens = self.lexical_pass(_lex(self.text))
        statements = self.parse(tokens)
        _Semantics(self).run(statements)
        self.found.sort(key=lambda d: (d.line or 0, d.column or 0))
        return self.found
