"""An independent reading of the shape{} language, for the tests.

Patterns and conditions are built as plain data, rendered to text for
dealerpp, and judged here by brute force over the 560 shapes: a shape
matches a pattern if one of the 24 ways of giving the four slots to the four
suits obeys the labels, the in-order rule for unlabelled slots, and every
slot's lengths. Nothing here calls the expander.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import permutations

SUITS = "shdc"
LENGTH_CHARS = "0123456789TJQK"


def all_shapes() -> list[tuple[int, int, int, int]]:
    return [
        (s, h, d, 13 - s - h - d)
        for s in range(14)
        for h in range(14 - s)
        for d in range(14 - s - h)
    ]


@dataclass(frozen=True)
class SlotSpec:
    kind: str  # exact at_least at_most range any
    values: tuple[int, ...]  # exact/at_least/at_most: (n,); range: the listed lengths

    def allows(self, n: int) -> bool:
        if self.kind == "exact":
            return n == self.values[0]
        if self.kind == "at_least":
            return n >= self.values[0]
        if self.kind == "at_most":
            return n <= self.values[0]
        if self.kind == "range":
            return n in self.values
        return True

    def text(self, rng: random.Random) -> str:
        if self.kind == "any":
            return "x"
        if self.kind == "range":
            return "[" + "".join(LENGTH_CHARS[v] for v in sorted(self.values)) + "]"
        char = LENGTH_CHARS[self.values[0]]
        return char + {"exact": "", "at_least": "+", "at_most": "-"}[self.kind]


@dataclass(frozen=True)
class PatternSpec:
    items: tuple[tuple[SlotSpec, str | None], ...]
    group: tuple[SlotSpec, ...] | None

    def text(self, rng: random.Random) -> str:
        out = []
        for slot, label in self.items:
            body = slot.text(rng)
            if label is None:
                out.append(body)
            elif body[-1] in "+-" and rng.random() < 0.5:
                out.append(body[:-1] + label + body[-1])  # 5M+ is 5+M
            else:
                out.append(body + label)
        if self.group is not None:
            out.append("(" + "".join(s.text(rng) for s in self.group) + ")")
        return "".join(out)

    def matches(self, shape: tuple[int, ...]) -> bool:
        slots = [s for s, _ in self.items] + list(self.group or ())
        labels = [label for _, label in self.items] + [None] * len(self.group or ())
        named = {SUITS.index(label) for label in labels if label in ("s", "h", "d", "c")}
        free = [i for i in range(4) if i not in named]
        return any(
            self._assignment_ok(order, labels, named, free)
            and all(slot.allows(shape[suit]) for slot, suit in zip(slots, order, strict=True))
            for order in permutations(range(4))
        )

    def _assignment_ok(self, order: tuple[int, ...], labels: list[str | None],
                       named: set[int], free: list[int]) -> bool:
        outside = len(self.items)
        for position, label in enumerate(labels[:outside]):
            suit = order[position]
            if label in ("s", "h", "d", "c") and suit != SUITS.index(label):
                return False
            if label == "M" and (suit not in (0, 1) or suit in named):
                return False
            if label == "m" and (suit not in (2, 3) or suit in named):
                return False
        # Unlabelled slots before the group take the suits no label took, in order.
        labelled_suits = {order[p] for p, label in enumerate(labels[:outside]) if label}
        remaining = [s for s in range(4) if s not in labelled_suits]
        unlabelled = [order[p] for p, label in enumerate(labels[:outside]) if not label]
        return unlabelled == remaining[: len(unlabelled)]


# --- conditions ---------------------------------------------------------------


def c_trunc_div(a: int, b: int) -> int:
    return math.trunc(a / b)


def c_rem(a: int, b: int) -> int:
    return int(math.fmod(a, b))


@dataclass(frozen=True)
class Cond:
    """A condition tree: ('num', n) ('var', 's') ('un', op, x) ('bin', op, a, b) ('tern', t, a, b)."""

    node: tuple

    def value(self, shape: tuple[int, ...]) -> int | None:
        """The C value, or None when a division by zero happens."""
        return _value(self.node, shape)

    def text(self, rng: random.Random) -> str:
        return _text(self.node, rng, top=True)


def _value(node: tuple, shape: tuple[int, ...]) -> int | None:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "var":
        return shape[SUITS.index(node[1])]
    if kind == "un":
        x = _value(node[2], shape)
        if x is None:
            return None
        return {"!": int(not x), "-": -x, "+": x}[node[1]]
    if kind == "tern":
        t = _value(node[1], shape)
        if t is None:
            return None
        return _value(node[2] if t else node[3], shape)
    op, left = node[1], _value(node[2], shape)
    if left is None:
        return None
    if op == "&&" and not left:
        return 0
    if op == "||" and left:
        return 1
    right = _value(node[3], shape)
    if right is None:
        return None
    if op in ("/", "%"):
        if right == 0:
            return None
        return c_trunc_div(left, right) if op == "/" else c_rem(left, right)
    table = {
        "+": left + right, "-": left - right, "*": left * right,
        "<": int(left < right), "<=": int(left <= right), ">": int(left > right),
        ">=": int(left >= right), "==": int(left == right), "!=": int(left != right),
        "&&": int(bool(right)), "||": int(bool(right)),
    }
    return table[op]


def _text(node: tuple, rng: random.Random, top: bool = False) -> str:
    """Fully parenthesised, so precedence never matters; spaces are random,
    except that a spaced + or - never stands outside parentheses."""
    kind = node[0]
    if kind == "num":
        return str(node[1])
    if kind == "var":
        return node[1] if rng.random() < 0.7 else node[1].upper()
    if kind == "un":
        op = node[1]
        if op == "!" and rng.random() < 0.3:
            return f"not ({_text(node[2], rng)})"
        return f"{op}({_text(node[2], rng)})"
    if kind == "tern":
        return f"(({_text(node[1], rng)})?({_text(node[2], rng)}):({_text(node[3], rng)}))"
    space = " " if rng.random() < 0.5 else ""
    return f"({_text(node[2], rng)}{space}{node[1]}{space}{_text(node[3], rng)})"


def random_slot(rng: random.Random) -> SlotSpec:
    kind = rng.choice(["exact", "exact", "at_least", "at_most", "range", "any", "any"])
    if kind == "range":
        return SlotSpec("range", tuple(sorted(rng.sample(range(14), rng.randint(1, 5)))))
    if kind == "any":
        return SlotSpec("any", ())
    high = 13 if rng.random() < 0.2 else 7
    return SlotSpec(kind, (rng.randint(0, high),))


def random_pattern(rng: random.Random) -> PatternSpec:
    """Four slots: some labelled items, maybe a group; labels always legal."""
    group_size = rng.choice([0, 0, 2, 3, 4]) if rng.random() < 0.8 else rng.randint(1, 4)
    outside = 4 - group_size
    labels: list[str | None] = []
    named: set[str] = set()
    majors = minors = 0
    for _ in range(outside):
        choice = rng.choice([None, None, "s", "h", "d", "c", "M", "m"])
        if choice in ("s", "h", "d", "c"):
            if choice in named or (choice in "sh" and majors + len(named & {"s", "h"}) >= 2) \
                    or (choice in "dc" and minors + len(named & {"d", "c"}) >= 2):
                choice = None
            else:
                named.add(choice)
        elif choice == "M":
            if majors + len(named & {"s", "h"}) >= 2:
                choice = None
            else:
                majors += 1
        elif choice == "m":
            if minors + len(named & {"d", "c"}) >= 2:
                choice = None
            else:
                minors += 1
        labels.append(choice)
    items = tuple((random_slot(rng), label) for label in labels)
    group = tuple(random_slot(rng) for _ in range(group_size)) if group_size else None
    return PatternSpec(items, group)


def random_expr(rng: random.Random, depth: int = 0) -> tuple:
    if depth > 2 or rng.random() < 0.3:
        return ("var", rng.choice(SUITS)) if rng.random() < 0.7 else ("num", rng.randint(0, 9))
    roll = rng.random()
    if roll < 0.1:
        return ("un", rng.choice("!-+"), random_expr(rng, depth + 1))
    if roll < 0.15:
        return ("tern", random_expr(rng, depth + 1), random_expr(rng, depth + 1),
                random_expr(rng, depth + 1))
    op = rng.choice(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"])
    return ("bin", op, random_expr(rng, depth + 1), random_expr(rng, depth + 1))


def random_condition(rng: random.Random) -> tuple[str, list[list[Cond]]]:
    """An `or` of `,`/`and` lists of C expressions, as text and as data."""
    alternatives = [[Cond(random_expr(rng)) for _ in range(rng.randint(1, 3))]
                    for _ in range(rng.randint(1, 2))]
    parts = []
    for conjunction in alternatives:
        joiner = rng.choice([",", ", ", " and ", ","])
        parts.append(joiner.join(c.text(rng) for c in conjunction))
    return " or ".join(parts), alternatives


def condition_holds(alternatives: list[list[Cond]], shape: tuple[int, ...]) -> bool:
    """A division by zero makes the whole condition false for that shape."""
    for conjunction in alternatives:
        values = []
        for cond in conjunction:
            value = cond.value(shape)
            if value is None:
                return False
            values.append(value)
            if not value:
                break
        if all(values):
            return True
    return False
