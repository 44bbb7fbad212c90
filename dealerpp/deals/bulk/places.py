"""Writing records of varying widths by places, for the encoders of
formats whose records differ in width (dealer's printall, .csv).

Such a record is a few pieces, each of a known width or of a width that
a small table gives (a West cell as long as its suit, a board's digits),
so where each piece goes follows from the deals: the places are running
sums. Each piece is then a row copied to its place in the output (numpy
assigns rows of an overlapping strided view of the output, :func:`rows_at`):
no byte is selected or moved twice, where dropping padding (``text[text !=
0]``) looked at each byte again, a third of a printall's writing. A piece
may be a row wider than its text, padded in front or behind; the bytes the
padding covers belong to a piece written after it, which covers them again.

The output goes into buffers used again once the writer has let go of
them (:class:`Buffers`): fresh memory costs the kernel's zeroing of its
pages, as much as the encoding itself here.
"""

from __future__ import annotations

import sys

import numpy as np


def rows_at(out: np.ndarray, width: int) -> np.ndarray:
    """``out`` as overlapping rows of ``width`` bytes, row k from byte k: a
    piece is written at byte k by assigning row k. Pieces written in one
    assignment must not overlap (numpy sets no order among them)."""
    return np.lib.stride_tricks.as_strided(out, (len(out) - width + 1, width), (1, 1))


class Buffers:
    """Byte buffers handed out again once nothing else holds them (the
    writer's thread drops what it wrote; an encoder's result is a view of
    its buffer, so while it waits to be written its buffer is held)."""

    KEEP = 6  # the writer holds at most three pieces; a few more spare

    def __init__(self) -> None:
        self._free: list[np.ndarray] = []

    def get(self, size: int) -> np.ndarray:
        """A buffer of at least ``size`` bytes that nothing else holds."""
        for buffer in self._free:
            # held by the list, the loop and getrefcount's argument only
            if len(buffer) >= size and sys.getrefcount(buffer) <= 3:
                return buffer
        buffer = np.empty(max(size, 1 << 16), np.uint8)
        if len(self._free) >= self.KEEP:
            self._free.pop(0)
        self._free.append(buffer)
        return buffer


def digit_counts(first: int, count: int) -> list[tuple[int, int, int]]:
    """The numbers ``first`` .. ``first + count - 1`` (1 and up) as runs of
    one digit count: (start, stop, digits), places from 0."""
    runs = []
    place = 0
    while place < count:
        number = first + place
        digits = len(str(number))
        stop = min(count, 10 ** digits - first)
        runs.append((place, stop, digits))
        place = stop
    return runs


def digit_rows(numbers: np.ndarray, digits: int) -> np.ndarray:
    """``(N, digits)``: the decimal digits of numbers of ``digits`` digits."""
    out = np.empty((len(numbers), digits), np.uint8)
    value = numbers.copy()
    for column in range(digits - 1, -1, -1):
        out[:, column] = value % 10
        value //= 10
    out += 48
    return out


def slots_at(out: np.ndarray, width: int) -> np.ndarray:
    """``out`` as overlapping slots of ``width`` bytes, slot k from byte k,
    each one item (a void of ``width`` bytes): what :func:`rows_at` does,
    but numpy copies an item to its place in one move where it copies a
    row's bytes one at a time (about a third of the time). The same rule:
    pieces written in one assignment must not overlap."""
    slots: np.ndarray = np.ndarray((len(out) - width + 1,), np.dtype((np.void, width)), out, 0, (1,))
    return slots


def items(table: np.ndarray) -> np.ndarray:
    """A table of byte rows (its last axis) as items of a row's width each,
    to take from and to write to :func:`slots_at`."""
    rows = np.ascontiguousarray(table, np.uint8)
    result: np.ndarray = rows.view(np.dtype((np.void, rows.shape[-1]))).reshape(rows.shape[:-1])
    return result


def rows_from(arr: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """``(*starts.shape, width)``: the ``width`` bytes from each start, each
    row taken as one item (:func:`slots_at`; a sliding window's rows are
    copied a byte at a time, about three times as long)."""
    taken = slots_at(arr, width)[starts]
    rows: np.ndarray = taken.view(np.uint8).reshape(*starts.shape, width)
    return rows


def put_consecutive(columns: np.ndarray, first: int) -> None:
    """The numbers from ``first`` on, one a row, into ``columns`` (uint8
    rows as wide as every one of the numbers): the last four digits a slice
    of a table of 0000-9999 (the numbers are consecutive), the digits before
    them the same for up to 10,000 rows."""
    count, digits = columns.shape
    table = four_digit_rows()
    if digits <= 4:
        columns[:] = table[first:first + count, 4 - digits:]
        return
    place = 0
    while place < count:
        high, low = divmod(first + place, 10000)
        run = min(count - place, 10000 - low)
        columns[place:place + run, :digits - 4] = np.frombuffer(str(high).encode(), np.uint8)
        columns[place:place + run, digits - 4:] = table[low:low + run]
        place += run


_FOUR_DIGIT_ROWS: list[np.ndarray] = []


def four_digit_rows() -> np.ndarray:
    """0000-9999, four ASCII digits a row (made on first use)."""
    if not _FOUR_DIGIT_ROWS:
        _FOUR_DIGIT_ROWS.append(digit_rows(np.arange(10000, dtype=np.int64), 4))
    return _FOUR_DIGIT_ROWS[0]
