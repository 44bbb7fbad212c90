"""check on real scripts (issue 27): the 73 Practice-Bidding-Scenarios
scripts, the 20 DealerV2 examples and Debian's own Descr.* (read where they
are, never copied here).

Debian's dealer accepts every one of them (`dealer -g 3` exits 0), so check
must report no error there. Its warnings must be exactly the slips listed
below, each confirmed with dealer (the never-holds ones in
test_logic.test_what_the_corpus_slips_never_do_dealer_never_does, the rest
here) and by a second reader: a Lark parse of dealer.lark with a small
analysis of its own (no code of check's), which finds the and-chains whose
ranges on one value leave nothing and the `and`/`or` of numbers used as a
number. Whatever that reader finds, check must flag on the same line.
"""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import pytest

from dealerpp.script.check import check_text
from tests.conftest import DEALER_EXAMPLES

from . import recovery_corpus as rc
from .test_logic import dealer_finds

SCRIPTS = rc.REAL_SCRIPTS.parent  # dealer-scripts/: pbs/ and dealerv2/

# The logic slips, (file, line, code): the lengthPoints of the imported 1NT
# definition (`lp1 or lp2 or lp3 or lp4`, added and compared), `aS and kS`
# with aS = sCs==2 and kS = sCs==1, `(oC and clubs(north))>4`, two HCP
# ranges joined by `and`, `wD or wH or wS or wC` with wC = not (wS or wH or
# wD), and dealer's own `(diamonds(west)==clubs(west))==4`.
SLIPS = sorted([
    *[(name, line, "truth-as-number") for name, line in (
        ("pbs/1N-S.dlr", 25), ("pbs/1N.dlr", 25), ("pbs/1N_5M_and_6m.dlr", 28),
        ("pbs/Jacoby_Transfer.dlr", 25), ("pbs/d3__1N.dlr", 30)) for _ in (1, 2)],
    *[("pbs/3N_over_LHO_3x-W.dlr", line, "never-holds") for line in (70, 71, 72, 73)],
    *[("pbs/3N_over_RHO_3x-E.dlr", line, "never-holds") for line in (65, 66, 67, 68)],
    ("pbs/After_Opp_Overcalls-S.dlr", 70, "truth-as-number"),
    ("pbs/After_Opp_Overcalls-S.dlr", 101, "always-holds"),
    ("pbs/Negative_Double.dlr", 83, "always-holds"),
    ("pbs/Bergen_Raises-N.dlr", 19, "never-holds"),
    ("dealerv2/dv2-you_hold.dli", 16, "chained-comparison"),
    ("examples/Descr.you_hold", 16, "chained-comparison"),
])
# The warnings check gave before the logic analysis (the issue's "today's
# 15" on the PBS scripts, each confirmed by running dealer), and three on
# the DealerV2 examples: nothing may be added to them.
EOF_CHARACTERS = "dealer prints the characters E, O, F, < and > of a /* */ comment"
OTHER_WARNINGS = sorted([
    *[(f"pbs/{name}", line, EOF_CHARACTERS) for name, line in (
        ("1M-3N_Picture_Bid.dlr", 15), ("1m-2H.dlr", 13), ("3N_Rebid_by_Opener.dlr", 12),
        ("Anything_Goes.dlr", 10), ("Basic_What_To_Open.dlr", 11), ("Bids.dlr", 10),
        ("CRASH.dlr", 13), ("Choice_Of_Finesses.dlr", 11), ("bc__Competitive_Doubles.dlr", 12),
        ("bc__Mathe.dlr", 13), ("bc__NT_Ladder.dlr", 13), ("bc__Open_and_Rebid.dlr", 12),
        ("d3__Resp_to_1C.dlr", 9))],
    ("pbs/1C_WalshStyle.dlr", 170, "this action replaces the one on line 169"),
    ("pbs/After_Opp_Overcalls-S.dlr", 131, "this condition replaces the one on line 128"),
    ("dealerv2/dv2-CountRedefine.dli", 7, "in this dealer, altcount 1 changes what control()"),
    ("dealerv2/dv2-CountRedefine.dli", 8, "in this dealer, altcount 0 changes what hcp()"),
    ("dealerv2/dv2-misfit.dli", 8, "this condition replaces the one on line 3"),
])

needs_corpus = pytest.mark.skipif(
    not (SCRIPTS / "pbs").exists() or not (SCRIPTS / "dealerv2").exists()
    or not DEALER_EXAMPLES.exists(), reason="the real-script corpus is not here")


def real_scripts() -> list[tuple[str, Path]]:
    found = [(f"pbs/{p.name}", p) for p in sorted((SCRIPTS / "pbs").glob("*.dlr"))]
    found += [(f"dealerv2/{p.name}", p) for p in sorted((SCRIPTS / "dealerv2").glob("*.dli"))]
    found += [(f"examples/{p.name}", p) for p in sorted(DEALER_EXAMPLES.glob("Descr.*"))]
    return found


@cache
def findings() -> list[tuple[str, int, str, str | None, str]]:
    return [(name, d.line or 0, d.severity, d.code, d.message)
            for name, path in real_scripts()
            for d in check_text(path.read_text(errors="surrogateescape"), str(path))]


@pytest.mark.slow
@needs_corpus
def test_the_corpus_is_all_here() -> None:
    names = [name for name, _ in real_scripts()]
    assert sum(name.startswith("pbs/") for name in names) == 73
    assert sum(name.startswith("dealerv2/") for name in names) == 20
    assert sum(name.startswith("examples/") for name in names) >= 16


@pytest.mark.slow
@needs_corpus
def test_no_error_and_no_warning_but_the_real_slips() -> None:
    found = findings()
    assert [f for f in found if f[2] != "warning"] == []
    assert sorted((name, line, code) for name, line, _, code, _ in found
                  if code is not None) == SLIPS
    others = sorted((name, line, message) for name, line, _, code, message in found
                    if code is None)
    assert len(others) == len(OTHER_WARNINGS)
    for (name, line, message), expected in zip(others, OTHER_WARNINGS, strict=True):
        assert (name, line) == expected[:2] and message.startswith(expected[2]), (
            (name, line, message), expected)


@pytest.mark.slow
@pytest.mark.dealer
@needs_corpus
def test_dealer_accepts_every_real_script(dealer_bin: str, tmp_path: Path) -> None:
    refused = []
    for name, path in real_scripts():
        done = subprocess.run([dealer_bin, "-s", "1", "-g", "3", "-p", "1", str(path)],
                              capture_output=True, timeout=60, cwd=tmp_path)
        if done.returncode != 0:
            refused.append((name, done.returncode))
    assert refused == []


@pytest.mark.slow
@needs_corpus
def test_what_a_second_reader_finds_check_flags() -> None:
    from tests.check import second_reader

    flagged = {(name, line) for name, line, _, code, _ in findings() if code is not None}
    seen = [(name, first, last) for name, path in real_scripts()
            for first, last in second_reader.slips(path.read_text(errors="surrogateescape"))]
    assert len(seen) >= 15  # it finds the slips listed above, so it does work
    missed = [(name, first, last) for name, first, last in seen
              if not any((name, line) in flagged for line in range(first, last + 1))]
    assert missed == []


@pytest.mark.dealer
@pytest.mark.parametrize(("truth", "number"), [
    # lengthPoints = lp1 or lp2 or lp3 or lp4: 1 at most, where the sum is more.
    ("(spades(south) > 4 ? spades(south) - 4 : 0) or (hearts(south) > 4 ? hearts(south) - 4 : 0)",
     "(spades(south) > 4 ? spades(south) - 4 : 0) + (hearts(south) > 4 ? hearts(south) - 4 : 0)"),
    # (oC and clubs(north)) > 4: never, where clubs(north) alone is.
    ("hcp(south) > 11 and clubs(north)", "clubs(north)"),
])
def test_dealer_gives_1_or_0_for_and_and_or_of_numbers(dealer_bin: str, truth: str,
                                                       number: str) -> None:
    assert dealer_finds(dealer_bin, f"({truth}) > 1", 100_000) == 0
    assert dealer_finds(dealer_bin, f"({number}) > 1", 100_000) == 1


@pytest.mark.dealer
def test_dealer_never_fails_the_tautology_of_the_overcall_scripts(dealer_bin: str) -> None:
    """wS, wH, wD as After_Opp_Overcalls and Negative_Double define them from
    west's suit lengths, and wC = not (wS or wH or wD): `wD or wH or wS or
    wC` holds on every deal."""
    s, h, d, c = (f"{suit}(west)" for suit in ("spades", "hearts", "diamonds", "clubs"))
    w_s = f"({s}>={h} and {s}>={d} and {s}>={c})"
    w_h = f"(not {w_s} and {h}>={d} and {h}>={c})"
    w_d = f"(not ({w_s} or {w_h}) and ({d}>={c} or {c}==3))"
    w_c = f"(not ({w_s} or {w_h} or {w_d}))"
    assert dealer_finds(dealer_bin, f"not ({w_d} or {w_h} or {w_s} or {w_c})", 100_000) == 0
    assert dealer_finds(dealer_bin, f"not ({w_d} or {w_h} or {w_s})", 100_000) == 1
