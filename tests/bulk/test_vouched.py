"""The checks that vouch for a chunk's printall deals and .csv lines read
by places (printall.vouched_deals, csv.vouched_lines): what they vouch
for is what the per-deal reader reads from those bytes (deals, boards),
never more; on the writer's own text and dealer's they vouch for every
whole record; and with any byte of the first records changed, deleted or
doubled the whole conversion is the per-deal path's, output or first
error. The per-deal reader and writer are the reference (the model's
line-by-line code, not the bulk path's)."""

from __future__ import annotations

import numpy as np
import pytest

from dealerpp.deals import read_source
from dealerpp.deals.bulk.csv import vouched_lines
from dealerpp.deals.bulk.printall import vouched_deals
from tests.conftest import run_dealer, sized

from .helpers import bulk, per_deal
from .test_properties import random_deals

# bytes put in a byte's place: the format's own characters and others
SUBSTITUTES = b' \n\r.",-0159TJQKAa\t\x00'


def _written(fmt: str, count: int, seed: int, first_board: int | None = None) -> bytes:
    raw = random_deals(count, seed).masks.astype("<u8").tobytes()
    text = per_deal(raw, "deals", fmt, first_board)
    assert isinstance(text, bytes)
    return text


def _mutants(data: bytes, upto: int, step: int) -> list[bytes]:
    """Every ``step``-th byte of the first ``upto`` changed, deleted and doubled."""
    found = []
    for place in range(0, min(upto, len(data)), step):
        found.append(data[:place] + data[place + 1:])
        found.append(data[:place + 1] + data[place:])
        found.extend(data[:place] + bytes([byte]) + data[place + 1:]
                     for byte in SUBSTITUTES if byte != data[place])
    return found


def _read_masks(data: bytes, fmt: str) -> tuple[np.ndarray, list[int | None]]:
    deals = list(read_source(data, fmt, filename="in"))
    return (np.array([deal.masks for deal in deals], np.uint64).reshape(-1, 4),
            [deal.board for deal in deals])


def _check_printall(data: bytes) -> None:
    found = vouched_deals(data)
    if found is not None:
        masks, size = found
        assert len(masks) and size <= len(data)
        assert data[size - 2:size] == b"\n\n"  # whole records
        read, _ = _read_masks(data[:size], "printall")
        assert np.array_equal(read, masks)


def _check_csv(data: bytes) -> None:
    found = vouched_lines(data)
    if found is not None:
        masks, boards, size = found
        assert len(masks) and size <= len(data) and data[size - 1:size] == b"\n"
        read, read_boards = _read_masks(data[:size], "csv")
        assert np.array_equal(read, masks)
        assert read_boards == boards.tolist()


def test_the_writers_printall_is_vouched_for_whole_records() -> None:
    data = _written("printall", 30, 3)
    found = vouched_deals(data)
    assert found is not None and found[1] == len(data) and len(found[0]) == 30
    for cut in range(1, 300, 7):  # a chunk that ends inside a record
        _check_printall(data[:-cut])
        assert vouched_deals(data[:-cut]) is not None


def test_dealers_own_printall_is_vouched_for(dealer_bin: str) -> None:
    done = run_dealer(dealer_bin, "produce 30\naction printall\n", "-s", "11")
    data = done.stdout.encode()
    found = vouched_deals(data)
    assert found is not None and len(found[0]) == 30  # up to dealer's statistics
    _check_printall(data)


def test_the_writers_csv_is_vouched_for_whole_lines() -> None:
    for first_board in (None, 9_999_990):
        data = _written("csv", 30, 4, first_board)
        found = vouched_lines(data)
        assert found is not None and found[2] == len(data) and len(found[0]) == 30
        for cut in range(1, 200, 7):
            _check_csv(data[:-cut])


def test_csv_is_vouched_for_across_passes_and_board_widths() -> None:
    """Lines are checked 8,192 at a time, a run of one board width at a
    time: a file of more lines, its boards going from 4 to 5 digits, is
    vouched for whole; with a byte changed past the first pass, up to the
    line before it."""
    data = _written("csv", 8_200, 5, 9_995)
    found = vouched_lines(data)
    assert found is not None and found[2] == len(data) and len(found[0]) == 8_200
    starts = [0, *(i + 1 for i, byte in enumerate(data) if byte == 10)]
    for line, column in ((8_194, 30), (8_199, 110), (8_192, 0)):
        place = starts[line] + column
        mutant = data[:place] + (b"2" if data[place:place + 1] != b"2" else b"3") + data[place + 1:]
        found = vouched_lines(mutant)
        assert found is not None and found[2] == starts[line] and len(found[0]) == line
        _check_csv(mutant)


def test_csv_with_a_separator_changed_is_vouched_for_up_to_it() -> None:
    """The quotes and commas around the hands (each hand's bytes are checked
    with the two after them) changed in the second line: one line vouched
    for, as the per-deal reader reads it."""
    data = _written("csv", 3, 6)
    second = data.index(b"\n") + 1
    for column in (0, 22, 23, 24, 25, 26, 47, 48, 49, 50, 73, 74, 75, 98, 99, 100):
        for byte in b" \x00\"":
            place = second + column
            if data[place] == byte:
                continue
            mutant = data[:place] + bytes([byte]) + data[place + 1:]
            found = vouched_lines(mutant)
            assert found is not None and len(found[0]) == 1, (column, byte)
            _check_csv(mutant)


@pytest.mark.sampled(3)
@pytest.mark.parametrize("offset", range(4))
def test_printall_with_a_byte_changed_is_the_per_deal_path(offset: int) -> None:
    data = _written("printall", 4, 8)
    for mutant in _mutants(data, sized(2 * 280, 280), sized(1, 3))[offset::4]:
        _check_printall(mutant)
        for chunk in (300, 1 << 20):
            assert bulk(mutant, "printall", "deals", chunk) == per_deal(mutant, "printall", "deals")


@pytest.mark.sampled(3)
@pytest.mark.parametrize("offset", range(4))
def test_csv_with_a_byte_changed_is_the_per_deal_path(offset: int) -> None:
    data = _written("csv", 4, 9, 98)
    for mutant in _mutants(data, sized(2 * 117, 117), sized(1, 2))[offset::4]:
        _check_csv(mutant)
        for chunk in (200, 1 << 20):
            assert bulk(mutant, "csv", "pbn", chunk) == per_deal(mutant, "csv", "pbn")
