"""``DealArray``: many deals as columns of numpy arrays.

The primary column is ``masks``, an ``(N, 4)`` uint64 array of hand masks in
the order N E S W with the bit numbering of the deal model and of .deals
(bit 0 = club two ... bit 51 = spade ace), so a .deals file *is* this array
on disk. The ``(N, 52)`` owner view (seat 0-3 per card, 4 = in no hand) is
built on demand with ``np.unpackbits``.

Optional columns carry what a fast-path record may hold besides the cards:
``tricks`` (giblib trick strings, ``(N, 20)`` uint8 ASCII, upper case) and
``boards`` (``(N,)`` int64 board numbers, 1 and up: a 26-hex ``-D`` suffix
gives 1-16, a club format numbered by position any board of its set), which
come with dealer and vulnerability by the standard cycle.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal

FULL = np.uint64((1 << 52) - 1)
NO_SEAT = 4
_LITTLE = sys.byteorder == "little"


def _swar_popcount(words: np.ndarray) -> np.ndarray:
    """Bits set in each uint64 (numpy before 2.0 has no bitwise_count)."""
    x = np.asarray(words, np.uint64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    counts: np.ndarray = ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.uint8)
    return counts


popcount = getattr(np, "bitwise_count", _swar_popcount)


class DealArray:
    """A batch of deals as an ``(N, 4)`` uint64 mask array plus optional columns."""

    __slots__ = ("boards", "masks", "text", "title", "tricks")

    def __init__(self, masks: Any, tricks: np.ndarray | None = None,
                 boards: np.ndarray | None = None) -> None:
        self.masks = np.ascontiguousarray(masks, dtype=np.uint64).reshape(-1, 4)
        # What the rows' source calls their set (PBN's Event, Site and Date
        # of the first game that gives one), for an html page's title; asked
        # only while a page has none (it may read the rows' source again).
        self.title: Callable[[], str | None] | None = None
        # The rows' records as read, when they are all of some source's text
        # (printpbn games): what a copy into the same format writes back.
        self.text: bytes | None = None
        self.tricks = tricks
        self.boards = None if boards is None else np.asarray(boards, np.int64)
        for name, column in (("tricks", tricks), ("boards", boards)):
            if column is not None and len(column) != len(self.masks):
                raise ValueError(f"{name} has {len(column)} rows, masks {len(self.masks)}")

    # -- construction -------------------------------------------------------
    @classmethod
    def empty(cls) -> DealArray:
        return cls(np.zeros((0, 4), np.uint64))

    @classmethod
    def from_owner(cls, owner: np.ndarray) -> DealArray:
        """From an ``(N, 52)`` owner view (0-3 = N E S W, anything else = no hand)."""
        return cls(masks_from_owner(owner))

    @classmethod
    def from_deals(cls, deals: Iterable[Deal]) -> DealArray:
        """The cards of model deals (metadata other than the tricks is dropped)."""
        deals = list(deals)
        masks = np.array([d.masks for d in deals], dtype=np.uint64).reshape(-1, 4)
        tricks = None
        if deals and all(d.tricks is not None for d in deals):
            from dealerpp.deals.formats.giblib import trick_text

            text = "".join(trick_text(d.tricks, d.masks[0].bit_count()) for d in deals
                           if d.tricks is not None)
            tricks = np.frombuffer(text.encode("ascii"), np.uint8).reshape(-1, 20).copy()
        return cls(masks, tricks=tricks)

    @staticmethod
    def concat(parts: Sequence[DealArray]) -> DealArray:
        """Rows of several arrays; a column survives only if every part has it."""
        if not parts:
            return DealArray.empty()
        masks = np.concatenate([p.masks for p in parts])
        tricks = boards = None
        if all(p.tricks is not None for p in parts):
            tricks = np.concatenate([p.tricks for p in parts if p.tricks is not None])
        if all(p.boards is not None for p in parts):
            boards = np.concatenate([p.boards for p in parts if p.boards is not None])
        return DealArray(masks, tricks, boards)

    # -- views --------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.masks)

    def __getitem__(self, index: Any) -> DealArray:
        """Rows by slice, integer array or boolean mask (always a DealArray)."""
        if isinstance(index, (int, np.integer)):
            index = slice(int(index), int(index) + 1 or None)
        pick = _pick_rows(index)
        return DealArray(self.masks[pick],
                         None if self.tricks is None else self.tricks[pick],
                         None if self.boards is None else self.boards[pick])

    def owner(self) -> np.ndarray:
        """``(N, 52)`` uint8: the seat (0-3) holding each card, 4 when none does.

        Assumes no card is in two hands (see :meth:`problems`)."""
        return owner_view(self.masks)

    def counts(self) -> np.ndarray:
        """``(N, 4)`` uint8: cards per hand."""
        return popcount(self.masks)

    def is_full(self) -> np.ndarray:
        """``(N,)`` bool: 13 cards a hand, every card dealt once."""
        return full_rows(self.masks)

    def problems(self) -> np.ndarray:
        """``(N,)`` bool: rows that are no deal (bits 52-63, a card twice, a hand over 13)."""
        m = self.masks
        high = (m & ~FULL).any(axis=1)
        total = popcount(m).astype(np.int16).sum(axis=1)
        union = popcount(m[:, 0] | m[:, 1] | m[:, 2] | m[:, 3])
        over = (popcount(m) > 13).any(axis=1)
        broken: np.ndarray = high | (total != union) | over
        return broken

    def to_deals(self) -> list[Deal]:
        """Model deals: the giblib trick strings as ``Deal.tricks`` tables, a
        board number as board, dealer and vulnerability (as the per-deal
        readers do)."""
        from dealerpp.deals.formats.giblib import tricks_of_text
        from dealerpp.deals.model import Deal, board_dealer_vul

        tricks = None if self.tricks is None else [bytes(t).decode("ascii") for t in self.tricks]
        boards = None if self.boards is None else self.boards.tolist()
        deals = []
        for i, row in enumerate(self.masks.tolist()):
            meta: dict[str, Any] = {}
            if tricks is not None:
                meta["tricks"] = tricks_of_text(tricks[i], row[0].bit_count())
            if boards is not None:
                board = boards[i]
                meta["board"] = board
                meta["dealer"], meta["vul"] = board_dealer_vul(board)
            deals.append(Deal(tuple(row), **meta))  # type: ignore[arg-type]
        return deals

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealArray):
            return NotImplemented
        return (np.array_equal(self.masks, other.masks)
                and _same_column(self.tricks, other.tricks)
                and _same_column(self.boards, other.boards))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = [name for name in ("tricks", "boards") if getattr(self, name) is not None]
        return f"DealArray({len(self)} deals{', ' + ', '.join(extra) if extra else ''})"


def _pick_rows(index: Any) -> Any:
    if isinstance(index, slice):
        return index
    return np.asarray(index)


def _same_column(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return np.array_equal(a, b)


# -- mask <-> owner conversions ----------------------------------------------

def full_rows(masks: np.ndarray) -> np.ndarray:
    """``(N,)`` bool: rows that are complete deals. 13 cards in each hand and
    all 52 cards in their union leave no room for a card twice."""
    counts_ok = (popcount(masks) == 13).all(axis=1)
    union = masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3]
    full: np.ndarray = counts_ok & (union == FULL)
    return full


def owner_view(masks: np.ndarray) -> np.ndarray:
    """``(N, 52)`` owner view of any rows without a card twice."""
    bits = _unpack(masks)  # (N, 4, 64) of 0/1
    owner = bits[:, 1, :52] + 2 * bits[:, 2, :52] + 3 * bits[:, 3, :52]
    present = bits[:, 0, :52] | bits[:, 1, :52] | bits[:, 2, :52] | bits[:, 3, :52]
    owner += (1 - present) * NO_SEAT
    shown: np.ndarray = owner
    return shown


def owner_view_full(masks: np.ndarray) -> np.ndarray:
    """``(N, 52)`` owner view of complete deals only, from two bit planes
    (seat bit 0 = E|W, seat bit 1 = S|W): half the unpacking of the general case."""
    planes = np.empty((len(masks), 2), np.uint64)
    np.bitwise_or(masks[:, 1], masks[:, 3], out=planes[:, 0])
    np.bitwise_or(masks[:, 2], masks[:, 3], out=planes[:, 1])
    bits = _unpack(planes)  # (N, 2, 64)
    owner = bits[:, 1, :52] << 1
    owner |= bits[:, 0, :52]
    return owner


def _unpack(words: np.ndarray) -> np.ndarray:
    """``(N, K)`` uint64 -> ``(N, K, 64)`` uint8 bits, bit 0 first."""
    little = words.astype("<u8", copy=False)
    raw = np.ascontiguousarray(little).view(np.uint8).reshape(len(words), -1)
    return np.unpackbits(raw, axis=1, bitorder="little").reshape(len(words), -1, 64)


def masks_from_owner(owner: np.ndarray) -> np.ndarray:
    """``(N, 4)`` masks of an ``(N, 52)`` owner view (values other than 0-3: no hand)."""
    owner = np.asarray(owner, dtype=np.uint8)
    masks = np.empty((len(owner), 4), np.uint64)
    for seat in range(4):
        masks[:, seat] = _pack(owner == seat)
    return masks


def masks_from_owner_full(owner: np.ndarray) -> np.ndarray:
    """``(N, 4)`` masks of an owner view where every card has a seat 0-3."""
    lo = _pack(owner & 1)
    hi = _pack(owner >> 1)
    masks = np.empty((len(owner), 4), np.uint64)
    masks[:, 0] = ~(lo | hi) & FULL
    masks[:, 1] = lo & ~hi
    masks[:, 2] = hi & ~lo
    masks[:, 3] = lo & hi
    return masks


def _pack(flags: np.ndarray) -> np.ndarray:
    """``(N, 52)`` 0/1 (or bool) -> ``(N,)`` uint64 with card c at bit c."""
    padded = np.zeros((len(flags), 64), np.uint8)
    padded[:, :52] = flags
    packed = np.packbits(padded, axis=1, bitorder="little")
    return packed.view("<u8").reshape(-1).astype(np.uint64, copy=False)


def holding_text(symbol: Callable[[int], bytes], width: int) -> tuple[np.ndarray, np.ndarray]:
    """For each 13-bit holding: the symbols of its ranks (``symbol(rank)``,
    rank 12 the ace) ace first, zero bytes after, ``width`` wide; and how
    many bytes they take. Made a rank at a time over all 8,192 holdings (a
    loop over the holdings took a sixth of a second)."""
    holdings = np.arange(8192)
    table = np.zeros((8192, width), np.uint8)
    used = np.zeros(8192, np.int64)
    for rank in range(12, -1, -1):
        held = np.flatnonzero(holdings >> rank & 1)
        symbols = symbol(rank)
        for offset, byte in enumerate(symbols):
            table[held, used[held] + offset] = byte
        used[held] += len(symbols)
    return table, used
