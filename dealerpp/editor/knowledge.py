"""What hover and completion say about dealer's words: one line each, the
table of docs/editors.md ("What each word means"; a test keeps the two the
same), and the forms completion offers.

The facts are dealer's (dealer's manual, Debian's dealer
20211121), as docs/check.md confirms them.
"""

from __future__ import annotations

# kind of word -> word -> its meaning in one line
STATEMENTS = {
    "generate": "generate N: deal at most N hands (the first generate wins)",
    "produce": "produce N: stop after N deals that meet the condition (the first produce wins)",
    "dealer": "dealer SEAT: the seat that deals, for printpbn and scores (the last one wins)",
    "vulnerable": "vulnerable none|NS|EW|all: the vulnerability printpbn writes (the last wins)",
    "predeal": "predeal SEAT HOLDING, ...: give these cards to a seat before dealing",
    "pointcount": "pointcount N ...: the values of A K Q J T 9 ... for hcp (up to 13 values)",
    "altcount": "altcount N V ...: a point table of your own, read by ptN",
    "condition": "condition EXPR: keep a deal when EXPR is true (the last condition wins)",
    "action": "action ACTION, ...: what to do with each deal kept (the last action wins)",
}
ACTIONS = {
    "print": "print(SEAT, ...): the hands of these seats, one above the other",
    "printall": "printall: the four hands of each deal side by side",
    "printew": "printew: the East and West hands of each deal",
    "printpbn": "printpbn: each deal as a PBN game",
    "printcompact": "printcompact [(EXPR)]: one line a hand, and the value of EXPR",
    "printoneline": "printoneline [(EXPR)]: the four hands on one line, and the value of EXPR",
    "printes": "printes(ITEM, ...): print expressions and strings; \\n is a new line",
    "evalcontract": "evalcontract: parsed, but aborts Debian's dealer when it runs",
    "average": "average [\"label\"] EXPR: the mean of EXPR over the deals kept",
    "frequency": "frequency [\"label\"] (EXPR, LOW, HIGH [, EXPR, LOW, HIGH]): a histogram",
}
FUNCTIONS = {
    "hcp": "hcp(SEAT [, SUIT]): high-card points, A=4 K=3 Q=2 J=1 (or the pointcount table)",
    "spades": "spades(SEAT): the number of spades the seat holds",
    "hearts": "hearts(SEAT): the number of hearts the seat holds",
    "diamonds": "diamonds(SEAT): the number of diamonds the seat holds",
    "clubs": "clubs(SEAT): the number of clubs the seat holds",
    "loser": "loser(SEAT [, SUIT]): losers by the losing-trick count",
    "control": "control(SEAT [, SUIT]): controls, A=2 K=1",
    "cccc": "cccc(SEAT): the Kaplan-Rubens hand evaluation, times 100",
    "quality": "quality(SEAT, SUIT): the Kaplan-Rubens suit quality, times 100",
    "shape": "shape(SEAT, LIST): whether the seat's hand has one of the shapes listed",
    "hascard": "hascard(SEAT, CARD): whether the seat holds the card (AS, TC, ...)",
    "tricks": "tricks(SEAT, STRAIN): double-dummy tricks for the seat as declarer",
    "score": "score(nv|vul, CONTRACT, TRICKS): the score of a contract such as x3N",
    "imps": "imps(EXPR): a score difference in IMPs",
    "rnd": "rnd(N): a random number from 0 to N-1",
    "tens": "tens(SEAT [, SUIT]): the number of tens (pt0)",
    "jacks": "jacks(SEAT [, SUIT]): the number of jacks (pt1)",
    "queens": "queens(SEAT [, SUIT]): the number of queens (pt2)",
    "kings": "kings(SEAT [, SUIT]): the number of kings (pt3)",
    "aces": "aces(SEAT [, SUIT]): the number of aces (pt4)",
    "top2": "top2(SEAT [, SUIT]): the number of cards among A K (pt5)",
    "top3": "top3(SEAT [, SUIT]): the number of cards among A K Q (pt6)",
    "top4": "top4(SEAT [, SUIT]): the number of cards among A K Q J (pt7)",
    "top5": "top5(SEAT [, SUIT]): the number of cards among A K Q J T (pt8)",
    "c13": "c13(SEAT [, SUIT]): points counted A=6 K=4 Q=2 J=1 (pt9)",
    **{f"pt{n}": f"pt{n}(SEAT [, SUIT]): points by the altcount table {n}" for n in range(10)},
}
SEATS = {seat: f"{seat}: a seat" for seat in ("north", "east", "south", "west")}
SUITS = {suit: f"{suit}: a suit" for suit in ("spades", "hearts", "diamonds", "clubs",
                                              "notrump")}
OTHER_WORDS = {
    "any": "any DDDD: in a shape list, these lengths in any order of suits",
    "nv": "nv: not vulnerable, for score()",
    "vul": "vul: vulnerable, for score()",
    "and": "and (or &&): both are true",
    "or": "or (or ||): either is true; a truth value is 1 or 0",
    "not": "not (or !): true when its operand is false",
    "none": "none: nobody vulnerable",
    "all": "all: both sides vulnerable",
    "NS": "NS: North-South vulnerable",
    "EW": "EW: East-West vulnerable",
}
SHAPE_BLOCK = ("shape{SEAT, ...}: dealerpp's shape language, compiled to dealer's "
               "shape(SEAT, LIST)")


def meaning(word: str) -> str | None:
    """The line that says what ``word`` means to dealer, if it is one of its words."""
    for table in (STATEMENTS, ACTIONS, FUNCTIONS, SEATS, OTHER_WORDS):
        if word in table:
            return table[word]
    singular = word[:-1] if word.endswith("s") else word + "s"
    return FUNCTIONS.get(singular) if singular in ("spades", "hearts", "diamonds",
                                                     "clubs") else None


def every_word() -> dict[str, str]:
    """Every word with its line, in the order docs/editors.md lists them."""
    return {**STATEMENTS, **ACTIONS, **FUNCTIONS, **SEATS, **OTHER_WORDS}


def probability_text(numerator: int, denominator: int) -> str:
    """An exact probability, with its percentage: ``1/4 (25%)``."""
    from math import gcd

    common = gcd(numerator, denominator) or 1
    numerator, denominator = numerator // common, denominator // common
    percent = 100 * numerator / denominator if denominator else 0.0
    shown = f"{percent:.4g}%" if percent >= 0.001 or percent == 0 else f"{percent:.3e}%"
    return f"{numerator}/{denominator} ({shown})"
