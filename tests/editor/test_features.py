"""Hover, completion, go to definition, references, symbols and quick fixes,
asked of the real server as an editor asks them."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from dealerpp.shapes.dealer_list import read_dealer_list
from dealerpp.shapes.shapeset import ShapeSet
from tests.editor.lsp_client import Client, at, span

URI = "file:///home/player/scripts/features.dpp"
SCRIPT = """\
generate 100000
// North opens 1NT
n1nt = hcp(north) >= 15 && hcp(north) <= 17 && shape{north, (4333) + (4432) + (5332) - 5M(xxx)}
fivecard = shape{south, 5+M(xxx)}
lead = shape(west, any 4432 + 5xxx)
both = fivecard || shape{south, (4333)}
mixed = fivecard && n1nt
condition n1nt && fivecard
action printoneline, average "hcp" hcp(south)
"""


def all_shapes() -> list[tuple[int, int, int, int]]:
    return [(s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s)
            for d in range(14 - s - h)]


def chance(shapes: set[tuple[int, int, int, int]]) -> Fraction:
    """The probability of a hand with one of ``shapes``, counted from first principles."""
    hands = sum(comb(13, s) * comb(13, h) * comb(13, d) * comb(13, c) for s, h, d, c in shapes)
    return Fraction(hands, comb(52, 13))


def balanced_not_five_major(shape: tuple[int, int, int, int]) -> bool:
    return sorted(shape) in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]) and max(shape[:2]) < 5


def opened(server: Client, text: str = SCRIPT, uri: str = URI) -> None:
    server.open(uri, text)
    server.diagnostics(uri)


def position_of(text: str, needle: str, shift: int = 0) -> dict[str, int]:
    offset = text.index(needle) + shift
    line = text.count("\n", 0, offset)
    return at(line, offset - (text.rfind("\n", 0, offset) + 1))


def hover(server: Client, needle: str, shift: int = 0) -> Any:
    return server.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                 "position": position_of(SCRIPT, needle, shift)})


def fraction_in(text: str) -> Fraction:
    shown = text.split("probability ")[1].split(" ")[0]
    return Fraction(shown)


def dealer_list_in(text: str) -> tuple[str, ShapeSet]:
    call = text.split("```dealer\n")[1].split("\n```")[0]
    seat, _, listing = call[len("shape("):-1].partition(", ")
    return seat, read_dealer_list(listing)


# -- hover --------------------------------------------------------------------------------

def test_hover_on_a_shape_block_gives_its_list_count_and_probability(server: Client) -> None:
    opened(server)
    answer = hover(server, "shape{north", 3)
    text = answer["contents"]["value"]
    expected = {s for s in all_shapes() if balanced_not_five_major(s)}
    seat, listed = dealer_list_in(text)  # read back by dealer's rules
    assert seat == "north" and {tuple(s) for s in listed} == expected
    assert f"{len(expected)} shapes" in text
    assert fraction_in(text) == chance(expected)
    assert answer["range"]["start"] == position_of(SCRIPT, "shape{north")


def test_hover_on_a_shape_call_reads_dealers_list(server: Client) -> None:
    opened(server)
    text = hover(server, "shape(west", 2)["contents"]["value"]
    expected = {s for s in all_shapes() if sorted(s) == [2, 3, 4, 4] or s[0] == 5}
    assert f"{len(expected)} shapes" in text and fraction_in(text) == chance(expected)


def test_hover_on_a_variable_shows_its_definition_and_probability(server: Client) -> None:
    opened(server)
    text = hover(server, "both = ")["contents"]["value"]
    assert "both = fivecard || shape{south, (4333)}" in text and "line 6" in text
    expected = {s for s in all_shapes() if max(s[:2]) >= 5 or sorted(s) == [3, 3, 3, 4]}
    assert fraction_in(text) == chance(expected)
    # A use, not only the definition, and a variable with more than shapes in it.
    text = hover(server, "mixed = fivecard", len("mixed = "))["contents"]["value"]
    assert "fivecard = shape{south, 5+M(xxx)}" in text
    text = hover(server, "mixed")["contents"]["value"]
    assert "fivecard && n1nt" in text and "probability" not in text


def test_hover_on_a_word_says_what_it_means(server: Client) -> None:
    opened(server)
    assert "high-card points" in hover(server, "hcp(south)")["contents"]["value"]
    assert "one line" in hover(server, "printoneline")["contents"]["value"]
    assert "keep a deal" in hover(server, "condition")["contents"]["value"]
    assert hover(server, "North opens") is None  # in a comment


# -- completion ---------------------------------------------------------------------------

def complete(server: Client, text: str, uri: str = URI,
             capabilities_snippets: bool = True) -> dict[str, Any]:
    """The items offered at the end of ``text``, by label."""
    server.open(uri, text)
    lines = text.split("\n")
    found = server.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": at(len(lines) - 1, len(lines[-1]))})
    items = found["items"] if isinstance(found, dict) else found
    return {item["label"]: item for item in items}


def test_statements_at_the_start_of_a_statement(server: Client) -> None:
    offered = complete(server, "generate 1000\ncond")
    assert {"condition", "action", "produce", "dealer", "predeal"} <= set(offered)
    assert "hcp" not in offered
    edit = offered["condition"]["textEdit"]
    assert edit["range"] == span(1, 0, 1, 4) and edit["newText"] == "condition"


def test_seats_after_hcp_and_suits_after_the_seat(server: Client) -> None:
    assert set(complete(server, "x = hcp(")) == {"north", "east", "south", "west"}
    assert set(complete(server, "x = hcp(north, ")) == {"spades", "hearts", "diamonds", "clubs"}
    assert "notrump" in complete(server, "x = tricks(south, ")
    assert set(complete(server, "dealer ")) == {"north", "east", "south", "west"}


EXPRESSION = "opener = hcp(north) > 11\nresponder = hcp(south) > 5\ncondition opener && "


def test_functions_variables_and_the_shape_snippet_in_an_expression(server: Client) -> None:
    offered = complete(server, EXPRESSION)
    assert {"hcp", "loser", "spades", "shape", "opener", "responder", "shape{}"} <= set(offered)
    assert "condition" not in offered
    # This client takes no snippets: plain text.
    assert offered["shape{}"]["insertTextFormat"] == 1
    assert offered["shape{}"]["textEdit"]["newText"] == "shape{north, }"
    assert offered["hcp"]["textEdit"]["newText"] == "hcp("


def test_a_client_that_takes_snippets_gets_them(negotiated: Client) -> None:
    offered = complete(negotiated, EXPRESSION)
    snippet = offered["shape{}"]
    assert snippet["insertTextFormat"] == 2
    assert snippet["textEdit"]["newText"].startswith("shape{${1|north,east,south,west|}")
    assert offered["hcp"]["textEdit"]["newText"] == "hcp($1)"


def test_no_variable_before_its_definition(server: Client) -> None:
    offered = complete(server, "x = hcp(north)\ny = ")
    assert "x" in offered and "y" not in offered


def test_actions_in_an_action_list(server: Client) -> None:
    offered = complete(server, "action printoneline, ")
    assert {"printall", "average", "frequency", "printes"} <= set(offered)


def test_nothing_in_a_comment(server: Client) -> None:
    assert complete(server, "x = 1 // hcp(") == {}


# -- definition, references, symbols ------------------------------------------------------

def test_definition_and_references(server: Client) -> None:
    opened(server)
    where = position_of(SCRIPT, "n1nt && fivecard", 1)
    found = server.request("textDocument/definition",
                           {"textDocument": {"uri": URI}, "position": where})
    assert [f["range"]["start"] for f in found] == [at(2, 0)]
    found = server.request("textDocument/references", {
        "textDocument": {"uri": URI}, "position": where, "context": {"includeDeclaration": True}})
    starts = sorted((f["range"]["start"]["line"], f["range"]["start"]["character"]) for f in found)
    # Written by hand: the definition on line 2, the uses on lines 6 and 7.
    assert starts == [(2, 0), (6, 20), (7, 10)]
    found = server.request("textDocument/references", {
        "textDocument": {"uri": URI}, "position": where, "context": {"includeDeclaration": False}})
    assert len(found) == 2


def test_document_symbols(server: Client) -> None:
    opened(server)
    found = server.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    assert [(s["name"], s["kind"]) for s in found] == [
        ("n1nt", 13), ("fivecard", 13), ("lead", 13), ("both", 13), ("mixed", 13),
        ("condition", 24), ("action", 12)]
    assert found[0]["selectionRange"] == span(2, 0, 2, 4)


# -- quick fixes ---------------------------------------------------------------------------

def fixes_for(server: Client, uri: str, text: str) -> list[tuple[str, str, Any]]:
    """For each diagnostic: the quick fixes' new texts and ranges."""
    server.open(uri, text)
    found = server.diagnostics(uri)
    result = []
    for diagnostic in found:
        actions = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]}})
        for action in actions:
            (edit,) = action["edit"]["changes"][uri]
            result.append((action["kind"], edit["newText"], edit["range"]))
    return result


def test_quick_fixes(server: Client) -> None:
    uri = "file:///home/player/scripts/fixes.dl"
    assert fixes_for(server, uri, "dealr south\n") == [("quickfix", "dealer", span(0, 0, 0, 5))]
    assert fixes_for(server, uri, "x = hcp(north) # note\n") == [
        ("quickfix", "//", span(0, 15, 0, 16))]
    assert fixes_for(server, uri, "condition hcp(north) = 12\n") == [
        ("quickfix", "==", span(0, 21, 0, 22))]
    assert fixes_for(server, uri, "x = hcpp(north)\n") == [("quickfix", "hcp", span(0, 4, 0, 8))]
    assert fixes_for(server, uri, 'title "x"\ngenerate 10\n') == [
        ("quickfix", "// ", span(0, 0, 0, 0))]
    assert fixes_for(server, "file:///home/player/scripts/fixes.dpp",
                     "y = shape{North, 5xxx}\n") == [("quickfix", "north", span(0, 10, 0, 15))]
    opener = "opener = hcp(north) > 11\n"
    assert fixes_for(server, uri, f"{opener}condition openr\n") == [
        ("quickfix", "opener", span(1, 10, 1, 15))]


def test_or_used_as_a_number_becomes_a_sum(server: Client) -> None:
    uri = "file:///home/player/scripts/points.dl"
    text = ("lp1 = spades(south) > 4 ? spades(south) - 4 : 0\n"
            "lp2 = hearts(south) > 4 ? hearts(south) - 4 : 0\n"
            "lp = lp1 or lp2\n"
            "i = hcp(south) + lp\n"
            "condition i > 12\n")
    server.open(uri, text)
    found = [d for d in server.diagnostics(uri) if d.get("code") == "truth-as-number"]
    assert found, "check no longer says a truth value is used as a number here"
    actions = server.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": found[0]["range"],
        "context": {"diagnostics": found[:1]}})
    (edit,) = actions[0]["edit"]["changes"][uri]
    assert (edit["newText"], edit["range"]) == ("+", span(2, 9, 2, 11))  # `or` on line 3


def test_the_or_fix_finds_the_one_or_behind_the_number() -> None:
    """fixes_at itself, for a diagnostic of check's code where check puts it
    (the start of the expression that uses the truth value)."""
    from dealerpp.editor.fixes import TRUTH_AS_NUMBER, fixes_at
    from dealerpp.editor.outline import Outline

    text = "lp = lp1 or lp2\ni = hcp(south) + lp\nj = (hcp(north) > 10 || x) + 1\n"
    outline = Outline(text)
    (fix,) = fixes_at(outline, text.index("hcp(south)"), TRUTH_AS_NUMBER)
    assert fix.edits == [(text.index("or"), text.index("or") + 2, "+")]
    (fix,) = fixes_at(outline, text.index("(hcp(north)"), TRUTH_AS_NUMBER)
    assert fix.edits == [(text.index("||"), text.index("||") + 2, "+")]
    two = Outline("a = b or c\nd = e or f\ng = a + d\n")
    assert fixes_at(two, two.text.index("a + d"), TRUTH_AS_NUMBER) == []  # which one? no guess


def test_a_chained_comparison_is_said_twice(server: Client) -> None:
    uri = "file:///home/player/scripts/chained.dl"
    text = "j = 10 <= hcp(north) <= 12\ncondition j\n"
    server.open(uri, text)
    found = [d for d in server.diagnostics(uri) if d.get("code") == "chained-comparison"]
    assert found, "check no longer reports this chained comparison"
    actions = server.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": found[0]["range"],
        "context": {"diagnostics": found[:1]}})
    (edit,) = actions[0]["edit"]["changes"][uri]
    assert (edit["newText"], edit["range"]) == ("&& hcp(north) ", span(0, 21, 0, 21))
    fixed = "j = 10 <= hcp(north) && hcp(north) <= 12\ncondition j\n"
    server.open("file:///home/player/scripts/chained_fixed.dl", fixed)
    assert [d for d in server.diagnostics("file:///home/player/scripts/chained_fixed.dl")
            if d.get("code") == "chained-comparison"] == []


def test_the_chained_comparison_fix_stops_at_the_expression() -> None:
    from dealerpp.editor.fixes import CHAINED_COMPARISON, fixes_at
    from dealerpp.editor.outline import Outline

    text = "x = a || (1 < b + c <= 9) && d == 1\n"
    outline = Outline(text)
    (fix,) = fixes_at(outline, text.index("1 <"), CHAINED_COMPARISON)
    where = text.index("<= 9")
    assert fix.edits == [(where, where, "&& b + c ")]
    assert fixes_at(outline, text.index("d =="), CHAINED_COMPARISON) == []  # one comparison
