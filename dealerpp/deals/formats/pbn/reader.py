"""Reading PBN files: the games the lexer cuts, their tags given their
meaning (see the package's doc: what is an error, what a warning), each
game a deal that keeps its exact text."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from dealerpp.deals._io import source_name, text_lines
from dealerpp.deals.formats.pbn.checks import contract_strain as _strain_of
from dealerpp.deals.formats.pbn.checks import (
    parse_deal,
    quick_full_deal,
    read_auction,
    read_play,
    seat_of,
)
from dealerpp.deals.formats.pbn.deal_text import VUL_NAMES
from dealerpp.deals.formats.pbn.game import Entry, PbnGame, entries_of, plain_game, unescape
from dealerpp.deals.formats.pbn.lexer import (
    TAG,
    WORD,
    QuickBlock,
    RawGame,
    blocks_of_text,
    plain_tags,
    quick_scan,
    section_words,
    split_games,
    text_chunks,
    tokens,
)
from dealerpp.deals.formats.pbn.tricks import DDT_VALUE, tricks_of_ddt, tricks_of_table
from dealerpp.deals.model import Call, Card, Deal, Seat, Vul, full_deal
from dealerpp.deals.numbers import digits_value
from dealerpp.deals.options import READ, ReadOptions, RecordTally, Report, Source
from dealerpp.diagnostics import Diagnostic, DppError, TextProblem, quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dealerpp.deals.byte_offsets import ByteOffsets, StreamOffsets

_UNKNOWN = ("", "?", "-")
# Tags that are given more than once by design: no warning for those.
_REPEATABLE = ("Note",)
_V = r'"([^"\\\n]*)"\]\n'
# A game exactly as dealer's printpbn writes it: the most common PBN there is.
_PRINTPBN = re.compile(
    r'\[Event ' + _V + r'\[Site ' + _V + r'\[Date ' + _V + r'\[Board "([0-9]{1,9})"\]\n'
    r'\[West ' + _V + r'\[North ' + _V + r'\[East ' + _V + r'\[South ' + _V
    + r'\[Dealer "([NESW])"\]\n\[Vulnerable "(None|NS|EW|All)"\]\n\[Deal "([^"\\\n]*)"\]\n'
    r'\[Declarer ' + _V + r'\[Contract ' + _V + r'\[Result "([^"\\\n]*)"\]')
_PLAIN_DEALERS: dict[str, Seat | None] = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH,
                                          "W": Seat.WEST, "?": None, "": None}
_PLAIN_VULS: dict[str, Vul | None] = {"None": Vul.NONE, "NS": Vul.NS, "EW": Vul.EW,
                                      "All": Vul.BOTH, "Both": Vul.BOTH, "?": None, "": None}
# Tags that say nothing the reader checks (Deal, Dealer, Vulnerable and
# Board are read above; Auction, Play, DoubleDummyTricks are not plain).
_PLAIN_NAMES = frozenset((
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable",
    "Deal", "Scoring", "Declarer", "Contract", "Result", "Room", "Round", "Stage", "Section",
    "Table", "Generator", "Competition", "Description", "EventDate", "HomeTeam", "VisitTeam",
    "BCFlags", "Annotator", "Mode", "Termination", "Score", "ScoreIMP", "ScoreMP",
    "ScorePercentage", "ScoreRubber", "OptimumScore", "ParContract", "WestType", "NorthType",
    "EastType", "SouthType", "Time", "UTCDate", "UTCTime", "TimeControl", "TimeCall",
    "TimeCard", "Application", "FrenchMP"))



# -- reading files ------------------------------------------------------------

class _Tags:
    """The tags of the game being read, by name (the first of a name counts,
    as PBN 2.1 says), made into :class:`_Tag` only when looked up."""

    __slots__ = ("entries", "first", "inherited", "pairs", "sections", "text")

    def __init__(self, text: str, pairs: list[tuple[str, str]], entries: list[Entry] | None,
                 sections: list[list[str]] | None = None) -> None:
        self.text = text
        self.pairs = pairs  # (name, value as written), in order
        self.entries = entries  # the tag entries (None: read without positions)
        self.sections = sections  # section tokens per tag, when read without positions
        self.first: dict[str, int] = {}
        self.inherited: dict[int, str] = {}  # tag index -> value copied for '#'

    def get(self, name: str) -> _Tag | None:
        index = self.first.get(name)
        return None if index is None else _Tag(self, index)

    def start(self, index: int) -> int:
        """Offset of the tag's ``[``."""
        if self.entries is not None:
            return self.entries[index].start
        return sum(len(n) + len(r) + 6 for n, r in self.pairs[:index])


class _Tag:
    """A tag of the game being read; where it is is worked out when asked."""

    __slots__ = ("index", "name", "raw", "tags", "value")

    def __init__(self, tags: _Tags, index: int) -> None:
        self.tags = tags
        self.index = index
        self.name, self.raw = tags.pairs[index]
        value = tags.inherited.get(index)
        if value is None:
            value = self.raw if "\\" not in self.raw else unescape(self.raw)
        self.value = value

    @property
    def start(self) -> int:
        return self.tags.start(self.index)

    @property
    def value_at(self) -> int:
        """Offset of the value's first character."""
        return self.tags.text.index('"', self.start) + 1

    @property
    def words(self) -> list[tuple[str, int]]:
        """The section's tokens and their offsets (-1 when read without)."""
        tags = self.tags
        if tags.entries is not None:
            return tags.entries[self.index].words
        if tags.sections is not None:
            return [(word, -1) for word in section_words(tags.sections[self.index])]
        return []


class _GameError(Exception):
    """Ends the reading of one game (the problem was reported)."""


class _Again(Exception):
    """A game read without positions has something to report: read it again
    with them."""


class _Skip(Exception):
    """A game without a deal, for an output that needs one."""


class _Reader:
    """Reads games one by one; ``previous`` holds the tag values of the game
    before (for ``#``), ``lines`` the input's lines; ``record`` counts the
    games read (those of comments alone left out) and ``board`` is the
    current game's Board, for its problems."""

    def __init__(self, source: Source, filename: str | None, report: Report | None = None,
                 strict: bool = False, need_deal: bool = True) -> None:
        self.name = source_name(source, filename)
        self.source = source
        self._lines: Iterable[str] | None = None
        self.previous: dict[str, str] = {}
        self._last_printpbn: str | None = None  # tag values not yet in previous
        self.report = report
        self.strict = strict
        self.need_deal = need_deal
        self.record = 0
        self.board: int | None = None
        self._offsets: ByteOffsets | StreamOffsets | None = None
        self._bytes_looked_for = False

    @property
    def lines(self) -> Iterable[str]:
        """The input's lines (a caller may put others in their place)."""
        if self._lines is None:
            self._lines = text_lines(self.source)
        return self._lines

    @lines.setter
    def lines(self, lines: Iterable[str]) -> None:
        self._lines = lines
        self._bytes_looked_for = True  # lines of the caller's: no bytes they come from

    def deals(self) -> Iterator[Deal]:
        if self._lines is not None:
            blocks: Iterable[RawGame | QuickBlock] = split_games(self._lines)
        else:
            blocks = blocks_of_text(text_chunks(self.source), self.quick)
        for block in blocks:
            if isinstance(block, QuickBlock):
                yield from self._block(block)
            else:
                yield from self._games((block,))
        if self._last_printpbn is not None:
            self._flush_previous()

    def _games(self, games: Iterable[RawGame]) -> Iterator[Deal]:
        """The deals of games read one by one (a game with an error, or
        without a deal where one is needed, gives none)."""
        for game in games:
            if self._last_printpbn is not None:
                self._flush_previous()
            try:
                deal = self._game(game)
            except _GameError:
                continue
            if deal is not None:
                yield deal

    def _block(self, block: QuickBlock) -> Iterator[Deal]:
        """The games of a quick block: those in dealer's printpbn layout read
        by one match each, in place; at the first other one, the rest game by
        game."""
        text = block.text
        match_at = _PRINTPBN.match
        position, line, end = 0, block.first, len(text)
        if '"#"' in text:  # a '#' copies values: every game read on its own
            end = 0
        while position < end:
            match = match_at(text, position)
            stop = match.end() if match is not None else -1
            if match is None or (stop != end and not text.startswith("\n\n[", stop)):
                break
            deal = self._printpbn(match.group(), line, match)
            if deal is None:
                break
            self.record += 1
            yield deal
            position, line = stop + 2, line + 15  # 14 lines and the empty one
        if position < len(text):
            yield from self._games(block.games(position, line))

    def _printpbn(self, text: str, line: int, match: re.Match[str]) -> Deal | None:
        """A game as dealer's printpbn writes it (_PRINTPBN), read straight
        from the match; None when its deal is not a usual full deal. Its tag
        values become ``previous`` only when someone needs them."""
        board, dealer, vul, deal = match.group(4, 9, 10, 11)
        masks = quick_full_deal(deal)
        if masks is None:
            return None
        self._last_printpbn = text
        number = int(board)
        seat, vulnerable = _PLAIN_DEALERS[dealer], _PLAIN_VULS[vul]
        info = plain_game(text, line, (masks, number, seat, vulnerable, (), (), None, None))
        # quick_full_deal checked the masks: no second check
        return full_deal(masks, number, seat, vulnerable, info)

    def _flush_previous(self) -> None:
        """The tag values of the last printpbn game, into ``previous``."""
        pairs = plain_tags(self._last_printpbn or "")
        self._last_printpbn = None
        if pairs:
            self.previous.update(pairs)

    # -- problems -------------------------------------------------------------
    def _problem(self, game: RawGame, severity: str, message: str, offset: int) -> Diagnostic:
        """What is wrong at ``offset`` of the game: every problem of a PBN
        file is made here, with all that is known of where it is."""
        line, column = game.position(offset)
        source_line = game.lines[line - game.first] if 0 <= line - game.first < len(game.lines) else None
        if severity == "warning" and self.strict:
            severity = "error"
        return Diagnostic(severity, message, line, column, self.name, source_line,  # type: ignore[arg-type]
                          byte=self._byte(line, column), deal=self.record, board=self.board)

    def _byte(self, line: int, column: int) -> int | None:
        """The byte of a line and column in the input, when its bytes can be
        had (looked for at the first problem: reading without one costs
        nothing)."""
        if not self._bytes_looked_for:
            from dealerpp.deals.byte_offsets import byte_offsets

            self._offsets, self._bytes_looked_for = byte_offsets(self.source), True
        offsets = self._offsets
        return None if offsets is None else offsets.offset(line, column)

    def _fail(self, game: RawGame, message: str, offset: int) -> _GameError:
        problem = self._problem(game, "error", message, offset)
        if self.report is None:
            raise DppError.of(problem)
        self.report(problem)
        return _GameError()

    # -- one game ---------------------------------------------------------------
    # The quick ways in (plain games, games read without positions); off, every
    # game goes through the full lexer: the tests compare the two.
    quick = True

    def _game(self, game: RawGame) -> Deal | None:
        self.record += 1
        self.board = None  # until the game's tags are read
        text = game.text
        if text[:1] == "[" and self.quick:
            plain = plain_tags(text)
            if plain is not None:
                return self._plain(game, plain) or self._tagged(game, _Tags(text, plain, None))
            quick = quick_scan(text)
            if quick is not None:
                # without positions: a game with anything to report is read again
                try:
                    return self._tagged(game, _Tags(text, quick[0], None, quick[1]), quick=True)
                except _Again:
                    pass
        try:
            entries = entries_of(tokens(text))
        except TextProblem as error:
            raise self._fail(game, error.message, error.offset) from None
        if entries and entries[0].kind != TAG and any(e.kind == WORD for e in entries):
            return self._bare(game, entries)
        tag_entries = [e for e in entries if e.kind == TAG]
        if not tag_entries:
            return self._commentary(game, entries)
        tags = _Tags(text, [(e.name, e.raw) for e in tag_entries], tag_entries)
        return self._tagged(game, tags, entries)

    def _plain(self, game: RawGame, pairs: list[tuple[str, str]]) -> Deal | None:
        """The usual game of plain tag lines (dealer's printpbn and most
        dealing programs): each tag once, no '#', a full deal written the
        usual way, Dealer and Vulnerable as the standard spells them, no
        auction or play. Read straight; None for any other game."""
        values = dict(pairs)
        if len(values) != len(pairs) or "#" in values.values() or "\\" in game.text:
            return None
        dealer_value = values.get("Dealer", "?")
        vul_value = values.get("Vulnerable", "?")
        deal_value = values.get("Deal")
        if (dealer_value not in _PLAIN_DEALERS or vul_value not in _PLAIN_VULS or deal_value is None
                or not _PLAIN_NAMES.issuperset(values)):
            return None
        masks = quick_full_deal(deal_value)
        if masks is None:
            return None
        board_value = values.get("Board")
        board = _board(board_value) if board_value is not None else None
        dealer, vul = _PLAIN_DEALERS[dealer_value], _PLAIN_VULS[vul_value]
        self.previous.update(values)
        info = PbnGame(game.text, game.first, (masks, board, dealer, vul, (), (), None, None))
        return Deal(masks=masks, board=board, dealer=dealer, vul=vul, extra=info)

    def _bare(self, game: RawGame, entries: list[Entry]) -> Deal:
        """A line of hands without tags (the ``pbnin`` layout)."""
        words = [e for e in entries if e.kind == WORD]
        value = game.text[words[0].start:words[-1].end]
        try:
            masks, order = parse_deal(value)
        except TextProblem as problem:
            raise self._fail(game, f"not a deal string or tag: {problem.message}",
                             words[0].start + problem.offset) from None
        info = PbnGame(game.text, game.first, (masks, None, None, None, (), (), order, None),
                       entries=entries)
        return Deal(masks, order=order, extra=info)

    def _commentary(self, game: RawGame, entries: list[Entry] | None) -> Deal | None:
        """Comments or ``%`` lines alone: kept for a PBN output, with no deal."""
        self.record -= 1  # not a game
        if self.need_deal:
            return None
        info = PbnGame(game.text, game.first, ((0, 0, 0, 0), None, None, None, (), (), None, None),
                       entries=entries, has_deal=False)
        return Deal(extra=info)

    def _tagged(self, game: RawGame, tags: _Tags, entries: list[Entry] | None = None,
                quick: bool = False) -> Deal:
        warnings: list[Diagnostic] = []

        def warn(message: str, offset: int) -> None:
            if quick:
                raise _Again()
            warnings.append(self._problem(game, "warning", message, offset))

        pairs = tags.pairs
        if '"#"' in game.text or "\\" in game.text:
            values = self._inherit_and_repeat(tags, warn)
        else:
            tags.first = {name: index for index, (name, _) in enumerate(pairs)}
            values = dict(pairs) if len(tags.first) == len(pairs) \
                else self._inherit_and_repeat(tags, warn)
        board_value = values.get("Board")
        if board_value is not None:
            self.board = _board(board_value)
            warnings[:] = [w.replace(board=self.board) for w in warnings]  # told before it was known
        try:
            deal = self._meaning(game, tags, values, warn, warnings, entries, quick)
        except _Skip:
            self.previous.update(values)
            self._warnings(warnings)
            raise _GameError() from None
        except _GameError:
            self.previous.update(values)
            raise
        self.previous.update(values)
        self._warnings(warnings)
        return deal

    def _inherit_and_repeat(self, tags: _Tags, warn: Callable[[str, int], None]) -> dict[str, str]:
        """``#`` values copied from the game before; repeated tags warned of.
        Returns the values of this game, for the next. (A _Tag, which works
        out where it is, is made only for a tag there is something to say
        about: a game with one escaped value comes here too.)"""
        values: dict[str, str] = {}
        first: dict[str, int] = {}
        tags.first = first
        for index, (name, raw) in enumerate(tags.pairs):
            if raw == "#":
                value = self.previous.get(name)
                if value is None:
                    warn(f"tag {name}: '#' but no earlier game has this tag",
                         _Tag(tags, index).value_at)
                    value = raw
                else:
                    tags.inherited[index] = value
            else:
                value = raw if "\\" not in raw else unescape(raw)
            if name in first:
                if name not in _REPEATABLE:
                    warn(f"tag {name} given again: the first value is the one that counts",
                         tags.start(index))
                continue
            first[name] = index
            values[name] = value
        return values

    def _warnings(self, warnings: list[Diagnostic]) -> None:
        """Report a game's warnings; under ``strict`` they are errors and
        the game is dropped."""
        if not warnings:
            return
        if self.report is None:
            if self.strict:
                raise DppError.of(warnings[0])
            return
        for problem in warnings:
            self.report(problem)
        if self.strict:
            raise _GameError()

    def _meaning(self, game: RawGame, tags: _Tags, values: dict[str, str],
                 warn: Callable[[str, int], None], warnings: list[Diagnostic],
                 entries: list[Entry] | None, quick: bool = False) -> Deal:
        """The deal a game's tags say (``values``: the value of each tag
        name, '#' resolved); a _Tag, which knows where it is, is made only to
        say something about it. ``warnings``: what ``warn`` has kept, all of
        it by the time the game is made (it holds them)."""
        masks, order, has_deal = (0, 0, 0, 0), None, False
        deal_value = values.get("Deal")
        if deal_value is not None and deal_value.strip() not in _UNKNOWN:
            try:
                masks, order = parse_deal(deal_value)
                has_deal = any(masks) or _hands_written(deal_value)
            except TextProblem as problem:
                if quick:
                    raise _Again() from None
                deal_tag = tags.get("Deal")
                assert deal_tag is not None
                at = deal_tag.value_at + problem.offset \
                    if deal_tag.index not in tags.inherited else deal_tag.value_at
                raise self._fail(game, f"Deal: {problem}", at) from None
        if not has_deal and self.need_deal:
            deal_tag = tags.get("Deal")
            board_value = values.get("Board")
            name = f"board {board_value.strip()}" if board_value is not None else "the game"
            warn(f"{name} has no deal (no Deal tag, or '?'): left out",
                 deal_tag.value_at if deal_tag is not None else 0)
            raise _Skip()
        board_value = values.get("Board")
        board = _board(board_value) if board_value is not None else None
        dealer = vul = None
        dealer_value = values.get("Dealer")
        if dealer_value is not None and dealer_value.strip() not in _UNKNOWN:
            dealer = seat_of(dealer_value)
            if dealer is None:
                warn(f"Dealer must be N, E, S or W, not {quote(dealer_value)}",
                     tags.get("Dealer").value_at)  # type: ignore[union-attr]
        vul_value = values.get("Vulnerable")
        if vul_value is not None and vul_value.strip() not in ("", "?"):
            vul = VUL_NAMES.get(vul_value.strip().upper())
            if vul is None:
                warn("Vulnerable must be None, NS, EW or All (or Love, Both, -), "
                     f"not {quote(vul_value)}", tags.get("Vulnerable").value_at)  # type: ignore[union-attr]
        ddt = values.get("DoubleDummyTricks")
        tricks = None
        if ddt is not None and ddt not in _UNKNOWN:
            if DDT_VALUE.fullmatch(ddt.strip()):
                tricks = tricks_of_ddt(ddt.strip(), masks)
            else:
                warn("DoubleDummyTricks needs 20 characters 0-9 or A-D",
                     tags.get("DoubleDummyTricks").value_at)  # type: ignore[union-attr]
        table = tags.get("OptimumResultTable") if tricks is None and has_deal else None
        if table is not None:
            tricks = tricks_of_table(table.value, [word for word, _ in table.words], masks)
        auction = self._auction(tags.get("Auction"), dealer, warn) if "Auction" in values else ()
        play = self._play(tags, masks, auction, warn) if has_deal and "Play" in values else ()
        derived = (masks, board, dealer, vul, auction, play, order, tricks)
        info = PbnGame(game.text, game.first, derived, problems=tuple(warnings),
                       inherited=tags.inherited, entries=entries, has_deal=has_deal)
        return Deal(masks, board, dealer, vul, auction, play, tricks, extra=info, order=order)

    @staticmethod
    def _auction(tag: _Tag | None, dealer: Seat | None,
                 warn: Callable[[str, int], None]) -> tuple[Call, ...]:
        if tag is None or not tag.words:
            return ()
        calls, problems = read_auction(tag.words)
        for problem in problems:
            warn(f"Auction: {problem.message}", problem.offset)
        first = seat_of(tag.value)
        if first is None:
            warn(f"Auction must name the first caller (N, E, S or W), not {quote(tag.value)}",
                 tag.value_at)
            return ()
        if dealer is not None and first != dealer:
            warn(f"the auction starts with {first}, but the dealer is {dealer}", tag.value_at)
            return ()
        return calls or ()

    @staticmethod
    def _play(tags: _Tags, masks: tuple[int, int, int, int], auction: tuple[Call, ...],
              warn: Callable[[str, int], None]) -> tuple[Card, ...]:
        tag = tags.get("Play")
        if tag is None or not tag.words:
            return ()
        leader = seat_of(tag.value)
        if leader is None:
            warn(f"Play must name the opening leader (N, E, S or W), not {quote(tag.value)}",
                 tag.value_at)
            return ()
        contract = tags.get("Contract")
        trumps = _strain_of(contract.value if contract else None, auction)
        play, problems = read_play(tag.words, leader, trumps, masks)
        for problem in problems:
            warn(f"Play: {problem.message}", problem.offset)
        return play or ()


def _hands_written(value: str) -> bool:
    """Does a deal string without cards write a hand ('N:... ... ... ...', an
    empty end position), or only unknown ones ('W:- - - -', no deal)?"""
    text = value.strip()
    return any(hand != "-" for hand in (text[2:] if text[1:2] == ":" else text).split())


def _board(value: str) -> int | None:
    return digits_value(value.strip())


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """Deals of a PBN file (or of deal-string lines), streamed game by game
    (see the module doc for ``options.report`` and ``options.strict``). A
    game without a deal (no Deal tag, ``?``, or only comments) is left out
    with a warning naming it; with ``options.need_deal`` False it is kept
    as a deal with no cards in play, so a PBN output has it.
    ``options.previous``: the tag values of the games before, for ``#``,
    when the file is read in pieces (updated as games are read)."""
    reader = _Reader(source, filename, options.report, options.strict, options.need_deal)
    if options.previous is not None:
        reader.previous = options.previous
    deals = reader.deals() if options.tally is None else _tallied(reader, options.tally)
    return options.numbered(deals)


def _tallied(reader: _Reader, tally: RecordTally) -> Iterator[Deal]:
    """The deals of a piece of a file, its games numbered on from those
    of the file before it (``tally``), which it then counts."""
    reader.record, tally.numbered = tally.records, True
    yield from reader.deals()
    tally.records = reader.record

