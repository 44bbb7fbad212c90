"""dealer's vocabulary: the grammar, its keywords and its function names.

The tables the lexical, syntax and semantic passes look words up in: which
tokens start a statement, which words dealer's scanner reserves (so they
cannot name a variable), the functions and statement words offered in "did
you mean" hints, and how seats and suits are named in dealer's messages.
They state facts about dealer's language, not checks, and live apart from
the passes so that each pass can use them without importing another one.
"""

from __future__ import annotations

from dealerpp import lalr

# Tokens that only ever start a statement: where the parser resynchronises.
STATEMENT_KEYWORDS = frozenset((
    "GENERATE", "PRODUCE", "DEALER", "VULNERABLE", "PREDEAL", "POINTCOUNT", "ALTCOUNT",
    "CONDITION", "ACTION",
))
# Word-like tokens dealer's scanner reserves: they cannot name a variable.
_RESERVED_WORDS = STATEMENT_KEYWORDS | frozenset((
    "PRINT", "PRINTALL", "PRINTEW", "PRINTPBN", "PRINTCOMPACT", "PRINTONELINE", "PRINTES",
    "EVALCONTRACT", "AVERAGE", "FREQUENCY", "COMPASS", "SUIT", "NOTRUMPS", "VULN", "ANY",
    "HCP", "PT", "LOSER", "CONTROL", "CCCC", "QUALITY", "SHAPE", "HASCARD", "TRICKS",
    "SCORE", "IMPS", "RND", "AND", "OR", "NOT",
))
_WORD_TOKENS = {
    "HOLDING": "a holding (suit letter and cards)",
    "CARD": "a card",
    "CONTRACT": "a contract",
    "DISTR": "a shape",
    "DISTR_OR_NUMBER": "a shape or number",
}
# Statement keywords as written, for "did you mean the statement" hints.
_STATEMENT_WORDS = ("generate", "produce", "dealer", "vulnerable", "predeal", "pointcount",
                    "altcount", "condition", "action")
# Function names, for "did you mean" hints.
_FUNCTIONS = (
    "hcp", "spades", "hearts", "diamonds", "clubs", "loser", "control", "cccc", "quality",
    "shape", "hascard", "tricks", "score", "imps", "rnd", "tens", "jacks", "queens", "kings",
    "aces", "top2", "top3", "top4", "top5", "c13", *(f"pt{n}" for n in range(10)),
)
_SEATS = {"north": "North", "east": "East", "south": "South", "west": "West"}
_SUIT_NAMES = {"S": "Spade", "H": "Heart", "D": "Diamond", "C": "Club"}


def _grammar() -> lalr.Grammar:
    return lalr.load("dealer")
