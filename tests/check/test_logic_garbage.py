"""The logic analysis leaves nothing for the garbage collector.

Its values and the analysis reach each other (a value's lazy state is
worked out by the analysis' bound method), so a check that kept them to the
end would leave cyclic garbage, which the collector walks more than once
before freeing it: about a tenth of the analysis' cost (bench/README, issue
27). Counted by the collector itself: after a check, ``gc.collect()`` finds
nothing unreachable, with a deck change and a late pointcount among the
scripts (each drops an analysis before the end).
"""

from __future__ import annotations

import gc

import pytest

from dealerpp.script.check import check_text

SCRIPTS = [
    "a = hcp(north) > 10 and spades(north) >= 5\nb = a or shape(south, any 4333)\n"
    "c = not b ? 1 : 0\nd = hcp(east) + c\ncondition a and c\naction printall\n",
    "predeal north SAKQ\nx = hcp(north) > 20\npredeal south HA\n"
    "y = x or hearts(south) > 3\ncondition y\n",
    "x = hcp(north) > 14 or clubs(west) < 2\ncondition x\npointcount 1\n",
]


@pytest.mark.parametrize("text", SCRIPTS)
def test_a_check_leaves_no_cyclic_garbage(text: str) -> None:
    check_text(text, "t.dl")  # the imports, tables and caches, made once
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        found = check_text(text, "t.dl")
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
    assert found is not None
