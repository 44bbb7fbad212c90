"""Output files written whole or not at all.

A named output is written to a temporary file beside it and renamed over it
at the end, so a reader never sees half a file and an error (bad input, a
full disk, Ctrl-C) leaves the old file as it was. Every command that writes a
file goes through ``atomic_writer``.

The temporary name is made here rather than by ``tempfile``, which costs
more to import than a small run of dealerpp takes.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_writer(path: str | os.PathLike[str], buffering: int = 1 << 20) -> Iterator[IO[bytes]]:
    """A binary file to write ``path``'s new content to; it replaces ``path``
    when the block ends without an exception, and vanishes otherwise."""
    target = Path(path)
    tmp, fd = _create_beside(target)
    try:
        with os.fdopen(fd, "wb", buffering=buffering) as handle:
            yield handle
        # The new file keeps the old one's permissions, or gets the usual ones.
        os.chmod(tmp, target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the content of ``path`` with ``data``, all at once."""
    with atomic_writer(path) as handle:
        handle.write(data)


def _create_beside(target: Path) -> tuple[str, int]:
    """A new, empty, private file next to ``target`` (so the rename stays on
    one file system): its name and descriptor."""
    for attempt in itertools.count():
        tmp = str(target.parent / f".{target.name}.{os.getpid()}.{attempt}.tmp")
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
    raise AssertionError("unreachable")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
