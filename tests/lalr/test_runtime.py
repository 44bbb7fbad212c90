"""dealerpp.lalr runs Lark's tables without Lark: it must parse exactly as
Lark does (tokens, trees, positions, errors), and the shipped tables must be
the ones tools/export_tables.py makes from today's grammar files."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from importlib import import_module
from typing import Any

import lark
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerpp import lalr
from dealerpp.grammars import grammar_digest, grammar_path
from dealerpp.shapes.parser import ConditionSigns
from tests.check.mutate import base_scripts
from tests.conftest import PROJECT_ROOT, sized
from tools.export_tables import GRAMMARS, Tables, lark_parser, table_path

SHAPE_ALPHABET = [*"0123456789TJQKxshdcSHDCMm+-()[]:,<>=!&|?*/%{} \n", "any", "or", "and",
                  "not", " + ", " - ", "shape", "north"]
SHAPE_SEEDS = ["5+M(xxx)", "4+s4+h(xx):d>c,h+s==10", "any 4432 + 5xxx - x5xx", "[3-5]x[13]",
               "5m(332) + 5m2s(42)", "(4333):s>h and (h + d) < 7 or c==2", "x5+xx:h>s ? d : c"]


@pytest.mark.parametrize("name", sorted(GRAMMARS))
def test_shipped_tables_come_from_todays_grammar(name: str) -> None:
    made_from = import_module(f"dealerpp.lalr.generated.{name}").SHA256
    assert made_from == grammar_digest(name), "run: python tools/export_tables.py"


@pytest.mark.parametrize("name", sorted(GRAMMARS))
def test_shipped_tables_are_what_the_exporter_writes(name: str) -> None:
    made_by = import_module(f"dealerpp.lalr.generated.{name}").LARK
    if made_by != lark.__version__:
        # Another Lark may number or order things differently; the parse
        # comparisons below still hold the tables to this Lark's behaviour.
        pytest.skip(f"tables made by Lark {made_by}, Lark {lark.__version__} installed")
    shipped = table_path(name).read_text(encoding="utf-8")
    assert shipped == Tables(name).source(), "run: python tools/export_tables.py"


def test_every_grammar_has_tables() -> None:
    assert set(lalr.GRAMMARS) == set(GRAMMARS)
    with pytest.raises(ValueError, match="no parse tables"):
        lalr.load("python")


def test_loading_the_tables_needs_neither_lark_nor_json_nor_hashlib() -> None:
    code = ("import sys\nfrom dealerpp import lalr\n"
            "lalr.load('shape').parse('5+M(xxx)', 'body'); lalr.load('dealer')\n"
            "print(sorted({'lark', 'json', 'hashlib', 'pathlib'} & set(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=PROJECT_ROOT)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("name", sorted(GRAMMARS))
def test_grammar_comments_cite_files_that_exist(name: str) -> None:
    for number, line in enumerate(grammar_path(name).read_text().splitlines(), 1):
        comment = line.partition("//")[2]
        for cited in re.findall(r"[\w.-]+(?:/[\w.-]+)+\.(?:py|md|lark|json|txt)", comment):
            assert (PROJECT_ROOT / cited).is_file(), f"{name}.lark:{number} cites {cited}"


def _shape(tokens: Iterator[Any]) -> Iterator[Any]:
    return ConditionSigns().process(tokens)


def _normal(node: Any) -> Any:
    """A tree as nested tuples, every token's and node's position included."""
    if isinstance(node, str):  # a token of either library
        return ("token", node.type, str(node), node.start_pos, node.line, node.column,
                node.end_line, node.end_column, node.end_pos)
    meta = node.meta
    where = None if meta.empty else (meta.line, meta.column, meta.start_pos, meta.end_line,
                                     meta.end_column, meta.end_pos)
    return (str(node.data), where, [_normal(child) for child in node.children])


def _outcome(parse: Callable[..., Any], *args: Any, **options: Any) -> Any:
    try:
        return ("tree", _normal(parse(*args, **options)))
    except (lark.exceptions.UnexpectedInput, lalr.ParseError) as error:
        token = getattr(error, "token", None)
        expected = getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
        kind = "UnexpectedToken" if type(error).__name__ == "UnexpectedEOF" else type(error).__name__
        return (kind, error.line, error.column, getattr(error, "pos_in_stream", None),
                sorted(expected), None if token is None else (token.type, str(token)))


@cache
def lark_of(name: str) -> Any:
    """Lark's parser of grammar ``name`` (the shape grammar with our post-lexer),
    made once a worker, when first asked (not at import: every pytest-xdist
    worker imports each module)."""
    return lark_parser(name, postlex=ConditionSigns() if name == "shape" else None)


def assert_same_shape_parse(text: str) -> None:
    for start, source in (("body", text), ("call", f"shape{{north, {text}}}")):
        theirs = _outcome(lark_of("shape").parse, source, start=start)
        ours = _outcome(lalr.load("shape").parse, source, start, None, _shape)
        assert ours == theirs, source


@given(st.lists(st.sampled_from(SHAPE_ALPHABET), max_size=16).map("".join))
def test_shape_parses_as_lark_on_random_text(text: str) -> None:
    assert_same_shape_parse(text)


@given(st.sampled_from(SHAPE_SEEDS), st.lists(
    st.tuples(st.integers(0, 60), st.sampled_from(["", *SHAPE_ALPHABET])), min_size=1,
    max_size=3))
def test_shape_parses_as_lark_on_mutated_expressions(seed: str, edits: list) -> None:
    text = seed
    for where, insert in edits:
        where %= len(text) + 1
        text = text[:where] + insert + text[where + (insert == ""):]
    assert_same_shape_parse(text)


def _dealer_scripts() -> list[str]:
    """The base scripts and mutations of them: 300 of the same under CI, 100
    drawn anew each local run."""
    texts = list(base_scripts().values())
    rng = random.Random(sized(11, None))
    for _ in range(sized(300, 100)):
        text = list(rng.choice(texts))
        for _ in range(rng.randint(1, 4)):
            where = rng.randrange(len(text) + 1)
            if rng.random() < 0.5 and text:
                del text[min(where, len(text) - 1)]
            else:
                text.insert(where, rng.choice('(){}=+-*/,;:?!<>&|"#\n abcxyz0123456789'))
        texts.append("".join(text))
    return texts


def test_dealer_parses_as_lark_on_scripts_and_their_mutations() -> None:
    theirs, ours = lark_of("dealer"), lalr.load("dealer")
    texts = _dealer_scripts()
    parsed = 0
    for text in texts:
        expected = _outcome(theirs.parse, text)
        assert _outcome(ours.parse, text, "start") == expected, text
        parsed += expected[0] == "tree"
    assert parsed > len(base_scripts())  # some mutations still parse


def test_runs_of_unit_rules_are_kept_and_parse_as_lark() -> None:
    """A run of `?a: b` reductions (an expression's precedence levels) is
    found once, then read back (``Grammar.unit_runs``): both parses, with the
    runs yet to find and with them kept, are Lark's, errors included."""
    grammar = lalr.load("dealer")
    texts = ["x = hcp(north) + 3 * (2 - shape(south, any 4333)) > 12 && !y || z\n",
             "condition ((((1))))\nproduce 3\n", "y = 1 +\n", "x = (1 ? 2 : 3) == 4 != 5\n"]
    grammar.unit_runs.clear()
    for _ in range(2):
        for text in texts:
            assert _outcome(grammar.parse, text, "start") == _outcome(lark_of("dealer").parse, text)
    assert grammar.unit_runs  # found and kept


def test_callbacks_build_values_in_place_of_trees() -> None:
    built = lalr.load("dealer").parse("x = 1 + 2\n", "start", {
        "number": lambda meta, children: int(children[0]),
        "binary": lambda meta, children: (children[0], str(children[1]), children[2],
                                          meta.line, meta.column, meta.end_column)})
    assignment = built.children[0]
    assert assignment.children[1] == (1, "+", 2, 1, 5, 10)


def _parse_with_fresh_lexers(name: str, text: str, start: str, union_after: int) -> Any:
    """Parse with a Grammar of its own (no lexer made yet), whose lexers
    switch to one compiled alternation after ``union_after`` tokens."""
    grammar = lalr.Grammar(import_module(f"dealerpp.lalr.generated.{name}"))
    original = lalr.runtime.Lexer.UNION_AFTER
    lalr.runtime.Lexer.UNION_AFTER = union_after
    try:
        postlex = _shape if name == "shape" else None
        return _outcome(grammar.parse, text, start, None, postlex)
    finally:
        lalr.runtime.Lexer.UNION_AFTER = original


@given(st.sampled_from(SHAPE_SEEDS), st.lists(st.sampled_from(SHAPE_ALPHABET), max_size=12))
def test_shape_lexers_give_the_same_tokens_one_regexp_at_a_time(seed: str, tail: list) -> None:
    text = seed + "".join(tail)
    one_at_a_time = _parse_with_fresh_lexers("shape", text, "body", 10**9)
    assert one_at_a_time == _parse_with_fresh_lexers("shape", text, "body", 0)
    assert one_at_a_time == _outcome(lark_of("shape").parse, text, start="body")


def test_dealer_lexers_give_the_same_tokens_one_regexp_at_a_time() -> None:
    theirs = lark_of("dealer")
    for text in _dealer_scripts()[:80]:
        expected = _outcome(theirs.parse, text)
        assert _parse_with_fresh_lexers("dealer", text, "start", 10**9) == expected, text
        assert _parse_with_fresh_lexers("dealer", text, "start", 0) == expected, text
