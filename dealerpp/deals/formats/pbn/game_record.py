"""The format-neutral game record (:mod:`dealerpp.deals.game`) written as PBN
tags and sections (read from them by
:mod:`~dealerpp.deals.formats.pbn.record_of_tags`, which says which), by
PBN 2.1's tags and sections:

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

from dealerpp.deals.formats.pbn.deal_text import deal_string, play_section
from dealerpp.deals.formats.pbn.game import PbnComment, PbnItem, PbnTag
from dealerpp.deals.formats.pbn.record_of_tags import KEYS_TAG, LIN, MATCH_TAG
from dealerpp.deals.game import Game, Match, Players
from dealerpp.deals.model import Call, Deal, Seat

# -- the record -> PBN ----------------------------------------------------------

def pbn_items(deal: Deal, game: Game, match_is_new: bool) -> list[PbnItem]:
    """The tags of a game for a deal with a game record and no PBN of its
    own, in PBN's export order; ``match_is_new``: the first game of its
    match in the output (it carries the match's LIN header)."""
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


__all__ = ["KEYS_TAG", "MATCH_TAG", "auction_with_alerts", "contract_of", "pbn_items"]
