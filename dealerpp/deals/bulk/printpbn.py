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
from dealerpp.deals.bulk.places import rows_from

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
    else None. Every game must start a line and hold 15 line ends, and
    every game's lines must be laid out as :data:`_GAME` says: checked
    with numpy at the lines' places (:func:`_laid_out`), and when that
    finds anything it does not vouch for, by one ``findall`` of
    :data:`_WHOLE` (a list of empty strings, nothing copied), whose games,
    when they hold all the line ends there are, are the whole text. The
    values sit at fixed places of their lines."""
    if not data.endswith(b"\n\n") or _copies(data):
        return None
    arr = np.frombuffer(data, np.uint8)
    line_ends = np.flatnonzero(arr == 10)
    count = len(line_ends) // LINES
    if not count or count * LINES != len(line_ends):
        return None
    ends = line_ends.reshape(count, LINES)
    starts = np.empty_like(ends)
    starts[:, 0] = np.concatenate(([0], ends[:-1, LINES - 1] + 1))
    starts[:, 1:] = ends[:, :-1] + 1
    if not _laid_out(data, arr, starts, ends) and len(_WHOLE.findall(data)) != count:
        return None
    digits = ends[:, _BOARD] - starts[:, _BOARD] - 10  # [Board "...."]
    window = rows_from(arr, starts[:, _BOARD] + 8, 9).astype(np.int64) - 48
    boards = np.zeros(count, np.int64)
    for column in range(9):  # (the line's '"' stops a window of fewer digits)
        boards = np.where(column < digits, boards * 10 + window[:, column], boards)
    dealers = _DEALERS[arr[starts[:, _DEALER] + 9]]  # [Dealer "N"]
    vul = starts[:, _VUL] + 13  # [Vulnerable "None"]: None NS EW All by length and letter
    vuls = _VUL_CODES[ends[:, _VUL] - vul - 2, arr[vul]]
    deals = rows_from(arr, starts[:, _DEAL] + 7, DEAL)  # [Deal "F:..."]
    return Games(boards, dealers, vuls, deals)


# What _laid_out() checks at fixed places, 8 bytes at a time: from the start
# of the West line to the Vulnerable value (the dealer's letter free), and
# from the quote that ends that value to the blank line (the deal string
# free but its ":"); a window's bytes past these are free too.
_UP_TO_VUL = b'[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n[Dealer "N"]\n[Vulnerable "'
_DEALER_AT = _UP_TO_VUL.index(b'N"]')
_FROM_VUL = (b'"]\n[Deal "N:' + b"x" * 67
             + b'"]\n[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n')
_DEAL_AT = _FROM_VUL.index(b"N:")
_PREFIXES = (b'[Event "', b'[Site "', b'[Date "', b'[Board "')
_VUL_TEXTS = (b"None", b"NS", b"EW", b"All")
_PAD = len(_FROM_VUL) + 8  # (no window runs off the text)
_WORD = np.dtype("<u8")


def _words(template: bytes, *free: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The template as 8-byte words, and a mask of the bytes checked (not
    in ``free`` ranges nor past the template's end)."""
    size = -(-len(template) // 8) * 8
    text = np.zeros(size, np.uint8)
    text[:len(template)] = np.frombuffer(template, np.uint8)
    checked = np.zeros(size, np.uint8)
    checked[:len(template)] = 255
    for start, stop in free:
        checked[start:stop] = 0
    text &= checked
    return text.view(_WORD), checked.view(_WORD)


_HEAD = _words(_UP_TO_VUL, (_DEALER_AT, _DEALER_AT + 1))
_TAIL = _words(_FROM_VUL, (_DEAL_AT, _DEAL_AT + 1), (_DEAL_AT + 2, _DEAL_AT + DEAL))
_STARTS = np.array([_words(prefix) for prefix in _PREFIXES]).transpose(1, 0, 2)[:, :, 0]


def _laid_out(data: bytes, arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bool:
    """Whether every game (15 lines a row of ``starts``/``ends``, each end
    at its LF) is surely one :data:`_GAME` matches; False is no verdict
    (the caller asks the pattern). The Event, Site and Date values are
    held to printable ASCII without a quote or backslash through the whole
    text: no byte of it above '~' or below ' ' but LF, none a backslash,
    and as many quotes as 14 tag lines of two each have, every one of them
    checked at its place."""
    count = len(starts)
    if (not data.isascii() or b"\\" in data or b"\x7f" in data
            or np.count_nonzero(arr == ord('"')) != 28 * count
            or np.count_nonzero(arr < 32) != count * LINES):
        return False
    lengths = ends[:, :4] - starts[:, :4]
    if not (lengths >= np.array([len(prefix) + 2 for prefix in _PREFIXES])).all():
        return False
    padded = np.concatenate((arr, np.zeros(_PAD, np.uint8)))
    text, checked = _STARTS
    if not ((_words_at(padded, starts[:, :4], 1) & checked) == text).all():
        return False
    closing = rows_from(padded, (ends[:, :4] - 2).reshape(-1), 2)
    if not ((closing[:, 0] == ord('"')) & (closing[:, 1] == ord("]"))).all():
        return False
    for (text, checked), first in ((_HEAD, starts[:, 4]), (_TAIL, ends[:, _VUL] - 2)):
        if not ((_words_at(padded, first, len(text)) & checked) == text).all():
            return False
    nesw = np.frombuffer(b"NESW", np.uint8)
    dealer = padded[starts[:, 4] + _DEALER_AT]
    deal = padded[ends[:, _VUL] - 2 + _DEAL_AT]
    return bool(np.isin(dealer, nesw).all() and np.isin(deal, nesw).all()
                and _board_digits(padded, starts[:, _BOARD], lengths[:, _BOARD] - 10)
                and _vulnerable(padded, starts[:, _VUL] + 13, ends[:, _VUL] - 2))


def _words_at(padded: np.ndarray, starts: np.ndarray, words: int) -> np.ndarray:
    """From each start, ``words`` 8-byte words (their shape: ``starts``'
    and the words)."""
    rows = rows_from(padded, starts.reshape(-1), 8 * words)
    return rows.view(_WORD).reshape(*starts.shape, words) if words > 1 else \
        rows.view(_WORD).reshape(starts.shape)


def _board_digits(padded: np.ndarray, starts: np.ndarray, digits: np.ndarray) -> bool:
    """[Board "..."]: 1 to 9 digits, not 0 first."""
    if not ((digits >= 1) & (digits <= 9)).all():
        return False
    board = rows_from(padded, starts + 8, 9)
    is_digit = (board >= ord("0")) & (board <= ord("9"))
    return bool((board[:, 0] != ord("0")).all()
                and (is_digit | (np.arange(9) >= digits[:, None])).all())


def _vulnerable(padded: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bool:
    """[Vulnerable "..."]: None, NS, EW or All."""
    length = ends - starts
    got = _words_at(padded, starts, 1)
    good = np.zeros(len(starts), bool)
    for text in _VUL_TEXTS:
        word, checked = _words(text)
        good |= (length == len(text)) & ((got & checked[0]) == word[0])
    return bool(good.all())


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
