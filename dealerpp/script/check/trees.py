"""The first and last tokens of a parse tree: where a message about a
whole expression starts and ends (one pair for every pass)."""

from __future__ import annotations

from dealerpp.lalr import Token

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any


def first_token(tree: Any) -> Token:
    while not isinstance(tree, Token):
        tree = tree.children[0]
    return tree


def last_token(tree: Any) -> Token:
    while not isinstance(tree, Token):
        tree = tree.children[-1]
    return tree
