"""Exploratory agreement runs against real dealer (not part of the test suite).

    python tests/check/explore.py mutants|words|statements|pieces COUNT SEED [SHOW]

* ``mutants``: the seeded mutants of test_agreement.py, in any number;
* ``words``: random sequences of one to four words of dealer's language;
* ``statements``: random scripts of valid-looking statements built to stress
  the semantic checks (shapes, predeal, altcount, pointcount, frequency
  ranges, divisions);
* ``pieces``: random strings of lexical pieces (quotes, comment markers, `#`,
  carriage returns, braces, cards, shapes...) after a valid first line, to
  stress the scanner.

Prints the agreement (dealer accepts <=> check reports no error) and the first
SHOW disagreements. docs/check.md records the figures.
"""

from __future__ import annotations

import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE)]

from mutate import dealer_accepts, mutants  # noqa: E402

from dealerpp.script.check import check_text  # noqa: E402

DEALER = "/usr/games/dealer"
SEATS = ("north", "east", "south", "west")
SUITS = ("spades", "hearts", "diamonds", "clubs")
WORDS = tuple(" ".join((
    "generate produce dealer vulnerable predeal pointcount altcount condition action",
    "printall printew printpbn printcompact printoneline printes average frequency print",
    "north east south west clubs spades hearts notrump nv vul NS EW all none any hcp pt3",
    "tens aces top5 c13 loser control cccc quality shape hascard score imps rnd and or not",
    "&& || ! == != < <= > >= + - * / % ? : = ( ) ( ) ( ) , , , SAK H C AS 2C x3N 4333 5xxx",
    'xxxx 0 1 2 7 13 14 -1 "s" \\n x y x y x = =',
)).split(" ")) + ("\n",) * 8


PIECES = (
    "x", "y", "1", "0", " ", "\n", "\n", "/", "*", "#", '"', "=", "==", "(", ")", ",", "-",
    "+", "S", "A", "AS", "SA", "4333", "xxx", "x3N", "and", "&", "|", "!", "\\", "n", "\r",
    "\t", "shape", "{", "}", "E", "x = ", "condition ", "action ", "printes(", "average ",
    "// ", "/* ", " */",
)


def piece_scripts(count: int, rng: random.Random) -> list[str]:
    scripts = []
    for _ in range(count):
        text = "x = 1\n" + "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 25)))
        scripts.append(text + ("\n" if rng.random() < 0.7 else ""))
    return scripts


def word_scripts(count: int, rng: random.Random) -> list[str]:
    scripts = []
    for _ in range(count):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))) + "\n"
        scripts.append(("x = 1\ny = 2\n" if rng.random() < 0.5 else "") + text)
    return scripts


class _Statements:
    """Random statements, mostly valid, around the semantic checks."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.names: list[str] = []

    def shape(self) -> str:
        pattern = "".join(self.rng.choice("0123456789xxxxx") for _ in range(4))
        return self.rng.choice(("", "any ")) + pattern

    def shape_list(self) -> str:
        items = [self.shape()] + [self.rng.choice(("+ ", "- ", ", ", "")) + self.shape()
                                  for _ in range(self.rng.randint(0, 3))]
        return self.rng.choice(("", "", "- ")) + " ".join(items)

    def holding(self) -> str:
        return self.rng.choice("SHDC") + "".join(
            card for card in "AKQJT98765432" if self.rng.random() < 0.25)

    def expression(self, depth: int = 0) -> str:
        rng = self.rng
        if depth > 2 or rng.random() < 0.3:
            return rng.choice((
                str(rng.randint(-3, 20)), f"hcp({rng.choice(SEATS)})",
                rng.choice(self.names) if self.names and rng.random() < 0.5 else "1",
                f"shape({rng.choice(SEATS)}, {self.shape_list()})",
            ))
        operator = rng.choice(("+", "-", "*", "/", "%", "&&", "||", "==", "<", ">="))
        return f"({self.expression(depth + 1)} {operator} {self.expression(depth + 1)})"

    def statement(self, index: int) -> str:
        rng, roll = self.rng, self.rng.random()
        if roll < 0.35:
            name = rng.choice("abcd") if rng.random() < 0.3 else f"v{index}"
            text = f"{name} = {self.expression()}"
            self.names.append(name)
            return text
        if roll < 0.5:
            hands = []
            for _ in range(rng.randint(1, 2)):
                holdings = ", ".join(self.holding() for _ in range(rng.randint(1, 3)))
                hands.append(f"{rng.choice(SEATS)} {holdings}")
            return "predeal " + " ".join(hands)
        if roll < 0.58:
            return "predeal " + " ".join(
                f"{rng.choice(SUITS)}({rng.choice(SEATS)}) == {rng.randint(0, 9)}"
                for _ in range(rng.randint(1, 2)))
        if roll < 0.63:
            values = (str(rng.randint(-3, 14)) for _ in range(rng.randint(1, 15)))
            return "altcount " + " ".join(values)
        if roll < 0.67:
            values = (str(rng.randint(0, 5)) for _ in range(rng.randint(0, 15)))
            return "pointcount " + " ".join(values)
        if roll < 0.8:
            return f"condition {self.expression()}"
        low, high = rng.randint(-3, 5), rng.randint(-3, 5)
        return "action " + rng.choice((
            f"frequency ({self.expression()}, {low}, {high})", f"average {self.expression()}",
            f"frequency ({self.expression()}, {low}, {high}, {self.expression()}, "
            f"{rng.randint(-3, 5)}, {rng.randint(-3, 5)})", "printall"))

    def script(self) -> str:
        self.names = []
        body = "\n".join(self.statement(i) for i in range(self.rng.randint(1, 5)))
        return f"produce 2\n{body}\n"


def statement_scripts(count: int, rng: random.Random) -> list[str]:
    maker = _Statements(rng)
    return [maker.script() for _ in range(count)]


def main() -> int:
    kind, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    show = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    makers: dict[str, Callable[[int, random.Random], list[str]]] = {
        "mutants": lambda n, _rng: [text for _, text in mutants(n, seed)],
        "words": word_scripts,
        "statements": statement_scripts,
        "pieces": piece_scripts,
    }
    scripts = makers[kind](count, random.Random(seed))
    disagreements, accepted = [], 0
    with tempfile.TemporaryDirectory() as folder:
        for text in scripts:
            ok, said = dealer_accepts(DEALER, text, Path(folder))
            accepted += ok
            errors = [d for d in check_text(text, "x.dl") if d.severity == "error"]
            if ok == bool(errors):
                disagreements.append((text, said, errors))
    agreement = 1 - len(disagreements) / len(scripts)
    print(f"{kind} seed {seed}: {len(scripts)} scripts, dealer accepted {accepted}, "
          f"{len(disagreements)} disagreements, agreement {agreement:.2%}")
    for text, said, errors in disagreements[:show]:
        print("-----", text, f"dealer: {said[:150]}",
              f"check: {[e.format().splitlines()[0] for e in errors][:2]}", sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
