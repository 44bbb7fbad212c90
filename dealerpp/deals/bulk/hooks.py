"""What a text format's codec may change in how the bulk path reads it.

The chunked converter (:mod:`dealerpp.deals.bulk.stream`) cuts a chunk of
text into lines, decodes runs of lines of one fast width as a block and
hands everything else to the per-deal reader. That suits a format of one
record a line (hex, giblib, oneline). A format with more structure says how
it differs by overriding a hook of :class:`LineHooks`, which every text
codec inherits, instead of the converter testing for its name: PBN (its
``[Deal "..."]`` games of two lines, games of other tags handed over whole,
dealer's printpbn games decoded in bulk, ``#`` copying the previous game)
does it in :mod:`dealerpp.deals.bulk.pbn`.

Each hook has a default that is right for one record a line; the per-deal
side (:mod:`dealerpp.deals.bulk.fallback`) calls :meth:`LineHooks.remember`
and :attr:`LineHooks.separator`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING, NamedTuple, Protocol

import numpy as np

from dealerpp.deals.bulk.array import DealArray

if TYPE_CHECKING:
    from dealerpp.deals.bulk.chunks import Chunks
    from dealerpp.deals.model import Deal
    from dealerpp.deals.options import WriteOptions


class Slow:
    """Deals of the per-deal path, read lazily (each is written before the
    next is read, as the per-deal path does, so errors come in its order)."""

    __slots__ = ("deals",)

    def __init__(self, deals: Iterator[Deal]) -> None:
        self.deals = deals


Segment = DealArray | Slow


class Units(NamedTuple):
    """The units of a chunk (a line each, unless a format joins lines): where
    each starts and ends, its fast width (0: per deal), its first line; and
    the bytes of the chunk they cover."""

    starts: np.ndarray
    ends: np.ndarray
    keys: np.ndarray
    numbers: np.ndarray
    end: int


class Lead(NamedTuple):
    """Records at the head of a chunk a format decodes its own way: their
    segments (lazy: each is written before the next is made), the bytes and
    the lines they take."""

    segments: Iterator[Segment]
    consumed: int
    lines: int


class PerDeal(Protocol):
    """The per-deal path as a codec's hooks are given it: the format's own
    reader of a piece of the file (``read``) or of its rest (``read_stream``),
    told what the fast path read last (``fast_read``) and how many records
    (``fast_rows``, in order with the pieces it reads), and its writer
    (``dumps``). :class:`dealerpp.deals.bulk.fallback.ModelPerDeal` is the
    one the converter uses."""

    def read(self, fmt: str, data: bytes, filename: str | None, first_line: int,
             first_byte: int, first_board: int = 1) -> Iterator[Deal]: ...

    def read_stream(self, fmt: str, stream: IO[bytes], filename: str | None,
                    first_line: int, first_board: int = 1,
                    first_byte: int | None = None) -> Iterator[Deal]: ...

    def fast_read(self, fmt: str, last_record: bytes) -> None: ...

    def fast_rows(self, rows: int) -> None: ...

    def dumps(self, fmt: str, deals: Sequence[Deal], first_index: int) -> bytes: ...


class PieceWriter(Protocol):
    """Writes batches of one output's slow deals (``first_index``: the deals
    written before), its errors naming a deal of the batch (from 1)."""

    def dumps(self, deals: Sequence[Deal], first_index: int) -> bytes: ...


class LineHooks:
    """The defaults: one record a line, of one of the widths ``contents``
    (without its line end), nothing that spans records."""

    name: str
    contents: tuple[int, ...]
    #: Bytes that open structure spanning records (a giblib ``{`` comment):
    #: from the line that holds the first, the file goes per deal.
    context: tuple[bytes, ...] = ()
    #: Put between two pieces of output the per-deal writer makes (PBN: the
    #: blank line between games).
    separator: bytes = b""

    def fast_widths(self) -> list[int]:
        """The widths of a fast unit, line end (LF or CR LF) included."""
        return [c + 1 for c in self.contents] + [c + 2 for c in self.contents]

    def completed(self, data: bytes) -> bytes:
        """The file's last chunk, as the per-deal reader would end it."""
        return data

    def lead(self, data: bytes, final: bool, line: int, per_deal: PerDeal,
             filename: str | None) -> Lead | None:
        """Records at the head of the chunk to decode another way, or None."""
        return None

    def lead_needs_more(self, data: bytes) -> bool:
        """Whether :meth:`lead` took nothing of a chunk (not the file's last)
        only for want of a whole record: more is read before going on."""
        return False

    def chunk_end(self, data: bytes, end: int) -> int:
        """Where a chunk that is not the file's last stops: the records
        before it are whole (``end``: after its last full line)."""
        return end

    def uniform_record(self, data: bytes, width: int) -> tuple[int, int] | None:
        """The width and number of lines of each record, when the chunk
        starts with a line ``width`` bytes long and all its records are like
        it; None: it cannot be one block."""
        return width, 1

    def rows_are_records(self, rows: np.ndarray, lines_per_record: int) -> bool:
        """Whether a uniform block's rows (their first bytes: ``rows``) are
        records of this format as they stand."""
        return True

    def units(self, data: np.ndarray, units: Units, final: bool) -> Units:
        """The units of a chunk of records that differ: by default its lines."""
        return units

    def lines_per_row(self, width: int) -> int:
        """The lines of a fast unit of ``width`` bytes."""
        return 1

    def slow_piece(self, data: bytes, start: int, stop: int, line: int, per_deal: PerDeal,
                   filename: str | None) -> Iterator[Segment]:
        """A piece the fast decoder does not take (``line``: its first)."""
        yield Slow(per_deal.read(self.name, data[start:stop], filename, line, start))

    def segments(self, source: Chunks, per_deal: PerDeal, filename: str | None,
                 first_board: int = 1) -> Iterator[Segment] | None:
        """All the segments of a file, for a format that reads a whole file
        its own way (LIN: only a head of deal-only lines is read fast); None:
        the converter cuts it into lines. ``first_board``: the board of the
        file's first record, for a format numbered by place."""
        return None

    def piece_writer(self) -> PieceWriter | None:
        """The per-deal writer of the bulk path's slow deals, for a format
        whose writer keeps state over the whole output or numbers deals by
        their place in it (LIN); None: ``dealerpp.deals.write`` a batch at
        a time."""
        return None

    def begin(self, src_fmt: str, options: WriteOptions) -> None:
        """A new output, of deals read from ``src_fmt``, written with
        ``options`` (an html page's title)."""

    def copied(self, text: bytes, first_index: int) -> bytes:
        """What a copy into this format writes of records read in bulk as
        ``text`` (``first_index``: the deals written before), as the per-deal
        writer writes them back."""
        raise NotImplementedError(self.name)

    def ending(self, total: int) -> bytes:
        """What the output ends with after its last deal (``total``: the
        deals written), as the per-deal writer ends it (.bhg's blank first
        line, written even for no deals)."""
        return b""

    def remember(self, last_record: bytes, previous: dict[str, str]) -> None:
        """What the last record the fast path read leaves for the records
        after it (dealerpp.deals.options.ReadOptions.previous)."""
