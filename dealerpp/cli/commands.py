"""The subcommands of ``dealerpp``: each one's module, imported only when
it runs (``dealerpp.cli`` dispatches), and its one-line summary (the
usage line of ``dealerpp.cli.preprocess``, and ``--help``)."""

from __future__ import annotations

# subcommand -> (module, one-line summary)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "expand": ("dealerpp.cli.expand", "compile one shape{} expression and show its shapes"),
    "run": ("dealerpp.cli.run", "preprocess a script and pipe it into dealer"),
    "check": ("dealerpp.cli.check", "report every problem in dealer scripts"),
    "convert": ("dealerpp.cli.convert", "convert deal files between formats"),
    "show": ("dealerpp.cli.show", "print deals as four-hand diagrams"),
    "lsp": ("dealerpp.cli.lsp", "serve the Language Server Protocol to an editor (extra: lsp)"),
}
