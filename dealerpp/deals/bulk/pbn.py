"""PBN on the bulk path: its codec, :class:`PbnCodec`, and how it differs
from a format of one record a line (the hooks of
:mod:`dealerpp.deals.bulk.hooks`, overridden by :class:`PbnHooks`).

A PBN file holds deal-string lines (one record a line), the writer's
``[Deal "..."]`` games (a tag line and the blank line after it: one unit of
two lines), dealer's printpbn games (decoded in bulk by
:mod:`dealerpp.deals.bulk.printpbn`) and any other games, which go to the
PBN reader whole, up to their blank line. ``%`` lines and ``;``/``{}``
comments send the rest of the file through the reader, and a ``#`` tag
value copies the previous game's, which the per-deal side is told
(:meth:`PbnHooks.remember`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    HandsLayout,
    RowChecks,
    as_grid,
    byte_view,
    check_line_end,
    content_width,
    template_rows,
)
from dealerpp.deals.bulk.hooks import Lead, LineHooks, Segment, Slow, Units

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PerDeal
    from dealerpp.deals.bulk.printpbn import Games

#: ``[Deal "F:<67>"]``, its line end and the blank line after it.
PAIR = 80
_DEAL_TAG = b'[Deal "'
# First bytes of lines that may be blank or indented to Python's str.strip
# (ASCII blanks, CR of a CR LF line, any byte of a non-ASCII character).
_MAY_BE_INDENTED = np.zeros(256, bool)
_MAY_BE_INDENTED[[9, 11, 12, 13, 28, 29, 30, 31, 32]] = True
_MAY_BE_INDENTED[128:] = True
# ... and of lines that may open a PBN game (a tag line), which a block of
# bare deal lines must not hold.
_MAY_OPEN_GAME = _MAY_BE_INDENTED.copy()
_MAY_OPEN_GAME[ord("[")] = True


class PbnHooks(LineHooks):
    context = (b"%", b";", b"{", b"}")
    separator = b"\n"  # games are separated by a blank line

    def fast_widths(self) -> list[int]:
        return [*super().fast_widths(), PAIR]

    def completed(self, data: bytes) -> bytes:
        if _ends_in_tag_line(data):
            return data + b"\n"  # the blank line that ends a game: the same game, read fast
        return data

    def lead(self, data: bytes, final: bool, line: int, per_deal: PerDeal,
             filename: str | None) -> Lead | None:
        """The chunk's whole games, when they are all dealer's printpbn games."""
        if not data.startswith(b"[Event "):
            return None
        from dealerpp.deals.bulk import printpbn

        cut = data.rfind(b"\n\n[") + 2
        if final and data.endswith(b"\n\n"):
            cut = len(data)
        if cut < 2:
            return None
        run = data[:cut] if cut < len(data) else data
        found = printpbn.games(run)
        if found is None:
            return None
        return Lead(_printpbn_run(run, found, line, 0, per_deal, filename), cut,
                    len(found) * printpbn.LINES)

    def lead_needs_more(self, data: bytes) -> bool:
        return data.startswith(b"[Event ") and data.find(b"\n\n[") < 0

    def chunk_end(self, data: bytes, end: int) -> int:
        """Keep a last ``[...]`` line for the next chunk: its game (or the
        blank line that completes the fast shape) may continue there."""
        start = data.rfind(b"\n", 0, max(end - 1, 0)) + 1
        return start if end and data[start:start + 1] == b"[" else end

    def uniform_record(self, data: bytes, width: int) -> tuple[int, int] | None:
        if width + 1 == PAIR and data[width:width + 1] == b"\n":
            return width + 1, 2
        if width == PAIR:
            # A single line as wide as a pair is no pair: as a failed row it
            # would reach the PBN reader cut off from the lines of its game.
            return None
        return width, 1

    def rows_are_records(self, rows: np.ndarray, lines_per_record: int) -> bool:
        # a tag line among deal lines opens a game: see units
        return lines_per_record == 2 or not _MAY_OPEN_GAME[rows].any()

    def units(self, data: np.ndarray, units: Units, final: bool) -> Units:
        """Merge each bare ``[Deal]`` line with its blank line; make other tag
        games (up to their blank line) slow, or leave them for the next chunk."""
        return _pbn_units(data, units, final)

    def lines_per_row(self, width: int) -> int:
        return 2 if width == PAIR else 1

    def slow_piece(self, data: bytes, start: int, stop: int, line: int, per_deal: PerDeal,
                   filename: str | None) -> Iterator[Segment]:
        """A slow piece of PBN games: dealer's printpbn games in bulk
        (:mod:`dealerpp.deals.bulk.printpbn`), the others through the reader."""
        from dealerpp.deals.bulk import printpbn

        piece = data[start:stop]
        for a, b, found in printpbn.runs(piece):
            if found is None:
                yield Slow(per_deal.read("pbn", piece[a:b], filename, line, start + a))
                line += piece.count(b"\n", a, b)
                continue
            yield from _printpbn_run(piece[a:b], found, line, start + a, per_deal, filename)
            line += len(found) * printpbn.LINES

    def copied(self, text: bytes, first_index: int) -> bytes:
        """Games as read, each with its blank line: the writer gives a game
        read back unchanged and puts a blank line between games, none after
        the last."""
        return text[:-1] if first_index == 0 else b"\n" + text[:-1]

    def remember(self, last_record: bytes, previous: dict[str, str]) -> None:
        """A ``[Deal "..."]`` game (or a printpbn game) is the previous game
        of the next piece."""
        if last_record.startswith(_DEAL_TAG):
            previous["Deal"] = last_record[7:last_record.index(b'"', 7)].decode()
        elif last_record.startswith(b"[Event "):  # a printpbn game (bulk/printpbn.py)
            from dealerpp.deals.formats.pbn.lexer import plain_tags

            previous.update(plain_tags(last_record.decode().rstrip("\n")) or ())


def _ends_in_tag_line(data: bytes) -> bool:
    start = data.rfind(b"\n", 0, len(data) - 1) + 1
    return data.endswith(b"]\n") and data[start:start + 1] == b"["


def _pbn_units(arr: np.ndarray, units: Units, final: bool) -> Units:
    starts, ends, keys, numbers, _ = units
    count = len(starts)
    lengths = ends - starts
    blank = lengths == 1
    first = arr[np.minimum(starts, len(arr) - 1)]
    tag = first == ord("[")
    closing_blank = blank.copy()
    _read_indented(arr, starts, ends, first, tag, closing_blank)
    pair = np.zeros(count, bool)
    pair[:-1] = tag[:-1] & (lengths[:-1] == PAIR - 1) & blank[1:]
    game = tag & ~pair  # a game with more than the Deal tag: slow to its blank line
    end = int(ends[-1])
    forced = np.zeros(count, bool)
    if game.any():
        blanks = np.flatnonzero(closing_blank)
        firsts = np.flatnonzero(game)
        closing = np.searchsorted(blanks, firsts)
        open_games = closing == len(blanks)  # no blank line after them: the last ones
        if open_games.any() and not final:
            # the first open game goes on in the next chunk: stop before it
            keep = int(firsts[open_games][0])
            count, end = keep, int(starts[keep])
            firsts, closing = firsts[~open_games], closing[~open_games]
        lasts = np.append(blanks, count - 1)[closing]  # an open game runs to the end
        # each game forces its lines, up to its blank line, to the slow path
        marks = np.zeros(len(starts) + 1, np.int64)
        np.add.at(marks, firsts, 1)
        np.add.at(marks, lasts + 1, -1)
        forced = np.cumsum(marks[:-1]) > 0
    pair &= ~forced
    pair[count - 1:] = False
    consumed = np.zeros(len(starts), bool)
    consumed[1:] = pair[:-1]
    keep_mask = ~consumed
    keep_mask[count:] = False
    # a single line as wide as a pair is no pair
    unit_keys = np.where(forced | (lengths == PAIR), 0, keys)
    unit_keys = np.where(pair, PAIR, unit_keys)
    unit_ends = np.where(pair, np.roll(ends, -1), ends)
    return Units(starts[keep_mask], unit_ends[keep_mask], unit_keys[keep_mask],
                 numbers[keep_mask], end)


def _read_indented(arr: np.ndarray, starts: np.ndarray, ends: np.ndarray, first: np.ndarray,
                   tag: np.ndarray, blank: np.ndarray) -> None:
    """Lines that start with a blank (or a byte of a non-ASCII character)
    are, to the PBN reader, tag lines when they strip to one and blank lines
    (which close a game) when they strip to nothing: mark them as it reads
    them. Rare, so one at a time."""
    for i in np.flatnonzero(_MAY_BE_INDENTED[first]).tolist():
        text = arr[starts[i]:ends[i]].tobytes().decode("utf-8", "surrogateescape")
        text = text.replace("\ufeff", "").strip()  # a byte-order mark is a blank there too
        tag[i] = text.startswith("[")
        blank[i] = not text


def _printpbn_run(run: bytes, found: Games, line: int,
                  byte: int, per_deal: PerDeal, filename: str | None) -> Iterator[Segment]:
    """The deals of a run of printpbn games (``found``: their values), a
    game the bulk decoder turns down through the full reader."""
    from dealerpp.deals.bulk import printpbn

    deals, ok = printpbn.decode(found, PbnCodec().decode)
    if ok is None:
        deals.title = lambda: printpbn.title(run)
        deals.text = run
        yield deals
    else:
        bounds = printpbn.game_bounds(run)
        change = (np.flatnonzero(np.diff(ok.view(np.int8))) + 1).tolist()
        for first, last in itertools.pairwise([0, *change, len(deals)]):
            if ok[first]:
                part = deals[first:last]
                games = run[bounds[first]:bounds[last]]
                part.title = lambda games=games: printpbn.title(games)
                part.text = games
                yield part
                continue
            yield Slow(per_deal.read("pbn", run[bounds[first]:bounds[last]], filename,
                                     line + first * printpbn.LINES, byte + bounds[first]))
    if ok is None or ok[-1]:  # the last game's values, for a '#' after it
        last_game = run.rfind(b"\n\n[", 0, len(run) - 2)
        per_deal.fast_read("pbn", run[0 if last_game < 0 else last_game + 2:])


def _seat_lookup() -> np.ndarray:
    table = np.full(256, 255, np.uint8)
    for seat, char in enumerate(b"NESW"):
        table[char] = table[char | 0x20] = seat
    return table



class PbnCodec(PbnHooks):
    """PBN deal strings. Read: lines of ``F:h1 h2 h3 h4`` (clockwise from F)
    or four hands N E S W without ``F:``, and games that are only a
    ``[Deal "F:..."]`` tag followed by a blank line (the writer's shape).
    Written as the PBN writer does: ``[Deal "N:..."]`` games separated by
    blank lines."""

    name = "pbn"
    write_rows = OUTPUT_BYTES // 80  # its output, 80 bytes a deal
    contents = (67, 69)
    pair = PAIR  # [Deal "F:<67>"] + newline + blank line
    _seats = _seat_lookup()
    bare = HandsLayout((0, 17, 34, 51), first=0, fixed=[(16, b" "), (33, b" "), (50, b" ")])
    prefixed = HandsLayout((2, 19, 36, 53), first=0,
                           fixed=[(1, b":"), (18, b" "), (35, b" "), (52, b" ")])
    tagged = HandsLayout((9, 26, 43, 60), first=0,
                         fixed=[*((i, bytes([c])) for i, c in enumerate(_DEAL_TAG)),
                                (8, b":"), (25, b" "), (42, b" "), (59, b" "),
                                (76, b'"'), (77, b"]"), (78, b"\n"), (79, b"\n")])

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        raw = as_grid(block, width)
        checks = RowChecks(len(raw))
        if width == self.pair:
            first = self._seats[raw[:, 7]]
            checks.add(first < 4)
            masks = self.tagged.decode_rows(block, width, checks, first[:, None])
            return DealArray(masks), checks.ok
        content, crlf = content_width(width, self.contents)
        check_line_end(checks, raw, content, crlf)
        if content == 67:
            masks = self.bare.decode_rows(block, width, checks)
        else:
            first = self._seats[raw[:, 0]]
            checks.add(first < 4)
            masks = self.prefixed.decode_rows(block, width, checks, first[:, None])
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview | None:
        if deals.boards is not None or deals.tricks is not None:
            # Board/Dealer/Vulnerable or DoubleDummyTricks tags: the PBN writer's job
            return None
        out = template_rows(len(deals), b'\n[Deal "N:' + b" " * 67 + b'"]\n')
        self.bare.fill(deals.masks, out[:, 10:])
        data = byte_view(out)
        return data[1:] if first_index == 0 and len(data) else data
