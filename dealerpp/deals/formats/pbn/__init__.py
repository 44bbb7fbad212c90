"""PBN: deal strings and PBN files (PBN 2.1: tolerant import, lossless copy).

Deal strings are ``F:h1 h2 h3 h4`` (clockwise from seat F, ``-`` for an
unknown hand) or four hands N E S W without ``F:``.

Reading is done in three steps, as python-chess reads PGN: the lexer
(:mod:`~dealerpp.deals.formats.pbn.lexer`) cuts the file into games and tokens and
knows nothing of bridge; the reader (:mod:`~dealerpp.deals.formats.pbn.reader`) gives the tags their meaning; the
rules (:mod:`~dealerpp.deals.formats.pbn.checks`) say whether the deal, the auction
and the play are right. A game keeps its exact text
(:class:`~dealerpp.deals.formats.pbn.game.PbnGame`), and writing a deal that still
says what was read gives that text back, byte for byte.

What is wrong is reported per game, with the line and column of the token:

* an *error* (text that is not PBN, a Deal value that is no deal: a card
  twice, a hand of 14 cards, hands of unequal lengths) drops the game;
* a *warning* (an auction or play that breaks the rules, a tag value that
  is not understood, ``#`` with nothing to copy, a repeated tag) keeps the
  game and everything in it as written. ``strict`` makes warnings errors.

``read(source, report=callback)`` hands each problem to the callback and
goes on with the next game; without a callback the first error is raised
(a :class:`~dealerpp.diagnostics.DppError`) and warnings stay on the
game (``deal.extra.problems``).
The package's modules: ``lexer`` (games and tokens), ``reader`` (their
meaning), ``checks`` (the rules), ``game`` (a game as read), ``deal_text``
(deal strings, auctions and plays as text, both ways), ``tricks``
(double-dummy tables), ``record_of_tags``/``game_record`` (a game record
from tags and back), ``writer`` (files, as read or made) and ``export`` (the
PBN 2.1 export format). Here: their public names, the format's face.
"""

from __future__ import annotations

from dealerpp.deals.formats.pbn.deal_text import (
    auction_section,
    contract_strain,
    deal_from_string,
    deal_string,
    parse_auction,
    parse_deal_string,
    parse_play,
    play_section,
)
from dealerpp.deals.formats.pbn.game import PbnComment, PbnGame, PbnInfo, PbnTag, escape
from dealerpp.deals.formats.pbn.reader import read
from dealerpp.deals.formats.pbn.writer import dumps, format_game, game_text, write

__all__ = [
    "PbnComment",
    "PbnGame",
    "PbnInfo",
    "PbnTag",
    "auction_section",
    "contract_strain",
    "deal_from_string",
    "deal_string",
    "dumps",
    "escape",
    "format_game",
    "game_text",
    "parse_auction",
    "parse_deal_string",
    "parse_play",
    "play_section",
    "read",
    "write",
]
