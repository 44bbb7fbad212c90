"""Printable hand records: one self-contained HTML page (``.html``).

Each board is the usual compass diagram: North on top, West and East at the
sides, South below, suits as ♠ ♥ ♦ ♣ with hearts and diamonds red; board
number, dealer and vulnerability in the corner; each hand's high-card
points around the compass. Six boards to a page (two columns of three),
sized in millimetres to fit both A4 and Letter inside the page margins; a
board never breaks across pages.

The page is titled, and headed, by what the set says it is: the Event,
Site and Date tags of its first PBN game (those known), or the ``title``
given (``convert --title``), else "Hand records". Boards come in the order
given, each with its own number (a deal without one: its place).

Inline CSS only, no scripts, no fonts or images to fetch: the page prints
the same offline. Each board also carries its deal as data attributes
(``data-deal="N:..."``, board, dealer, vulnerability), which is what the
reader reads back, so the page is a deal file too.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator

from dealerpp.deals._io import TextSink, record_errors, source_name, text_lines
from dealerpp.deals.model import (
    SUIT_MASK,
    SUITS_HIGH_FIRST,
    Deal,
    Seat,
    Vul,
    board_dealer_vul,
    holding_text,
)
from dealerpp.deals.numbers import digits_problem, digits_value
from dealerpp.deals.options import READ, WRITE, ReadOptions, Source, Target, WriteOptions
from dealerpp.diagnostics import DppError

BOARDS_PER_PAGE = 6
DEFAULT_TITLE = "Hand records"
# The PBN tags that say which set a page is, in the order the title gives them
SUIT_SYMBOLS = {3: "♠", 2: "♥", 1: "♦", 0: "♣"}
RED_SUITS = (2, 1)
VUL_TEXT = {Vul.NONE: "None", Vul.NS: "N-S", Vul.EW: "E-W", Vul.BOTH: "Both"}

STYLE = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans", Arial, Helvetica, sans-serif;
       color: #000; background: #fff; }
h1 { font-size: 13pt; font-weight: bold; width: 186mm; height: 7mm; margin: 0 auto 3mm;
     overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.page { display: grid; grid-template-columns: 90mm 90mm; grid-auto-rows: 78mm;
        gap: 4mm 6mm; width: 186mm; margin: 0 auto; break-after: page; }
.page:last-child { break-after: auto; }
.board { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr));
         grid-template-rows: repeat(3, minmax(0, 1fr));
         border: 0.3mm solid #444; border-radius: 2mm; padding: 2mm;
         break-inside: avoid; page-break-inside: avoid; font-size: 10pt; }
.info { font-size: 9pt; line-height: 1.35; }
.info b { font-size: 12pt; }
.hand { line-height: 1.3; align-self: center; min-width: 0; overflow-wrap: anywhere; }
.hand .suit { margin-right: 0.1em; }
.north { grid-column: 2; grid-row: 1; }
.west { grid-column: 1; grid-row: 2; }
.east { grid-column: 3; grid-row: 2; padding-left: 3mm; }
.south { grid-column: 2; grid-row: 3; }
.compass { grid-column: 2; grid-row: 2; align-self: center; justify-self: center;
           width: 16mm; height: 16mm; border: 0.3mm solid #444; position: relative;
           font-size: 8pt; background: #eef3ee; }
.compass span { position: absolute; }
.compass .n { top: 0.5mm; left: 0; right: 0; text-align: center; }
.compass .s { bottom: 0.5mm; left: 0; right: 0; text-align: center; }
.compass .w { left: 0.7mm; top: 5.5mm; }
.compass .e { right: 0.7mm; top: 5.5mm; }
.suit { display: inline-block; width: 1.2em; }
.red { color: #d00000; }
.void { color: #666; }
@media screen { body { padding: 8mm 0; } .page { margin-bottom: 8mm; } }
"""


# points of the four top cards of a suit by their bits (J 1, Q 2, K 4, A 8)
_TOP_POINTS = tuple(sum(points for bit, points in enumerate((1, 2, 3, 4)) if top >> bit & 1)
                    for top in range(16))


def hcp(mask: int) -> int:
    """High-card points: A 4, K 3, Q 2, J 1 (a suit's J Q K A bits look up
    its points)."""
    top = _TOP_POINTS
    return top[mask >> 48 & 15] + top[mask >> 35 & 15] + top[mask >> 22 & 15] + top[mask >> 9 & 15]


VOID = '<span class="void">—</span>'


def suit_head(suit: int) -> str:
    """The symbol before a suit's cards (hearts and diamonds red)."""
    cls = "suit red" if suit in RED_SUITS else "suit"
    return f'<span class="{cls}">{SUIT_SYMBOLS[suit]}</span>'


def suit_cards(holding: int) -> str:
    """A suit's cards as a hand shows them, a dash for a void."""
    return holding_text(holding) if holding else VOID


def _hand_html(mask: int, seat: Seat) -> str:
    if not _SUIT_ROWS:
        for suit in SUITS_HIGH_FIRST:
            head = suit_head(suit)
            _SUIT_ROWS.append([head + suit_cards(holding) for holding in range(SUIT_MASK + 1)])
    spades, hearts, diamonds, clubs = _SUIT_ROWS
    return (f'<div class="hand {HAND_CLASSES[seat]}">{spades[mask >> 39 & SUIT_MASK]}<br>'
            f'{hearts[mask >> 26 & SUIT_MASK]}<br>{diamonds[mask >> 13 & SUIT_MASK]}<br>'
            f'{clubs[mask & SUIT_MASK]}</div>')


# a suit's row of a hand by its holding, S H D C (made on first use)
_SUIT_ROWS: list[list[str]] = []
HAND_CLASSES = tuple(seat.name.lower() for seat in Seat)


def board_html(deal: Deal, position: int) -> str:
    board = deal.board or position
    cycle_dealer, cycle_vul = board_dealer_vul(board)
    dealer = cycle_dealer if deal.dealer is None else deal.dealer
    vul = cycle_vul if deal.vul is None else deal.vul
    points = [hcp(mask) for mask in deal.masks]
    attributes = (f'data-board="{board}" data-dealer="{dealer}" data-vul="{vul}" '
                  f'data-deal="{html.escape(deal.to_pbn())}"')
    compass = "".join(f'<span class="{seat.lower()}">{points[index]}</span>'
                      for index, seat in enumerate("NESW"))
    hands = "".join(_hand_html(deal.masks[seat], seat) for seat in Seat)
    return (f'<section class="board" {attributes}>\n'
            f'<div class="info"><b>Board {board}</b><br>Dealer {dealer.name_title}<br>'
            f'Vul {VUL_TEXT[vul]}</div>\n{hands}\n'
            f'<div class="compass">{compass}</div>\n</section>\n')


PAGE_OPEN = '<div class="page">\n'
PAGE_CLOSE = "</div>\n"
PAGE_END = "</body>\n</html>\n"


def page_head(title: str) -> str:
    """What the page holds before its boards: ``title`` as its title and heading."""
    shown = html.escape(title)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{shown}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{shown}</h1>\n")


def page_html(deals: list[Deal], title: str = DEFAULT_TITLE) -> str:
    """The page: ``title`` as its title and heading, then the boards."""
    pages = []
    for start in range(0, len(deals), BOARDS_PER_PAGE):
        boards = "".join(board_html(deal, start + index + 1)
                         for index, deal in enumerate(deals[start:start + BOARDS_PER_PAGE]))
        pages.append(f"{PAGE_OPEN}{boards}{PAGE_CLOSE}")
    return page_head(title) + "".join(pages) + PAGE_END


def title_of(deals: Iterable[Deal]) -> str | None:
    """The set's name from the first deal whose source names it (a PBN
    game's Event, Site and Date, those known, joined by commas: its
    ``extra.title()``); None when no deal's source says."""
    for deal in deals:
        title = deal.extra.title() if deal.extra is not None else None
        if title:
            return title
    return None


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    """The page of ``deals``, titled ``options.title``, else as the set says
    (title_of)."""
    found = list(deals)
    text = page_html(found, options.title or title_of(found) or DEFAULT_TITLE)
    with TextSink(target) as sink:
        sink.write(text)


_BOARD = re.compile(r'<section class="board" data-board="([0-9]+)" data-dealer="([NESW])" '
                    r'data-vul="(None|NS|EW|All)" data-deal="([^"]*)"')
_VULS = {"None": Vul.NONE, "NS": Vul.NS, "EW": Vul.EW, "All": Vul.BOTH}


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """The deals of the file, lazily (the options: dealerpp.deals.options)."""
    return options.numbered(record_errors(_deals(source, filename)))


def _deals(source: Source, filename: str | None) -> Iterator[Deal]:
    """The deals of a page this module wrote (its boards' data attributes)."""
    name = source_name(source, filename)
    for line_number, line in enumerate(text_lines(source), 1):
        found = _BOARD.search(line)
        if found is None:
            continue
        digits, dealer, vul, text = found.groups()
        board = digits_value(digits)
        if board is None:  # digits past what int() takes
            raise DppError(digits_problem(digits, "the board number"), line=line_number, column=found.start(1) + 1,
                           filename=name, source_line=line)
        try:
            yield Deal.from_pbn(html.unescape(text), board=board,
                                dealer=Seat.from_char(dealer), vul=_VULS[vul])
        except ValueError as error:
            raise DppError(str(error), line=line_number, column=found.start(4) + 1,
                           filename=name, source_line=line, board=board) from None


__all__ = ["board_html", "hcp", "page_html", "read", "title_of", "write"]
