"""The checker's scanner tries one terminal at a time on a short script and
compiled alternations on a long one (one of them all, or one for each start
character, as the dealer-script scanner does): all must cut the same tokens,
and the characters it skips terminals by must be the only ones they can start with."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from dealerpp.lalr.terminals import Terminals as Scanner
from dealerpp.lalr.terminals import literal_starts
from dealerpp.script import lexer
from tests.check.mutate import base_scripts

ALPHABET = [*"0123456789xXACDHJKNQST shdcnorpvwae(){}=+-*/%,;:?!<>&|\"#\n\r\t\\_", "north",
            "shape", "hcp", "vul", "ns", "printall", "AK", "x7N", "pt3", "top4", "c13", "and"]
TEXTS = st.lists(st.sampled_from(ALPHABET), max_size=30).map("".join)


def _fresh(union_after: int, by_start: bool = False) -> Scanner:
    return Scanner(lexer._scanner().terminals, union_after, by_start=by_start)


def _cuts(scanner: Scanner, text: str) -> list[tuple[str, int] | None]:
    """The scanner's answer at every position, and for every word of ``text``."""
    found: list[tuple[str, int] | None] = [scanner.match(text, at, len(text))
                                           for at in range(len(text))]
    found += [(scanner.kind_of(word) or "", 0) for word in re.findall(r"\w+", text)]
    return found


def _assert_starts_are_sound(text: str) -> None:
    for name, regexp in lexer._scanner().terminals:
        starts = literal_starts(regexp)
        if starts is None:
            continue
        pattern = re.compile(regexp)
        for at in range(len(text) + 1):
            if pattern.match(text, at) is not None:
                assert text[at:at + 1] in starts, (name, text[at:])


def test_every_way_cuts_the_corpus_alike() -> None:
    for text in base_scripts().values():
        one_at_a_time = _cuts(_fresh(10**9), text)
        assert one_at_a_time == _cuts(_fresh(0), text) == _cuts(_fresh(0, by_start=True), text)
        assert one_at_a_time == _cuts(_fresh(5, by_start=True), text)


@given(TEXTS)
def test_every_way_cuts_random_text_alike(text: str) -> None:
    one_at_a_time = _cuts(_fresh(10**9), text)
    assert one_at_a_time == _cuts(_fresh(0), text) == _cuts(_fresh(0, by_start=True), text)
    assert one_at_a_time == _cuts(_fresh(3, by_start=True), text)


def test_the_script_scanner_compiles_by_start_character() -> None:
    scanner = _fresh(0, by_start=True)
    assert scanner.kind_of("v1") == "IDENT" and scanner.kind_of("vul") == "VULN"
    assert scanner.match("a == b", 2, 6) == ("EQ", 4) and scanner.match("a = b", 2, 5) == ("EQUAL", 3)
    assert scanner.union is None  # no alternation of every terminal was made


def test_a_terminal_starts_only_with_its_start_characters_on_the_corpus() -> None:
    for text in list(base_scripts().values())[:6]:
        _assert_starts_are_sound(text)


@given(TEXTS)
def test_a_terminal_starts_only_with_its_start_characters(text: str) -> None:
    _assert_starts_are_sound(text)


def test_literal_starts_reads_alternatives_groups_and_classes() -> None:
    assert literal_starts(r"(club|spade)s?(?![a-z])") == frozenset("cs")
    assert literal_starts(r"!(?!=)|not\b") == frozenset("!n")
    assert literal_starts(r"[C-E]x|\-") == frozenset("CDE-")
    for unclear in (r"a?b", r"(?i)x", r"[^x]", r"\d+", r"x|", r"[0-9]{4}", r"(a|b?)*c"):
        assert literal_starts(unclear) is None, unclear
