"""Number literals read as dealer reads them: C strtol into a long, then an
int. check's arithmetic uses dealer's value, and check warns at a literal
whose value to dealer is not the number written; real dealer's printes is
the oracle."""

from __future__ import annotations

import re
import subprocess

import pytest

from dealerpp.script.check import check_text
from dealerpp.script.check.arithmetic import dealer_reads, literal_value


def _literals() -> list[str]:
    """Literals around every boundary dealer's reading has: 2^31, 2^32,
    2^63 (where strtol saturates), 2^64, powers of ten, leading zeros, and
    literals longer than Python's int-to-string limit."""
    numbers = set()
    for power in (31, 32, 33, 62, 63, 64, 65):
        for delta in (-2, -1, 0, 1, 2):
            numbers.add(2**power + delta)
    numbers.update(10**k for k in range(0, 26))
    numbers.update((10, 13, 4294967306, 2**32 * 7 + 5))
    literals = sorted(str(n) for n in numbers)
    # (Unary minus does not apply to four digits: the scanner reads a shape.)
    literals += [f"-{n}" for n in literals[::3] if len(n) != 4]
    literals += ["0000000000000000000000004294967306", "007", "9" * 4301, "1" + "0" * 5000,
                 "-" + "9" * 5000]
    return literals


LITERALS = _literals()


def _reading(literal: str) -> int | None:
    negative = literal.startswith("-")
    return dealer_reads(literal.lstrip("-"), negative)


def _value(literal: str) -> int:
    value = _reading(literal)
    return int(literal) if value is None else value


@pytest.mark.dealer
def test_dealer_reads_literals_as_check_says(dealer_bin: str) -> None:
    items = ", ".join(f"{literal}, \\n" for literal in LITERALS)
    done = subprocess.run([dealer_bin, "-s", "1"], input=f"produce 1\naction printes({items})\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = [int(line) for line in done.stdout.splitlines()[:len(LITERALS)]]
    assert printed == [_value(literal) for literal in LITERALS]


@pytest.mark.parametrize("literal", LITERALS, ids=lambda text: text[:24])
def test_check_warns_where_dealer_reads_another_number(literal: str) -> None:
    found = check_text(f"condition hcp(north) > {literal}\n")
    warned = [d for d in found if d.message.startswith("dealer reads ")]
    value = _reading(literal)
    if value is None:
        assert warned == []
    else:
        (warning,) = warned
        assert warning.message.endswith(f" as {value}")
        assert (warning.line, warning.column) == (1, 24)
        assert len(warning.message) < 100  # a huge literal is not echoed whole


def test_the_arithmetic_uses_dealers_value() -> None:
    # 4294967296 is 0 to dealer: a division by zero; 4294967306 is 10.
    assert any("division by zero" in d.message for d in check_text("condition 1 / 4294967296\n"))
    assert literal_value("4294967306") == 10
    found = check_text("action frequency (hcp(north), 4294967306, 2)\n")
    assert any("frequency range 10 to 2" in d.message for d in found)


def test_literals_in_every_place_are_checked() -> None:
    text = ("generate 4294967306\nproduce 4294967297\npointcount 4294967296 3 2 1\n"
            "predeal spades(north) == 4294967300\naction average 4294967306\n")
    lines = sorted(d.line for d in check_text(text) if d.message.startswith("dealer reads"))
    assert lines == [1, 2, 3, 4, 5]


def test_huge_literals_never_meet_pythons_digit_limit() -> None:
    for text in ("condition hcp(north) > " + "9" * 100_000 + "\n",
                 "x = $" + "1" * 5000 + "\n", "x = " + "1" * 5000 + ".5\n"):
        for diagnostic in check_text(text):
            assert "internal error" not in diagnostic.message
            assert re.search(r"\d{40}", diagnostic.message) is None
