"""dealerpp's output run through the real dealer: the same seed gives the
same deals as the Perl dealer.dpp where the Perl tool is right, and the
right deals where it is not."""

from __future__ import annotations

import random
import re
import subprocess

import pytest

from dealerpp import ShapeSet, expand, preprocess
from dealerpp.shapes.dealer_list import read_dealer_list
from tests.conftest import DEALER_EXAMPLES, EXAMPLES, our_script, run_dealer, run_perl_dpp
from tests.shapes.test_perl_crosscheck import _expression, _over_thirteen, _perl_sets

pytestmark = pytest.mark.dealer

# Examples that show what the Perl tool gets wrong (each also a test below).
PERL_CANNOT = {
    "multiline.dpp": "a shape{} over several lines",
    "major_fit.dpp": "a # inside a string",
    # One of its 100000 hands has a 10-card suit, which the Perl tool misses.
    "shape_survey.dpp": "a 10+ card suit (the Perl tool caps lengths at 9)",
    "two_per_line.dpp": "union signs without spaces: (4333)+(4432)",
}


def deals_only(output: str) -> str:
    """dealer's output without the timing line, which changes run to run."""
    return "".join(line for line in output.splitlines(keepends=True)
                   if not line.startswith("Time needed"))


def dealt(dealer: str, script: str, seed: int) -> subprocess.CompletedProcess[str]:
    return run_dealer(dealer, script, "-s", str(seed))


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.dpp")))
def test_examples_give_the_same_deals_as_perl(example: str, dealer_bin: str,
                                              perl_dpp_bin: str) -> None:
    text = (EXAMPLES / example).read_text()
    ours = dealt(dealer_bin, preprocess(text, example), 1)
    assert ours.returncode == 0, ours.stderr
    assert "Produced" in ours.stdout or "Frequency" in ours.stdout
    perls = dealt(dealer_bin, run_perl_dpp(perl_dpp_bin, text), 1)
    if example in PERL_CANNOT:
        assert perls.returncode != 0 or deals_only(perls.stdout) != deals_only(ours.stdout)
    else:
        assert deals_only(ours.stdout) == deals_only(perls.stdout)


def _perl_right_expressions(count: int, seed: int) -> list[str]:
    """Generated expressions on which the Perl tool's list means exactly the
    oracle's set (all 560 shapes), found by asking the Perl tool."""
    rng = random.Random(seed)
    cases = [_expression(rng) for _ in range(count)]
    cases = [(t, s) for t, s in cases if s and not _over_thirteen(t)]  # empty: Perl writes shape(north,)
    lists = _perl_sets("/usr/games/dealer.dpp", [t for t, _ in cases])
    right = []
    for (text, oracle), perl_list in zip(cases, lists, strict=True):
        try:
            if perl_list is not None and read_dealer_list(perl_list) == oracle:
                right.append(text)
        except ValueError:
            pass
    return right


@pytest.mark.slow
def test_generated_corpus_gives_the_same_deals_as_perl(dealer_bin: str,
                                                       perl_dpp_bin: str) -> None:
    expressions = _perl_right_expressions(150, seed=11)
    assert len(expressions) >= 40
    rng = random.Random(5)
    scripts = []
    while len(scripts) < 200:
        a, b = rng.choice(expressions), rng.choice(expressions)
        scripts.append(
            f"generate 3000\nproduce 3\n"
            f"a = shape{{north, {a}}}\nb = shape{{south, {b}}}\n"
            f"condition a {rng.choice(['||', '&&'])} b\naction printoneline\n")
    produced = 0
    for seed, script in enumerate(scripts, 1):
        ours = dealt(dealer_bin, preprocess(script), seed)
        perls = dealt(dealer_bin, run_perl_dpp(perl_dpp_bin, script), seed)
        assert ours.returncode == perls.returncode == 0, (script, ours.stderr, perls.stderr)
        assert deals_only(ours.stdout) == deals_only(perls.stdout), script
        produced += ours.stdout.count("\nn ") + ours.stdout.startswith("n ")
    assert produced > 100  # the scripts really deal, not only reject


@pytest.mark.parametrize("name", sorted(p.name for p in DEALER_EXAMPLES.glob("Descr.*"))
                         if DEALER_EXAMPLES.exists() else ["Descr.(missing)"])
def test_debian_examples_come_out_byte_identical(name: str, dealer_bin: str) -> None:
    data = (DEALER_EXAMPLES / name).read_bytes()
    text = data.decode("utf-8", errors="surrogateescape")
    assert preprocess(text, name).encode("utf-8", errors="surrogateescape") == data


# --- what the Perl tool gets wrong comes out right ---------------------------

def hands(output: str, seat: str) -> list[tuple[int, int, int, int]]:
    """Suit lengths of one seat in printoneline output."""
    found = []
    for match in re.finditer(rf"\b{seat} (\S+)\.(\S*)\.(\S*)\.(\S*)", output):
        spades, hearts, diamonds, clubs = (match.group(i) for i in range(1, 5))
        found.append(tuple(len(x) for x in (spades, hearts, diamonds, clubs)))
    return found


def test_multiline_shape(dealer_bin: str, perl_dpp_bin: str) -> None:
    script = ("generate 200000\nproduce 12\n"
              "u = shape{west,\n   5+d5+c(xx)           # both minors\n"
              " + 6+d4c(xx):s<3,h<3     # six-four\n}\n"
              "condition u\naction printoneline\n")
    ours = dealt(dealer_bin, preprocess(script), 3)
    assert ours.returncode == 0, ours.stderr
    west = hands(ours.stdout, "w")
    assert len(west) == 12
    meaning = expand("5+d5+c(xx) + 6+d4c(xx):s<3,h<3")
    assert all(h in meaning for h in west)
    assert dealt(dealer_bin, run_perl_dpp(perl_dpp_bin, script), 3).returncode != 0


def test_tight_plus_is_an_error_not_an_empty_list(perl_dpp_bin: str) -> None:
    script = "a = shape{north, 4432+5332}\n"
    assert "shape(north,)" in run_perl_dpp(perl_dpp_bin, script)
    done = subprocess.run([our_script("dealerpp"), "-"], input=script, capture_output=True,
                          text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert "<stdin>:1:18: error:" in done.stderr and "4432 + 5332" in done.stderr
    # and the spaced form is the union
    union = preprocess("a = shape{north, 4432 + 5332}\n")
    assert read_dealer_list(union[len("a = shape(north, "):-2]) == expand("(4432)") - expand(
        "(4432)") | ShapeSet.of(["4432", "5332"])


def test_a_shape_of_twelve_cards_is_an_error_as_dealer_says(dealer_bin: str) -> None:
    # dealer itself refuses the pattern; so do preprocessing, check and run,
    # with the caret under it (it used to be a warning, and run dealt nothing).
    refused = run_dealer(dealer_bin, "condition shape(north, 3333)\n", "-s", "1")
    assert refused.returncode != 0 and "wrong number of cards" in refused.stderr
    script = "generate 1000\nx = shape{north, 3333}\ncondition x\n"
    for command in ([], ["check", "--dpp"], ["run"]):
        done = subprocess.run([our_script("dealerpp"), *command, "-"], input=script,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 1 and done.stdout == "", command
        assert done.stderr.startswith(
            "<stdin>:2:18: error: the exact lengths total 12 cards, fewer than 13\n"
            "x = shape{north, 3333}\n"
            "                 ^\n"), command


def test_ten_card_suits_are_included(dealer_bin: str, perl_dpp_bin: str) -> None:
    script = ("generate 1000\nproduce 5\npredeal north SAKQJT98765\n"
              "condition shape{north, 5+xxx}\naction printoneline\n")
    ours = dealt(dealer_bin, preprocess(script), 1)
    assert "Produced 5 hands" in ours.stdout
    assert all(h[0] >= 10 for h in hands(ours.stdout, "n"))
    perls = dealt(dealer_bin, run_perl_dpp(perl_dpp_bin, script), 1)
    assert "Produced 0 hands" in perls.stdout  # Perl stops at 9 cards


def test_hash_inside_a_string(dealer_bin: str, perl_dpp_bin: str) -> None:
    script = 'generate 10\nproduce 1\naction printes("a # b", \\n)\n'
    ours = dealt(dealer_bin, preprocess(script), 1)
    assert ours.returncode == 0 and "a # b" in ours.stdout
    assert dealt(dealer_bin, run_perl_dpp(perl_dpp_bin, script), 1).returncode != 0


def test_trailing_hash_comments(dealer_bin: str, perl_dpp_bin: str) -> None:
    script = ("generate 1000   # deals to try\nproduce 3   # to keep\n"
              "condition shape{north, 5+M(xxx)}   # a major\naction printoneline\n")
    assert dealt(dealer_bin, script, 1).returncode != 0  # dealer itself rejects them
    ours = dealt(dealer_bin, preprocess(script), 1)
    assert ours.returncode == 0
    perls = dealt(dealer_bin, run_perl_dpp(perl_dpp_bin, script), 1)
    assert deals_only(ours.stdout) == deals_only(perls.stdout)
