"""The logic analysis (logic.py, findings.py) proves only what is true.

Conditions are built by hypothesis from suit lengths, shape(), HCP and
controls, joined by and/or/not, and the verdict of `check` ("this condition
can never hold") is held against two independent judges:

- brute force over the 560 shapes, for conditions on one hand's shape
  (where the analysis is exact: "never" if and only if no shape fits);
- the real dealer, for conditions over two hands and their points: "never"
  must mean dealer finds no deal in a few hundred thousand.
"""

from __future__ import annotations

import subprocess
from itertools import permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp.script.check import check_text
from dealerpp.shapes.universe import ALL_SHAPES
from tests.conftest import examples, sized

SUITS = ("spades", "hearts", "diamonds", "clubs")
OPERATORS = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
             "==": int.__eq__, "!=": int.__ne__}


def codes(text: str) -> list[tuple[int | None, str | None]]:
    return [(d.line, d.code) for d in check_text(text, "t.dl") if d.severity == "warning"]


def never(condition: str) -> bool:
    return (1, "condition-never-holds") in codes(f"condition {condition}\n")


# -- one hand's shape: brute force over the 560 shapes ----------------------------------

def _length_test(draw: st.DrawFn) -> tuple[str, object]:
    suit = draw(st.integers(0, 3))
    operator = draw(st.sampled_from(sorted(OPERATORS)))
    bound = draw(st.integers(-1, 14))
    return f"{SUITS[suit]}(north) {operator} {bound}", (
        lambda shape: OPERATORS[operator](shape[suit], bound))


def _shape_test(draw: st.DrawFn) -> tuple[str, object]:
    lengths = draw(st.lists(st.integers(0, 7), min_size=3, max_size=3).filter(
        lambda found: sum(found) <= 13))
    slots = [str(n) for n in lengths] + ["x"]
    slots = draw(st.permutations(slots))
    permute = draw(st.booleans())
    pattern = "".join(slots)
    orders = set(permutations(pattern)) if permute else {tuple(pattern)}

    def holds(shape: tuple[int, ...]) -> bool:
        return any(all(c == "x" or int(c) == n for c, n in zip(order, shape, strict=True))
                   for order in orders)
    return f"shape(north, {'any ' if permute else ''}{pattern})", holds


@st.composite
def shape_conditions(draw: st.DrawFn, depth: int = 0) -> tuple[str, object]:
    choice = draw(st.integers(0, 4 if depth < 3 else 1))
    if choice == 0:
        return _length_test(draw)
    if choice == 1:
        return _shape_test(draw)
    if choice == 2:
        text, holds = draw(shape_conditions(depth + 1))
        return f"not ({text})", lambda shape: not holds(shape)  # type: ignore[operator]
    (left, first), (right, second) = draw(shape_conditions(depth + 1)), draw(
        shape_conditions(depth + 1))
    if choice == 3:
        return f"({left}) and ({right})", lambda s: first(s) and second(s)  # type: ignore[operator]
    return f"({left}) or ({right})", lambda s: first(s) or second(s)  # type: ignore[operator]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_conditions())
def test_never_holds_on_one_hand_exactly_when_no_shape_fits(case: tuple[str, object]) -> None:
    text, holds = case
    fitting = sum(1 for shape in ALL_SHAPES if holds(shape))  # type: ignore[operator]
    assert never(text) == (fitting == 0), (text, fitting)


def test_the_findings_name_the_kind() -> None:
    script = "\n".join((
        "a = shape(north, any 4333) and spades(north) >= 5",
        "b = shape(north, 5xxx) and not shape(north, 5xxx)",
        "c = spades(north) >= 8 and spades(south) >= 6",
        "d = hcp(north) > 37",
        "e = controls(north) > 12",
        "f = hcp(north) + hcp(south) > 40",
        "g = spades(north) + hearts(north) + diamonds(north) > 13",
        "h = hcp(north) > 19 and hcp(north) < 18",
        "lp1 = spades(south) > 4 ? spades(south) - 4 : 0",
        "lp2 = hearts(south) > 4 ? hearts(south) - 4 : 0",
        "lp = lp1 or lp2",
        "i = hcp(south) + lp",
        "j = 10 <= hcp(north) <= 12",
        "k = hcp(north) == hcp(south) == 10",
        "l = not hcp(north) < 15",
        "m = (lp1 and clubs(north)) > 4",
        "condition hcp(north) > 25 and hcp(south) > 25",
    )) + "\n"
    found = codes(script)
    assert found == [
        (1, "never-holds"), (2, "never-holds"), (3, "never-holds"), (4, "never-holds"),
        (5, "never-holds"), (6, "never-holds"), (7, "never-holds"), (8, "never-holds"),
        (12, "truth-as-number"), (13, "chained-comparison"), (14, "chained-comparison"),
        (15, "not-binds-tighter"), (16, "truth-as-number"),
        (17, "condition-never-holds"), (17, "never-holds"),
    ]


def test_predealt_cards_count() -> None:
    assert codes("predeal north SAKQ, HA\ncondition hcp(north) < 12\n") == [
        (2, "condition-never-holds"), (2, "never-holds")]
    assert codes("predeal north SAKQ, HA\ncondition hcp(north) < 14\n") == []
    assert codes("predeal north SAKQJT987\ncondition spades(south) > 5\n") == [
        (2, "condition-never-holds"), (2, "never-holds")]


@pytest.mark.parametrize("text", [
    "hcp(north) >= 0 and hcp(north) < 100",        # meant so: always holds, not a slip
    "x = 1\ny = x and 0\ncondition hcp(north) > 10",  # constants prove nothing
    "condition hcp(north) > 10 and hcp(north) < 20 or hcp(north) > 30",
    "a = spades(south) < 4\nb = spades(south) >= hearts(south) and spades(south) >= "
    "diamonds(south) and spades(south) >= clubs(south)\ncondition a and (b or hearts(south) > 3)",
    "cnt = (hcp(north) > 10) + (spades(north) > 4)\ncondition 100 * cnt > 50",
    "pointcount 1 1 1 1\ncondition hcp(north) > 12",  # tables of the script's own (13 at most)
    "condition hcp(north) > 14\npointcount 1",        # changed later: no verdict at all
])
def test_silent_where_nothing_is_wrong(text: str) -> None:
    assert codes(text + "\n") == []


# -- two hands and their points: the real dealer -------------------------------------------

SEATS = ("north", "south")
POINTS = {"hcp": 37, "controls": 12}


@st.composite
def deal_conditions(draw: st.DrawFn, depth: int = 0) -> str:
    choice = draw(st.integers(0, 4 if depth < 2 else 2))
    seat = draw(st.sampled_from(SEATS))
    operator = draw(st.sampled_from(sorted(OPERATORS)))
    if choice == 0:
        suit = draw(st.sampled_from(SUITS))
        return f"{suit}({seat}) {operator} {draw(st.integers(0, 13))}"
    if choice == 1:
        function = draw(st.sampled_from(sorted(POINTS)))
        bound = draw(st.integers(0, POINTS[function] + 2))
        return f"{function}({seat}) {operator} {bound}"
    if choice == 2:
        suit = draw(st.sampled_from(SUITS))
        return f"{suit}(north) + {suit}(south) {operator} {draw(st.integers(4, 14))}"
    left, right = draw(deal_conditions(depth + 1)), draw(deal_conditions(depth + 1))
    return f"({left}) {'and' if choice == 3 else 'or'} ({right})"


# Deals dealer looks through for a counterexample: 300,000 under CI, a third
# of them locally (each run of dealer costs 0.2-0.5 s).
DEALS = sized(300_000, 100_000)


def dealer_finds(dealer: str, condition: str, deals: int, predeal: str = "") -> int:
    script = (f"generate {deals}\nproduce 1\n{predeal}condition {condition}\n"
              "action printoneline\n")
    done = subprocess.run([dealer, "-s", "1"], input=script, capture_output=True, text=True,
                          timeout=120, check=True)
    return sum(1 for line in done.stdout.splitlines() if line.startswith("n "))


@pytest.mark.dealer
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(deal_conditions(), min_size=2, max_size=3),
       st.lists(st.sampled_from([f"{suit}{rank}" for suit in "SHDC" for rank in "AKQJT98"]),
                max_size=6, unique=True), st.sampled_from(SEATS))
def test_never_holds_agrees_with_dealer(dealer_bin: str, parts: list[str], cards: list[str],
                                        seat: str) -> None:
    condition = " and ".join(f"({part})" for part in parts)
    predeal = f"predeal {seat} {', '.join(cards)}\n" if cards else ""
    if (1 + bool(predeal), "condition-never-holds") in codes(f"{predeal}condition {condition}\n"):
        assert dealer_finds(dealer_bin, condition, DEALS, predeal) == 0, (predeal, condition)


def test_predealt_honours_leave_the_rest_to_the_others() -> None:
    # SA to north: south can still hold K, Q and J of spades (top4 up to 3).
    assert codes("predeal north SA, CKJ\ncondition top4(south, spades) == 3\n") == []


def test_a_broken_definition_proves_nothing() -> None:
    found = codes("a = spades(north) > 4 @\nb = a or hearts(north) > 4\n"
                  "condition 100 * b > 50\n")
    assert found == []


@pytest.mark.dealer
@pytest.mark.parametrize("condition", [
    "shape(north, any 4333+4432+5332) and hcp(north)>14 and hcp(north)<18 and hcp(north)>19 "
    "and hcp(north)<22",
    "controls(south, spades) == 2 and controls(south, spades) == 1",
    "diamonds(west) > clubs(west) || ((diamonds(west) == clubs(west)) == 4)",
    "spades(north) >= 7 and spades(south) >= 7",
    "hcp(north) + hcp(south) > 40",
])
def test_what_the_corpus_slips_never_do_dealer_never_does(dealer_bin: str,
                                                          condition: str) -> None:
    """The slips found in real scripts (Practice-Bidding-Scenarios, dealer's
    own Descr.you_hold): dealer confirms the part `check` says never holds."""
    if "||" in condition:  # the operand that never holds, alone
        condition = "(diamonds(west) == clubs(west)) == 4"
    assert never(condition)
    assert dealer_finds(dealer_bin, condition, DEALS) == 0


@pytest.mark.dealer
def test_dealer_reads_not_and_chains_as_check_says(dealer_bin: str) -> None:
    """`not hcp(north) < 15` and `10 <= hcp(north) <= 12` always hold for
    dealer; `hcp(north) == hcp(south) == 10` never does."""
    for condition in ("not hcp(north) < 15", "10 <= hcp(north) <= 12"):
        assert dealer_finds(dealer_bin, f"not ({condition})", 100_000) == 0
    assert dealer_finds(dealer_bin, "hcp(north) == hcp(south) == 10", 100_000) == 0
    assert dealer_finds(dealer_bin, "hcp(north) > 20", 100_000) == 1


def test_the_script_s_point_tables_count() -> None:
    # pointcount 1 1 1 1: four aces, kings and queens and a jack make 13 at most.
    assert codes("pointcount 1 1 1 1\ncondition hcp(north) > 13\n") == [
        (2, "condition-never-holds"), (2, "never-holds")]


def test_preprocessing_gives_the_same_codes() -> None:
    from dealerpp.script.rewrite import preprocess_script

    text = ("x = shape{north, 5xxx}\nlp1 = spades(south) > 4 ? spades(south) - 4 : 0\n"
            "lp = lp1 or hearts(south)\ncondition hcp(south) + lp > 10 and not hcp(north) < 15\n")
    result = preprocess_script(text, "s.dpp", check=True)
    assert [(f.line, f.code) for f in result.findings] == [
        (4, "truth-as-number"), (4, "not-binds-tighter")]
    assert [(f.line, f.code) for f in result.findings] == codes(text.replace(
        "shape{north, 5xxx}", "shape(north, 5xxx)"))


def test_the_docs_list_every_code() -> None:
    from pathlib import Path

    from dealerpp.diagnostics import INTERNAL_ERROR, TOO_MANY_SHAPES
    from dealerpp.script.check.findings import CODES
    from dealerpp.script.check.report import ERROR_LIMIT, MORE_ERRORS

    docs = (Path(__file__).resolve().parents[2] / "docs" / "check.md").read_text()
    for code in (*CODES, TOO_MANY_SHAPES, MORE_ERRORS, ERROR_LIMIT, INTERNAL_ERROR):
        assert f"`{code}`" in docs, code


def test_a_shape_block_is_analysed_as_the_list_it_compiles_to() -> None:
    """A .dpp's shape{} means what the compiler makes of it: thirteen clubs
    cannot hold with a spade predealt, whether written shape{} or shape()."""
    from dealerpp.script.check import check_text

    for expression in ("shape{north, 000x}", "shape(north, 000x)"):
        text = f"predeal north SA\ncondition {expression}\naction printall\n"
        codes = {d.code for d in check_text(text, "s.dpp")}
        assert "never-holds" in codes or "condition-never-holds" in codes, (expression, codes)
    fine = "predeal north SA\ncondition shape{north, 5+s}\naction printall\n"
    assert not {d.code for d in check_text(fine, "s.dpp")} & {"never-holds", "condition-never-holds"}


# -- a whole condition that always holds ---------------------------------------------------

def always(condition: str) -> bool:
    return (1, "condition-always-holds") in codes(f"condition {condition}\n")


def _leaf_tests(text: str) -> list[str]:
    """The tests a generated shape condition is made of (their texts)."""
    import re

    return re.findall(r"(?:spades|hearts|diamonds|clubs)\(north\) [<>=!]+ -?\d+|shape\([^)]*\)", text)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_conditions())
def test_always_holds_on_one_hand_exactly_when_every_shape_fits(case: tuple[str, object]) -> None:
    """Brute force over the 560 shapes: the whole condition is said to always
    hold exactly when every shape fits it and one of its tests, alone, fails
    on some shape (a test that always holds alone is taken as meant so)."""
    text, holds = case
    fitting = sum(1 for shape in ALL_SHAPES if holds(shape))  # type: ignore[operator]
    some_test_fails = any(never(f"not ({test})") is False for test in _leaf_tests(text))
    assert always(text) == (fitting == len(ALL_SHAPES) and some_test_fails), (text, fitting)


@pytest.mark.parametrize(("condition", "expected"), [
    ("hcp(north) > 10 or hcp(north) < 15", True),       # `or` meant `and`
    ("not (hcp(north) > 10 and hcp(north) < 5)", True),
    ("shape(north, any 4333) or not shape(north, any 4333)", True),
    ("hcp(north) + hcp(south) <= 40", False),           # one test, meant so
    ("hcp(north) >= 0 and hcp(north) < 100", False),
    ("1", False),                                       # a constant proves nothing
    ("hcp(north) > 10 or spades(north) > 4", False),
])
def test_a_whole_condition_that_always_holds(condition: str, expected: bool) -> None:
    assert always(condition) == expected


@st.composite
def covering_conditions(draw: st.DrawFn) -> str:
    """Two or three tests of one value joined by `or` (often covering every
    value it can take), or-ed with the negation of a test of another."""
    value = draw(st.sampled_from([
        "hcp(north)", "controls(south)", "spades(north)", "hcp(north) + hcp(south)",
        "hearts(north) + hearts(south)"]))
    tests = [f"{value} {draw(st.sampled_from(sorted(OPERATORS)))} {draw(st.integers(0, 20))}"
             for _ in range(draw(st.integers(2, 3)))]
    if draw(st.booleans()):
        tests.append(f"not ({draw(deal_conditions(2))})")
    return " or ".join(f"({test})" for test in tests)


@pytest.mark.dealer
@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(covering_conditions())
def test_always_holds_agrees_with_dealer(dealer_bin: str, condition: str) -> None:
    """Where check says the whole condition always holds, dealer finds no
    deal where it fails in DEALS (300,000 under CI)."""
    if always(condition):
        assert dealer_finds(dealer_bin, f"not ({condition})", DEALS) == 0, condition


@pytest.mark.dealer
@pytest.mark.parametrize("condition", [
    "hcp(north) > 10 or hcp(north) < 15",
    "not (hcp(north) > 10 and hcp(north) < 5)",
    "spades(north) + spades(south) < 9 or spades(east) + spades(west) < 9",
])
def test_conditions_said_to_always_hold_dealer_never_fails(dealer_bin: str,
                                                           condition: str) -> None:
    assert always(condition)
    assert dealer_finds(dealer_bin, f"not ({condition})", DEALS) == 0


# -- points tied to suit lengths --------------------------------------------------------------

_HONOURS = (4, 3, 2, 1)


def _suit_points(length: int) -> tuple[int, int]:
    """The fewest and most HCP a suit of ``length`` cards holds (9 spot cards)."""
    return sum(sorted(_HONOURS)[:max(length - 9, 0)]), sum(_HONOURS[:min(length, 4)])


@st.composite
def points_conditions(draw: st.DrawFn, depth: int = 0) -> tuple[str, object]:
    """Conditions on north's shape, lengths and points: the hand's HCP, or
    its spade HCP (one of the two a condition, so that brute force over the
    shapes and that one number is exact)."""
    choice = draw(st.integers(0, 4 if depth < 2 else 1))
    if choice == 0:
        operator = draw(st.sampled_from(sorted(OPERATORS)))
        bound = draw(st.integers(0, 38))
        return f"hcp(north) {operator} {bound}", lambda shape, points: OPERATORS[operator](
            points, bound)
    if choice == 1:
        text, holds = _length_test(draw) if draw(st.booleans()) else _shape_test(draw)
        return text, lambda shape, points: holds(shape)  # type: ignore[operator]
    if choice == 2:
        text, holds = draw(points_conditions(depth + 1))
        return f"not ({text})", lambda s, p: not holds(s, p)  # type: ignore[operator]
    (left, first), (right, second) = (draw(points_conditions(depth + 1)),
                                      draw(points_conditions(depth + 1)))
    if choice == 3:
        return f"({left}) and ({right})", lambda s, p: first(s, p) and second(s, p)  # type: ignore[operator]
    return f"({left}) or ({right})", lambda s, p: first(s, p) or second(s, p)  # type: ignore[operator]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points_conditions())
def test_never_holds_with_points_and_shapes_is_sound(case: tuple[str, object]) -> None:
    """Brute force over the 560 shapes and every HCP total each allows (a
    suit of n cards holds from its forced honours to its n best): "never"
    only where no shape and total satisfies the condition."""
    text, holds = case
    if not never(text):
        return
    for shape in ALL_SHAPES:
        spans = [_suit_points(length) for length in shape]
        low, high = sum(a for a, _ in spans), sum(b for _, b in spans)
        assert not any(holds(shape, points) for points in range(low, high + 1)), (  # type: ignore[operator]
            text, shape)


@pytest.mark.parametrize(("condition", "possible"), [
    ("shape(north, any 0xxx) and hcp(north) > 30", False),  # a void: three suits, 30 at most
    ("hcp(north) > 30 and shape(north, any 0xxx)", False),
    ("shape(north, any 0xxx) and hcp(north) == 30", True),
    ("spades(north) == 1 and hcp(north, spades) > 4", False),  # a singleton: the ace at most
    ("hcp(north, spades) > 7 and spades(north) < 3", False),   # AK is 7
    ("spades(north) < 2 and hcp(north, spades) >= 4", True),
    ("hcp(north) == 37 and shape(north, 4432)", False),        # 37 needs 4333
    ("hcp(north) == 37 and shape(north, 4333)", True),
])
def test_points_need_the_cards_to_hold_them(condition: str, possible: bool) -> None:
    """Each verdict by brute force: the shapes and HCP totals a hand can have."""
    assert never(condition) is not possible


@pytest.mark.dealer
@pytest.mark.parametrize("condition", [
    "shape(north, any 0xxx) and hcp(north) > 30",
    "spades(north) == 1 and hcp(north, spades) > 4",
    "hcp(north, spades) > 7 and spades(north) < 3",
    "shape(south, any 1xxx) and hcp(south) > 34",
])
def test_points_against_lengths_dealer_never_finds(dealer_bin: str, condition: str) -> None:
    assert never(condition)
    assert dealer_finds(dealer_bin, condition, DEALS) == 0


@st.composite
def decks(draw: st.DrawFn) -> tuple[dict[str, tuple[int, ...]], dict[int, list[int]]]:
    """A point table of 13 weights (negative ones too, as altcount allows)
    and a few cards predealt to some seats."""
    weights = tuple(draw(st.lists(st.integers(-3, 7), min_size=13, max_size=13)))
    cards = draw(st.lists(st.integers(0, 51), max_size=14, unique=True))
    seats = draw(st.lists(st.integers(0, 3), min_size=len(cards), max_size=len(cards)))
    predealt: dict[int, list[int]] = {}
    for card, seat in zip(cards, seats, strict=True):
        if len(predealt.get(seat, ())) < 13:
            predealt.setdefault(seat, []).append(card)
    return {"hcp": weights}, predealt


def _hand_spans(weights: tuple[int, ...], predealt: dict[int, list[int]], seat: int,
                shape: tuple[int, ...]) -> tuple[int, int] | None:
    """The fewest and most points ``seat`` holds with ``shape``, from the
    cards: in each suit its predealt cards and, for the rest of the length,
    the cheapest or dearest cards nobody else was dealt (None: no such hand)."""
    taken = {card for cards in predealt.values() for card in cards}
    mine = set(predealt.get(seat, ()))
    least = most = 0
    for suit, length in enumerate(shape):
        suit_cards = range(suit * 13, suit * 13 + 13)
        held = [weights[card % 13] for card in suit_cards if card in mine]
        free = sorted(weights[card % 13] for card in suit_cards if card not in taken)
        more = length - len(held)
        if more < 0 or more > len(free):
            return None
        least += sum(held) + sum(free[:more])
        most += sum(held) + sum(free[len(free) - more:])
    return least, most


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decks(), st.integers(0, 3), st.integers(-40, 100), st.integers(-10, 60))
def test_shapes_for_points_are_the_shapes_whose_cards_reach_the_points(
        deck: tuple[dict[str, tuple[int, ...]], dict[int, list[int]]], seat: int, low: int,
        width: int) -> None:
    """The shapes the analysis allows a hand with low..high points are those
    whose cheapest and dearest cards (brute force over the 560 shapes) reach
    into low..high."""
    from dealerpp.script.check.domain import Deck

    tables, predealt = deck
    found = Deck(tables, predealt).shapes_for_points("hcp", seat, low, low + width)
    expected = 0
    for index, shape in enumerate(ALL_SHAPES):
        spans = _hand_spans(tables["hcp"], predealt, seat, shape)
        if spans is not None and spans[0] <= low + width and spans[1] >= low:
            expected |= 1 << index
    assert found == expected


@pytest.mark.parametrize("suits", [(0,), (3,), (0, 1), (1, 3), (0, 2, 3), (0, 1, 2, 3)])
@pytest.mark.parametrize("coeffs", [(1, 1, 1, 1), (1, -1, 2, -1), (-2, 1, -1, 3)])
def test_shapes_where_a_sum_of_lengths_lies_in_a_range(suits: tuple[int, ...],
                                                       coeffs: tuple[int, ...]) -> None:
    """The shapes where a weighted sum of suit lengths plus a constant lies
    in a range (as `spades(north) - clubs(north) >= 2` narrows north's
    shapes), against each of the 560 shapes summed: every single value, and
    ranges within a mask of every third shape."""
    from dealerpp.script.check.domain import shapes_where

    terms = [(suit, coeffs[index]) for index, suit in enumerate(suits)]
    sums = [sum(coeff * shape[suit] for suit, coeff in terms) for shape in ALL_SHAPES]
    every = 2**560 - 1
    thirds = sum(1 << index for index in range(0, 560, 3))
    for value in range(min(sums) - 1, max(sums) + 2):
        expected = sum(1 << index for index, total in enumerate(sums) if total == value)
        assert shapes_where(every, terms, 0, value, value) == expected
        expected = sum(1 << index for index, total in enumerate(sums)
                       if value <= total + 2 <= value + 4 and index % 3 == 0)
        assert shapes_where(thirds, terms, 2, value, value + 4) == expected
