"""dealer's own shape lists, read with dealer's rules.

This is the independent reading of what the emitter writes:
``any 4432 + 5xxx - x5xx`` means, left to right, add every order of 4432,
add the shapes with five spades, remove those with five hearts. A pattern
without ``x`` must total 13; with ``x``, its digits must not exceed 13.
A ``,`` or nothing between items adds, as in dealer.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import permutations

from dealerpp.shapes.shapeset import ShapeSet
from dealerpp.shapes.universe import ALL_SHAPES

_TOKEN = re.compile(r"\s*(?:(?P<sign>[-+,])|(?P<any>any)\b|(?P<shape>[0-9x]{4})(?![0-9x]))")


def read_dealer_list(text: str) -> ShapeSet:
    """The set a dealer shape list denotes. Raises ``ValueError`` on text dealer rejects."""
    mask = 0
    sign = "+"
    permute = False
    pending = False  # a sign or 'any' waits for its pattern
    position = 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise ValueError(f"not a dealer shape list at {text[position:]!r}")
        position = match.end()
        if match["sign"]:
            if pending:
                raise ValueError(f"two signs in a row at {text[match.start():]!r}")
            sign, pending = ("+" if match["sign"] == "," else match["sign"]), True
        elif match["any"]:
            if permute:
                raise ValueError("'any any'")
            permute = pending = True
        else:
            term = _pattern_mask(match["shape"], permute)
            mask = mask | term if sign == "+" else mask & ~term
            sign, permute, pending = "+", False, False
    if pending:
        raise ValueError("the list ends with a sign or 'any'")
    return ShapeSet(mask)


# A list repeats its patterns (477 shipped lists hold 252 distinct ones):
# each is matched against the 560 shapes once.
@lru_cache(maxsize=1024)
def _pattern_mask(pattern: str, permute: bool) -> int:
    digits = [int(ch) for ch in pattern if ch != "x"]
    if "x" not in pattern and sum(digits) != 13:
        raise ValueError(f"{pattern}: a shape without x must total 13")
    if sum(digits) > 13:
        raise ValueError(f"{pattern}: digits total more than 13")
    orders = set(permutations(pattern)) if permute else {tuple(pattern)}
    # Each order as its lengths, None where it says x.
    wanted = [tuple(None if ch == "x" else int(ch) for ch in order) for order in orders]
    mask = 0
    for i, shape in enumerate(ALL_SHAPES):
        if any(_matches(order, shape) for order in wanted):
            mask |= 1 << i
    return mask


def _matches(pattern: tuple[int | None, ...], shape: tuple[int, ...]) -> bool:
    return all(n is None or n == length for n, length in zip(pattern, shape, strict=True))
