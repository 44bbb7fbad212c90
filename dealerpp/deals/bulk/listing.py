"""The listing on the bulk path::

    Deal #1: Player North: S5 H7 H6 DA DK D9 D7 D6 D5 D4 CQ C3 C2
    Player East : SA SK S8 S4 HA HK HT H3 DQ CJ C9 C6 C5
    ...

A full deal written so is four lines of fixed columns (the first as wide
as its deal number), each hand 13 cards of two characters and a blank,
spades to clubs, high first. The reader lets a hand go on past its line
and numbers nothing, so the file is read fast from its start while each
record is followed by the next ``Deal #`` (bulk/head.py); a hand in another
order, lower case, a line made odd goes with the rest of the file to the
per-deal reader. Writing, a deal is numbered by its place in the output.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import FULL, DealArray
from dealerpp.deals.bulk.blocks import (
    OUTPUT_BYTES,
    RowChecks,
    as_grid,
    byte_view,
    check_line_end,
    content_width,
    each_sub_block,
    hand_bytes,
    hand_sums,
    template_rows,
)
from dealerpp.deals.bulk.head import HeadHooks
from dealerpp.deals.bulk.places import put_consecutive

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.model import Deal

# What opens a deal to the reader (its token, on one line: no line break
# between its parts); bytes that merely start so ("Deal #x") do not.
_DEAL_START = re.compile(rb"Deal[ \t\x0b\x0c]*#[0-9]+[ \t\x0b\x0c]*:")
MAX_DIGITS = 12
_HAND = 38  # 13 cards of two characters, a blank between them
_STEP = 53  # from one hand to the next: a line
_HEADS = (b"Player North: ", b"Player East : ", b"Player South: ", b"Player West : ")
_SUITS = b"CDHS"
_RANKS = b"23456789TJQKA"


def _pair_table() -> np.ndarray:
    """A card's two characters read as one uint16 (the machine's byte order,
    as the records are read) -> its code 13 * suit + rank (clubs 0), 255
    for any other two bytes."""
    table = np.full(1 << 16, 255, np.uint8)
    text = b"".join(bytes([letter, char]) for letter in _SUITS for char in _RANKS)
    table[np.frombuffer(text, np.uint16)] = np.arange(52, dtype=np.uint8)
    return table


_CARD_OF_PAIR = _pair_table()
# The widths of the pieces a fixed run of text is compared in, as numbers.
_WORDS = ((8, np.dtype(np.uint64)), (4, np.dtype(np.uint32)), (2, np.dtype(np.uint16)),
          (1, np.dtype(np.uint8)))


def _fixed_pieces(fixed: Sequence[tuple[int, bytes]]) -> list[tuple[int, np.ndarray]]:
    """Fixed text at its columns as (column, the text of 8, 4, 2 or 1 bytes
    as one number): a run is compared a number at a time, not a byte."""
    pieces = []
    for column, text in fixed:
        at = 0
        for size, dtype in _WORDS:
            while len(text) - at >= size:
                pieces.append((column + at, np.frombuffer(text[at:at + size], dtype)))
                at += size
    return pieces


def _at(raw: np.ndarray, column: int, dtype: np.dtype) -> np.ndarray:
    """Each row's number of ``dtype`` at ``column`` (unaligned: numpy copes)."""
    numbers: np.ndarray = np.ndarray((len(raw),), dtype, raw, column, (raw.strides[0],))
    return numbers


# A card's code (13 * suit + rank, clubs 0) as the symbol of its rank in its
# suit (blocks.hand_bytes: spades first); its two characters by code, as
# the uint16 that is their bytes (written at once into the record).
_CODES = tuple(bytes(13 * (3 - suit) + rank for rank in range(13)) for suit in range(4))
_CARD_TEXT = np.frombuffer(b"".join(bytes([_SUITS[code // 13], _RANKS[code % 13]])
                                    for code in range(52)), np.uint16).copy()


def _pair_text_table() -> np.ndarray:
    """Two card codes read as one uint16 (the machine's byte order) -> the
    two cards' texts: one lookup for two cards, where a lookup a card cost
    half as much again."""
    codes = np.arange(52, dtype=np.uint8)
    first, second = np.repeat(codes, 52), np.tile(codes, 52)
    pairs = np.stack((first, second), axis=1).view(np.uint16)[:, 0]
    table = np.zeros((1 << 16, 2), np.uint16)
    table[pairs, 0] = _CARD_TEXT[first]
    table[pairs, 1] = _CARD_TEXT[second]
    return table


_PAIR_TEXT: list[np.ndarray] = []  # made on first use


def _template(digits: int) -> bytes:
    hand = b" " * _HAND
    lines = [b"Deal #" + b"0" * digits + b": " + _HEADS[0] + hand + b"\n"]
    lines += [head + hand + b"\n" for head in _HEADS[1:]]
    return b"".join(lines)


class ListingCodec(HeadHooks):
    """``Deal #N: Player North: ...`` and three more lines a deal."""

    name = "listing"
    write_rows = OUTPUT_BYTES // 226  # its output, 226 bytes a deal
    contents = tuple(219 + digits for digits in range(1, MAX_DIGITS + 1))
    lines_per_record = 4
    needs_follower = True

    def record_widths(self) -> Sequence[int]:
        return [content + 1 for content in self.contents]

    def record_ends(self, data: bytes, start: int = 0) -> np.ndarray:
        """As every fourth line end, without looking at every byte where it
        can: from the first record's width, the rows that have a line end
        at each of their four lines' ends are taken as records of that
        width, the rest of the chunk is searched. An extra line end inside
        such a row fails the decoder's checks (every byte of a record is a
        fixed one, a digit or a card's), so reading stops there either way."""
        at = start
        for _ in range(4):
            at = data.find(b"\n", at) + 1
            if not at:
                return super().record_ends(data, start)
        width = at - start
        if width - 1 not in self.contents:  # CR LF, or not a fast record
            return super().record_ends(data, start)
        rows = np.frombuffer(data, np.uint8, (len(data) - start) // width * width, start)
        rows = rows.reshape(-1, width)
        first = width - 198  # North's first card (22 + digits)
        ends = rows[:, width - 1] == 10
        for seat in range(1, 4):
            ends &= rows[:, first + seat * _STEP - 15] == 10
        count = len(ends) if ends.all() else int(np.argmin(ends))
        found = np.arange(1, count + 1) * width + start
        rest = super().record_ends(data, start + count * width)
        return np.concatenate((found, rest)) if len(rest) else found

    def follows(self, data: bytes, at: int, final: bool) -> bool:
        """The next deal starts here (a card on the next line would be the
        last hand's)."""
        return bool(_DEAL_START.match(data, at)) if at < len(data) else final

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        content, crlf = content_width(width, self.contents)
        digits = content - 219
        raw = as_grid(block, width)
        checks = RowChecks(len(raw))
        check_line_end(checks, raw, content, crlf)
        numbers = raw[:, 6:6 + digits] - np.uint8(48)
        checks.add(numbers < 10)
        first = 22 + digits  # North's first card
        fixed = [(0, b"Deal #"), (6 + digits, b": " + _HEADS[0])]
        fixed += [(first + seat * _STEP - 15, b"\n" + _HEADS[seat]) for seat in range(1, 4)]
        pieces = _fixed_pieces(fixed)
        masks = np.empty((len(raw), 4), np.uint64)

        def work(a: int, b: int) -> None:
            part = raw[a:b]
            for column, expected in pieces:
                checks.add(_at(part, column, expected.dtype) == expected[0], a)
            hands = np.lib.stride_tricks.as_strided(
                part[:, first:], (b - a, 4, _HAND), (width, _STEP, 1), writeable=False)
            checks.add(hands[:, :, 2::3] == 32, a)  # a blank after each card but the last
            # each card's two characters as one uint16, looked up at once
            pairs = np.ndarray((b - a, 4, 13), np.uint16, part, first, (width, _STEP, 3))
            card = _CARD_OF_PAIR.take(pairs)  # (n, 4, 13)
            checks.add(card < 52, a)
            # high first: each card below the one before it (so none twice in a hand)
            checks.add(card[:, :, 1:] < card[:, :, :-1], a)
            sums = hand_sums(card)
            checks.add(sums.sum(axis=1, dtype=np.uint64) == FULL, a)  # every card once
            masks[a:b] = sums

        each_sub_block(len(raw), work)
        return DealArray(masks), checks.ok

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        """Full deals, numbered by their place in the output."""
        parts = [self._records(deals.masks[a:b], first_index + a + 1, digits)
                 for a, b, digits in _runs_of_digits(first_index, len(deals))]
        if not parts:
            return byte_view(np.empty(0, np.uint8))
        out = parts[0] if len(parts) == 1 else np.concatenate([p.reshape(-1) for p in parts])
        return byte_view(np.ascontiguousarray(out))

    @staticmethod
    def _records(masks: np.ndarray, first: int, digits: int) -> np.ndarray:
        """The records of deals numbered from ``first``, all ``digits`` long."""
        out = template_rows(len(masks), _template(digits))
        width = out.shape[1]
        put_consecutive(out[:, 6:6 + digits], first)
        start = 22 + digits
        # each card's two characters, a uint16 at every third byte of a hand
        cards = np.ndarray((len(masks), 4, 13), np.uint16, out, start, (width, _STEP, 3))

        if not _PAIR_TEXT:
            _PAIR_TEXT.append(_pair_text_table())

        def work(a: int, b: int) -> None:
            # each hand's cards high first, spades first, as card codes (no
            # sort), then their texts two cards at a time (three codes of 0 after)
            codes = hand_bytes(masks[a:b].reshape(-1), b"", _CODES).reshape(b - a, 4, 16)
            texts = _PAIR_TEXT[0].take(codes.view(np.uint16), axis=0)
            cards[a:b] = texts.reshape(b - a, 4, 16)[:, :, :13]

        each_sub_block(len(masks), work)
        return out

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter()


def _runs_of_digits(first_index: int, count: int) -> list[tuple[int, int, int]]:
    """The rows ``(a, b)`` of ``count`` deals numbered from ``first_index + 1``
    whose numbers have ``digits`` digits, a run each width."""
    runs = []
    a = 0
    while a < count:
        digits = len(str(first_index + a + 1))
        b = min(count, 10 ** digits - 1 - first_index)  # the last number of that width
        runs.append((a, b, digits))
        a = b
    return runs


class _PieceWriter:
    """The per-deal writer, a deal numbered by its place in the whole output."""

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals._io import ENCODING, ERRORS
        from dealerpp.deals.formats.listing import format_deal

        text = "".join(format_deal(deal, first_index + number)
                       for number, deal in enumerate(deals, 1))
        return text.encode(ENCODING, ERRORS)
