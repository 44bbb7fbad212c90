"""The one contract every format's reader and writer keeps.

The module of a format (``dealerpp/deals/formats/NAME.py``) has

- ``read(source, filename=None, options=ReadOptions())`` yielding its deals
  lazily (a :data:`Reader`), and
- ``write(deals, target, options=WriteOptions())`` (a :data:`Writer`),

with the same typed options for every format: what a format has no use for
it leaves alone (a format that holds nothing to warn about never calls
``report``; only the formats that carry a title use ``title``).
``tests/deals/test_formats.py`` holds each module to these signatures.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, NamedTuple, Protocol, Union

if TYPE_CHECKING:
    from dealerpp.deals.model import Deal
    from dealerpp.diagnostics import Diagnostic

#: What a reader reads: a path (``str`` naming an existing file, or
#: ``os.PathLike``), a file object (text or binary), or the content itself
#: (``bytes``, or a ``str`` that contains a newline or names no file);
#: dealerpp.deals._io opens it.
Source = Union[str, bytes, "os.PathLike[str]", IO[Any]]
#: Where a writer writes: a path (``-``: standard output) or a file object.
Target = Union[str, "os.PathLike[str]", IO[Any]]

#: Where a reader sends a problem that does not stop it (a warning, or an
#: error in a record it leaves out); without one, such an error is raised.
Report = Callable[["Diagnostic"], None]


class RecordTally:
    """The records of a file read so far, when it is read in pieces (the
    bulk path reads some fast, some through a format's reader). A reader
    that numbers its records (PBN: a problem names the game's place, a
    game left out counted) numbers a piece's on from ``records``, adds its
    own and sets ``numbered``; another's deals are counted by the bulk
    path as they are given (such a reader stops at its first bad record,
    which it names by its place in the piece). The pieces' problems then
    name the record's place in the whole file."""

    __slots__ = ("numbered", "records")

    def __init__(self) -> None:
        self.records = 0
        self.numbered = False


class ReadOptions(NamedTuple):
    """How to read. ``first_board``: number the boards from there, with
    dealer and vulnerability by the standard cycle (``convert
    --first-board``); a format that holds no board numbers numbers its
    records from it (from 1 without it). ``strict``: what the reader would
    repair with a warning is an error. ``report``: see :data:`Report`.
    ``need_deal``: a record that holds no deal is left out with a warning;
    False keeps it as a deal with no cards (a PBN game of tags only, for a
    PBN output). ``previous``: the values the records before this piece of
    a file left (PBN's ``#`` copies a tag of the previous game), when a file
    is read in pieces; the reader updates it. ``tally``: the records of
    the file before this piece (see :class:`RecordTally`)."""

    first_board: int | None = None
    strict: bool = False
    report: Report | None = None
    need_deal: bool = True
    previous: dict[str, str] | None = None
    tally: RecordTally | None = None

    def numbered(self, deals: Iterator[Deal]) -> Iterator[Deal]:
        """``deals`` numbered from ``first_board``, for a reader of a format
        that holds board numbers of its own (they give way to it)."""
        if self.first_board is None:
            return deals
        from dealerpp.deals.model import numbered

        return numbered(deals, self.first_board)


class WriteOptions(NamedTuple):
    """How to write. ``title``: the title of a page (html; by default made
    from the set's Event, Site and Date). ``sealed``: a set the dealing
    machine must not show (.dlm)."""

    title: str | None = None
    sealed: bool = False


READ = ReadOptions()
WRITE = WriteOptions()


class Reader(Protocol):
    def __call__(self, source: Source, filename: str | None = None,
                 options: ReadOptions = READ) -> Iterator[Deal]: ...


class Writer(Protocol):
    def __call__(self, deals: Iterable[Deal], target: Target,
                 options: WriteOptions = WRITE) -> None: ...
