"""dealerpp.generate: the real dealer's deals for a dealer.dpp script."""

from __future__ import annotations

import re
import subprocess

import pytest

import dealerpp
from dealerpp import DppError, deals, expand, generate, preprocess
from dealerpp.deals.model import Seat, Vul
from dealerpp.script import dealer as dealer_binary

SCRIPT = """\
generate 1000000
condition shape{north, 5+M(xxx)} and hcp(north) >= 11
action printall
"""


@pytest.mark.dealer
def test_same_seed_same_deals_as_dealer(dealer_bin: str) -> None:
    done = subprocess.run([dealer_bin, "-s", "7", "-p", "20"], input=preprocess(SCRIPT),
                          capture_output=True, text=True, check=True, timeout=60)
    expected = deals.loads(done.stdout, "printall")
    got = list(generate(SCRIPT, produce=20, seed=7))
    assert len(got) == 20
    assert [d.masks for d in got] == [d.masks for d in expected]
    majors = expand("5+M(xxx)")
    assert all(d.north.shape in majors and d.north.hcp >= 11 for d in got)


@pytest.mark.dealer
def test_a_caller_may_stop_early(dealer_bin: str) -> None:
    dealt = generate("produce 1000000\n", seed=1)
    first = [next(dealt) for _ in range(3)]
    dealt.close()  # dealer is stopped, not left dealing a million
    assert len(set(first)) == 3


def test_a_shape_error_has_its_position() -> None:
    with pytest.raises(DppError) as raised:
        generate("produce 3\ncondition shape{north, 5+M(xyz)}\n")
    assert (raised.value.line, raised.value.column) == (2, 29)


def test_a_script_error_has_its_position() -> None:
    with pytest.raises(DppError) as raised:
        generate("produce 3\ncondition hcp(north > 3\n", filename="s.dpp")
    assert raised.value.line == 2 and raised.value.filename == "s.dpp"


def test_no_dealer_says_what_run_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dealerpp.dealing.find_dealer", lambda: None)
    with pytest.raises(FileNotFoundError) as raised:
        generate("produce 1\n")
    assert str(raised.value) == dealer_binary.NOT_INSTALLED
    assert "apt-get install dealer" in str(raised.value)


def test_generate_is_a_top_level_name() -> None:
    assert dealerpp.generate is generate and "generate" in dealerpp.__all__


@pytest.mark.parametrize("produce", [0, 2**31, -1, True, 2.0])
def test_a_number_of_deals_dealer_would_not_deal_is_refused(produce: object) -> None:
    # dealer -p 0 deals its default 40, and -p 2147483648 (past a C int) none
    # at all: test_dealer_does_not_deal_such_numbers
    with pytest.raises(ValueError, match="produce must be a whole number from 1"):
        generate("produce 3\n", produce=produce)  # type: ignore[arg-type]
    assert generate("produce 3\n", produce=2**31 - 1) is not None  # dealer starts on next()


@pytest.mark.dealer
def test_dealer_does_not_deal_such_numbers(dealer_bin: str) -> None:
    def dealt(produce: int) -> int:
        done = subprocess.run([dealer_bin, "-s", "1", "-p", str(produce)],
                              input="condition hcp(north) > 3\naction printoneline\n",
                              capture_output=True, text=True, check=True, timeout=60)
        return len(deals.loads(done.stdout, "oneline"))

    assert (dealt(0), dealt(2**31), dealt(3)) == (40, 0, 3)


@pytest.mark.parametrize("name", ["examples/1nt_opening.dpp", "lesson.dpp"])
def test_a_file_name_given_as_the_script_says_how_to_give_a_path(name: str) -> None:
    with pytest.raises(DppError) as raised:
        generate(name)  # a str is the script's text, as for deals.loads
    assert raised.value.hint is not None and f"pathlib.Path({name!r})" in raised.value.hint
    with pytest.raises(DppError) as raised:
        generate("condition hcp(north) > \n")  # a script's own mistake: no such hint
    assert "pathlib" not in (raised.value.hint or "")


# dealer's own words for a script's settings, read from its printpbn tags
# (a regex here, not our PBN reader): what each generated deal must carry.
_SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_VULS = {"None": Vul.NONE, "NS": Vul.NS, "EW": Vul.EW, "All": Vul.BOTH}


@pytest.mark.dealer
@pytest.mark.parametrize("settings, said", [
    ("dealer south\nvulnerable NS\n", (True, True)),
    ("vulnerable all\n", (False, True)),
    ("dealer west\n", (True, False)),
    ("all EW\n", (False, True)),  # dealer reads a side word alone as `vulnerable EW`
    ("vulnerable none\ndealer east\nvulnerable EW\n", (True, True)),
    ("", (False, False)),
])
def test_deals_carry_the_dealer_and_vulnerability_the_script_sets(
        dealer_bin: str, settings: str, said: tuple[bool, bool]) -> None:
    script = settings + "condition hcp(north) > 9\n"
    done = subprocess.run([dealer_bin, "-s", "3", "-p", "4"], input=script + "action printpbn\n",
                          capture_output=True, text=True, check=True, timeout=60)
    tags = re.findall(r'\[Dealer "(\w)"\]\s*\[Vulnerable "(\w+)"\]', done.stdout)
    plain = subprocess.run([dealer_bin, "-s", "3", "-p", "4"], input=script + "action printoneline\n",
                           capture_output=True, text=True, check=True, timeout=60)
    got = list(generate(script, produce=4, seed=3))
    assert len(tags) == len(got) == 4
    assert [d.masks for d in got] == [d.masks for d in deals.loads(plain.stdout, "oneline")]
    for deal, (seat, vulnerability) in zip(got, tags, strict=True):
        assert deal.dealer == (_SEATS[seat] if said[0] else None)
        assert deal.vul == (_VULS[vulnerability] if said[1] else None)
        assert deal.board is None  # dealer numbers its printpbn games; the script did not
