""".bhg on the bulk path: a line of 52 card letters a board (``A``-``Z`` the
spades and hearts by card number, ``a``-``z`` the diamonds and clubs), the
dealer's 13 first, then the others clockwise; the file starts with a blank
line (docs/formats.md). The boards are numbered by place, so a record's
hands land on their seats only once its board is known
(:meth:`BhgCodec.placed`). A line that is not 52 letters naming each card
once (a lower-case letter where it should not be, blanks, a card twice) is
the per-deal reader's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import FULL, DealArray
from dealerpp.deals.bulk.blocks import (
    CARD_BITS,
    OUTPUT_BYTES,
    byte_view,
    each_sub_block,
    hand_bytes,
)
from dealerpp.deals.bulk.lines import Decoded, RecordLines, gather

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PieceWriter
    from dealerpp.deals.model import Deal

_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))  # card numbers 1..52


def _card_of_letter() -> np.ndarray:
    """Letter -> the model's card (52 - card number); 255 for any other byte."""
    table = np.full(256, 255, np.uint8)
    for number, letter in enumerate(_LETTERS, 1):
        table[letter] = 52 - number
    return table


_CARD = _card_of_letter()
_NOT_A_LETTER = 1 << 56  # past the cards: a hand's sum with one is no full hand's


def _letter_bits() -> tuple[np.ndarray, np.ndarray]:
    """A letter's card bit (``_NOT_A_LETTER`` for any other byte), and two
    bytes read as one uint16 (the machine's byte order) -> their two bits
    added: a hand's 13 letters are six lookups and one."""
    one = np.where(_CARD == 255, np.uint64(_NOT_A_LETTER),
                   CARD_BITS.take(_CARD.astype(np.intp))).astype(np.uint64)
    pairs = np.arange(1 << 16, dtype=np.uint16).view(np.uint8).reshape(-1, 2)
    return one, one.take(pairs[:, 0].astype(np.intp)) + one.take(pairs[:, 1].astype(np.intp))


_BITS: list[np.ndarray] = []  # made on first use (_letter_bits)
# A suit's letter of each rank (blocks.hand_bytes: spades first, rank 0 the
# two): the ace of spades is card number 1, the two of clubs 52.
_SYMBOLS = tuple(bytes(_LETTERS[13 * suit + 12 - rank] for rank in range(13))
                 for suit in range(4))


def _rotation(first_board: int, count: int) -> np.ndarray:
    """``(count, 4)``: the seat of each hand of a line (the dealer's first),
    boards from ``first_board`` (board b's dealer is seat (b - 1) % 4)."""
    dealers = (np.arange(count, dtype=np.int64) + (first_board - 1)) % 4
    seats: np.ndarray = (dealers[:, None] + np.arange(4)) % 4
    return seats


class BhgCodec(RecordLines):
    """A line of 52 letters a board, from its dealer clockwise."""

    name = "bhg"
    positional = True
    write_rows = OUTPUT_BYTES // 53  # its output, 53 bytes a deal

    def __init__(self) -> None:
        self._first: int | None = None  # the output's first board (the writer's numbering)

    def decode_records(self, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Decoded:
        start, end = starts[:, 0], ends[:, 0]
        length = end - start
        crlf = length == 54
        ok = (length == 53) | crlf
        rows = gather(arr, start, 54, 10)
        ok &= rows[np.arange(len(rows)), np.where(crlf, 53, 52)] == 10
        ok &= ~crlf | (rows[:, 52] == 13)
        hands = _hand_sums(rows)
        # 52 letters' bits add up to every card only when each names one once
        ok &= hands.sum(axis=1, dtype=np.uint64) == FULL
        # (the file's last line may have no line end: one byte is blank only if LF)
        blank = (((length == 1) & (rows[:, 0] == 10))
                 | ((length == 2) & (rows[:, 0] == 13) & (rows[:, 1] == 10)))
        return Decoded(hands, ok, skip=blank)

    def placed(self, masks: np.ndarray, first_board: int) -> np.ndarray:
        out = np.empty_like(masks)
        np.put_along_axis(out, _rotation(first_board, len(masks)), masks, axis=1)
        return out

    def encode(self, deals: DealArray, first_index: int = 0) -> memoryview:
        """Boards numbered from the output's first deal's board (1 without
        one), as the per-deal writer numbers them; a blank line first."""
        if first_index == 0:
            self._first = 1 if deals.boards is None or not len(deals) else int(deals.boards[0])
        first = (self._first or 1) + first_index
        count = len(deals)
        seats = _rotation(first, count)
        hands = np.take_along_axis(deals.masks, seats, axis=1)
        lead = 1 if first_index == 0 else 0
        out = np.empty(lead + 53 * count, np.uint8)
        out[:lead] = 10
        rows = out[lead:].reshape(count, 53)
        rows[:, 52] = 10

        def work(a: int, b: int) -> None:
            # a hand's letters in card-number order are hand_bytes' order
            letters = hand_bytes(hands[a:b].reshape(-1), b"", _SYMBOLS).reshape(b - a, 4, 16)
            for hand in range(4):
                rows[a:b, 13 * hand:13 * hand + 13] = letters[:, hand, :13]

        each_sub_block(count, work)
        return byte_view(out)

    @property
    def first_written(self) -> int | None:
        """The first board of the last output (``convert``'s note on how to
        read it back), None before any."""
        return self._first

    def ending(self, total: int) -> bytes:
        return b"" if total else b"\n"  # the blank first line

    def piece_writer(self) -> PieceWriter:
        return _PieceWriter(self)


def _hand_sums(rows: np.ndarray) -> np.ndarray:
    """``(N, 4)``: the sums of each hand's 13 letters' bits in rows of a
    line's bytes (a byte that is no letter adds ``_NOT_A_LETTER``). A hand
    starts at an odd byte every other time: numpy reads such uint16 as well."""
    if not _BITS:
        _BITS.extend(_letter_bits())
    one, two = _BITS
    rows = np.ascontiguousarray(rows)
    sums = np.empty((4, len(rows)), np.uint64)
    for hand in range(4):
        at = 13 * hand
        pairs = np.ndarray((6, len(rows)), np.uint16, rows, at, (2, rows.strides[0]))
        np.add.reduce(two.take(pairs), axis=0, out=sums[hand])
        sums[hand] += one.take(rows[:, at + 12])
    hands: np.ndarray = sums.T
    return hands


class _PieceWriter:
    """The per-deal writer for pieces of one output: the blank line once,
    boards numbered from the output's first deal (shared with the codec's
    encoder, whichever writes first)."""

    def __init__(self, codec: BhgCodec) -> None:
        self.codec = codec

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes:
        from dealerpp.deals import model
        from dealerpp.deals.formats._machines import bhg_hand, owners_of

        if first_index == 0:
            self.codec._first = deals[0].board or 1 if deals else 1
        first = self.codec._first or 1
        lines = [""] if first_index == 0 else []
        for index, deal in enumerate(deals):
            if not deal.is_full():
                owners_of(deal, index + 1)  # its error
            dealer = model.board_dealer_vul(first + first_index + index)[0]
            lines.append("".join([bhg_hand(deal.masks[(dealer + step) % 4])
                                  for step in range(4)]))
        return ("\n".join(lines) + "\n").encode("ascii")
