"""Real dealer: its print actions read back as the same deals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dealerpp import deals
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.formats import _dealer_output as dealer_output
from dealerpp.deals.formats import pbn

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def run_dealer(dealer: str, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([dealer, *args], input=script, capture_output=True, text=True,
                          timeout=120)


pytestmark = pytest.mark.dealer

COUNT = 1000


def _output(dealer: str, action: str, seed: int) -> str:
    done = run_dealer(dealer, f"produce {COUNT}\naction {action}\n", "-s", str(seed))
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def outputs(dealer_bin: str) -> dict[str, str]:
    return {action: _output(dealer_bin, action, 11)
            for action in ("printpbn", "printoneline", "printcompact", "printall")}


def test_every_print_action_gives_the_same_deals(outputs: dict[str, str]) -> None:
    readers = {
        "printpbn": pbn.read,
        "printoneline": dealer_output.read_oneline,
        "printcompact": dealer_output.read_compact,
        "printall": dealer_output.read_printall,
    }
    masks = {name: [d.masks for d in readers[name](outputs[name])] for name in readers}
    assert len(masks["printpbn"]) == COUNT
    for name in readers:
        assert masks[name] == masks["printpbn"], name
    # Detection by content picks the right reader for each output.
    for name in readers:
        assert [d.masks for d in deals.loads(outputs[name])] == masks["printpbn"], name


def test_printpbn_metadata(outputs: dict[str, str]) -> None:
    first = next(pbn.read(outputs["printpbn"].split("\n\n")[0] + "\n"))
    assert (first.board, str(first.dealer), str(first.vul)) == (1, "N", "None")


def test_printoneline_and_printcompact_with_value(dealer_bin: str) -> None:
    one = run_dealer(dealer_bin, "generate 20\naction printoneline(hcp(north))\n", "-s", "3").stdout
    compact = run_dealer(dealer_bin, "generate 20\naction printcompact(hcp(north))\n", "-s", "3").stdout
    a = [d.masks for d in dealer_output.read_oneline(one)]
    b = [d.masks for d in dealer_output.read_compact(compact)]
    assert len(a) == 20 and a == b


def test_pipe_into_convert(dealer_bin: str, tmp_path: Path, outputs: dict[str, str]) -> None:
    out = tmp_path / "out.deals"
    done = subprocess.run([sys.executable, "-m", "dealerpp", "convert", "-", str(out)],
                          input=outputs["printoneline"].encode(), capture_output=True,
                          cwd=PROJECT_ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    expected = [d.masks for d in dealer_output.read_oneline(outputs["printoneline"])]
    assert [d.masks for d in binary.read_deals(out)] == expected


def test_printall_overflowed_column(dealer_bin: str) -> None:
    script = "predeal north SAKQJT987654,HA,DA\nproduce 3\naction printall\n"
    every = run_dealer(dealer_bin, script, "-s", "1").stdout
    one = run_dealer(dealer_bin, script.replace("printall", "printoneline"), "-s", "1").stdout
    assert [d.masks for d in dealer_output.read_printall(every)] == [
        d.masks for d in dealer_output.read_oneline(one)]
