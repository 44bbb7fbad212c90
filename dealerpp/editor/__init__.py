"""The editor layer: ``dealerpp lsp``, a language server for dealer scripts.

It sits beside ``cli/`` and imports only the library under it (the
checker, the lexer, the shape compiler). ``server`` is the one module that
imports pygls and lsprotocol (the optional extra ``lsp``); the others work
on plain text and offsets:

- ``text``: open documents, changes applied to them, and positions in the
  client's units (UTF-16 code units unless it negotiated another encoding);
- ``outline``: what a script defines and uses, statement by statement, from
  the one lexer's tokens (definitions, references, symbols);
- ``knowledge``: what hover and completion say about dealer's words, shape{}
  blocks and variables;
- ``fixes``: quick fixes for the problems check reports.

Only ``cli/lsp.py`` imports this package, after making sure the extra is
installed.
"""
