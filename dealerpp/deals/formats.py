"""The one registry of deal formats.

Each :class:`DealFormat` says everything the rest of dealerpp needs to know
about a format: its name (``--from``/``--to``), its file extensions, a
one-line description (``convert --help``, docs/formats.md), how to
recognise it from its first bytes, and where its reader, writer and bulk
codec live. ``dealerpp.deals.read``/``write``, detection
(``dealerpp.deals.detect``), the bulk path (``dealerpp.deals.bulk``) and the
``convert`` and ``show`` commands all read :data:`FORMATS`.

Readers, writers and codecs are named ``"module:attribute"`` and imported
only when used, so importing this module costs no more than ``re``: the
convert command reads it before it has decided anything, and only a bulk
codec brings in numpy.

Adding a format: write its module in ``dealerpp/deals/`` (a reader
``read(source, filename=None)`` yielding deals and a writer
``write(deals, target)``), add one entry to :data:`FORMATS` with a sniffer
that claims no other format's files, and its row to the table of
docs/formats.md (``tests/deals/test_formats.py`` checks the page and
``convert --help`` list every entry).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any, NamedTuple


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
    name: str
    extensions: tuple[str, ...]
    description: str
    reader: str  # "module:function", read(source, filename=None) -> Iterator[Deal]
    writer: str | None  # "module:function", write(deals, target) -> None; None: read only
    sniff: Sniffer | None = None  # claims a file by its first bytes (None: by name only)
    codec: str | None = None  # "module:class" of the bulk codec (dealerpp.deals.bulk)
    binary: bool = False
    # It holds no board numbers: a board is numbered by its place in the file
    # (from 1, or from --first-board), and so are its dealer and vulnerability.
    positional: bool = False
    # Its hands are listed from each board's dealer: read back as other boards
    # than it was written as, they land on the wrong seats (.bhg).
    dealer_first: bool = False
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

    @property
    def fast(self) -> bool:
        """Whether the bulk path converts it (in chunks, vectorised)."""
        return self.codec is not None

    def load_reader(self) -> Callable[..., Iterator[Any]]:
        return load(self.reader)  # type: ignore[no-any-return]

    @property
    def writable(self) -> bool:
        return self.writer is not None

    def load_writer(self) -> Callable[..., None]:
        """The writer; DppError for a format dealerpp only reads."""
        if self.writer is None:
            from dealerpp.diagnostics import DppError

            raise DppError(not_writable(self.name))
        return load(self.writer)  # type: ignore[no-any-return]


def load(reference: str) -> Any:
    """The attribute a ``"module:attribute"`` reference names, imported now."""
    module, _, attribute = reference.partition(":")
    return getattr(import_module(module), attribute)


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

_M = "dealerpp.deals."
_BULK = "dealerpp.deals.bulk.codecs:"
_MACHINES_BULK = "dealerpp.deals.machines_bulk:"

# The club formats: one module (dealerpp.deals.machines) with a reader
# read_NAME and a writer write_NAME each, the
# extension .NAME, and for the fixed-size records a vectorised codec.
def _club(name: str, description: str, sniff: Sniffer, codec: str | None = None, *,
          binary: bool = False, positional: bool = True,
          dealer_first: bool = False, record_size: int | None = None) -> DealFormat:
    return DealFormat(name, (f".{name}",), description, f"{_M}machines:read_{name}",
                      f"{_M}machines:write_{name}", sniff,
                      None if codec is None else _MACHINES_BULK + codec, binary, positional,
                      dealer_first, numbered=not positional, record_size=record_size)


_CLUB_FORMATS = (
    _club("bri", "binary, 128 bytes a board: card numbers of N E S (dealing machines)",
          _bri, "BriCodec", binary=True, record_size=128),
    _club("dge", "binary, 128 bytes a board: four hands in suit glyphs and ranks",
          _dge, "DgeCodec", binary=True, record_size=128),
    _club("dup", "binary, 156 bytes a board: .bri and .dge in one (Duplimate)",
          _dup, binary=True, record_size=156),
    _club("ber", "52 seat digits 1-4 a board, in card order, no separator", _ber, "BerCodec"),
    _club("bhg", "a line of 52 card letters a board, from the dealer clockwise", _bhg,
          dealer_first=True),
    _club("csv", "16 quoted holdings, board, dealer/vulnerability a line", _csv,
          positional=False),
    DealFormat("dlm", (".dlm",), "Dealer4/Duplimate [Document] file: boards 1-99, check values",
               _M + "dlm:read", _M + "dlm:write", _dlm, numbered=True),
)


FORMATS: tuple[DealFormat, ...] = (
    DealFormat("pbn", (".pbn",),
               "PBN games or deal-string lines (dealer's printpbn)",
               _M + "dealer_output:read_printpbn", _M + "pbn:write", _pbn, _BULK + "PbnCodec",
               numbered=True),
    DealFormat("giblib", (".gib", ".giblib"),
               "W N E S hands, optionally ':' and 20 trick values",
               _M + "giblib:read", _M + "giblib:write", _giblib, _BULK + "GiblibCodec"),
    DealFormat("deals", (".deals",),
               "binary: four 64-bit hand masks N E S W a deal",
               _M + "binary:read_deals", _M + "binary:write_deals", _deals,
               _BULK + "DealsCodec", binary=True, record_size=32),
    DealFormat("dx", (".dx",),
               "binary: .deals with a number, auction and play",
               _M + "binary:read_dx", _M + "binary:write_dx", _dx, binary=True, numbered=True),
    DealFormat("hex", (".hex",),
               "26 hex digits a deal, optional -D board suffix",
               _M + "hex26:read", _M + "hex26:write", _hex, _BULK + "Hex26Codec"),
    DealFormat("lin", (".lin",),
               "Bridge Base Online (BBO): boards, auctions with alerts, play, players, matches",
               _M + "lin:read", _M + "lin:write", _lin),
    DealFormat("listing", (),
               "'Deal #N: Player North: S5 H7 ...'",
               _M + "listing:read", _M + "listing:write", _listing),
    DealFormat("oneline", (),
               "dealer's printoneline: 'n S.H.D.C e ... w ...'",
               _M + "dealer_output:read_oneline", _M + "dealer_output:write_oneline",
               _oneline, _BULK + "OnelineCodec"),
    DealFormat("compact", (),
               "dealer's printcompact: 'n S.H.D.C' ... 'w ...'",
               _M + "dealer_output:read_compact", _M + "dealer_output:write_compact",
               _compact),
    DealFormat("printall", (),
               "dealer's printall: a numbered four-column table",
               _M + "dealer_output:read_printall", _M + "dealer_output:write_printall",
               _printall),
    *_CLUB_FORMATS,
    DealFormat("html", (".html", ".htm"),
               "printable hand records: a page of compass diagrams with HCP",
               _M + "html_records:read", _M + "html_records:write", _html, numbered=True,
               print_limit=2000),
)

#: A text file no sniffer claims is read as PBN (four bare hands N E S W).
TEXT_FALLBACK = "pbn"

NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)
POSITIONAL: frozenset[str] = frozenset(f.name for f in FORMATS if f.positional)
NUMBERED: frozenset[str] = frozenset(f.name for f in FORMATS if f.numbered)
WRITABLE: tuple[str, ...] = tuple(f.name for f in FORMATS if f.writable)
FAST: tuple[str, ...] = tuple(f.name for f in FORMATS if f.fast)
BY_NAME: dict[str, DealFormat] = {f.name: f for f in FORMATS}
BY_EXTENSION: dict[str, str] = {ext: f.name for f in FORMATS for ext in f.extensions}


def get(name: str) -> DealFormat:
    """The format called ``name``; DppError for an unknown name."""
    found = BY_NAME.get(name)
    if found is None:
        from dealerpp.diagnostics import DppError

        raise DppError(f"unknown deal format {name!r} (one of {', '.join(NAMES)})")
    return found


def not_writable(name: str) -> str:
    """Why ``name`` cannot be written, and what can."""
    return (f"cannot write {name}: dealerpp reads it but does not write it "
            f"(formats that can be written: {', '.join(WRITABLE)})")


def from_extension(filename: str | None) -> str | None:
    """The format a file name's extension says (any case), or None."""
    if not filename:
        return None
    return BY_EXTENSION.get(os.path.splitext(filename)[1].lower())


def is_fast_pair(src: str | None, dst: str | None) -> bool:
    """Whether converting ``src`` to ``dst`` takes the bulk path: both fast,
    and different (a same-format copy keeps things, such as PBN tag text or
    card order, that only the per-deal path knows)."""
    return src in FAST and dst in FAST and src != dst


def claims(head: Head) -> list[str]:
    """Every format whose sniffer claims ``head`` (one, when all is well)."""
    return [fmt.name for fmt in FORMATS
            if fmt.binary == head.binary and fmt.sniff is not None and fmt.sniff(head)]
