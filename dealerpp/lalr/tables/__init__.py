"""Generated parse tables, one module per grammar (see ``dealerpp.lalr``)."""
