"""What a PBN game's tags and comments say of the format-neutral game record
(:mod:`dealerpp.deals.game`), by PBN 2.1's tags and sections:

* alerts: an alerted call carries ``!`` (``1C!``); an explanation is a note
  ``=n=`` after the call and its ``[Note "n:text"]`` after the auction;
* the claim is ``Result`` (tricks for declarer);
* players are ``North`` ``East`` ``South`` ``West``, the room ``Room``;
* the match is ``Event``, ``Stage``, ``HomeTeam``, ``VisitTeam``;
* commentary is ``{...}`` and ``;`` comments outside sections (where in the
  auction or the play it was made is not kept);
* what only LIN says is kept in two tags of its own, ``LinKeys`` (a board's
  keys, ``rh||sa|0|``) and ``LinMatch`` (the match header, ``vg|...|rs|...|``).

It works on values already read (no PBN object), so the game
(:mod:`~dealerpp.deals.formats.pbn.game`) and the writer of the record
(:mod:`~dealerpp.deals.formats.pbn.game_record`) both stand on it.
"""

from __future__ import annotations

import re

from dealerpp.deals.game import Alert, Commentary, Game, Kept, Match, Players, Room
from dealerpp.deals.numbers import digits_value

LIN = "lin"
KEYS_TAG = "LinKeys"
MATCH_TAG = "LinMatch"
_NOTE = re.compile(r"=(\d{1,3})=")
_CALL_WORD = re.compile(r"(?i)(pass|p|xx|x|[1-7](?:nt|[cdhsn]))(!?)[!?]{0,2}")
# A game that may say something the record holds (checked on its text first,
# so a plain set of deals costs no tag parsing).
_MAY_HOLD = re.compile(r'\[(?:Auction|Room|Note|LinKeys|LinMatch|Stage|HomeTeam|VisitTeam) '
                       r'|\[(?:North|East|South|West|Result) "(?![-?]")[^"]|\{|;')
_PAIR = re.compile(r"([A-Za-z]{2})\|([^|]*)\|")
_SAYS_NOTHING = frozenset(("", "-", "?"))


def may_hold(text: str) -> bool:
    """Whether a game's text may say something the record holds (when not,
    it says nothing: no tag need be looked at)."""
    return _MAY_HOLD.search(text) is not None


def game_of_tags(values: dict[str, str], notes: list[str], comments: list[str],
                 auction: list[str] | None, calls: int, cards: int) -> Game | None:
    """The record a game says: ``values`` the first value of each tag name,
    ``notes`` its Note values, ``comments`` the text of its ``{}`` and ``;``
    comments outside sections, ``auction`` the words of its Auction section
    (None without one); ``calls`` and ``cards``: how far the auction and
    the play go (where its commentary stands)."""
    numbered: dict[int, str] = {}
    for note in notes:
        number, _, text = note.partition(":")
        value = digits_value(number.strip())
        if value is not None:
            numbered.setdefault(value, text)
    alerts = _alerts(auction, numbered) if auction is not None else ()
    return _record(values, alerts, tuple(Commentary(text, calls, cards) for text in comments))


_ROOMS = {"open": Room.OPEN, "closed": Room.CLOSED}
_MATCH_TAGS = ("Stage", "HomeTeam", "VisitTeam", MATCH_TAG)


def _record(values: dict[str, str], alerts: tuple[Alert, ...],
            commentary: tuple[Commentary, ...]) -> Game | None:
    """The record the tag values say (the first value of each name). Made
    for every game that may say something as it is read: a dict lookup a
    field, each object made only when it holds something."""
    get = values.get
    north, east, south, west = get("North", ""), get("East", ""), get("South", ""), get("West", "")
    # "-" names no one (dealer's printpbn writes it for every seat), nor "?"
    # (unknown): the same values as _MAY_HOLD passes over
    players = Players(north, east, south, west) if (
        north.strip() not in _SAYS_NOTHING or east.strip() not in _SAYS_NOTHING
        or south.strip() not in _SAYS_NOTHING or west.strip() not in _SAYS_NOTHING) else None
    room_value = get("Room")
    room = None if room_value is None else _ROOMS.get(room_value.strip().lower())
    result = get("Result")
    claim = None if result is None else _claim(result)
    keys = get(KEYS_TAG)
    kept = tuple(Kept(LIN, key, value) for key, value in _PAIR.findall(keys)) if keys else ()
    match = _match(values) if any(name in values for name in _MATCH_TAGS) else None
    if not (alerts or claim is not None or players or room or commentary or match or kept):
        return None
    return Game(alerts, claim, players, room, commentary, match, kept)


def _alerts(words: list[str], notes: dict[int, str]) -> tuple[Alert, ...]:
    """The alerts of an auction section's words: ``!`` on a call, ``=n=`` after it."""
    said: dict[int, tuple[bool, str]] = {}  # call index -> (alerted, explanation)
    index = -1
    kinds = _ALERT_WORDS
    for word in words:
        kind = kinds.get(word)
        if kind is None:
            kind = _alert_word(word)
        calls, alerted, note = kind
        if calls:
            index += calls
            if alerted:
                said[index] = (True, "")
        elif note >= 0 and index >= 0 and note in notes:
            said[index] = (said.get(index, (False, ""))[0], notes[note])
    return tuple(Alert(i, *said[i]) for i in sorted(said))


# What each word of an auction says for alerts: the calls it stands for (1,
# 3 for AP, 0 for none), whether the call is alerted (``!``), the note it
# refers to (``=n=``; -1 for none). Learnt a word at a time: auctions use few.
_ALERT_WORDS: dict[str, tuple[int, bool, int]] = {}


def _alert_word(word: str) -> tuple[int, bool, int]:
    call = _CALL_WORD.fullmatch(word)
    if call is not None:
        kind = (1, bool(call.group(2)), -1)
    elif word.upper() == "AP":
        kind = (3, False, -1)
    else:
        note = _NOTE.fullmatch(word)
        kind = (0, False, int(note.group(1)) if note is not None else -1)
    if len(_ALERT_WORDS) < 10_000:
        _ALERT_WORDS[word] = kind
    return kind


def _claim(value: str) -> int | None:
    tricks = digits_value(value.strip())
    return tricks if tricks is not None and tricks <= 13 else None


def _match(values: dict[str, str]) -> Match | None:
    kept = tuple(Kept(LIN, key, value) for key, value in _PAIR.findall(values.get(MATCH_TAG, "")))
    stage, home, visit = (values.get(name, "") for name in ("Stage", "HomeTeam", "VisitTeam"))
    if not (kept or stage or home or visit):
        return None
    scoring = next((item.value.split(",")[2] for item in kept
                    if item.key.lower() == "vg" and item.value.count(",") >= 2), "")
    return Match(values.get("Event", ""), stage, scoring, home, visit, kept)


__all__ = ["KEYS_TAG", "LIN", "MATCH_TAG", "game_of_tags", "may_hold"]
