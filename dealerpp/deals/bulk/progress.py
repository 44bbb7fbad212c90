"""A one-line progress bar on stderr, drawn only when stderr is a terminal.

``Progress(total_bytes)`` then ``update(done_bytes, deals)`` as work goes on
and ``close()`` at the end. Redraws at most ten times a second, so calling
``update`` per chunk costs nothing measurable.
"""

from __future__ import annotations

import sys
import time
from typing import IO

_WIDTH = 30
_INTERVAL = 0.1


class Progress:
    def __init__(self, total: int | None, stream: IO[str] | None = None,
                 enabled: bool | None = None) -> None:
        self.total = total or None
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = _is_terminal(self.stream)
        self.enabled = enabled
        self.started = time.monotonic()
        self.last_draw = 0.0
        self.drawn = False
        self.done = 0
        self.deals = 0

    def update(self, done: int, deals: int) -> None:
        self.done, self.deals = done, deals
        now = time.monotonic()
        if self.enabled and now - self.last_draw >= _INTERVAL:
            self.last_draw = now
            self._draw(now)

    def close(self) -> None:
        if self.enabled and self.drawn:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()

    def line(self, now: float) -> str:
        """The text of the bar (without the carriage return)."""
        elapsed = max(now - self.started, 1e-9)
        rate = f"{self.deals / elapsed:,.0f} deals/s"
        if self.total:
            fraction = min(self.done / self.total, 1.0)
            filled = int(fraction * _WIDTH)
            bar = "#" * filled + "-" * (_WIDTH - filled)
            return f"[{bar}] {fraction:4.0%} {self.deals:,} deals {rate}"
        return f"{self.done / 1e6:,.1f} MB {self.deals:,} deals {rate}"

    def _draw(self, now: float) -> None:
        self.stream.write("\r" + self.line(now))
        self.stream.flush()
        self.drawn = True


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
