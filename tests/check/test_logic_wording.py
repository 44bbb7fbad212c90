"""How the logic findings say why (findings.py): the reason given must be
the one that decides, a fact a reader can check without the analysis."""

from __future__ import annotations

import pytest

from dealerpp.script.check import check_text


def why(condition: str) -> str:
    (finding,) = [d for d in check_text(f"condition {condition}\n", "t.dl")
                  if d.code == "never-holds"]
    return finding.message.split(" can never hold")[1]


@pytest.mark.parametrize(("condition", "reason"), [
    # No one value is out of its range: the total that ties them is why
    # (40 HCP a deal, 13 cards a hand, 13 cards a suit, 12 controls a deal).
    ("hcp(north) + hcp(south) > 40", ": a deal holds 40 hcp points"),
    ("hcp(north) + hcp(south) + hcp(east) > 40", ": a deal holds 40 hcp points"),
    ("spades(north) + hearts(north) > 13", ": a hand has 13 cards"),
    ("spades(north) + hearts(north) + diamonds(north) > 13", ": a hand has 13 cards"),
    ("spades(north) + spades(south) > 13", ": a suit has 13 cards"),
    ("controls(north) + controls(west) > 12", ": a deal holds 12 control points"),
    # One value, or values no one total ties: their ranges are why.
    ("hcp(north) > 37", ": hcp(north) is 0 to 37"),
    ("hcp(north) + controls(north) > 49", ": hcp(north) is 0 to 37; control(north) is 0 to 12"),
    # A difference the ranges decide, tied or not (hcp(north) is 37 at most:
    # the deal's 40 is not why); a constant added, the total still is.
    ("hcp(north) - hcp(south) > 37", ": hcp(north) is 0 to 37; hcp(south) is 0 to 37"),
    ("spades(north) - spades(south) > 13", ": spades(north) is 0 to 13; spades(south) is 0 to 13"),
    ("hcp(north) + hcp(south) + 1 > 41", ": a deal holds 40 hcp points"),
])
def test_a_sum_that_never_holds_names_what_decides(condition: str, reason: str) -> None:
    assert why(condition) == reason


@pytest.mark.parametrize(("condition", "reason"), [
    # A truth value taken as a number: its 1 or 0 is why, not the ranges of
    # what it compares (nor, for two comparisons of HCP, the deal's 40).
    ("(hcp(north) > 10) + (hcp(south) > 10) > 2", ": a comparison gives 1 or 0"),
    ("(spades(north) > 4) * 3 > 5", ": a comparison gives 1 or 0"),
    ("shape(north, any 4333) == 2", ": shape() gives 1 or 0"),
    ("shape(north, any 4333) * 5 > 5", ": shape() gives 1 or 0"),
    ("hascard(north, AS) > 1", ": hascard() gives 1 or 0"),
])
def test_a_truth_value_taken_as_a_number_is_named_as_why(condition: str, reason: str) -> None:
    assert why(condition) == reason


@pytest.mark.parametrize(("condition", "reason"), [
    # hcp(south) is 37 at most: the sum never reaches 50 whatever the
    # comparison gave (it said 'a comparison gives 1 or 0')
    ("(hcp(north) > 10) + hcp(south) > 50", ": hcp(north) is 0 to 37; hcp(south) is 0 to 37"),
    ("shape(north, any 4333) + hcp(north) > 45", ": hcp(north) is 0 to 37"),
])
def test_a_truth_value_beside_a_value_that_decides_is_not_named(condition: str,
                                                                 reason: str) -> None:
    assert why(condition) == reason


@pytest.mark.parametrize(("condition", "code"), [
    # parenthesised operands at both ends: the ')' of the first and the '('
    # of the last balance in number, not in order (it quoted
    # '37 - controls(east)) < controls(north' and hinted
    # 'write 'hcp(north) + 1) < hcp(south and ...')
    ("(37 - controls(east)) < controls(north)", "never-holds"),
    ("(hcp(north) + 40) < (hcp(south) - 1)", "never-holds"),
    ("(hcp(north) + 1) < hcp(south) < (hcp(east) + 2)", "chained-comparison"),
])
def test_an_expression_ended_by_parenthesised_operands_is_quoted_as_written(
        condition: str, code: str) -> None:
    (finding,) = [d for d in check_text(f"condition {condition} || hcp(west) > 3\n", "t.dl")
                  if d.code == code]
    assert f"'{condition}'" in finding.message
    if finding.hint is not None:  # each side of the pair to write as written
        assert "'(hcp(north) + 1) < hcp(south) and hcp(south) < " in finding.hint


@pytest.mark.parametrize(("condition", "reading"), [
    # `not` takes the parenthesised operation whole (it said
    # '(not hcp(north) + 1) > 20', which is (not hcp(north)) + 1)
    ("not (hcp(north) + 1) > 20", "'(not (hcp(north) + 1)) > 20'"),
    ("!(hcp(north) * 2) == 3", "'(not (hcp(north) * 2)) == 3'"),
    ("!(hcp(north) > 3 ? 5 : 6) == 3", "'(not (hcp(north) > 3 ? 5 : 6)) == 3'"),
    ("!hcp(north) > 3", "'(not hcp(north)) > 3'"),
    ("!(hcp(north)) > 3", "'(not hcp(north)) > 3'"),
])
def test_not_binding_tighter_shows_dealers_reading_with_the_operands_parentheses(
        condition: str, reading: str) -> None:
    (finding,) = [d for d in check_text(f"condition {condition}\n", "t.dl")
                  if d.code == "not-binds-tighter"]
    assert f" as {reading}: " in finding.message
