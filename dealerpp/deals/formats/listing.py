"""The listing format::

    Deal #1: Player North: S5 H7 H6 DA DK D9 D7 D6 D5 D4 CQ C3 C2
    Player East : SA SK S8 S4 HA HK HT H3 DQ CJ C9 C6 C5
    Player South: ST S6 S3 S2 H8 H5 H4 DJ CA CK C8 C7 C4
    Player West : SQ SJ S9 S7 HQ HJ H9 H2 DT D8 D3 D2 CT

Seat names are padded to 5; cards are written in the order the source gave
them (the seed: "Do not change the ordering of the cards"). The reader
works on tokens, so the same text run together on one line reads too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dealerpp.deals._hand_text import listing_hand, listing_hand_mask
from dealerpp.deals._io import record_errors, source_name, text_lines, text_writers
from dealerpp.deals.model import Card, Deal, Seat, cards_of_mask, mask_problem
from dealerpp.deals.options import READ, ReadOptions, Source
from dealerpp.diagnostics import DppError, quote

_TOKEN = re.compile(r"Deal\s*#(\d+)\s*:|Player\s+(North|East|South|West)\s*:|(\S+)")


_NAMES = tuple(seat.name_title for seat in Seat)
# a listing line as its writer writes it: read straight, without tokens
_USUAL_LINE = re.compile(r"(?:Deal #\d+: )?Player (?:North|East |South|West ): (\S.*)")


def _usual_hand(line: str) -> int | None:
    """The hand of a line written as the writer writes it, else None."""
    match = _USUAL_LINE.fullmatch(line)
    return None if match is None else listing_hand_mask(match.group(1))


def format_deal(deal: Deal, number: int) -> str:
    if deal.order is None:
        north, east, south, west = (listing_hand(mask) for mask in deal.masks)
        return (f"Deal #{number}: Player North: {north}\nPlayer East : {east}\n"
                f"Player South: {south}\nPlayer West : {west}\n").replace(": \n", ":\n")
    lines = []
    for seat in Seat:
        cards = " ".join(str(c) for c in deal.cards_in_order(seat))
        head = f"Player {seat.name_title:<5}:"
        line = f"{head} {cards}" if cards else head
        lines.append(f"Deal #{number}: {line}" if seat == Seat.NORTH else line)
    return "\n".join(lines) + "\n"


# write(deals, target) and dumps(deals): a numbered listing a deal
write, dumps = text_writers(format_deal)


class _Reader:
    def __init__(self, source: Source, filename: str | None) -> None:
        self.name = source_name(source, filename)
        self.lines = text_lines(source)
        # a hand's cards as written, or its mask when written the usual way
        self.hands: list[list[Card] | int] = []
        self.where: tuple[int, int, str] = (0, 0, "")  # where the current deal began

    def error(self, message: str, line: int, column: int, text: str) -> DppError:
        return DppError(message, line=line, column=column, filename=self.name, source_line=text)

    def deals(self) -> Iterator[Deal]:
        for number, line in enumerate(self.lines, 1):
            mask = _usual_hand(line)
            if mask is not None:  # a line as the writer writes it, read in one go
                if line[0] == "D":  # "Deal #N: Player North: ..." opens a deal
                    if self.hands:
                        yield self._finish()
                    self.where = (number, 1, line)
                    self.hands = [mask]
                    continue
                seat = len(self.hands)
                if self.where[0] and 1 <= seat <= 3 and line[7:12].rstrip() == _NAMES[seat]:
                    self.hands.append(mask)
                    continue
            for match in _TOKEN.finditer(line):
                column = match.start() + 1
                if match.group(1) is not None:
                    if self.hands:
                        yield self._finish()
                    self.where = (number, column, line)
                    self.hands = []
                    self._expect_player(line, number, match.end())
                elif match.group(2) is not None:
                    self._player(match.group(2), number, column, line)
                else:
                    self._card(match.group(3), number, column, line)
        if self.hands:
            yield self._finish()

    def _expect_player(self, line: str, number: int, end: int) -> None:
        if not re.match(r"\s*Player\s+North\s*:", line[end:]):
            raise self.error("'Deal #N:' must be followed by 'Player North:'", number, end + 1, line)

    def _player(self, name: str, number: int, column: int, line: str) -> None:
        if not self.where[0]:
            raise self.error("'Player' before any 'Deal #N:'", number, column, line)
        expected = Seat(len(self.hands)) if len(self.hands) < 4 else None
        if expected is None or name != expected.name_title:
            want = expected.name_title if expected else "a new 'Deal #N:'"
            raise self.error(f"expected {want}, got Player {name}", number, column, line)
        self.hands.append([])

    def _card(self, text: str, number: int, column: int, line: str) -> None:
        if not self.hands:
            raise self.error(f"unexpected {quote(text)}: a listing starts with 'Deal #1:'",
                             number, column, line)
        try:
            card = Card.from_str(text)
        except ValueError:
            raise self.error(f"{quote(text)} is not a card (suit then rank, e.g. SA)",
                             number, column, line) from None
        if len(text) != 2 or text != text.upper():
            raise self.error(f"{quote(text)}: cards are written as two upper-case characters",
                             number, column, line)
        hand = self.hands[-1]
        if isinstance(hand, int):  # more cards after a line read in one go
            hand = self.hands[-1] = list(cards_of_mask(hand))
        if card in hand:
            raise self.error(f"card {card} twice in one hand", number, column, line)
        hand.append(card)

    def _finish(self) -> Deal:
        line, column, text = self.where
        if len(self.hands) != 4:
            raise self.error(f"deal has {len(self.hands)} hands, needs North East South West",
                             line, column, text)
        masks = tuple(hand if isinstance(hand, int) else sum(1 << c for c in hand)
                      for hand in self.hands)
        problem = mask_problem(masks)
        if problem:
            raise self.error(problem, line, column, text)
        canonical = all(isinstance(hand, int) or tuple(hand) == tuple(cards_of_mask(mask))
                        for hand, mask in zip(self.hands, masks, strict=True))
        if canonical:
            return Deal(masks)  # type: ignore[arg-type]
        order = tuple(tuple(cards_of_mask(hand)) if isinstance(hand, int) else tuple(hand)
                      for hand in self.hands)
        return Deal(masks, order=order)  # type: ignore[arg-type]


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """Deals of a listing, streamed."""
    return options.numbered(record_errors(_Reader(source, filename).deals()))
