"""One error for a problem at an offset of a piece of text (TextProblem):
the PBN lexer, the deal string, auction and play sections, the hex and csv
decoders raise it with its offset and kind, and no caller reads a message."""

from __future__ import annotations

import re

import pytest

from dealerpp.deals import loads
from dealerpp.deals.formats import hex as hex26
from dealerpp.deals.formats import pbn
from dealerpp.deals.formats.pbn.checks import NOT_A_CALL, NOT_A_CARD, parse_deal
from dealerpp.deals.formats.pbn.lexer import tokens
from dealerpp.deals.model import Seat, Strain
from dealerpp.diagnostics import DppError, TextProblem
from tests.conftest import PROJECT_ROOT

DEAL = "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"


def problem_of(parse: object, text: str) -> TextProblem:
    with pytest.raises(TextProblem) as caught:
        parse(text)  # type: ignore[operator]
    return caught.value


def test_the_lexer_names_the_offset() -> None:
    text = '[Deal "N:AK'
    found = problem_of(tokens, text)
    assert text[found.offset] == '"' and found.kind is None


def test_a_deal_string_names_the_offending_character() -> None:
    text = DEAL.replace("Q32", "Q3X")
    found = problem_of(parse_deal, text)
    assert text[found.offset] == "X" and "rank" in found.message
    assert isinstance(found, ValueError)  # as Deal.from_pbn's callers catch it


@pytest.mark.parametrize(("parse", "text", "word", "kind"), [
    (pbn.parse_auction, "1C Pass 1Z Pass", "1Z", NOT_A_CALL),
    (lambda text: pbn.parse_play(text, Seat.WEST, Strain.NOTRUMP), "SA S2 SX S5", "SX",
     NOT_A_CARD),
])
def test_a_section_names_the_word_that_is_no_call_or_card(parse: object, text: str, word: str,
                                                          kind: str) -> None:
    found = problem_of(parse, text)
    assert found.kind == kind
    assert text[found.offset:found.offset + len(word)] == word


def test_a_rule_broken_in_an_auction_is_no_error_of_the_section() -> None:
    # an insufficient bid is a warning of the reader, not a word that is no call
    assert len(pbn.parse_auction("1S 1H Pass")) == 3


@pytest.mark.parametrize(("line", "column"), [
    ("EBC121949260D42D8E9BBF7C1G", 26), ("EBC121949260D42D8E9BBF7C1", 26),
    ("  EBC121949260D42D8E9BBF7C17-Z", 30),
])
def test_hex_errors_point_at_the_character(line: str, column: int) -> None:
    assert isinstance(problem_of(hex26.decode, line.strip()), TextProblem)
    with pytest.raises(DppError) as caught:
        loads(line + "\n", "hex")
    assert (caught.value.line, caught.value.column) == (1, column)


def test_csv_errors_point_at_the_character() -> None:
    line = '"AK",x\n'
    with pytest.raises(DppError) as caught:
        loads(line, "csv")
    assert caught.value.column == line.index("x") + 1  # a field must be quoted


def test_no_code_reads_a_message_back() -> None:
    """Kinds and offsets are fields: no source decides by a message's words
    or unpacks positions from an error's arguments."""
    pattern = re.compile(r"""message\.startswith|\.startswith\("not a|error\.args|bad\.args""")
    for path in (PROJECT_ROOT / "dealerpp").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not pattern.search(text), path
        assert not re.search(r"\b(LexError|DealProblem|PbnSyntax)\b", text), path
