"""dealer's printpbn games in bulk, for a target that keeps only the deal
and its board (every fast format but PBN itself).

A printpbn game is 14 tag lines in one order and a blank line. A run of
such games is checked by one regular expression match and its values taken
by one ``findall``; the deal strings are then decoded as a block of deal
lines (:class:`~dealerpp.deals.bulk.pbn.PbnCodec`). Anything unusual (a
value with a quote, backslash, ``#`` or a byte outside printable ASCII,
a player's name, a declarer, contract or result, a board without its standard dealer and vulnerability, a deal that is not
13 cards a hand written the usual way, CR LF line ends) leaves that game to
the full PBN reader, which then reports what it reports. A game read here
is one the full reader reads without a word, into the same cards and board.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

import numpy as np

from dealerpp.deals.bulk.array import DealArray

#: Decodes a block of deal-string lines of one width: deals and ``ok``.
DealLines = Callable[[bytes, int], tuple[DealArray, np.ndarray | None]]

_VALUE = rb'"[ !#-\[\]-~]*"\]\n'  # printable ASCII but '"' and '\'
# Players and the result are dealer's "no one" and "unknown": a name or a
# result is something LIN holds (pn, mc), so such a game goes to the full reader.
_NO_ONE = rb'"-"\]\n'
_UNKNOWN = rb'"\?"\]\n'
_GAME = (rb'\[Event ' + _VALUE + rb'\[Site ' + _VALUE + rb'\[Date ' + _VALUE
         + rb'\[Board "([1-9][0-9]{0,8})"\]\n'
         + rb'\[West ' + _NO_ONE + rb'\[North ' + _NO_ONE + rb'\[East ' + _NO_ONE
         + rb'\[South ' + _NO_ONE
         + rb'\[Dealer "([NESW])"\]\n\[Vulnerable "(None|NS|EW|All)"\]\n'
         + rb'\[Deal "([NESW]:[^"\n]{67})"\]\n'
         + rb'\[Declarer ' + _UNKNOWN + rb'\[Contract ' + _UNKNOWN + rb'\[Result ' + _UNKNOWN
         + rb'\n')
# A game at a line's start only (so a game found by findall is a whole
# game), without its values: findall gives an empty string a game.
_WHOLE = re.compile(rb"(?<![^\n])(?:" + _GAME.replace(b"(", b"(?:") + rb")()")


@functools.cache
def _one() -> re.Pattern[bytes]:
    """A game with its values (board, dealer, vulnerability, deal): for
    runs of printpbn games among others (made when first needed: the
    compiling takes a conversion's 20 ms)."""
    return re.compile(rb"(?<![^\n])" + _GAME)
LINES = 15  # a game's lines, the blank one included

# dealer (index into NESW) and vulnerability (None NS EW All) of board 1..16
_CYCLE_DEALER = np.array([0, 1, 2, 3] * 4, np.uint8)
_CYCLE_VUL = np.array([0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2], np.uint8)
_DEALERS = np.full(256, 255, np.uint8)
for _seat, _char in enumerate(b"NESW"):
    _DEALERS[_char] = _seat
_VULS = {b"None": 0, b"NS": 1, b"EW": 2, b"All": 3}


class Games:
    """The values of printpbn games: board numbers, dealers (0-3: N E S W),
    vulnerabilities (0-3: None NS EW All) and the deal strings ``F:...``
    as an ``(N, 69)`` byte array."""

    __slots__ = ("boards", "dealers", "deals", "vuls")

    def __init__(self, boards: np.ndarray, dealers: np.ndarray, vuls: np.ndarray,
                 deals: np.ndarray) -> None:
        self.boards, self.dealers, self.vuls, self.deals = boards, dealers, vuls, deals

    def __len__(self) -> int:
        return len(self.boards)

    @classmethod
    def of(cls, found: list[tuple[bytes, bytes, bytes, bytes]]) -> Games:
        """From (board, dealer, vulnerability, deal) as :func:`_one` finds them."""
        boards = np.array([int(board) for board, _, _, _ in found], np.int64)
        dealers = _DEALERS[np.frombuffer(b"".join(dealer for _, dealer, _, _ in found), np.uint8)]
        vuls = np.array([_VULS[vul] for _, _, vul, _ in found], np.uint8)
        deals = np.frombuffer(b"".join(deal for _, _, _, deal in found), np.uint8)
        return cls(boards, dealers, vuls, deals.reshape(len(found), DEAL))


DEAL = 69  # a deal string's bytes: "F:" and four hands of 16
# Lines of a game (from 0) whose values are read: [Board "...
_BOARD, _DEALER, _VUL, _DEAL = 3, 8, 9, 10


def games(data: bytes) -> Games | None:
    """The values of each game when ``data`` is nothing but printpbn games,
    else None. One ``findall`` of :data:`_WHOLE` (a list of empty strings,
    nothing copied): every game it finds starts a line
    and holds 15 line ends, so when they are all the line ends there are,
    the games are the whole text, and the values sit at fixed places of
    their lines."""
    if not data.endswith(b"\n\n") or _copies(data):
        return None
    arr = np.frombuffer(data, np.uint8)
    line_ends = np.flatnonzero(arr == 10)
    count = len(line_ends) // LINES
    if not count or count * LINES != len(line_ends) or len(_WHOLE.findall(data)) != count:
        return None
    ends = line_ends.reshape(count, LINES)
    starts = np.empty_like(ends)
    starts[:, 0] = np.concatenate(([0], ends[:-1, LINES - 1] + 1))
    starts[:, 1:] = ends[:, :-1] + 1
    digits = ends[:, _BOARD] - starts[:, _BOARD] - 10  # [Board "...."]
    window = arr[starts[:, _BOARD, None] + 8 + np.arange(9)].astype(np.int64) - 48
    boards = np.zeros(count, np.int64)
    for column in range(9):  # (the line's '"' stops a window of fewer digits)
        boards = np.where(column < digits, boards * 10 + window[:, column], boards)
    dealers = _DEALERS[arr[starts[:, _DEALER] + 9]]  # [Dealer "N"]
    vul = starts[:, _VUL] + 13  # [Vulnerable "None"]: None NS EW All by length and letter
    vuls = _VUL_CODES[ends[:, _VUL] - vul - 2, arr[vul]]
    deals = arr[starts[:, _DEAL, None] + 7 + np.arange(DEAL)]  # [Deal "F:..."]
    return Games(boards, dealers, vuls, deals)


def _copies(data: bytes) -> bool:
    """Whether a value is ``#`` (a copy of the game before's: the full
    reader's). '#' alone first: one memchr, where '"#"' stops at every quote."""
    return b"#" in data and b'"#"' in data


def _vul_codes() -> np.ndarray:
    """By a value's length and first letter, the vulnerability's code."""
    codes = np.zeros((5, 256), np.uint8)
    for code, text in enumerate((b"None", b"NS", b"EW", b"All")):
        codes[len(text), text[0]] = code
    return codes


_VUL_CODES = _vul_codes()


def runs(data: bytes) -> Iterator[tuple[int, int, Games | None]]:
    """Cut ``data`` (whole PBN games, each up to its blank line) into runs:
    ``(start, stop, values)`` for printpbn games (values as :func:`games`
    gives them), ``(start, stop, None)`` for text that is the full
    reader's."""
    whole = games(data)
    if whole is not None:
        yield 0, len(data), whole
        return
    if _copies(data):
        yield 0, len(data), None
        return
    position, end = 0, len(data)
    found: list[tuple[bytes, bytes, bytes, bytes]] = []
    run_start = 0
    while position < end:
        match = _one().match(data, position)
        if match is not None:
            found.append(match.group(1, 2, 3, 4))  # type: ignore[arg-type]
            position = match.end()
            continue
        if found:
            yield run_start, position, Games.of(found)
            found = []
        stop = _next_game(data, position)
        yield position, stop, None
        position = run_start = stop
    if found:
        yield run_start, position, Games.of(found)


def _next_game(data: bytes, position: int) -> int:
    """Where the next printpbn game after ``position`` starts, after a
    blank line (the end of the one before), or the end of ``data``."""
    while True:
        match = _one().search(data, position + 1)
        if match is None:
            return len(data)
        if data[match.start() - 2:match.start()] == b"\n\n":
            return match.start()
        position = match.start()


def decode(found: Games, deal_lines: DealLines) -> tuple[DealArray, np.ndarray | None]:
    """The deals of printpbn games, with their boards; ``ok`` (None when all
    passed) is False for a game whose deal or dealer and vulnerability are
    not the usual ones, to be read by the full reader. ``deal_lines``
    decodes a block of ``F:`` deal strings of one width (the PBN codec's
    ``decode``, :class:`~dealerpp.deals.bulk.pbn.PbnCodec`)."""
    block = np.empty((len(found), DEAL + 1), np.uint8)
    block[:, :DEAL] = found.deals
    block[:, DEAL] = 10
    deals, ok = deal_lines(block.tobytes(), DEAL + 1)
    boards = found.boards
    cycle = (boards - 1) % 16
    usual = (found.dealers == _CYCLE_DEALER[cycle]) & (found.vuls == _CYCLE_VUL[cycle])
    if not usual.all():
        ok = usual if ok is None else ok & usual
    deals.boards = boards
    return deals, ok


_TITLE_TAGS = re.compile(rb'^\[Event "([^"\n]*)"\]\n\[Site "([^"\n]*)"\]\n\[Date "([^"\n]*)"\]\n',
                        re.M)


def title(games_: bytes) -> str | None:
    """The title the PBN reader gives the first of these printpbn games that
    has one (their Event, Site and Date: ``PbnInfo.title``)."""
    from dealerpp.deals.formats.pbn.game import title_of_values

    for match in _TITLE_TAGS.finditer(games_):
        found = title_of_values(value.decode("ascii") for value in match.groups())
        if found:
            return found
    return None


def game_bounds(run: bytes) -> list[int]:
    """Where each game of a run of printpbn games starts (15 lines each),
    and the run's end."""
    ends = np.flatnonzero(np.frombuffer(run, np.uint8) == 10)[LINES - 1::LINES] + 1
    return [0, *ends.tolist()]
