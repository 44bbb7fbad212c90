"""dealer's own outputs: printoneline, printcompact and printall (printpbn is
PBN: dealerpp.deals.formats.pbn reads it, statistics lines and all).

dealer ends its standard output with statistics lines (``Generated N
hands``, ``Produced N hands``, ``Initial random seed N``, ``Time needed
...``); the readers accept and pass over exactly those. The optional value
that ``printoneline(expr)`` and ``printcompact(expr)`` print is accepted and
not kept (it is not part of the deal).

printall is read by its 20-character columns; a suit of 11 or more cards
overflows its column and pushes the later columns right, which the reader
follows (a row that could be read two ways would be reported).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from dealerpp.deals._hand_text import (
    pbn_hand,
    pbn_hand_mask,
    spaced_holding,
    spaced_holding_bits,
)
from dealerpp.deals._io import TextSink, record_errors, source_name, text_lines
from dealerpp.deals.model import (
    RANK_CHARS,
    SUIT_MASK,
    Deal,
    Hand,
    mask_problem,
    popcount,
)
from dealerpp.deals.options import Source, Target
from dealerpp.diagnostics import DppError, quote

_STATS = re.compile(r"(Generated|Produced) \d+ hands|Initial random seed -?\d+"
                    r"|Time needed\s+[\d.]+ sec")
_ONELINE = re.compile(r"n (\S*) e (\S*) s (\S*) w (\S*)(?: (.*))?")
_COMPACT = re.compile(r"([nesw]) (\S*)\s*")
_NUMBER_LINE = re.compile(r"\s*-?\d+(\.\d+)?\s*")
_PRINTALL_HEAD = re.compile(r"\s*(\d+)\.\s*")
COLUMN = 20


def is_stats(line: str) -> bool:
    return bool(_STATS.fullmatch(line.strip()))


class _Base:
    def __init__(self, source: Source, filename: str | None) -> None:
        self.name = source_name(source, filename)
        self.lines = text_lines(source)

    def error(self, message: str, line: int, column: int | None, text: str | None) -> DppError:
        return DppError(message, line=line, column=column, filename=self.name, source_line=text)

    def hand(self, text: str, number: int, column: int, line: str) -> int:
        mask = pbn_hand_mask(text)  # the usual way to write it: four look-ups
        if mask is not None:
            return mask
        try:
            return Hand.from_pbn(text).mask
        except ValueError as error:
            raise self.error(f"bad hand {quote(text)}: {error}", number, column, line) from None

    def deal(self, masks: list[int], number: int, column: int, line: str) -> Deal:
        problem = mask_problem(tuple(masks))
        if problem:
            raise self.error(problem, number, column, line)
        return Deal((masks[0], masks[1], masks[2], masks[3]))


class _OneLine(_Base):
    def deals(self) -> Iterator[Deal]:
        for number, line in enumerate(self.lines, 1):
            if not line.strip() or is_stats(line):
                continue
            match = _ONELINE.fullmatch(line.rstrip("\r"))
            if not match:
                raise self.error("expected 'n HAND e HAND s HAND w HAND' (printoneline)",
                                 number, 1, line)
            value = (match.group(5) or "").strip()
            if value and not _NUMBER_LINE.fullmatch(value):
                raise self.error(f"unexpected text after the hands: {quote(value)}", number,
                                 match.start(5) + 1, line)
            masks = [self.hand(match.group(i + 1), number, match.start(i + 1) + 1, line)
                     for i in range(4)]
            yield self.deal(masks, number, 1, line)


class _Compact(_Base):
    def deals(self) -> Iterator[Deal]:
        masks: list[int] = []
        start = (0, "")
        for number, line in enumerate(self.lines, 1):
            match = _COMPACT.fullmatch(line)  # the usual line first: no other test fits it
            if match is None:
                if not line.strip() or is_stats(line):
                    continue
                if not masks and _NUMBER_LINE.fullmatch(line):
                    continue  # the value printcompact(expr) prints after a deal
            seat = "nesw"[len(masks)]
            if not match or match.group(1) != seat:
                raise self.error(f"expected '{seat} HAND' (printcompact)", number, 1, line)
            if not masks:
                start = (number, line)
            masks.append(self.hand(match.group(2), number, 3, line))
            if len(masks) == 4:
                yield self.deal(masks, start[0], 1, start[1])
                masks = []
        if masks:
            raise self.error(f"truncated deal: {len(masks)} of 4 hands", start[0], 1, start[1])


class _PrintAll(_Base):
    def deals(self) -> Iterator[Deal]:
        rows: list[tuple[int, str]] = []
        head: tuple[int, str] | None = None
        for number, line in enumerate(self.lines, 1):
            if head is None:
                if not line.strip() or is_stats(line):
                    continue
                if not _PRINTALL_HEAD.fullmatch(line):
                    raise self.error("expected a deal number line like '   1.' (printall)",
                                     number, 1, line)
                head = (number, line)
                continue
            rows.append((number, line))
            if len(rows) == 4:
                yield self._deal(rows, head)
                rows, head = [], None
        if head is not None:
            raise self.error(f"truncated deal: {len(rows)} of 4 suit rows", head[0], 1, head[1])

    def _deal(self, rows: list[tuple[int, str]], head: tuple[int, str]) -> Deal:
        masks = [0, 0, 0, 0]
        for shift, (number, line) in zip((39, 26, 13, 0), rows, strict=True):
            north, east, south, west = self._row(line.rstrip(), number)
            masks[0] |= north << shift
            masks[1] |= east << shift
            masks[2] |= south << shift
            masks[3] |= west << shift
        counts = [popcount(m) for m in masks]
        if len(set(counts)) != 1:
            raise self.error(f"hands of {counts} cards: the suit rows are corrupt",
                             head[0], 1, head[1])
        return self.deal(masks, head[0], 1, head[1])

    def _row(self, line: str, number: int) -> list[int]:
        """The four holdings of one suit row. dealer writes each column as
        ``R `` per card (``- `` for a void) padded to 20 characters; a suit of
        11 or more cards pushes the later columns right. Every split that
        fits this layout is tried; exactly one must fit."""
        usual = _usual_row(line)
        if usual is not None:
            return usual
        splits = _row_splits(line, 0, 0)
        if len(splits) == 1:
            return splits[0]
        problem = "ambiguous" if splits else "not four columns of ranks"
        raise self.error(f"bad suit row ({problem}): {quote(line.strip())}", number, 1, line)


def _usual_row(line: str) -> list[int] | None:
    """The holdings of a row whose first three columns are 20 characters,
    each a cell as the writer writes it (at most 9 cards: its padding is
    blank, so no other split fits), else None."""
    north, east, south = line[:20].rstrip(" "), line[20:40].rstrip(" "), line[40:60].rstrip(" ")
    if len(north) > 18 or len(east) > 18 or len(south) > 18:
        return None
    holdings = [spaced_holding_bits(north), spaced_holding_bits(east),
                spaced_holding_bits(south), spaced_holding_bits(line[60:].rstrip(" "))]
    return None if None in holdings else holdings  # type: ignore[return-value]


def _row_splits(line: str, pos: int, seat: int) -> list[list[int]]:
    """All readings of ``line[pos:]`` as columns ``seat``..3 (ranks high first)."""
    results: list[list[int]] = []
    for count, bits in _column_options(line, pos):
        used = 2 * max(count, 1)  # a void is written "- "
        if seat == 3:
            if not line[pos + used:].strip():
                results.append([bits])
            continue
        width = max(COLUMN, used)
        if line[pos + used:pos + width].strip():
            continue  # the padding must be blank
        results.extend([bits, *rest] for rest in _row_splits(line, pos + width, seat + 1))
    return results


def _column_options(line: str, pos: int) -> list[tuple[int, int]]:
    """(cards, holding bits) for each prefix at ``pos`` that is a void or a
    run of descending ranks each followed by a space (or the line end)."""
    if line[pos:pos + 1] == "-" and line[pos + 1:pos + 2] in ("", " "):
        return [(0, 0)]
    options = []
    bits, last = 0, 13
    for count in range(1, 14):
        at = pos + 2 * (count - 1)
        rank = RANK_CHARS.find(line[at:at + 1]) if line[at:at + 1] else -1
        if rank < 0 or rank >= last or line[at + 1:at + 2] not in ("", " "):
            break
        bits |= 1 << rank
        last = rank
        options.append((count, bits))
    return options


def read_oneline(source: Source, filename: str | None = None) -> Iterator[Deal]:
    return record_errors(_OneLine(source, filename).deals())


def read_compact(source: Source, filename: str | None = None) -> Iterator[Deal]:
    return record_errors(_Compact(source, filename).deals())


def read_printall(source: Source, filename: str | None = None) -> Iterator[Deal]:
    return record_errors(_PrintAll(source, filename).deals())


# -- writers ----------------------------------------------------------------------

def format_oneline(deal: Deal) -> str:
    north, east, south, west = (pbn_hand(mask) for mask in deal.masks)
    return f"n {north} e {east} s {south} w {west} \n"


def format_compact(deal: Deal) -> str:
    north, east, south, west = (pbn_hand(mask) for mask in deal.masks)
    return f"n {north}\ne {east}\ns {south}\nw {west}\n"


def format_printall(deal: Deal, number: int) -> str:
    """The printall block of one deal; ValueError for hands of unequal
    length, which printall's reader (and dealer) never sees."""
    if len({popcount(m) for m in deal.masks}) != 1:
        raise ValueError("printall needs hands of the same number of cards")
    lines = [f"{number:4d}.\n"]
    north, east, south, west = deal.masks
    for shift in (39, 26, 13, 0):
        lines.append(f"{spaced_holding(north >> shift & SUIT_MASK):20}"
                     f"{spaced_holding(east >> shift & SUIT_MASK):20}"
                     f"{spaced_holding(south >> shift & SUIT_MASK):20}"
                     f"{spaced_holding(west >> shift & SUIT_MASK)}\n")
    return "".join(lines) + "\n"


def write_oneline(deals: Iterable[Deal], target: Target) -> None:
    with TextSink(target) as sink:
        for deal in deals:
            sink.write(format_oneline(deal))


def write_compact(deals: Iterable[Deal], target: Target) -> None:
    with TextSink(target) as sink:
        for deal in deals:
            sink.write(format_compact(deal))


def write_printall(deals: Iterable[Deal], target: Target) -> None:
    with TextSink(target) as sink:
        for number, deal in enumerate(deals, 1):
            try:
                sink.write(format_printall(deal, number))
            except ValueError as error:
                raise DppError(str(error), deal=number, output=True) from None
