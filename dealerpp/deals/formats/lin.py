"""LIN, Bridge Base Online's format for hands, auctions, play and matches.

A LIN file is a run of ``key|value|`` pairs; line breaks mean nothing (a
producer may break anywhere, even inside a value) and lines that start
with ``%`` are comments. Keys are two letters in either case. The facts
every producer agrees on are in docs/formats.md; in short, for a board:

* ``qx`` its id and room (``o12`` open, ``c12`` closed, maybe ``,BOARD 12``),
  ``ah`` its heading (``Board 12``, which names the board when the two
  disagree), ``md`` the dealer digit (1 S, 2 W, 3 N, 4 E) and the hands S W
  N E (the fourth may be left out), ``sv`` the vulnerability (``0 o -``
  none, ``n``, ``e``, ``b``);
* ``mb`` a call (``!`` after it: alerted), ``an`` its explanation, ``pc`` a
  card played, ``mc`` a claim (tricks for declarer), ``nt`` commentary;
* ``pn`` the players S W N E (eight names: open room, then closed room);
* before the first board a match may have a header: ``vg`` (event, stage,
  scoring, boards, teams and their carry-over), ``rs``, ``mp``, ``bn``,
  ``pw``.

A board starts at ``qx``, or at ``md`` when the board being read has its
hands already; ``pn``, ``mn`` and ``st`` just before it belong to it. What
a board means goes to the deal and its :class:`~dealerpp.deals.game.Game`;
every other key (``rh``, ``st``, ``sa``, ``mn``, one no producer we know
writes) is kept as :class:`~dealerpp.deals.game.Kept` and written again.

Writing gives one line a board. A deal with nothing but its cards, board,
dealer and vulnerability is written exactly as Big Deal writes it, the form
clubs upload to BBO: ``qx|o1|md|3S...,S...,S...|rh||ah|Board 1|sv|0|pg||``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field

from dealerpp.deals._io import piece_writers, record_errors, source_name, text_lines
from dealerpp.deals.game import Alert, Commentary, Game, Kept, Match, Players, Room
from dealerpp.deals.model import (
    FULL_MASK,
    RANK_CHARS,
    SUIT_MASK,
    Call,
    Card,
    Deal,
    Seat,
    Vul,
    board_dealer_vul,
    check_play,
    deal_trumps,
    popcount,
)
from dealerpp.deals.numbers import digits_value
from dealerpp.deals.options import READ, ReadOptions, Source
from dealerpp.diagnostics import DppError, quote

FORMAT = "lin"
# md's dealer digit and hand order: South, West, North, East.
HAND_SEATS = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)
_DIGIT_SEAT = {"1": Seat.SOUTH, "2": Seat.WEST, "3": Seat.NORTH, "4": Seat.EAST}
SEAT_DIGIT = {seat: digit for digit, seat in _DIGIT_SEAT.items()}
_VULS = {"0": Vul.NONE, "o": Vul.NONE, "-": Vul.NONE, "n": Vul.NS, "e": Vul.EW, "b": Vul.BOTH}
VUL_CHARS = {Vul.NONE: "0", Vul.NS: "n", Vul.EW: "e", Vul.BOTH: "b"}
# Keys written just before a board's qx or md that belong to that board.
_LEAD_IN = frozenset(("pn", "mn", "st"))
# Keys of a match header (before the first board).
HEADER_KEYS = frozenset(("vg", "rs", "pw", "mp", "bn"))
_BOARD_KEYS = frozenset(("qx", "md", "sv", "ah", "mb", "an", "pc", "mc", "nt", "pn", "pg"))
_HEADING = re.compile(r"(?i)\s*board\s+(\d{1,9})\s*")
_QX = re.compile(r"(?i)\s*([oc])\s*(\d{0,9})\s*(?:,\s*board\s+(\d{1,9})\s*)?")
_CALL = re.compile(r"(?i)(p|pass|d|x|dbl|r|xx|rdbl|[1-7](?:nt|[cdhsn]))(!?)")
_SUIT_SHIFT = {"s": 39, "h": 26, "d": 13, "c": 0, "S": 39, "H": 26, "D": 13, "C": 0}
_RANK_BIT = {char: index for index, char in enumerate(RANK_CHARS)}
_RANK_BIT.update({char.lower(): index for char, index in list(_RANK_BIT.items())})
_HAND = re.compile(r"[Ss]([^HhDdCc]*)[Hh]([^SsDdCc]*)[Dd]([^SsHhCc]*)[Cc]([^SsHhDd]*)")
_HOLDINGS: dict[str, int] = {}
# What a board as Big Deal writes it says besides its deal: nothing to keep.
_BIG_DEAL_GAME = Game(room=Room.OPEN, kept=(Kept(FORMAT, "rh", ""),))
# A board as Big Deal writes it (and PbnToLin, with N E B), a line to itself,
# and the next board starting after it (pairs on the next line would be
# this board's: an auction, a claim, a header key).
_QUICK = re.compile(r"qx\|o\d{1,9}\|md\|([1-4])([^,|]*),([^,|]*),([^,|]*),?\|rh\|\|"
                    r"ah\|Board (\d{1,9})\|sv\|([0onebONEB-])\|pg\|\|(?:\n|\Z)"
                    r"(?=\n*(?:qx\||\Z))")


# -- reading --------------------------------------------------------------------


class _Text:
    """The file as one string (``%`` lines blanked, line breaks kept) and
    where each line starts, for positions in messages."""

    def __init__(self, source: Source, filename: str | None) -> None:
        self.name = source_name(source, filename)
        self.lines = list(text_lines(source))
        shown = [("" if line.startswith("%") else line) for line in self.lines]
        self.text = "\n".join(shown)
        self._starts: list[int] | None = None

    def where(self, offset: int) -> tuple[int, int]:
        """Line and column (both from 1) of an offset into ``text``."""
        if self._starts is None:
            starts, position = [], 0
            for line in self.lines:
                starts.append(position)
                position += len(line) + 1
            self._starts = starts
        index = max(bisect.bisect_right(self._starts, offset) - 1, 0)
        return index + 1, offset - self._starts[index] + 1

    def error(self, message: str, offset: int, *, deal: int | None = None,
              board: int | None = None) -> DppError:
        line, column = self.where(offset)
        source_line = self.lines[line - 1] if line <= len(self.lines) else None
        return DppError(message, line=line, column=column, filename=self.name,
                        source_line=source_line, deal=deal, board=board)


@dataclass
class _Pair:
    key: str  # lower case
    value: str  # line breaks taken out
    at: int  # offset of the value (of the key for a key without value)
    written: str  # the key as written


@dataclass
class _Board:
    pairs: list[_Pair] = field(default_factory=list)
    has_md: bool = False
    has_qx: bool = False


def _pairs(text: _Text, start: int = 0) -> Iterator[_Pair]:
    """The key-value pairs of the text from ``start``, in order."""
    parts = text.text[start:].split("|")
    offset = start
    count = len(parts)
    for index in range(0, count - 1, 2):
        key, value = parts[index], parts[index + 1]
        key_at = offset
        offset += len(key) + len(value) + 2
        if len(key) != 2:
            stripped = "".join(key.split())
            if len(stripped) != 2 or not stripped.isalpha():
                key_at += len(key) - len(key.lstrip())
                raise text.error(f"expected a two-letter LIN key before '|', not {quote(key.strip())}",
                                 key_at)
            key = stripped
        elif not key.isalpha():
            raise text.error(f"expected a two-letter LIN key before '|', not {quote(key)}", key_at)
        if "\n" in value:
            value = value.replace("\n", "")
        yield _Pair(key.lower(), value, key_at + len(parts[index]) + 1, key)
    if count % 2 == 0:  # a last key without '|' after its value: the value ends the file
        return
    tail = parts[-1]
    if tail.strip():
        at = offset + len(tail) - len(tail.lstrip())
        raise text.error(f"{quote(tail.strip())} has no '|' after it: a LIN key needs a value "
                         "and '|' after each", at)


def _boards(text: _Text, start: int = 0) -> Iterator[tuple[list[_Pair], _Board]]:
    """(match header so far, board) for each board of the text from ``start``."""
    header: list[_Pair] = []
    board: _Board | None = None
    for pair in _pairs(text, start):
        key = pair.key
        starts = (key == "qx" and (board is None or board.has_md or board.has_qx)) or (
            key == "md" and (board is None or board.has_md))
        if starts:
            before = header if board is None else board.pairs
            lead = len(before)
            while lead and before[lead - 1].key in _LEAD_IN:
                lead -= 1
            moved = before[lead:]
            del before[lead:]
            if board is not None:
                yield header, board
            board = _Board(moved)
        if board is None:
            header.append(pair)
            continue
        board.pairs.append(pair)
        if key == "md":
            board.has_md = True
        elif key == "qx":
            board.has_qx = True
    if board is not None:
        yield header, board


class _Reader:
    def __init__(self, text: _Text) -> None:
        self.text = text
        self.players: list[str] | None = None  # the match header's pn: every board's
        self.header_read = 0  # pairs of the header taken into a Match
        self.match: Match | None = None
        self.index = 0
        self.board: int | None = None  # the number of the board being read

    def deals(self) -> Iterator[Deal]:
        start = yield from self._quick()
        for header, board in _boards(self.text, start):
            if len(header) > self.header_read:
                self._header(header)
            self.index += 1
            yield self._board(board)

    def _quick(self) -> Generator[Deal, None, int]:
        """The boards at the start of the file that are lines as Big Deal
        writes them, read by one match each; returns where the first other
        board starts (the rest is read pair by pair, and so is a board with
        anything wrong in it, to name the fault)."""
        text = self.text.text
        match_at = _QUICK.match
        position, end = 0, len(text)
        while position < end:
            if text[position] == "\n":
                position += 1
                continue
            found = match_at(text, position)
            if found is None:
                break
            dealer, south, west, north, board, vul = found.groups()
            masks = _quick_masks(south, west, north)
            if masks is None:
                break
            yield Deal(masks, board=int(board), dealer=_DIGIT_SEAT[dealer],
                       vul=_VULS[vul.lower()])
            self.index += 1
            position = found.end()
        return position

    def _error(self, message: str, offset: int) -> DppError:
        """An error in the board being read: named by its number, or by its
        place in the file when it has none."""
        deal = self.index if self.board is None else None
        return self.text.error(message, offset, deal=deal, board=self.board)

    def _header(self, header: list[_Pair]) -> None:
        self.header_read = len(header)
        kept: list[Kept] = []
        event = stage = scoring = home = visit = ""
        for pair in header:
            if pair.key == "pn":
                self.players = pair.value.split(",")
            if pair.key == "vg":
                fields = pair.value.split(",")
                fields += [""] * (9 - len(fields))
                event, stage, scoring, home, visit = (fields[0], fields[1], fields[2], fields[5],
                                                      fields[7])
            if pair.key != "pg":
                kept.append(Kept(FORMAT, pair.written, pair.value))
        self.match = Match(event, stage, scoring, home, visit, tuple(kept))

    # -- one board --------------------------------------------------------------
    def _board(self, board: _Board) -> Deal:
        pairs = board.pairs
        number, room, kept = self._number_and_room(pairs)
        self.board = number
        md = next((p for p in pairs if p.key == "md"), None)
        if md is None:
            raise self._error("no hands (no md)", pairs[0].at)
        dealer, masks = self._hands(md)
        vul = None
        calls: list[Call] = []
        alerts: list[Alert] = []
        play: list[Card] = []
        commentary: list[Commentary] = []
        claim = None
        names = self.players
        for pair in pairs:
            key = pair.key
            if key == "mb":
                call, alerted = self._call(pair)
                calls.append(call)
                if alerted:
                    alerts.append(Alert(len(calls) - 1, True))
            elif key == "pc":
                play.append(self._card(pair))
            elif key == "an":
                self._explain(alerts, len(calls) - 1, pair, kept)
            elif key == "sv":
                vul = self._vul(pair)
            elif key == "mc":
                claim = self._claim(pair)
            elif key == "nt":
                commentary.append(Commentary(pair.value, len(calls), len(play)))
            elif key == "pn":
                names = pair.value.split(",")  # this board's players alone
                if not _named(names):  # pn|-,-,-,-|: no one, as written
                    kept.append(Kept(FORMAT, pair.written, pair.value))
            elif key not in _BOARD_KEYS:
                kept.append(Kept(FORMAT, pair.written, pair.value))
        players = self._players(names, room)
        deal = Deal(masks, board=number, dealer=dealer, vul=vul, auction=tuple(calls))
        if play:
            self._check_play(deal, play, pairs)
        game: Game | None = Game(tuple(alerts), claim, players, room, tuple(commentary),
                                 self.match, tuple(kept))
        if game == _BIG_DEAL_GAME:  # qx|oB| and rh||: what writing a deal alone gives back
            game = None
        return Deal(masks, board=number, dealer=dealer, vul=vul, auction=tuple(calls),
                    play=tuple(play), game=game)

    def _players(self, names: list[str] | None, room: Room | None) -> Players | None:
        """The players of the board's names (its own, else the file's), None
        when no seat has one."""
        if names is None:
            return None
        players = self._seated(names, room)
        return players if _named([players[seat] for seat in Seat]) else None

    def _number_and_room(self, pairs: list[_Pair]) -> tuple[int | None, Room | None, list[Kept]]:
        number: int | None = None
        heading: int | None = None
        room: Room | None = None
        kept: list[Kept] = []
        for pair in pairs:
            if pair.key == "qx":
                match = _QX.fullmatch(pair.value)
                if match is None:
                    kept.append(Kept(FORMAT, pair.written, pair.value))
                    continue
                room = Room.OPEN if match.group(1).lower() == "o" else Room.CLOSED
                digits = match.group(3) or match.group(2)
                if digits and number is None:
                    number = int(digits)
            elif pair.key == "ah":
                found = _HEADING.fullmatch(pair.value)
                if found is not None and heading is None:
                    heading = int(found.group(1))
                else:
                    kept.append(Kept(FORMAT, pair.written, pair.value))
        return (heading if heading is not None else number), room, kept

    @staticmethod
    def _seated(names: list[str], room: Room | None) -> Players:

        if room is Room.CLOSED and len(names) >= 8:
            names = names[4:8]
        names = (names + [""] * 4)[:4]
        return Players.of(dict(zip(HAND_SEATS, names, strict=True)))

    def _hands(self, pair: _Pair) -> tuple[Seat | None, tuple[int, int, int, int]]:
        value = pair.value
        dealer = _DIGIT_SEAT.get(value[:1])
        start = 1 if dealer is not None else 0
        if dealer is None and value[:1].isdigit():
            raise self._error(f"md: the dealer digit must be 1 (South), 2 (West), "
                                  f"3 (North) or 4 (East), not {quote(value[:1])}", pair.at)
        hands = value[start:].split(",")
        if len(hands) > 4 and not any(h.strip() for h in hands[4:]):
            hands = hands[:4]
        if len(hands) > 4:
            raise self._error("md: more than four hands", pair.at)
        masks = [0, 0, 0, 0]
        at = pair.at + start
        for seat, hand in zip(HAND_SEATS, hands, strict=False):
            masks[seat] = _hand_mask(hand) if hand else 0
            if masks[seat] < 0:
                raise self._hand_error(hand, at, seat)
            at += len(hand) + 1
        return dealer, self._completed(masks, hands, pair)

    def _hand_error(self, hand: str, at: int, seat: Seat) -> DppError:
        message, offset = _hand_problem(hand)
        return self._error(f"md: {seat.name_title}: {message}", at + offset)

    def _completed(self, masks: list[int], hands: list[str], pair: _Pair,
                   ) -> tuple[int, int, int, int]:
        """The four hands, the one left out (or empty) given the cards
        nobody else holds; an error for a card twice or a hand that is not 13."""
        seen = 0
        for seat in HAND_SEATS:
            twice = seen & masks[seat]
            if twice:
                card = Card(twice.bit_length() - 1)
                at = self._hand_at(pair, seat)
                hand = pair.value[at - pair.at:].split(",")[0]
                raise self._error(f"md: {card} is in two hands (the second is "
                                      f"{seat.name_title})", at + _card_offset(hand, card))
            seen |= masks[seat]
        empty = [seat for seat in HAND_SEATS if not masks[seat]]
        if len(empty) == 1:
            masks[empty[0]] = FULL_MASK & ~seen
        for seat in HAND_SEATS:
            count = popcount(masks[seat])
            if count != 13:
                missing = "" if len(empty) != 1 or seat != empty[0] else " (left out: the cards "
                missing += "no other hand holds)" if missing else ""
                raise self._error(f"md: {seat.name_title} has {count} cards{missing}, "
                                      "a hand needs 13", self._hand_at(pair, seat))
        return masks[0], masks[1], masks[2], masks[3]

    @staticmethod
    def _hand_at(pair: _Pair, seat: Seat) -> int:
        value = pair.value
        at = pair.at + (1 if value[:1] in _DIGIT_SEAT else 0)
        hands = value[at - pair.at:].split(",")
        for hand_seat, hand in zip(HAND_SEATS, hands, strict=False):
            if hand_seat == seat:
                return at
            at += len(hand) + 1
        return pair.at + len(value)

    def _call(self, pair: _Pair) -> tuple[Call, bool]:
        match = _CALL.fullmatch(pair.value.strip())
        if match is None:
            raise self._error(f"mb: not a call: {quote(pair.value)} (p, d, r, or "
                                  "1C to 7N, '!' after it for an alert)", pair.at)
        word = match.group(1).upper()
        word = {"D": "X", "DBL": "X", "R": "XX", "RDBL": "XX"}.get(word, word)
        return Call.from_str(word), bool(match.group(2))

    def _card(self, pair: _Pair) -> Card:
        try:
            return Card.from_str(pair.value.strip())
        except ValueError:
            raise self._error(f"pc: not a card: {quote(pair.value)} (a suit S H D "
                                  "C then a rank)", pair.at) from None

    @staticmethod
    def _explain(alerts: list[Alert], call: int, pair: _Pair, kept: list[Kept]) -> None:
        if call < 0:
            kept.append(Kept(FORMAT, pair.written, pair.value))
            return
        if alerts and alerts[-1].call == call:
            alerts[-1] = Alert(call, alerts[-1].alerted, pair.value)
        else:
            alerts.append(Alert(call, False, pair.value))

    def _vul(self, pair: _Pair) -> Vul | None:
        value = pair.value.strip().lower()
        if not value:
            return None
        found = _VULS.get(value)
        if found is None:
            raise self._error(f"sv: not a vulnerability: {quote(pair.value)} (0, o "
                                  "or - for none, n, e, b)", pair.at)
        return found

    def _claim(self, pair: _Pair) -> int:
        value = digits_value(pair.value.strip())
        if value is None or value > 13:
            raise self._error(f"mc: a claim is declarer's tricks, 0 to 13, not "
                                  f"{quote(pair.value)}", pair.at)
        return value

    def _check_play(self, deal: Deal, play: list[Card], pairs: list[_Pair]) -> None:
        trumps = deal_trumps(deal)
        problem = check_play(deal, play, trumps)
        if problem is None:
            return
        # The first card at fault: the shortest play that has a problem.
        count = next(n for n in range(1, len(play) + 1)
                     if check_play(deal, play[:n], trumps) is not None)
        cards = [p for p in pairs if p.key == "pc"]
        raise self._error(f"pc: {problem}", cards[count - 1].at)


def _named(names: list[str]) -> bool:
    """Whether a pn names anyone (``-`` and "" name no one)."""
    return any(name.strip() not in ("", "-") for name in names)


def _quick_masks(south: str, west: str, north: str) -> tuple[int, int, int, int] | None:
    """Masks N E S W of three full hands S W N, East the rest; None for
    anything else (read again the slow way, which names the fault)."""
    s, w, n = _hand_mask(south), _hand_mask(west), _hand_mask(north)
    if s < 0 or w < 0 or n < 0 or s & w or (s | w) & n:
        return None
    if s.bit_count() != 13 or w.bit_count() != 13 or n.bit_count() != 13:
        return None
    return n, FULL_MASK & ~(s | w | n), s, w


def _hand_mask(text: str) -> int:
    """A hand's mask from ``S..H..D..C..``; -1 when it is not one the quick
    way (any order of suits, ``10``, a bad character: see _hand_problem)."""
    match = _HAND.fullmatch(text)
    if match is None:
        return _hand_slowly(text)
    mask = 0
    for shift, holding in zip((39, 26, 13, 0), match.groups(), strict=True):
        bits = _HOLDINGS.get(holding)
        if bits is None:
            bits = _holding(holding)
            if bits < 0:
                return -1
            if len(_HOLDINGS) < 100_000:
                _HOLDINGS[holding] = bits
        mask |= bits << shift
    return mask


def _holding(text: str) -> int:
    if "10" in text:
        text = text.replace("10", "T")
    bits = 0
    for char in text:
        rank = _RANK_BIT.get(char)
        if rank is None or bits >> rank & 1:
            return -1
        bits |= 1 << rank
    return bits


def _hand_slowly(text: str) -> int:
    problem = _hand_problem(text)
    return -1 if problem[0] else problem[1]


def _card_offset(hand: str, card: Card) -> int:
    """Where ``card`` is written in a hand's text (0 when it is not)."""
    shift = -1
    for index, char in enumerate(hand):
        if char in _SUIT_SHIFT:
            shift = _SUIT_SHIFT[char]
        elif shift + _RANK_BIT.get("T" if hand[index:index + 2] == "10" else char, -99) == card:
            return index
    return 0


def _hand_problem(text: str) -> tuple[str, int]:
    """What is wrong with a hand and the offset where, or ("", mask)."""
    mask = 0
    shift = -1
    suits_seen = ""
    index = 0
    while index < len(text):
        char = text[index]
        if char in _SUIT_SHIFT:
            if char.upper() in suits_seen:
                return f"suit {char.upper()} written twice", index
            suits_seen += char.upper()
            shift = _SUIT_SHIFT[char]
            index += 1
            continue
        if char == "1" and text[index + 1:index + 2] == "0":
            char, index = "T", index + 1
        rank = _RANK_BIT.get(char)
        if rank is None:
            return f"not a suit letter or rank: {quote(char)}", index
        if shift < 0:
            return f"rank {char.upper()} before any suit letter (S, H, D, C)", index
        bit = 1 << (shift + rank)
        if mask & bit:
            return f"{Card(shift + rank)} written twice", index
        mask |= bit
        index += 1
    return "", mask


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """Deals of a LIN file, a board at a time (the file is read whole: it
    is one run of pairs, with no line a board need keep to)."""
    text = _Text(source, filename)
    return options.numbered(record_errors(_Reader(text).deals()))


# -- writing --------------------------------------------------------------------

_HOLDING_TEXT: list[str] = []


def _holding_text(bits: int) -> str:
    if not _HOLDING_TEXT:
        _HOLDING_TEXT.extend("".join(RANK_CHARS[r] for r in range(12, -1, -1) if b >> r & 1)
                             for b in range(1 << 13))
    return _HOLDING_TEXT[bits]


def hand_text(mask: int) -> str:
    """``S...H...D...C...``: all four letters, ranks high to low, T for ten."""
    return ("S" + _holding_text(mask >> 39 & SUIT_MASK) + "H" + _holding_text(mask >> 26 & SUIT_MASK)
            + "D" + _holding_text(mask >> 13 & SUIT_MASK) + "C" + _holding_text(mask & SUIT_MASK))


def deal_line(masks: tuple[int, int, int, int], board: int, dealer: Seat, vul: Vul) -> str:
    """A deal-only board as Big Deal writes it (East left out)."""
    return (f"qx|o{board}|md|{SEAT_DIGIT[dealer]}{hand_text(masks[2])},{hand_text(masks[3])},"
            f"{hand_text(masks[0])}|rh||ah|Board {board}|sv|{VUL_CHARS[vul]}|pg||\n")


def call_text(call: Call) -> str:
    if call == 1:
        return "p"
    if call == 2:
        return "d"
    if call == 4:
        return "r"
    text = str(call)
    return text[:2]  # 1NT -> 1N


def value_text(text: str) -> str:
    """A value as LIN can hold it: no '|' (it would end the value) and no
    line break (a reader drops it)."""
    if "|" in text or "\n" in text or "\r" in text:
        text = text.replace("|", "/").replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    return text


def _kept_text(items: Iterable[Kept]) -> str:
    return "".join(f"{item.key}|{value_text(item.value)}|" for item in items)


class Writer:
    """Boards as LIN text; one writer for a whole output (a match's header
    is written once, before its first board)."""

    def __init__(self) -> None:
        self.match: tuple[str, ...] | None = None  # the match whose header was written
        self.header_names: list[str] | None = None  # the names of that header's pn

    def pieces(self, deals: Iterable[Deal], first: int = 1) -> Iterator[str]:
        """The text of each deal; ``first``: the place in the output of the
        first (a deal without a board number is numbered by its place).
        An error names the deal counted from the first of ``deals``."""
        for index, deal in enumerate(deals, 1):
            try:
                yield self.board(deal, index + first - 1)
            except ValueError as error:
                raise DppError(str(error), deal=index, board=deal.board,
                               output=True) from None

    def board(self, deal: Deal, number: int) -> str:
        if not deal.is_full():
            raise ValueError("LIN holds full deals only (13 cards a hand)")
        board = deal.board if deal.board is not None else number
        dealer, vul = board_dealer_vul(board)
        dealer = deal.dealer if deal.dealer is not None else dealer
        vul = deal.vul if deal.vul is not None else vul
        game = deal.game  # read from PBN: what its tags say, worked out now
        if game is None and not deal.auction and not deal.play:
            return deal_line(deal.masks, board, dealer, vul)
        return self._header(game) + self._played(deal, game or Game(), board, dealer, vul)

    def _header(self, game: Game | None) -> str:
        match = None if game is None else game.match
        if match is None:
            return ""
        fields = (match.event, match.stage, match.home_team, match.visit_team)
        if fields == self.match:
            return ""
        self.match = fields
        kept = [item for item in match.kept if item.fmt == FORMAT]
        self.header_names = next((item.value.split(",") for item in kept
                                  if item.key.lower() == "pn"), None)
        if not any(item.key.lower() == "vg" for item in kept):
            kept.insert(0, Kept(FORMAT, "vg", f"{match.event},{match.stage},{match.scoring},,,"
                                f"{match.home_team},,{match.visit_team},"))
        return _kept_text(kept) + "pg||\n"

    def _played(self, deal: Deal, game: Game, board: int, dealer: Seat, vul: Vul) -> str:
        kept = [item for item in game.kept if item.fmt == FORMAT]
        lead = [item for item in kept if item.key.lower() in _LEAD_IN]
        rest = [item for item in kept if item.key.lower() not in _LEAD_IN]
        heading = next((item for item in rest if item.key.lower() == "rh"), None)
        rest = [item for item in rest if item is not heading]
        # a qx that names no room (qx|1|) stays where a board's qx is: after
        # md it would start another board
        odd_ids = [item for item in rest if item.key.lower() == "qx"]
        rest = [item for item in rest if item.key.lower() != "qx"]
        out = [_kept_text(item for item in lead if item.key.lower() == "mn")]
        if game.players is not None and not self._header_names(game):
            names = ",".join(value_text(game.players[seat]).replace(",", " ")
                             for seat in HAND_SEATS)  # pn separates names by commas
            out.append(f"pn|{names}|")
        out.append(_kept_text(item for item in lead if item.key.lower() != "mn"))
        if game.room is not None:  # a board of a match, or a set as Big Deal writes it
            out.append(f"qx|{'c' if game.room is Room.CLOSED else 'o'}{board}|")
        out.append(_kept_text(odd_ids))
        masks = deal.masks
        out.append(f"md|{SEAT_DIGIT[dealer]}{hand_text(masks[2])},"
                   f"{hand_text(masks[3])},{hand_text(masks[0])}|")
        if heading is not None:
            out.append(f"rh|{value_text(heading.value)}|")
        out.append(f"ah|Board {board}|sv|{VUL_CHARS[vul]}|")
        out.append(_kept_text(rest))
        notes = list(game.commentary)
        out.extend(self._auction(deal, game, notes))
        out.extend(self._play(deal, notes))
        if game.claim is not None:
            out.append(f"mc|{game.claim}|pg||")
        out.extend(f"nt|{value_text(note.text)}|pg||" for note in notes)
        if not out[-1].endswith("pg||"):
            out.append("pg||")
        return "".join(out) + "\n"

    def _header_names(self, game: Game) -> bool:
        """Whether the match header's pn already names this table's players."""
        names = self.header_names
        if names is None or game.players is None:
            return False
        if game.room is Room.CLOSED and len(names) >= 8:
            names = names[4:8]
        names = (names + [""] * 4)[:4]
        return [game.players[seat] for seat in HAND_SEATS] == names

    @staticmethod
    def _auction(deal: Deal, game: Game, notes: list[Commentary]) -> Iterator[str]:
        for index, call in enumerate(deal.auction):
            yield from _notes_before(notes, index, 0)
            alert = game.alert(index)
            mark = "!" if alert is not None and alert.alerted else ""
            yield f"mb|{call_text(call)}{mark}|"
            if alert is not None and alert.text:
                yield f"an|{value_text(alert.text)}|"
        yield from _notes_before(notes, len(deal.auction), 0)
        if deal.auction:
            yield "pg||"

    @staticmethod
    def _play(deal: Deal, notes: list[Commentary]) -> Iterator[str]:
        calls = len(deal.auction)
        for index, card in enumerate(deal.play):
            yield from _notes_before(notes, calls, index)
            yield f"pc|{card}|"
            if index % 4 == 3:
                yield "pg||"
        if len(deal.play) % 4:
            yield "pg||"
        yield from _notes_before(notes, calls, len(deal.play))


def _notes_before(notes: list[Commentary], calls: int, cards: int) -> Iterator[str]:
    """The commentary written by the time ``calls`` calls and ``cards``
    cards were made, taken off ``notes``."""
    while notes and (notes[0].calls, notes[0].cards) <= (calls, cards):
        yield f"nt|{value_text(notes.pop(0).text)}|pg||"


def _pieces(deals: Iterable[Deal]) -> Iterator[str]:
    return Writer().pieces(deals)


write, dumps = piece_writers(_pieces)


__all__ = ["HAND_SEATS", "Writer", "call_text", "deal_line", "dumps", "hand_text", "read", "write"]
