"""dealer's vocabulary: the grammar, its keywords and its function names,
and what DealerV2 (a different dealer) has that Debian's dealer has not.

The tables the passes look words up in: which tokens start a statement,
which words dealer's scanner reserves (so they cannot name a variable), the
functions and statement words offered in "did you mean" hints, and how
seats and suits are named in dealer's messages. They state facts about the
language, not checks, and live apart from the passes so that each pass can
use them without importing another one.
"""

from __future__ import annotations

from dealerpp import lalr

# Statement keywords: a token of these kinds can only begin a statement.
# (`vulnerable` shares its kind with none/all/NS/EW, which also end one.)
STATEMENT_KEYWORDS = frozenset((
    "GENERATE", "PRODUCE", "DEALER", "PREDEAL", "POINTCOUNT", "ALTCOUNT", "CONDITION",
    "ACTION",
))
# Word-like tokens dealer's scanner reserves: they cannot name a variable.
RESERVED_WORDS = STATEMENT_KEYWORDS | frozenset((
    "VULNERABLE", "PRINT", "PRINTALL", "PRINTEW", "PRINTPBN", "PRINTCOMPACT", "PRINTONELINE",
    "PRINTES", "EVALCONTRACT", "AVERAGE", "FREQUENCY", "COMPASS", "SUIT", "NOTRUMPS", "VULN",
    "ANY", "HCP", "PT", "LOSER", "CONTROL", "CCCC", "QUALITY", "SHAPE", "HASCARD", "TRICKS",
    "SCORE", "IMPS", "RND", "AND", "OR", "NOT",
))
# Word-like tokens that are not names, and what they read as.
WORD_TOKENS = {
    "HOLDING": "a holding (suit letter and cards)",
    "CARD": "a card",
    "CONTRACT": "a contract",
    "DISTR": "a shape",
    "DISTR_OR_NUMBER": "a shape or number",
}
# Statement keywords as written, with their token kinds, for "did you mean" hints.
STATEMENT_WORDS = {
    "generate": "GENERATE", "produce": "PRODUCE", "dealer": "DEALER",
    "vulnerable": "VULNERABLE", "predeal": "PREDEAL", "pointcount": "POINTCOUNT",
    "altcount": "ALTCOUNT", "condition": "CONDITION", "action": "ACTION",
}
# Function names, for "did you mean" hints.
FUNCTIONS = (
    "hcp", "spades", "hearts", "diamonds", "clubs", "loser", "control", "cccc", "quality",
    "shape", "hascard", "tricks", "score", "imps", "rnd", "tens", "jacks", "queens", "kings",
    "aces", "top2", "top3", "top4", "top5", "c13", *(f"pt{n}" for n in range(10)),
)
SEATS = {"north": "North", "east": "East", "south": "South", "west": "West"}
SUIT_NAMES = {"S": "Spade", "H": "Heart", "D": "Diamond", "C": "Club"}
# The two sides: VULNERABLE tokens, but DealerV2 also takes them as arguments.
SEAT_PAIRS = frozenset(("NS", "EW", "ns", "ew"))

# What DealerV2 has and Debian's dealer has not: the kind of thing each
# word is there, and what Debian's dealer offers instead.
DEALERV2_STATEMENTS = {
    "title": "Debian's dealer has no title: make it a comment (// ...)",
    "seed": "Debian's dealer takes the seed from its -s option (dealer -s N)",
}
DEALERV2_ACTIONS = {
    "printrpt": "Debian's dealer prints values with printes(...), average or frequency",
    "csvrpt": "Debian's dealer prints values with printes(...), average or frequency",
    "printside": "Debian's dealer prints hands with print(SEAT, ...), printall or printew",
    "bktfreq": "Debian's dealer counts ranges with frequency(EXPR, LOW, HIGH)",
}
DEALERV2_FUNCTIONS = {
    "usereval": "Debian's dealer has no user evaluation: set a point table with altcount "
                "and read it with pt0..pt9, or use hcp, control, loser",
    "dds": "Debian's dealer solves double dummy with tricks(SEAT, STRAIN)",
    "par": "Debian's dealer has no par score: use score(VULN, CONTRACT, TRICKS)",
    "ltc": "Debian's dealer counts losers with loser(SEAT)",
}
DEALERV2_PARAMETER_HINT = ("Debian's dealer has no script parameters: write the value itself "
                           "(or make one script per value)")
DEALERV2_SEAT_PAIR_HINT = ("Debian's dealer wants one seat here (north, east, south or west); "
                           "for a side, add the two: hcp(north) + hcp(south)")


def dealer_grammar() -> lalr.Grammar:
    return lalr.load("dealer")
