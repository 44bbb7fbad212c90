"""The format-neutral game record (:mod:`dealerpp.deals.game`) as PBN holds it.

Both ways, by PBN 2.1's tags and sections:

* alerts: an alerted call carries ``!`` (``1C!``); an explanation is a note
  ``=n=`` after the call and its ``[Note "n:text"]`` after the auction;
* the claim is ``Result`` (tricks for declarer); ``Declarer`` and
  ``Contract`` are written from the auction;
* players are ``North`` ``East`` ``South`` ``West``, the room ``Room``;
* the match is ``Event``, ``Stage``, ``HomeTeam``, ``VisitTeam``;
* commentary is ``{...}`` after the tags (where in the auction or the play
  it was made is not kept);
* what only LIN says is kept in two tags of its own, ``LinKeys`` (a board's
  keys, ``rh||sa|0|``) and ``LinMatch`` (the match header, ``vg|...|rs|...|``,
  on the first game of the match), so a LIN written from the PBN has it back.
"""

from __future__ import annotations

import re

from dealerpp.deals.formats.pbn.game import PbnComment, PbnInfo, PbnItem, PbnTag, info_of
from dealerpp.deals.formats.pbn.lexer import WORD, tokens
from dealerpp.deals.game import Alert, Commentary, Game, Kept, Match, Players, Room
from dealerpp.deals.model import Call, Deal, Seat
from dealerpp.diagnostics import TextProblem

LIN = "lin"
KEYS_TAG = "LinKeys"
MATCH_TAG = "LinMatch"
_NOTE = re.compile(r"=(\d{1,3})=")
_CALL_WORD = re.compile(r"(?i)(pass|p|xx|x|[1-7](?:nt|[cdhsn]))(!?)[!?]{0,2}")
# A game that may say something the record holds (checked on its text first,
# so reading a plain set of deals costs no tag parsing).
_MAY_HOLD = re.compile(r'\[(?:Auction|Room|Note|LinKeys|LinMatch|Stage|HomeTeam|VisitTeam) '
                       r'|\[(?:North|East|South|West|Result) "(?![-?]")[^"]|\{')
_PAIR = re.compile(r"([A-Za-z]{2})\|([^|]*)\|")
_SEAT_TAGS = (("North", Seat.NORTH), ("East", Seat.EAST), ("South", Seat.SOUTH),
              ("West", Seat.WEST))


# -- PBN -> the record -----------------------------------------------------------

def game_of(deal: Deal) -> Game | None:
    """The game record of a deal: its own, or what its PBN tags say (None
    when they say nothing the record holds)."""
    if deal.game is not None:
        return deal.game
    info = info_of(deal)
    if info is None:
        return None
    text = getattr(info, "text", None)
    if isinstance(text, str) and not _MAY_HOLD.search(text):
        return None
    return _game_of_tags(deal, info)


def _game_of_tags(deal: Deal, info: PbnInfo) -> Game | None:
    values: dict[str, str] = {}
    notes: dict[int, str] = {}
    commentary: list[Commentary] = []
    for item in info.items:
        if isinstance(item, PbnComment):
            if item.kind in "{;":
                commentary.append(Commentary(item.text, len(deal.auction), len(deal.play)))
            continue
        if item.name == "Note":
            number, _, text = item.value.partition(":")
            if number.strip().isdigit():
                notes.setdefault(int(number), text)
        else:
            values.setdefault(item.name, item.value)
    auction = info.tag("Auction")
    alerts = _alerts(auction.section, notes) if auction is not None else ()
    names = {seat: values.get(tag, "") for tag, seat in _SEAT_TAGS}
    # "-" names no one (dealer's printpbn writes it for every seat)
    players = Players.of(names) if any(n.strip() not in ("", "-") for n in names.values()) \
        else None
    room = {"open": Room.OPEN, "closed": Room.CLOSED}.get(values.get("Room", "").strip().lower())
    claim = _claim(values.get("Result", ""))
    kept = tuple(Kept(LIN, key, value) for key, value in _PAIR.findall(values.get(KEYS_TAG, "")))
    match = _match(values)
    game = Game(alerts, claim, players, room, tuple(commentary), match, kept)
    return game if game != Game() else None


def _alerts(section: str, notes: dict[int, str]) -> tuple[Alert, ...]:
    """The alerts of an auction section: ``!`` on a call, ``=n=`` after it."""
    try:
        found = tokens(section)
    except TextProblem:
        return ()
    alerts: dict[int, Alert] = {}
    index = -1
    for token in found:
        if token[0] != WORD:
            continue
        word = token[3]
        call = _CALL_WORD.fullmatch(word)
        if call is not None:
            index += 1
            if call.group(2):
                alerts[index] = Alert(index, True)
            continue
        if word.upper() == "AP":
            index += 3
            continue
        note = _NOTE.fullmatch(word)
        if note is not None and index >= 0 and int(note.group(1)) in notes:
            before = alerts.get(index, Alert(index))
            alerts[index] = Alert(index, before.alerted, notes[int(note.group(1))])
    return tuple(alerts[i] for i in sorted(alerts))


def _claim(value: str) -> int | None:
    text = value.strip()
    return int(text) if text.isdigit() and text.isascii() and int(text) <= 13 else None


def _match(values: dict[str, str]) -> Match | None:
    kept = tuple(Kept(LIN, key, value) for key, value in _PAIR.findall(values.get(MATCH_TAG, "")))
    stage, home, visit = (values.get(name, "") for name in ("Stage", "HomeTeam", "VisitTeam"))
    if not (kept or stage or home or visit):
        return None
    scoring = next((item.value.split(",")[2] for item in kept
                    if item.key.lower() == "vg" and item.value.count(",") >= 2), "")
    return Match(values.get("Event", ""), stage, scoring, home, visit, kept)


# -- the record -> PBN ----------------------------------------------------------

def pbn_items(deal: Deal, game: Game, match_is_new: bool) -> list[PbnItem]:
    """The tags of a game for a deal with a game record and no PBN of its
    own, in PBN's export order; ``match_is_new``: the first game of its
    match in the output (it carries the match's LIN header)."""
    from dealerpp.deals.formats.pbn import deal_string, play_section

    match = game.match or Match()
    players = game.players or Players()
    contract, declarer = contract_of(deal)
    items: list[PbnItem] = [
        PbnTag("Event", match.event), PbnTag("Site", ""), PbnTag("Date", ""),
        PbnTag("Board", "" if deal.board is None else str(deal.board)),
        PbnTag("West", players.west), PbnTag("North", players.north),
        PbnTag("East", players.east), PbnTag("South", players.south),
        PbnTag("Dealer", "" if deal.dealer is None else str(deal.dealer)),
        PbnTag("Vulnerable", "" if deal.vul is None else str(deal.vul)),
        PbnTag("Deal", deal_string(deal)), PbnTag("Scoring", ""),
        PbnTag("Declarer", declarer), PbnTag("Contract", contract),
        PbnTag("Result", "" if game.claim is None else str(game.claim)),
    ]
    if game.room is not None:
        items.append(PbnTag("Room", str(game.room)))
    items.extend(PbnTag(name, value) for name, value in (
        ("Stage", match.stage), ("HomeTeam", match.home_team), ("VisitTeam", match.visit_team))
        if value)
    if deal.auction:
        section, notes = auction_with_alerts(deal.auction, game)
        items.append(PbnTag("Auction", str(deal.dealer or Seat.NORTH), section))
        items.extend(PbnTag("Note", f"{number}:{text}") for number, text in notes)
    if deal.play:
        played = play_section(deal)
        if played is not None:
            items.append(PbnTag("Play", played[0], played[1] + "\n*"))
    kept = "".join(f"{item.key}|{item.value}|" for item in game.kept if item.fmt == LIN)
    if kept:
        items.append(PbnTag(KEYS_TAG, kept))
    header = "".join(f"{item.key}|{item.value}|" for item in match.kept if item.fmt == LIN)
    if header and match_is_new:
        items.append(PbnTag(MATCH_TAG, header))
    items.extend(_comment(note.text) for note in game.commentary)
    return items


def _comment(text: str) -> PbnComment:
    """Commentary as a PBN comment: ``{...}``, or ``;`` to the end of the
    line for a text with a ``}`` in it."""
    if "}" not in text:
        return PbnComment("{", text)
    if "\n" not in text:
        return PbnComment(";", text)
    return PbnComment("{", text.replace("}", ")"))


def auction_with_alerts(auction: tuple[Call, ...], game: Game) -> tuple[str, list[tuple[int, str]]]:
    """An auction section, four calls a row, alerted calls with ``!`` and
    explained ones with ``=n=``; and the notes (number, text)."""
    words: list[str] = []
    notes: list[tuple[int, str]] = []
    for index, call in enumerate(auction):
        alert = game.alert(index)
        word = str(call) + ("!" if alert is not None and alert.alerted else "")
        if alert is not None and alert.text:
            notes.append((len(notes) + 1, alert.text))
            word += f" ={len(notes)}="
        words.append(word)
    rows = [" ".join(words[i:i + 4]) for i in range(0, len(words), 4)]
    return "\n".join(rows), notes


def contract_of(deal: Deal) -> tuple[str, str]:
    """Contract (``4HX``, ``Pass``) and declarer of a finished auction; ("", "")
    while it is not finished."""
    auction, dealer = deal.auction, deal.dealer or Seat.NORTH
    if len(auction) < 4 or any(call != 1 for call in auction[-3:]):
        return "", ""
    last = max((i for i, call in enumerate(auction) if call.is_bid), default=-1)
    if last < 0:
        return "Pass", ""
    bid = auction[last]
    risk = ""
    for call in auction[last + 1:]:
        if call == 2:
            risk = "X"
        elif call == 4:
            risk = "XX"
    side = (last % 2)
    first = next(i for i, call in enumerate(auction)
                 if i % 2 == side and call.is_bid and call.strain == bid.strain)
    return f"{bid}{risk}", str(dealer.next(first))


__all__ = ["KEYS_TAG", "MATCH_TAG", "auction_with_alerts", "contract_of", "game_of", "pbn_items"]
