"""Boards picked by number: ``convert --boards 1-24`` or ``1-12,15``.

A deal's number is its board number; a deal without one (a .deals or
giblib record) is the board after the deal before it, the first board 1,
and is given that number (and the cycle's dealer and vulnerability, if it
has none) when picked, so that what is written says which board it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from dealerpp.deals.model import Deal, board_dealer_vul
from dealerpp.deals.numbers import digits_problem, digits_value, too_long

Span = tuple[int, int]


def parse_spans(text: str) -> tuple[Span, ...]:
    """``1-12,15`` as ((1, 12), (15, 15)); ValueError saying what is wrong."""
    spans = []
    for part in text.split(","):
        low_text, dash, high_text = part.strip().partition("-")
        low = _board_number(low_text, text)
        high = _board_number(high_text, text) if dash else low
        if high < low:
            raise ValueError(f"{part.strip()!r} runs backwards: write {high}-{low}")
        spans.append((low, high))
    return tuple(spans)


def _board_number(text: str, whole: str) -> int:
    text = text.strip()
    if too_long(text):
        raise ValueError(digits_problem(text, "a board number"))
    number = digits_value(text)
    if number is None:
        raise ValueError(f"expected board numbers such as 1-24 or 1-12,15, got {whole!r}")
    if number == 0:
        raise ValueError("boards are numbered from 1")
    return number


def spans_text(numbers: Iterable[int]) -> str:
    """``3, 5-7`` for the numbers 3, 5, 6, 7 (any order)."""
    spans: list[list[int]] = []
    for number in sorted(set(numbers)):
        if spans and spans[-1][1] == number - 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in spans)


@dataclass
class BoardSelection:
    """The deals whose board number falls in ``spans``; it notes which
    numbers it found, so that those asked for and absent can be told."""

    spans: tuple[Span, ...]
    found: set[int] = field(default_factory=set)

    def wants(self, board: int) -> bool:
        return any(low <= board <= high for low, high in self.spans)

    def select(self, deals: Iterable[Deal]) -> Iterator[Deal]:
        board = 0
        for deal in deals:
            board = deal.board if deal.board is not None else board + 1
            if not self.wants(board):
                continue
            self.found.add(board)
            if deal.board is None:
                dealer, vul = board_dealer_vul(board)
                deal = replace(deal, board=board,
                               dealer=dealer if deal.dealer is None else deal.dealer,
                               vul=vul if deal.vul is None else deal.vul)
            yield deal

    def missing(self) -> list[Span]:
        """The spans of boards asked for that were not found."""
        gaps = []
        for low, high in sorted(self.spans):
            start = low
            for board in sorted(b for b in self.found if low <= b <= high):
                if board > start:
                    gaps.append((start, board - 1))
                start = board + 1
            if start <= high:
                gaps.append((start, high))
        return _merged(gaps)


def _merged(spans: list[Span]) -> list[Span]:
    merged: list[list[int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return [(low, high) for low, high in merged]


def spans_of(spans: list[Span]) -> str:
    """``boards 17-24`` or ``board 3``."""
    text = ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in spans)
    single = len(spans) == 1 and spans[0][0] == spans[0][1]
    return f"board {text}" if single else f"boards {text}"
