"""Every emit mode writes a list meaning exactly its set, read back with
dealer's rules (``read_dealer_list``) and, for patterns, checked against the
brute-force oracle; no list is longer than the plain enumeration, and the
full search is never longer than the default."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dealerpp import DppError, ShapeSet, expand
from dealerpp.shapes import emit
from dealerpp.shapes.dealer_list import read_dealer_list
from dealerpp.shapes.terms import term_table
from dealerpp.shapes.universe import FULL_MASK
from tests.conftest import examples
from tests.shapes.oracle import PatternSpec, SlotSpec, all_shapes

MODES = ("compact", "shortest", "list")
EMISSION = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
TABLE = term_table()


def term_count(dealer_list: str) -> int:
    return sum(1 for word in dealer_list.replace("any ", "").split() if word not in "+-")


def check_list(shapes: int, text: str, mode: str) -> None:
    assert read_dealer_list(text) == ShapeSet(shapes), text
    if not shapes:
        return  # dealer needs a list: the empty set is written "xxxx - xxxx"
    count = term_count(text)
    assert count <= shapes.bit_count(), text
    if mode == "list":
        assert count == shapes.bit_count()


# --- sets built from terms, complements and loose shapes ------------------------

masks_of_terms = st.lists(st.integers(0, len(TABLE.texts) - 1), max_size=6).map(
    lambda ids: [TABLE.masks[t] for t in ids])
loose_shapes = st.sets(st.integers(0, 559), max_size=60).map(lambda s: sum(1 << i for i in s))


@st.composite
def shape_sets(draw: st.DrawFn) -> int:
    """A union of terms, with some shapes added and some taken out, and
    maybe complemented: the small, large and ragged sets scripts make."""
    shapes = 0
    for mask in draw(masks_of_terms):
        shapes |= mask
    shapes = (shapes | draw(loose_shapes)) & ~draw(loose_shapes)
    if draw(st.booleans()):
        shapes = FULL_MASK & ~shapes
    return shapes


@pytest.mark.slow
@EMISSION
@given(shape_sets())
def test_every_mode_means_its_set(shapes: int) -> None:
    compact = emit.dealer_list(shapes, "compact")
    shortest = emit.dealer_list(shapes, "shortest")
    for mode, text in (("compact", compact), ("shortest", shortest),
                       ("list", emit.dealer_list(shapes, "list"))):
        check_list(shapes, text, mode)
    assert term_count(shortest) <= term_count(compact)


# --- patterns, judged by the oracle ------------------------------------------------

lengths = st.integers(0, 13)
slots = st.one_of(
    st.builds(lambda n: SlotSpec("exact", (n,)), lengths),
    st.builds(lambda n: SlotSpec("at_least", (n,)), lengths),
    st.builds(lambda n: SlotSpec("at_most", (n,)), lengths),
    st.builds(lambda ns: SlotSpec("range", tuple(sorted(ns))), st.sets(lengths, min_size=1,
                                                                      max_size=5)),
    st.just(SlotSpec("any", ())),
)


@st.composite
def patterns(draw: st.DrawFn) -> PatternSpec:
    """Four slots: some before a group, each maybe bound to a suit of its own."""
    group = draw(st.sampled_from([0, 0, 2, 3, 4]))
    suits = draw(st.permutations("shdc"))
    labels = [suit if draw(st.booleans()) else None for suit in suits[:4 - group]]
    items = tuple((draw(slots), label) for label in labels)
    return PatternSpec(items, tuple(draw(slots) for _ in range(group)) or None)


@EMISSION
@given(st.lists(patterns(), min_size=1, max_size=3), st.sampled_from(MODES))
def test_lists_of_patterns_mean_what_the_oracle_says(specs: list[PatternSpec], mode: str) -> None:
    text = " + ".join(spec.text(random.Random(0)) for spec in specs)
    try:
        shapes = expand(text)
    except DppError:
        assume(False)  # exact lengths adding up to more than 13, or four under 13
    expected = ShapeSet.of(s for s in all_shapes() if any(spec.matches(s) for spec in specs))
    assert shapes == expected, text
    check_list(shapes.mask, shapes.to_dealer(mode), mode)  # type: ignore[arg-type]


# --- the manual's examples -------------------------------------------------------------

MANUAL = ["5+xx5+", "2-xxx", "x[3-5]x[13]", "(4432)", "5s(431)", "4+c3+d(2+2+)", "5M(xxx)",
          "5+M3+c(31)", "5M5m(xx)", "4+s4+h(xx):d>c,h+s==10", "5m(332) + 5m2s(42)", "6m(322)",
          "5M(332)", "(4432) + (4333)", "(3+3+3+2+)", "xxxx:s+h==7?d==6:c==6", "4333 + 5+xxx"]


@pytest.mark.parametrize("mode", ["compact", "shortest"])
def test_the_manuals_examples(mode: str, snapshot: object) -> None:
    """The form of the lists (snapshot); their meaning is checked by reading them back."""
    lists = {}
    for text in MANUAL:
        shapes = expand(text)
        lists[text] = shapes.to_dealer(mode)  # type: ignore[arg-type]
        check_list(shapes.mask, lists[text], mode)
    assert lists == snapshot


def test_special_sets() -> None:
    for mode in MODES:
        assert read_dealer_list(emit.dealer_list(0, mode)) == ShapeSet()  # type: ignore[arg-type]
        assert read_dealer_list(emit.dealer_list(FULL_MASK, mode)) == ShapeSet.all()  # type: ignore[arg-type]
    assert emit.dealer_list(FULL_MASK) == "xxxx"


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="shortest"):
        emit.dealer_list(1, "longest")  # type: ignore[arg-type]


def test_compact_false_still_means_one_term_a_shape() -> None:
    shapes = expand("(4333)")
    assert shapes.to_dealer(compact=False) == shapes.to_dealer("list")


# --- structure ------------------------------------------------------------------------------


def _imports(path: Path) -> set[str]:
    """The dealerpp.shapes modules a file imports, at any depth in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {name.removeprefix("dealerpp.shapes.") for name in names
                  if name.startswith("dealerpp.shapes.")}
    return found


def test_no_import_cycle_in_shapes() -> None:
    folder = Path(emit.__file__).parent
    modules = {path.stem: path for path in folder.glob("*.py")}
    graph = {name: _imports(path) & modules.keys() for name, path in modules.items()}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, " -> ".join([*path, name])
        if name in done:
            return
        for target in graph[name]:
            visit(target, [*path, name])
        done.add(name)

    for name in graph:
        visit(name, [])
    assert "shapeset" not in graph["emit"] | graph["plans"] | graph["cover"] | graph["terms"]
