"""Every worked example of the spec and the manual page gives the stated set.

The expected sets are written in dealer's own syntax, as in the documents,
and read with dealer's rules (``read_dealer_list``), not by the expander.
"""

from __future__ import annotations

import pytest

from dealerpp import ShapeSet, expand
from dealerpp.shapes.dealer_list import read_dealer_list
from tests.shapes.oracle import all_shapes

# (expression, the set in dealer syntax, its size) — docs/shape-language.md
WORKED_EXAMPLES = [
    ("5+xx5+", "5xx5 + 5xx6 + 6xx5 + 5xx7 + 6xx6 + 7xx5 + 5008 + 6007 + 7006 + 8005", 20),
    ("2-xxx", "0xxx + 1xxx + 2xxx", None),
    ("x[3-5]x[13]", "x3x1 x4x1 x3x3 x5x1 x4x3 x5x3", None),
    ("(4432)", "any 4432", 12),
    ("5s(431)", "5134 5314 5143 5341 5413 5431", 6),
    ("4+c3+d(2+2+)", "3334 4234 2434 3244 2344 2254 3235 2335 2245 2236", 10),
    ("5M(xxx)", "x5xx + 5xxx", None),
    ("5+M3+c(31)", "1534 3514 1633 3613 5134 5314 6133 6313", 8),
    ("5M5m(xx)", "x5x5 5xx5 x55x 5x5x", None),
    ("4+s4+h(xx):d>c,h+s==10", "6421 6430 5521 5530 4621 4630", 6),
]


@pytest.mark.parametrize(("expression", "dealer", "size"), WORKED_EXAMPLES)
def test_worked_examples(expression: str, dealer: str, size: int | None) -> None:
    expected = read_dealer_list(dealer)
    assert expand(expression) == expected
    assert expand(f"shape{{north, {expression}}}") == expected
    if size is not None:
        assert len(expected) == size


def by_predicate(predicate) -> ShapeSet:
    return ShapeSet.of(s for s in all_shapes() if predicate(*s))


SPEC_RULES = [
    # label before or after the modifier
    ("5M+xxx", lambda s, h, d, c: s >= 5 or h >= 5),
    ("5+Mxxx", lambda s, h, d, c: s >= 5 or h >= 5),
    # nothing is capped at 9
    ("5+xxx", lambda s, h, d, c: s >= 5),
    ("x[T-K]xx", lambda s, h, d, c: h >= 10),
    ("Kxxx", lambda s, h, d, c: s == 13),
    # unlabelled items take the remaining suits in order
    ("[5-7]s[2-4]hxx", lambda s, h, d, c: 5 <= s <= 7 and 2 <= h <= 4),
    ("5(431)", lambda s, h, d, c: s == 5 and sorted((h, d, c)) == [1, 3, 4]),
    ("4h5xx", lambda s, h, d, c: h == 4 and s == 5),
    # compound ranges
    ("[013-68]xxx", lambda s, h, d, c: s in (0, 1, 3, 4, 5, 6, 8)),
    ("3-xxx", lambda s, h, d, c: s <= 3),
    # two Ms take both majors
    ("5M4M(xx)", lambda s, h, d, c: (s, h) in ((5, 4), (4, 5))),
    # left to right union and difference
    ("(4333) + (4432) - 4xxx", lambda s, h, d, c: sorted((s, h, d, c)) in ([3, 3, 3, 4], [2, 3, 4, 4]) and s != 4),
    ("5xxx - x5xx + 55xx", lambda s, h, d, c: (s == 5 and h != 5) or (s == 5 and h == 5)),
    ("- 4333", lambda s, h, d, c: False),
    # conditions: `or` loosest, then `,`/`and`, then C
    ("xxxx:s>=d,s>=c or h>=d,h>=c", lambda s, h, d, c: (s >= d and s >= c) or (h >= d and h >= c)),
    ("xxxx:s>3 and h>3 or d>6", lambda s, h, d, c: (s > 3 and h > 3) or d > 6),
    ("xxxx:s>3 || h>3, d>2", lambda s, h, d, c: (s > 3 or h > 3) and d > 2),
    ("xxxx:s-h*2>c?1:0", lambda s, h, d, c: s - h * 2 > c),
    ("xxxx:!(s>4) && not h", lambda s, h, d, c: s <= 4 and h == 0),
    ("xxxx:-s+13==h+d+c", lambda s, h, d, c: True),
    # C integer division truncates toward zero; division by zero is false
    ("xxxx:(s-h)/3==-1", lambda s, h, d, c: -5 <= s - h <= -3),
    ("xxxx:(s-h)%3==-2", lambda s, h, d, c: (s - h) < 0 and (h - s) % 3 == 2),
    ("xxxx:13/s>3", lambda s, h, d, c: s != 0 and 13 // s > 3),
    # M and m in conditions: the pattern's choice, or both
    ("7+xxx:h<2 or m<2", lambda s, h, d, c: s >= 7 and (h < 2 or d < 2 or c < 2)),
    ("5M(xxx):M>=5,m<=1", lambda s, h, d, c: (s == 5 or h == 5) and (d <= 1 or c <= 1)),
    ("5+M(xxx):M>h", lambda s, h, d, c: s >= 5 and s > h),
    # the spaced-sign rule
    ("x5+xx:h>s + 6+xxx", lambda s, h, d, c: (h >= 5 and h > s) or s >= 6),
    ("x5+xx:h+s==10", lambda s, h, d, c: h >= 5 and h + s == 10),
    ("xxxx:(h + s == 10)", lambda s, h, d, c: h + s == 10),
    ("xxxx:h +s==10", lambda s, h, d, c: h + s == 10),
    # whitespace and newlines elsewhere do not matter
    ("5+\n M ( x x x )", lambda s, h, d, c: s >= 5 or h >= 5),
    # dealer's own form passes too
    ("any 4432", lambda s, h, d, c: sorted((s, h, d, c)) == [2, 3, 4, 4]),
    ("any 5xxx", lambda s, h, d, c: 5 in (s, h, d, c)),
    ("4xxx", lambda s, h, d, c: s == 4),
    # suit letters in either case
    ("5S(xxx):H>2", lambda s, h, d, c: s == 5 and h > 2),
]


@pytest.mark.parametrize(("expression", "predicate"), SPEC_RULES)
def test_spec_rules(expression: str, predicate) -> None:
    assert expand(expression) == by_predicate(predicate)


def test_shape_set_operations() -> None:
    a, b = expand("5xxx"), expand("x5xx")
    assert a | b == expand("5xxx + x5xx")
    assert a & b == expand("55xx")
    assert a - b == expand("5xxx - x5xx")
    assert a ^ b == (a | b) - (a & b)
    assert len(~a) == 560 - len(a)
    assert (5, 4, 3, 1) in a and "5=4=3=1" in a and "5431" in a and "4333" not in a
    assert list(expand("(4333)")) == sorted(expand("(4333)"), reverse=True)


def test_probability_is_exact() -> None:
    from fractions import Fraction
    from math import comb

    assert expand("xxxx").probability() == 1
    p = expand("(4333)").probability()
    assert p == Fraction(4 * comb(13, 4) * comb(13, 3) ** 3, comb(52, 13))
    assert abs(float(p) - 0.10536) < 1e-5  # the well-known 10.5%
