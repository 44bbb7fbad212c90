"""Agreement with real dealer on seeded random mutants of valid scripts:
dealer accepts a mutant (runs it to completion) exactly when check reports no
error. The measured figure is in docs/check.md; the goal is 100%."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerpp.script.check import check_text
from tests.conftest import examples

from .mutate import dealer_accepts, mutants

SEED = 4
COUNT = examples(600)  # each mutant runs dealer: a quarter of them locally


@pytest.mark.dealer
def test_check_agrees_with_dealer(dealer_bin: str, tmp_path: Path) -> None:
    disagreements = []
    accepted = 0
    for name, text in mutants(COUNT, SEED):
        dealer_ok, said = dealer_accepts(dealer_bin, text, tmp_path)
        accepted += dealer_ok
        errors = [d.format() for d in check_text(text, name) if d.severity == "error"]
        if dealer_ok == bool(errors):
            disagreements.append((name, said, errors[:2], text))
    agreement = 1 - len(disagreements) / COUNT
    print(f"agreement {agreement:.2%} on {COUNT} mutants ({accepted} accepted by dealer)")
    # Both outcomes must be well represented for the figure to mean anything.
    assert COUNT // 10 < accepted < COUNT * 9 // 10
    assert disagreements == []
