"""The deal formats: one registry, and one module a format.

Each :class:`DealFormat` of :data:`FORMATS` says what the rest of dealerpp
needs to know about a format before reading a byte of it: its name
(``--from``/``--to``), its file extensions, a one-line description
(``convert --help``, docs/formats.md) and how to recognise it from its first
bytes. ``dealerpp.deals.read``/``write``, detection
(``dealerpp.deals.detect``), the bulk path (``dealerpp.deals.bulk``) and the
``convert`` and ``show`` commands all read :data:`FORMATS`.

The code of the format called NAME is the module ``dealerpp/deals/formats/NAME.py``
(PBN, a larger format, is the package ``formats/pbn/``): its ``read(source,
filename=None, options=READ)`` yields deals and its ``write(deals, target,
options=WRITE)`` writes them (the contract of :mod:`dealerpp.deals.options`).
The module is imported by that name when the format is first used
(:meth:`DealFormat.module`), so importing this registry costs no more than
``re``, and a conversion imports only the formats it uses. Modules whose
name starts with ``_`` hold code that several formats share (the club
formats, dealer's outputs, the binary formats); they are no format of
their own. A format marked ``bulk`` also has a vectorised codec, named in
the table of :mod:`dealerpp.deals.bulk.codecs`, which sits above the
formats: no module of this package imports the bulk path (or numpy).

Adding a format: write its module ``dealerpp/deals/formats/NAME.py`` (``read``
and ``write``), add one entry to :data:`FORMATS` with a sniffer that claims
no other format's files, and its row to the table of docs/formats.md
(``tests/deals/test_formats.py`` checks that the page, ``convert --help``
and the modules agree with the registry, and runs the format through the
tests every format takes; the two help snapshots that list the formats are
made again with ``pytest -n 0 tests/deals/test_formats.py tests/test_help.py
--snapshot-update``); a bulk codec is its module in ``dealerpp/deals/bulk/``
and its case in that table.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from dealerpp.deals.options import Reader, Writer


class Head(NamedTuple):
    """What a sniffer sees of a file: its first bytes, whether they are
    binary, and (for text) the first line that is neither blank nor a ``%``
    comment, as written and stripped of surrounding blanks."""

    data: bytes
    binary: bool
    line: str = ""
    stripped: str = ""


Sniffer = Callable[[Head], bool]


class DealFormat(NamedTuple):
    name: str  # also its module's: dealerpp/deals/formats/NAME.py
    extensions: tuple[str, ...]
    description: str
    sniff: Sniffer | None = None  # claims a file by its first bytes (None: by name only)
    # The bulk path converts it (its codec: dealerpp.deals.bulk.codecs.made).
    bulk: bool = False
    binary: bool = False
    # It holds no board numbers: a board is numbered by its place in the file
    # (from 1, or from --first-board), and so are its dealer and vulnerability.
    positional: bool = False
    # Its hands are listed from each board's dealer: read back as other boards
    # than it was written as, they land on the wrong seats (.bhg).
    dealer_first: bool = False
    # It holds each board's number but no dealer or vulnerability: a reader
    # gives each board the cycle's, as for a positional format (.dx; hex's
    # -D suffix, the number modulo 16, gives the cycle's too).
    dealer_by_cycle: bool = False
    # Its records carry each board's number: a board left out of a set leaves
    # the others their numbers. Without them (every positional format, and
    # those that hold deals only) a board left out would move every later
    # board into the place before, so convert writes no such file then.
    numbered: bool = False
    # A page meant to be printed: more boards than this make it slow to open
    # and print, and convert warns (a million deals would be a gigabyte page).
    print_limit: int | None = None
    # Bytes a record, for a format of fixed-size records: how an offset in
    # the file counts deals (the bulk path reads such a file in pieces).
    record_size: int | None = None
    # dealerpp writes it too (its module has write()).
    writable: bool = True
    # Its sets may say what they are (PBN's Event, Site and Date): the title
    # an html page takes when none is given.
    titled: bool = False
    # A copy into the same format goes the bulk path: what its codec reads in
    # bulk (dealer's printpbn games) it writes back as read, the rest deal by deal.
    bulk_copy: bool = False
    # It holds each board's number modulo this only (hex's -D suffix: 16):
    # what a reader gives back is the board nearest, and the cycle's dealer
    # and vulnerability are kept, so a set with a gap is not moved by place.
    board_modulus: int | None = None

    @property
    def fast(self) -> bool:
        """Whether the bulk path converts it (in chunks, vectorised)."""
        return self.bulk

    def module(self) -> ModuleType:
        """The format's module, dealerpp.deals.formats.NAME, imported now."""
        return import_module(f"{__name__}.{self.name}")

    def load_reader(self) -> Reader:
        """The module's ``read`` (dealerpp.deals.options: the contract)."""
        return self.module().read  # type: ignore[no-any-return]

    def load_writer(self) -> Writer:
        """The writer; DppError for a format dealerpp only reads."""
        if not self.writable:
            from dealerpp.diagnostics import DppError

            raise DppError(not_writable(self.name))
        return self.module().write  # type: ignore[no-any-return]


# -- sniffers: each claims its own format's first line and no other's ------------

_HAND = r"[AKQJT2-9akqjt]*\.[AKQJT2-9akqjt]*\.[AKQJT2-9akqjt]*\.[AKQJT2-9akqjt]*"
_FOUR_HANDS = re.compile(rf"({_HAND}|-)(\s+({_HAND}|-)){{3}}")
_SEAT_PREFIX = re.compile(r"[NESWnesw]:")
_PBN_TAG = re.compile(r'\[\s*[A-Za-z0-9_]+\s*"')  # [Name "value"], not Dealer4's [Document]
_HEX_LINE = re.compile(r"[0-9A-Fa-f]{26}(-[0-9A-Fa-f])?")
_PRINTALL_HEAD = re.compile(r"\d+\.")
_COMPACT_LINE = re.compile(r"n \S*")


def _pbn(head: Head) -> bool:
    # Four bare hands without a trick string are PBN too: the fallback of
    # dealerpp.deals.detect, since giblib files without tricks look the same.
    return (head.stripped.startswith(";") or bool(_PBN_TAG.match(head.stripped))
            or bool(_SEAT_PREFIX.match(head.stripped)))


def _giblib(head: Head) -> bool:
    return head.stripped.startswith("{") or (
        ":" in head.stripped and bool(_FOUR_HANDS.match(head.stripped)))


def _deals(head: Head) -> bool:
    """Bits 52-63 are clear in all four masks of the first record."""
    data = head.data
    if len(data) < 32:
        return len(data) % 32 == 0
    return all(data[8 * i + 7] == 0 and data[8 * i + 6] < 16 for i in range(4))


def _dx(head: Head) -> bool:
    """A number byte 1-255, then a .deals record (bits 52-63 clear), then
    the auction: nothing the club formats' ASCII records look like."""
    data = head.data
    if len(data) < 35 or data[0] == 0 or _deals(head):
        return False
    return all(data[1 + 8 * i + 7] == 0 and data[1 + 8 * i + 6] < 16 for i in range(4))


# -- the club formats (docs/formats.md, "Dealing machines and club files") -----

_CARD_NUMBERS = re.compile(rb"(0[1-9]|[1-4][0-9]|5[0-2]){39}")
_DGE_HAND = rb"\x06[AKQJT2-9]*\x03[AKQJT2-9]*\x04[AKQJT2-9]*\x05[AKQJT2-9]*"
_DGE_HANDS = re.compile(_DGE_HAND * 4)
_BER_LINE = re.compile(r"[1-4]{52,}")
_BHG_LINE = re.compile(r"[A-Za-z]{52}")
_CSV_LINE = re.compile(r'"[AKQJT2-9]*"(,"[AKQJT2-9]*"){15},"\d+","[NESW]/[^"]*"')


def _bri(head: Head) -> bool:
    data = head.data
    return len(data) >= 128 and bool(_CARD_NUMBERS.fullmatch(data[:78])) \
        and data[78:110] == b" " * 32


def _dge(head: Head) -> bool:
    data = head.data
    return len(data) >= 128 and bool(_DGE_HANDS.fullmatch(data[:68])) \
        and not data[68:128].strip(b"\0")


def _dup(head: Head) -> bool:
    data = head.data
    return len(data) >= 156 and bool(_CARD_NUMBERS.fullmatch(data[:78])) \
        and bool(_DGE_HANDS.fullmatch(data[78:146]))


def _whole_line(pattern: re.Pattern[str]) -> Callable[[Head], bool]:
    """A sniffer claiming text whose first line, stripped, is ``pattern``."""
    def sniff(head: Head) -> bool:
        return bool(pattern.fullmatch(head.stripped))
    return sniff


_ber, _bhg, _csv = _whole_line(_BER_LINE), _whole_line(_BHG_LINE), _whole_line(_CSV_LINE)
_compact, _printall = _whole_line(_COMPACT_LINE), _whole_line(_PRINTALL_HEAD)
_hex = _whole_line(_HEX_LINE)


def _dlm(head: Head) -> bool:
    return head.stripped.lower() == "[document]"


def _html(head: Head) -> bool:
    return head.stripped.lower().startswith("<!doctype html")


# A LIN file starts with a key a LIN file starts with (after any % lines).
_LIN_START = re.compile(r"(?i)(qx|md|pn|vg|ah|rh|st|mn|sv|rs|pw|mp|bn|nt)\|")


def _lin(head: Head) -> bool:
    return bool(_LIN_START.match(head.stripped))


def _listing(head: Head) -> bool:
    return head.stripped.startswith("Deal #")


def _oneline(head: Head) -> bool:
    return head.line.startswith("n ") and " e " in head.line and " w " in head.line


# -- the registry -----------------------------------------------------------------

# The club formats (dealerpp.deals.formats._machines holds what they share):
# no board numbers, but for .csv and .dlm.
def _club(name: str, description: str, sniff: Sniffer, *, bulk: bool = False,
          binary: bool = False, positional: bool = True,
          dealer_first: bool = False, record_size: int | None = None) -> DealFormat:
    return DealFormat(name, (f".{name}",), description, sniff, bulk, binary, positional,
                      dealer_first, numbered=not positional, record_size=record_size)


_CLUB_FORMATS = (
    _club("bri", "binary, 128 bytes a board: card numbers of N E S (dealing machines)",
          _bri, bulk=True, binary=True, record_size=128),
    _club("dge", "binary, 128 bytes a board: four hands in suit glyphs and ranks",
          _dge, bulk=True, binary=True, record_size=128),
    _club("dup", "binary, 156 bytes a board: .bri and .dge in one (Duplimate)",
          _dup, binary=True, record_size=156),
    _club("ber", "52 seat digits 1-4 a board, in card order, no separator", _ber, bulk=True),
    _club("bhg", "a line of 52 card letters a board, from the dealer clockwise", _bhg,
          bulk=True, dealer_first=True),
    _club("csv", "16 quoted holdings, board, dealer/vulnerability a line", _csv,
          bulk=True, positional=False),
    DealFormat("dlm", (".dlm",), "Dealer4/Duplimate [Document] file: boards 1-99, check values",
               _dlm, numbered=True),
)


FORMATS: tuple[DealFormat, ...] = (
    DealFormat("pbn", (".pbn",), "PBN games or deal-string lines (dealer's printpbn)",
               _pbn, bulk=True, numbered=True, titled=True, bulk_copy=True),
    DealFormat("giblib", (".gib", ".giblib"), "W N E S hands, optionally ':' and 20 trick values",
               _giblib, bulk=True),
    DealFormat("deals", (".deals",), "binary: four 64-bit hand masks N E S W a deal",
               _deals, bulk=True, binary=True, record_size=32),
    DealFormat("dx", (".dx",), "binary: .deals with a number, auction and play",
               _dx, bulk=True, binary=True, numbered=True, dealer_by_cycle=True),
    DealFormat("hex", (".hex",), "26 hex digits a deal, optional -D board suffix",
               _hex, bulk=True, dealer_by_cycle=True, board_modulus=16),
    DealFormat("lin", (".lin",),
               "Bridge Base Online (BBO): boards, auctions with alerts, play, players, matches",
               _lin, bulk=True, numbered=True),
    DealFormat("listing", (), "'Deal #N: Player North: S5 H7 ...'", _listing, bulk=True),
    DealFormat("oneline", (), "dealer's printoneline: 'n S.H.D.C e ... w ...'",
               _oneline, bulk=True),
    DealFormat("compact", (), "dealer's printcompact: 'n S.H.D.C' ... 'w ...'", _compact,
               bulk=True),
    DealFormat("printall", (), "dealer's printall: a numbered four-column table", _printall,
               bulk=True),
    *_CLUB_FORMATS,
    DealFormat("html", (".html", ".htm"),
               "printable hand records: a page of compass diagrams with HCP",
               _html, bulk=True, numbered=True, print_limit=2000),
)

#: A text file no sniffer claims is read as PBN (four bare hands N E S W).
TEXT_FALLBACK = "pbn"

NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)
POSITIONAL: frozenset[str] = frozenset(f.name for f in FORMATS if f.positional)
#: Formats read back with the cycle's dealer and vulnerability for each board.
BY_CYCLE: frozenset[str] = frozenset(f.name for f in FORMATS
                                     if f.positional or f.dealer_by_cycle)
NUMBERED: frozenset[str] = frozenset(f.name for f in FORMATS if f.numbered)
#: Formats whose boards are numbered by their place in the file: a board
#: written at place k is read back (or dealt by a machine) as the k-th board.
BY_PLACE: frozenset[str] = frozenset(f.name for f in FORMATS
                                     if not f.numbered and f.board_modulus is None)
WRITABLE: tuple[str, ...] = tuple(f.name for f in FORMATS if f.writable)
FAST: tuple[str, ...] = tuple(f.name for f in FORMATS if f.fast)
BY_NAME: dict[str, DealFormat] = {f.name: f for f in FORMATS}
BY_EXTENSION: dict[str, str] = {ext: f.name for f in FORMATS for ext in f.extensions}


def get(name: str) -> DealFormat:
    """The format called ``name``; DppError for an unknown name."""
    found = BY_NAME.get(name)
    if found is None:
        from dealerpp.diagnostics import DppError

        raise DppError(f"unknown deal format {name!r} (one of {', '.join(NAMES)})",
                       hint=_close_to(name, NAMES))
    return found


def not_writable(name: str) -> str:
    """Why ``name`` cannot be written, and what can."""
    return (f"cannot write {name}: dealerpp reads it but does not write it "
            f"(formats that can be written: {', '.join(WRITABLE)})")


def _close_to(given: object, known: tuple[str, ...] | dict[str, str]) -> str | None:
    """'did you mean X?' for the names of ``known`` close to ``given`` (a
    typo), or None."""
    if not isinstance(given, str):
        return None
    import difflib

    close = difflib.get_close_matches(given.lower(), known, n=3, cutoff=0.6)
    return f"did you mean {' or '.join(close)}?" if close else None


def extension_hint(filename: str | None) -> str | None:
    """What is wrong with the extension of ``filename``, for which
    ``from_extension`` found no format: none, or not a format's (with the
    extensions it is close to, as a typo is: ``.pbm``, did you mean ``.pbn``)."""
    if not filename:
        return None
    extension = os.path.splitext(filename)[1].lower()
    known = ", ".join(BY_EXTENSION)
    if not extension:
        return f"the name has no extension; these name a format: {known}"
    close = _close_to(extension, BY_EXTENSION)
    if close:
        return f"{extension!r} is no deal format's extension: {close}"
    return f"{extension!r} is no deal format's extension; these are: {known}"


def from_extension(filename: str | None) -> str | None:
    """The format a file name's extension says (any case), or None."""
    if not filename:
        return None
    return BY_EXTENSION.get(os.path.splitext(filename)[1].lower())


# The bulk path keeps board numbers in 64-bit integers; a first board
# beyond this (no real set) goes deal by deal, in Python's integers.
BULK_BOARD_LIMIT = 1 << 53


def takes_bulk_path(src: str | None, dst: str, *, first_board: int | None = None,
                    selecting: bool = False, export: bool = False) -> bool:
    """Whether a conversion from ``src`` to ``dst`` takes the bulk path (the
    one decision, for ``dealerpp.deals.convert`` and ``dealerpp convert``):
    a fast pair, board numbers the bulk path's integers hold, and nothing
    asked that only the per-deal path does (``selecting`` boards by number,
    PBN's ``export`` format); or a copy of a format that copies in bulk
    (PBN), its boards not numbered again."""
    if src is not None and src == dst and src in FAST and BY_NAME[src].bulk_copy:
        return first_board is None and not selecting and not export  # boards kept as read
    return (is_fast_pair(src, dst) and (first_board or 0) < BULK_BOARD_LIMIT
            and not selecting and not export)


def is_fast_pair(src: str | None, dst: str | None) -> bool:
    """Whether converting ``src`` to ``dst`` takes the bulk path: both fast,
    and different (a same-format copy keeps things, such as PBN tag text or
    card order, that only the per-deal path knows)."""
    return src in FAST and dst in FAST and src != dst


def claims(head: Head) -> list[str]:
    """Every format whose sniffer claims ``head`` (one, when all is well)."""
    return [fmt.name for fmt in FORMATS
            if fmt.binary == head.binary and fmt.sniff is not None and fmt.sniff(head)]
