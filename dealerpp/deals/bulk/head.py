"""Formats read in bulk from the start of a file only.

Some formats hold state across records, so a record cannot be handed to the
per-deal reader on its own: a LIN board's calls may follow on the next
line, a listing's hand may go on after its line, a printcompact deal is
four lines. :class:`HeadHooks` reads such a file as fixed-width records
(of ``lines_per_record`` lines, one width per board-number width) from its
start while each passes the codec's checks, and from the first record that
does not (or the first line that is no record at all), hands the rest of
the file, as one stream, to the per-deal reader: it starts at a record's
start, where the reader has nothing to remember, so it gives the deals and
the first error the per-deal path gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from dealerpp.deals.bulk.array import DealArray
from dealerpp.deals.bulk.chunks import Chunks, rest_of
from dealerpp.deals.bulk.hooks import LineHooks, Segment, Slow

if TYPE_CHECKING:
    from dealerpp.deals.bulk.hooks import PerDeal


class HeadHooks(LineHooks):
    """Read fast from the file's start; see the module."""

    #: Lines of one record.
    lines_per_record = 1
    #: Whether a record is whole only once what follows it is known (the
    #: next must start another record: :meth:`follows`).
    needs_follower = False

    def record_widths(self) -> Sequence[int]:
        """The widths (line ends included) of a record the codec decodes."""
        return self.fast_widths()

    def follows(self, data: bytes, at: int, final: bool) -> bool:
        """Whether what starts at ``at`` (the end of ``data``: the file
        ends there when ``final``) leaves the record before it whole."""
        return True

    def decode(self, block: bytes | memoryview, width: int) -> tuple[DealArray, np.ndarray | None]:
        raise NotImplementedError

    def record_ends(self, data: bytes, start: int = 0) -> np.ndarray:
        """Where each whole record of ``data[start:]`` would end (after
        every ``lines_per_record``-th line end)."""
        ends = np.flatnonzero(np.frombuffer(data, np.uint8)[start:] == 10) + (start + 1)
        found: np.ndarray = ends[self.lines_per_record - 1::self.lines_per_record]
        return found

    def segments(self, source: Chunks, per_deal: PerDeal, filename: str | None,
                 first_board: int = 1) -> Iterator[Segment]:
        rest = b""
        line = 1
        offset = 0  # the file's byte at data[0]
        per_record = self.lines_per_record
        while True:
            data, final = source.read_after(rest)
            if not data:
                return
            ends = self.record_ends(data)
            usable = len(ends) - (1 if self.needs_follower and not final else 0)
            if usable <= 0 and not final:
                rest = data
                continue
            parts, count = self._fast_records(data, ends, max(usable, 0), final)
            yield from parts
            line += count * per_record
            at = int(ends[count - 1]) if count else 0
            if count == usable and not final:
                rest = data[at:]
                offset += at
                continue
            if at < len(data):
                stream = rest_of(data[at:], source)
                yield Slow(per_deal.read_stream(self.name, stream, filename, line,
                                                first_byte=offset + at))
            return

    def _fast_records(self, data: bytes, ends: np.ndarray, usable: int, final: bool
                      ) -> tuple[list[DealArray], int]:
        """The deals of the first records of ``data`` that pass, and how many."""
        starts = np.concatenate(([0], ends[:-1]))[:usable]
        lengths = ends[:usable] - starts
        widths = np.zeros(max(self.record_widths()) + 2, bool)  # by length: a fast one?
        widths[list(self.record_widths())] = True
        fast = widths[np.minimum(lengths, len(widths) - 1)]
        stop = usable if fast.all() else int(np.argmin(fast))
        parts: list[DealArray] = []
        count = 0
        change = (np.flatnonzero(np.diff(lengths[:stop])) + 1).tolist()
        for a, b in zip([0, *change], [*change, stop], strict=True):
            if a >= b:
                continue
            block = memoryview(data)[int(starts[a]):int(ends[b - 1])]
            deals, ok = self.decode(block, int(lengths[a]))
            if ok is not None:
                good = int(np.argmin(ok))
                parts.append(deals[:good])
                count = a + good
                break
            parts.append(deals)
            count = b
        # A record of a fast width that fails at once leaves an empty part:
        # it must not be the one trimmed below, the deal to drop is the last read.
        parts = [part for part in parts if len(part)]
        if count and self.needs_follower and not self.follows(data, int(ends[count - 1]), final):
            parts[-1] = parts[-1][:len(parts[-1]) - 1]
            count -= 1
        return [part for part in parts if len(part)], count
