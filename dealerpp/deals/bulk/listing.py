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
    column_runs,
    content_width,
    each_sub_block,
    hand_bytes,
    hand_sums,
    template_rows,
)
from dealerpp.deals.bulk.head import HeadHooks

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


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Suit letter -> 13 * suit (clubs 0), rank -> rank, else 128 (no card);
    and the two characters of each card."""
    suits = np.full(256, 128, np.uint8)
    ranks = np.full(256, 128, np.uint8)
    text = np.zeros((52, 2), np.uint8)
    for suit, letter in enumerate(_SUITS):
        suits[letter] = 13 * suit
        for rank, char in enumerate(_RANKS):
            text[13 * suit + rank] = (letter, char)
    for rank, char in enumerate(_RANKS):
        ranks[char] = rank
    return suits, ranks, text


_SUIT_OF, _RANK_OF, _CARD_TEXT = _tables()


# A card's code (13 * suit + rank, clubs 0) as the symbol of its rank in its
# suit (blocks.hand_bytes: spades first); its suit letter and rank character
# by code, as bytes.translate tables.
_CODES = tuple(bytes(13 * (3 - suit) + rank for rank in range(13)) for suit in range(4))
_SUIT_LETTER = bytes(_SUITS[code // 13] if code < 52 else 0 for code in range(256))
_RANK_LETTER = bytes(_RANKS[code % 13] if code < 52 else 0 for code in range(256))


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
        for seat in range(1, 4):
            fixed += [(first + seat * _STEP - 15, b"\n" + _HEADS[seat])]
        runs = column_runs([(column + i, bytes([char])) for column, text in fixed
                      for i, char in enumerate(text)])
        masks = np.empty((len(raw), 4), np.uint64)

        def work(a: int, b: int) -> None:
            part = raw[a:b]
            for column, expected in runs:
                checks.add(part[:, column:column + len(expected)] == expected, a)
            hands = np.lib.stride_tricks.as_strided(
                part[:, first:], (b - a, 4, _HAND), (width, _STEP, 1), writeable=False)
            checks.add(hands[:, :, 2::3] == 32, a)  # a blank after each card but the last
            card = _SUIT_OF[hands[:, :, 0::3]] + _RANK_OF[hands[:, :, 1::3]]  # (n, 4, 13)
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
        count = len(deals)
        numbers = np.arange(first_index + 1, first_index + count + 1, dtype=np.int64)
        digits = np.ones(count, np.int64)
        for power in range(1, 19):
            digits += numbers >= 10 ** power
        kinds = np.unique(digits).tolist()
        parts = []
        for kind in kinds:  # numbers rise: each kind is one run of rows
            rows = np.flatnonzero(digits == kind)
            parts.append(self._records(deals.masks[rows[0]:rows[-1] + 1], numbers[rows], kind))
        out = parts[0] if len(parts) == 1 else np.concatenate([p.reshape(-1) for p in parts])
        return byte_view(np.ascontiguousarray(out))

    @staticmethod
    def _records(masks: np.ndarray, numbers: np.ndarray, digits: int) -> np.ndarray:
        out = template_rows(len(masks), _template(digits))
        width = out.shape[1]
        for column in range(digits):
            out[:, 6 + column] = (numbers // 10 ** (digits - 1 - column)) % 10 + 48
        first = 22 + digits

        def work(a: int, b: int) -> None:
            # each hand's cards high first, spades first, as card codes (no sort)
            codes = hand_bytes(masks[a:b].reshape(-1), b"", _CODES)[:, :13].tobytes()
            for offset, letters in enumerate((_SUIT_LETTER, _RANK_LETTER)):
                target = np.lib.stride_tricks.as_strided(
                    out[a:, first + offset:], (b - a, 4, 13), (width, _STEP, 3))
                target[:] = np.frombuffer(codes.translate(letters), np.uint8).reshape(b - a, 4, 13)

        each_sub_block(len(masks), work)
        return out

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter()


class _PieceWriter:
    """The per-deal writer, a deal numbered by its place in the whole output."""

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals._io import ENCODING, ERRORS
        from dealerpp.deals.formats.listing import format_deal

        text = "".join(format_deal(deal, first_index + number)
                       for number, deal in enumerate(deals, 1))
        return text.encode(ENCODING, ERRORS)
