"""Output files that behave like a shell's ``> FILE``, only safer.

What happens depends on what the name is when the output is opened:

- a regular file, or no file yet: the new content goes to a temporary file
  beside it and is renamed over it at the end, so a reader never sees half a
  file and an error (bad input, a full disk, Ctrl-C, SIGTERM) leaves the old
  file as it was; the old file's permission bits are kept;
- a symbolic link: it is followed, as the shell does; the link stays and its
  target gets the content (replaced atomically as above when it is a regular
  file);
- a device, FIFO or socket: opened and written, never replaced (``-o
  /dev/null`` stays a device);
- the input itself (the same device and inode, however it is named): refused
  with ``SameFileError`` before anything is written.

Where the system allows (Linux's ``O_TMPFILE``), the temporary file has no
name until it is complete: it is linked in beside the target and renamed
over it in one step at the end, so a process killed outright (SIGKILL, the
out-of-memory killer) leaves nothing behind. Elsewhere it is a named file,
and temporary files still open are listed in ``_unfinished``, so a signal
watcher on another thread can remove them (``remove_unfinished``) even when
the main thread is somewhere no ``finally`` will run; a lock keeps it from
racing a rename or the creation of a new one. The temporary name is made here rather than by
``tempfile``, which costs more to import than a small run of dealerpp takes.
"""

from __future__ import annotations

import _thread
import errno
import itertools
import os
import stat
from contextlib import contextmanager, suppress

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import IO

_unfinished: set[str] = set()
_lock = _thread.allocate_lock()  # guards _unfinished and _closed
_closed = False  # set for good when the process is about to end


class SameFileError(OSError):
    """The output named is one of the inputs: writing it would destroy the input."""

    def __init__(self, output: str) -> None:
        super().__init__(errno.EINVAL, "it is also the input; write somewhere else", output)


@contextmanager
def atomic_writer(path: str | os.PathLike[str], buffering: int = 1 << 20, *,
                  inputs: Iterable[str | os.PathLike[str] | int] = ()
                  ) -> Iterator[IO[bytes]]:
    """A binary file to write ``path``'s new content to (see the module's
    docstring for what each kind of ``path`` gets).

    ``inputs`` are the paths (or open descriptors) the content is read from;
    an output that is one of them raises ``SameFileError``. An OSError raised
    while writing names ``path`` when it names no file itself.
    """
    name = os.fspath(path)
    if not name:  # as the shell's `> ""`: no such file (not the current folder)
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    existing = _stat_or_none(name)
    if existing is not None:
        _refuse_if_input(name, existing, inputs)
    try:
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            with open(name, "wb", buffering=buffering) as stream:
                yield stream
        else:
            with _replacing(os.path.realpath(name), existing, buffering) as handle:
                yield handle
    except OSError as error:
        if error.filename is None:
            error.filename = name
        raise


def write_atomically(path: str | os.PathLike[str], data: bytes, *,
                     inputs: Iterable[str | os.PathLike[str] | int] = ()) -> None:
    """Replace the content of ``path`` with ``data``, all at once."""
    with atomic_writer(path, inputs=inputs) as handle:
        handle.write(data)


def refuse_same_file(output: str | os.PathLike[str],
                     inputs: Iterable[str | os.PathLike[str] | int]) -> None:
    """Raise ``SameFileError`` if ``output`` is one of ``inputs`` (``-`` is
    standard input): for a command that checks before it starts reading."""
    name = os.fspath(output)
    found = _stat_or_none(name)
    if found is not None and name != "-":
        _refuse_if_input(name, found, inputs)


def _refuse_if_input(output: str, found: os.stat_result,
                     inputs: Iterable[str | os.PathLike[str] | int]) -> None:
    """Raise ``SameFileError`` if ``output`` (whose stat is ``found``) is one
    of ``inputs``. Only regular files count: reading and writing the same
    device (``/dev/null``, a terminal) destroys nothing."""
    if not stat.S_ISREG(found.st_mode):
        return
    for source in inputs:
        if source == "-":
            source = 0
        other = _stat_or_none(source)
        if other is not None and (other.st_dev, other.st_ino) == (found.st_dev, found.st_ino):
            raise SameFileError(output)


def remove_unfinished(*, for_good: bool = False) -> None:
    """Delete every temporary file still being written; ``for_good`` (the
    process is about to exit) also refuses to start any new one."""
    global _closed
    with _lock:
        _closed = _closed or for_good
        for tmp in list(_unfinished):
            with suppress(OSError):
                os.unlink(tmp)
            _unfinished.discard(tmp)


@contextmanager
def _replacing(target: str, existing: os.stat_result | None,
               buffering: int) -> Iterator[IO[bytes]]:
    """Write a temporary file beside ``target`` and rename it over ``target``
    at the end, or remove it on any exception (signals included)."""
    with _lock:
        if _closed:
            raise InterruptedError(errno.EINTR, "the run is being stopped", target)
        fd = _create_unnamed(target)
        tmp: str | None = None
        if fd is None:
            tmp, fd = _create_beside(target)
            _unfinished.add(tmp)
    try:
        with os.fdopen(fd, "wb", buffering=buffering) as handle:
            yield handle
            handle.flush()
            # The new file keeps the old one's permissions, or gets the usual ones.
            mode = stat.S_IMODE(existing.st_mode) if existing is not None else 0o666 & ~_umask()
            os.fchmod(fd, mode)
            with _lock:
                if tmp is None and not _closed:  # named now, for the rename
                    tmp = _link_beside(fd, target)
                    _unfinished.add(tmp)
                if tmp in _unfinished:  # else a signal watcher has removed it
                    os.replace(tmp, target)
                    _unfinished.discard(tmp)
    finally:
        with _lock:
            if tmp in _unfinished:
                with suppress(OSError):
                    os.unlink(tmp)
                _unfinished.discard(tmp)


def _create_unnamed(target: str) -> int | None:
    """A file without a name yet, in ``target``'s folder, to be linked in
    when complete (``O_TMPFILE``); None where the system or the file system
    cannot make one, or ``/proc`` (the way to link it) is missing."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag:
        return None
    try:
        fd = os.open(os.path.dirname(target) or ".", flag | os.O_WRONLY, 0o600)
    except OSError:
        return None
    if not os.path.exists(f"/proc/self/fd/{fd}"):
        os.close(fd)
        return None
    return fd


def _link_beside(fd: int, target: str) -> str:
    """Give the unnamed file ``fd`` a temporary name beside ``target``.

    The link follows ``/proc/self/fd/N`` to the file (``linkat`` with
    ``AT_SYMLINK_FOLLOW``, which needs no privilege); ``os.link`` asks for
    that only when given a folder descriptor."""
    folder, base = os.path.split(target)
    into = os.open(folder or ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for attempt in itertools.count():
            name = f".{base}.{os.getpid()}.{attempt}.tmp"
            try:
                os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=into, follow_symlinks=True)
                return os.path.join(folder, name)
            except FileExistsError:
                continue
            except OSError as error:  # atomic_writer names the output, not the way to it
                raise OSError(error.errno, error.strerror) from None
    finally:
        os.close(into)
    raise AssertionError("unreachable")


def _create_beside(target: str) -> tuple[str, int]:
    """A new, empty, private file next to ``target`` (so the rename stays on
    one file system): its name and descriptor."""
    folder, base = os.path.split(target)
    for attempt in itertools.count():
        tmp = os.path.join(folder, f".{base}.{os.getpid()}.{attempt}.tmp")
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        except OSError as error:  # (a missing folder): atomic_writer names the output
            raise OSError(error.errno, error.strerror) from None
    raise AssertionError("unreachable")


def _stat_or_none(path: str | os.PathLike[str] | int) -> os.stat_result | None:
    """``os.stat`` (links followed), or None where there is nothing to stat."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
