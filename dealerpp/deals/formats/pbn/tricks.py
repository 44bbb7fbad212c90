"""Double-dummy tables in PBN: the DoubleDummyTricks tag (20 hex digits)
and an OptimumResultTable of declarer, strain and tricks."""

from __future__ import annotations

import re

from dealerpp.deals.formats.pbn.checks import seat_of
from dealerpp.deals.model import Seat, Strain, Tricks
from dealerpp.deals.numbers import digits_value

DDT_VALUE = re.compile(r"[0-9A-Da-d]{20}")
# DoubleDummyTricks: the declarer's tricks, a hex digit each, declarers N S E
# W, each by strains NT S H D C (docs/formats.md, "PBN").
_DDT_DECLARERS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
_DDT_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


def tricks_of_ddt(value: str, masks: tuple[int, int, int, int]) -> Tricks | None:
    """The table a DoubleDummyTricks value (20 hex digits) says; None when
    a value is above the cards each hand holds (the table is not this
    deal's)."""
    per_hand = max(mask.bit_count() for mask in masks)
    numbers = [int(char, 16) for char in value]
    if any(number > per_hand for number in numbers):
        return None
    by_declarer = {(declarer, strain): numbers[5 * d + s]
                   for d, declarer in enumerate(_DDT_DECLARERS)
                   for s, strain in enumerate(_DDT_STRAINS)}
    return Tricks.of(lambda declarer, strain: by_declarer[declarer, strain])


def tricks_of_table(columns: str, words: list[str],
                    masks: tuple[int, int, int, int]) -> Tricks | None:
    """The table an OptimumResultTable says: a row a declarer and strain,
    with the tricks the declarer takes (columns Declarer, Denomination and
    Result, named in the tag's value, ``;`` between them, each maybe with
    a sort sign before and a width and alignment after). Entries no row
    gives are unknown; None when the table is not one of that kind (a
    column missing, a value that is not a seat, strain or trick count of
    this deal, or one entry given twice differently)."""
    names = [_COLUMN.match(column.strip()).group(1)  # type: ignore[union-attr]
             for column in columns.split(";")]
    if not words or len(words) % len(names) or not {"Declarer", "Denomination", "Result"} <= set(names):
        return None
    per_hand = max(mask.bit_count() for mask in masks)
    found: dict[tuple[Seat, Strain], int] = {}
    for start in range(0, len(words), len(names)):
        row = dict(zip(names, words[start:start + len(names)], strict=True))
        declarer, result = seat_of(row["Declarer"]), digits_value(row["Result"])
        try:
            strain = Strain.from_text(row["Denomination"])
        except ValueError:
            return None
        if declarer is None or result is None or result > per_hand \
                or found.setdefault((declarer, strain), result) != result:
            return None
    return Tricks.of(lambda declarer, strain: found.get((declarer, strain)))


# A table's column: an optional sort sign, the name, then width and alignment.
_COLUMN = re.compile(r"[+-]?([^\\]*)")


def ddt_of_tricks(tricks: Tricks) -> str | None:
    """The DoubleDummyTricks value of a table; None unless every entry is
    known (the tag has no digit for an unknown one)."""
    if not tricks.is_complete():
        return None
    return "".join(f"{tricks[declarer, strain]:x}" for declarer in _DDT_DECLARERS
                   for strain in _DDT_STRAINS)


