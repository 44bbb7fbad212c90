"""Generated parse tables, one module per grammar (see ``dealerpp.lalr``).

Each module is made by ``python tools/export_tables.py`` from ``grammar/NAME.lark``
and holds, a table a line:

- ``GRAMMAR``, ``SHA256``, ``LARK``: the grammar's name, the SHA-256 of the
  grammar file it was made from, and the version of Lark that made it;
- ``TERMINALS``: per terminal (name, regexp, priority, ``'str'`` or ``'re'``,
  pattern, longest match); ``IGNORE``: the ignored terminals;
- ``RULES``: per rule (origin, tree name, inline a single child?, length,
  kept children or None);
- ``START_STATES``, ``END_STATES``: (start symbol, state) pairs;
- ``ACTIONS``: per state (symbols, actions), where a shift to state s is s
  and a reduction by rule r is -1 - r;
- ``LEXERS``: per lexer (terminals (name, regexp) in the order tried,
  keywords (regexp terminal, ((keyword, regexp), ...)), ignored terminals);
- ``LEXER_OF_STATE``: the lexer each parser state uses; ``ROOT_LEXER``: the
  lexer of the whole grammar;
- ``STARTS``: per regexp a lexer tries, the characters its match can start
  with, or None where that is not plain (``lalr.terminals.literal_starts``).

``dealerpp/lalr/runtime.py`` runs them.
"""
