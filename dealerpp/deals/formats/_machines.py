"""Dealing-machine and club formats (docs/formats.md, "Dealing machines and club files").

Read and written: .bri, .dge, .dup (fixed-size binary records), .ber (52
digits a board), .bhg and .csv (one line a board). Dealer4's .dlm, a text
file with check values, has its own module: ``dealerpp.deals.formats.dlm``.

Cards are numbered as the spec does: 1 = spade ace ... 52 = club two, which
is the model's card ``52 - number``. Files without board numbers hold boards
``first_board``, ``first_board + 1``, ... in order, with dealer and
vulnerability from the standard 16-board cycle; a writer numbers its boards
from the first deal's board (1 when it has none).

Every bad record is a DppError naming the board and where: ``byte N`` for
the binary formats and .ber, the line and column for the line formats.
Writers refuse a deal that is not full before writing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from dealerpp.deals._hand_text import holding_bits
from dealerpp.deals._io import (
    BinarySink,
    TextSink,
    binary_chunks,
    fixed_records,
    is_path,
    source_name,
    text_lines,
)
from dealerpp.deals.model import (
    FULL_MASK,
    SUIT_MASK,
    Card,
    Deal,
    Seat,
    Vul,
    board_dealer_vul,
    cards_of_mask,
    holding_text,
    mask_problem,
    popcount,
)
from dealerpp.deals.numbers import digits_problem, digits_value, too_long
from dealerpp.deals.options import Source, Target
from dealerpp.diagnostics import DppError, TextProblem, quote

RANK_LETTERS = "AKQJT98765432"
#: code page 437's suit glyphs, in the order hands list suits (S H D C)
GLYPHS = b"\x06\x03\x04\x05"  # S H D C, code page 437
BRI_RECORD = 128
DGE_RECORD = 128
DUP_RECORD = 156
BER_RECORD = 52
_DIGITS = 78  # 39 two-digit card numbers
_HANDS = 68  # four hands of 4 glyphs and 13 ranks
_CHUNK_RECORDS = 1024
#: a record from (owners, index in the file, number of deals, first board)
RecordOf = Callable[[list[int], int, int, int], bytes]


# -- cards and owners ----------------------------------------------------------

def card_name(number: int) -> str:
    """``SA`` for card number 1, ``C2`` for 52."""
    return str(Card(52 - number))


def owners_of(deal: Deal, index: int) -> list[int]:
    """The seat (0-3) holding each card number 1-52, as list items 0-51;
    DppError naming the deal when it is not full."""
    if not deal.is_full():
        counts = ", ".join(f"{seat} {bin(mask).count('1')}"
                           for seat, mask in zip("NESW", deal.masks, strict=True))
        raise DppError(f"the club formats hold full deals only "
                       f"(13 cards a hand), this one has {counts}", deal=index, output=True)
    owners = [0] * 52
    for seat, mask in enumerate(deal.masks):
        for card in cards_of_mask(mask):  # card number 52 - card, list item 51 - card
            owners[51 - card] = seat
    return owners


def position_meta(board: int) -> dict[str, object]:
    """Board, dealer and vulnerability of a board number (standard cycle)."""
    dealer, vul = board_dealer_vul(board)
    return {"board": board, "dealer": dealer, "vul": vul}


class Owners:
    """Cards given one by one to seats, with the checks every format needs."""

    def __init__(self, board: int) -> None:
        self.board = board
        self.masks = [0, 0, 0, 0]
        self.seen: set[int] = set()

    def give(self, number: int, seat: int) -> str | None:
        """Give card ``number`` to ``seat``; why not, or None."""
        if number in self.seen:
            return f"card {card_name(number)} ({number:02d}) is given twice"
        self.seen.add(number)
        self.masks[seat] |= 1 << (52 - number)
        return None

    def count_problem(self) -> str | None:
        for seat, mask in zip(Seat, self.masks, strict=True):
            count = popcount(mask)
            if count != 13:
                return f"{seat.name_title} holds {count} cards, not 13"
        return None

    def deal(self) -> Deal:
        return Deal((self.masks[0], self.masks[1], self.masks[2], self.masks[3]),
                    **position_meta(self.board))  # type: ignore[arg-type]


def _byte_error(offset: int, board: int, message: str, name: str | None) -> DppError:
    return DppError(message, filename=name, byte=offset, board=board)


def _first_board_of(deals: Sequence[Deal]) -> int:
    return deals[0].board if deals and deals[0].board else 1


# -- fixed-size records ----------------------------------------------------------

def _records(source: Source, size: int, name: str | None,
             first_board: int) -> Iterator[tuple[int, bytes]]:
    """(offset, record) of each ``size``-byte record; a short last record is
    an error naming its board."""
    return fixed_records(source, size, name,
                         lambda offset: first_board + offset // size)


def decode_digits(record: bytes, offset: int, board: int, name: str | None) -> Deal:
    """The .bri card numbers at the start of ``record``: North's, East's,
    South's 13; West holds the rest."""
    owners = Owners(board)
    for position in range(0, _DIGITS, 2):
        pair = record[position:position + 2]
        number = int(pair) if pair.isdigit() and len(pair) == 2 else 0
        if not 1 <= number <= 52:
            raise _byte_error(offset + position, board,
                              f"{pair.decode('latin-1')!r} is not a card number 01-52", name)
        problem = owners.give(number, position // 26)
        if problem:
            raise _byte_error(offset + position, board, problem, name)
    for number in range(1, 53):
        if number not in owners.seen:
            owners.give(number, Seat.WEST)
    return owners.deal()


def encode_digits(owners: list[int]) -> bytes:
    """North's, East's and South's card numbers, each hand ascending."""
    return "".join(f"{number:02d}" for seat in range(3)
                   for number in range(1, 53) if owners[number - 1] == seat).encode("ascii")


def decode_hands(record: bytes, start: int, offset: int, board: int,
                 name: str | None) -> Deal:
    """The .dge hands at ``record[start:]``: four times glyph + ranks per suit."""
    owners = Owners(board)
    position = start
    end = min(len(record), start + _HANDS)  # a full deal's hands; then padding
    for seat in range(4):
        for suit, glyph in enumerate(GLYPHS):
            byte = record[position] if position < end else None
            if byte != glyph:
                found = "the end of the record" if byte is None else f"byte 0x{byte:02X}"
                raise _byte_error(offset + position, board,
                                  f"{Seat(seat).name_title}: expected the suit glyph "
                                  f"0x{glyph:02X} ({'SHDC'[suit]}), found {found}", name)
            position += 1
            while position < end and chr(record[position]) in RANK_LETTERS:
                number = 13 * suit + RANK_LETTERS.index(chr(record[position])) + 1
                problem = owners.give(number, seat)
                if problem:
                    raise _byte_error(offset + position, board, problem, name)
                position += 1
        count = popcount(owners.masks[seat])
        if count != 13:
            raise _byte_error(offset + position, board,
                              f"{Seat(seat).name_title} holds {count} cards, not 13", name)
    return owners.deal()


def encode_hands(owners: list[int]) -> bytes:
    parts = []
    for seat in range(4):
        for suit, glyph in enumerate(GLYPHS):
            parts.append(bytes([glyph]))
            parts.append("".join(RANK_LETTERS[rank] for rank in range(13)
                                 if owners[13 * suit + rank] == seat).encode("ascii"))
    return b"".join(parts)


def read_bri(source: Source, filename: str | None = None, first_board: int = 1) -> Iterator[Deal]:
    name = source_name(source, filename)
    for offset, record in _records(source, BRI_RECORD, name, first_board):
        yield decode_digits(record, offset, first_board + offset // BRI_RECORD, name)


def bri_record(owners: list[int]) -> bytes:
    return encode_digits(owners) + b" " * 32 + b"\0" * 18


def write_bri(deals: Iterable[Deal], target: Target) -> None:
    _write_binary(deals, target, lambda owners, _index, _count, _first: bri_record(owners))


def read_dge(source: Source, filename: str | None = None, first_board: int = 1) -> Iterator[Deal]:
    name = source_name(source, filename)
    for offset, record in _records(source, DGE_RECORD, name, first_board):
        yield decode_hands(record, 0, offset, first_board + offset // DGE_RECORD, name)


def dge_record(owners: list[int]) -> bytes:
    return encode_hands(owners) + b"\0" * (DGE_RECORD - _HANDS)


def write_dge(deals: Iterable[Deal], target: Target) -> None:
    _write_binary(deals, target, lambda owners, _index, _count, _first: dge_record(owners))


def read_dup(source: Source, filename: str | None = None, first_board: int = 1) -> Iterator[Deal]:
    """Deals of a .dup file: the card numbers, checked against the hands
    that follow them; the trailer is ignored."""
    name = source_name(source, filename)
    for offset, record in _records(source, DUP_RECORD, name, first_board):
        board = first_board + offset // DUP_RECORD
        deal = decode_digits(record, offset, board, name)
        hands = decode_hands(record, _DIGITS, offset, board, name)
        if hands.masks != deal.masks:
            raise _byte_error(offset + _DIGITS, board,
                              "the hands differ from the card numbers at the record's start",
                              name)
        yield deal


DUP_LAST_BOARD = 99  # the first record's trailer has 2 digits for the last board


def dup_trailer(first: int, count: int) -> bytes:
    """Big Deal's trailer of a set's first record: Y, N, the first board in 3
    columns, 0 in 2, the last board as 2 digits, a space. DppError naming
    the first deal whose board is past 99."""
    last = first + count - 1
    if last > DUP_LAST_BOARD:
        past = max(first, DUP_LAST_BOARD + 1)
        raise DppError(f"past 99, where a .dup set ends (its trailer has 2 digits for the "
                       f"last board); this set would end at board {last}",
                       deal=past - first + 1, board=past, output=True)
    return f"YN{first:<3d}0 {last:02d} ".encode("ascii")


def dup_record(owners: list[int], index: int, count: int, first: int) -> bytes:
    trailer = dup_trailer(first, count) if index == 0 else b"\0" * 10
    return encode_digits(owners) + encode_hands(owners) + trailer


def write_dup(deals: Iterable[Deal], target: Target) -> None:
    _write_binary(deals, target, dup_record)


def _write_binary(deals: Iterable[Deal], target: Target, record_of: RecordOf) -> None:
    """All records are made before the first byte is written, so a bad deal
    leaves nothing behind (and .dup's first record needs the count)."""
    data = _all_records(deals, record_of)
    with BinarySink(target) as sink:
        sink.write(data)


def _all_records(deals: Iterable[Deal], record_of: RecordOf) -> bytes:
    # Each deal is checked as it is read, so the first problem reported is
    # the first in the input's order, a reader's or this writer's, as on
    # the bulk path (which writes as it reads).
    owners = []
    first = 1
    for index, deal in enumerate(deals):
        owners.append(owners_of(deal, index + 1))
        if index == 0 and deal.board:
            first = deal.board
    return b"".join(record_of(hand_owners, index, len(owners), first)
                    for index, hand_owners in enumerate(owners))


# -- .ber: 52 seat digits a board, no separator ------------------------------------

def _ber_bytes(source: Source) -> Iterator[bytes]:
    if isinstance(source, str) and not is_path(source):
        yield source.encode("utf-8", "surrogateescape")
        return
    yield from binary_chunks(source, BER_RECORD * _CHUNK_RECORDS)


def read_ber(source: Source, filename: str | None = None, first_board: int = 1) -> Iterator[Deal]:
    """Deals of a .ber file; a line end after the last board is allowed."""
    name = source_name(source, filename)
    pending = b""
    offset = 0
    for chunk in _ber_bytes(source):
        pending += chunk
        usable = len(pending) - len(pending) % BER_RECORD
        for start in range(0, usable, BER_RECORD):
            yield decode_ber(pending[start:start + BER_RECORD], offset, first_board, name)
            offset += BER_RECORD
        pending = pending[usable:]
    if pending.strip(b"\r\n"):
        board = first_board + offset // BER_RECORD
        bad = next((i for i, byte in enumerate(pending) if byte not in b"1234"), None)
        if bad is not None and pending[bad:].strip(b"\r\n"):
            raise _byte_error(offset + bad, board,
                              f"{chr(pending[bad])!r} is not a seat digit 1-4", name)
        raise _byte_error(offset, board, f"truncated record: {len(pending)} of {BER_RECORD} "
                                         "digits (the file size is not a multiple of 52)", name)


def decode_ber(record: bytes, offset: int, first_board: int, name: str | None) -> Deal:
    board = first_board + offset // BER_RECORD
    owners = Owners(board)
    for position, byte in enumerate(record):
        if byte not in b"1234":
            raise _byte_error(offset + position, board,
                              f"{chr(byte)!r} is not a seat digit 1-4", name)
        owners.give(position + 1, byte - ord("1"))
    problem = owners.count_problem()
    if problem:
        raise _byte_error(offset, board, problem, name)
    return owners.deal()


def ber_record(owners: list[int]) -> bytes:
    return bytes(ord("1") + seat for seat in owners)


def write_ber(deals: Iterable[Deal], target: Target) -> None:
    _write_binary(deals, target, lambda owners, _index, _count, _first: ber_record(owners))


# -- .bhg: a line feed, then 52 letters a board from the dealer clockwise -------------

def bhg_letter(number: int) -> str:
    return chr(ord("A") + number - 1) if number <= 26 else chr(ord("a") + number - 27)


def bhg_number(letter: str) -> int | None:
    if "A" <= letter <= "Z":
        return ord(letter) - ord("A") + 1
    if "a" <= letter <= "z":
        return ord(letter) - ord("a") + 27
    return None


def read_bhg(source: Source, filename: str | None = None, first_board: int = 1) -> Iterator[Deal]:
    name = source_name(source, filename)
    board = first_board
    for line_number, line in enumerate(text_lines(source), 1):
        if not line.strip():
            continue
        yield decode_bhg(line, board, line_number, name)
        board += 1


def decode_bhg(line: str, board: int, line_number: int, name: str | None) -> Deal:
    def error(column: int, message: str) -> DppError:
        return DppError(message, line=line_number, column=column, filename=name,
                        source_line=line, board=board)

    text = line.rstrip()
    dealer = board_dealer_vul(board)[0]
    if len(text) == 52:  # the usual line: each letter a bit, the sums checked at once
        if not _BHG_BITS:
            bhg_hand(0)
        bits = _BHG_BITS
        try:
            hands = [sum([bits[letter] for letter in text[start:start + 13]])
                     for start in (0, 13, 26, 39)]
        except KeyError:
            hands = []
        if hands and mask_problem(tuple(hands)) is None and sum(hands) == FULL_MASK:
            masks = [0, 0, 0, 0]
            for step, hand in enumerate(hands):
                masks[(dealer + step) % 4] = hand
            return Deal((masks[0], masks[1], masks[2], masks[3]), **position_meta(board))  # type: ignore[arg-type]
    owners = Owners(board)
    for position, letter in enumerate(text):
        number = bhg_number(letter)
        if number is None:
            raise error(position + 1, f"{quote(letter)} is not a card letter A-Z a-z")
        if position >= 52:
            raise error(position + 1, f"a board is 52 letters, this line has {len(text)}")
        problem = owners.give(number, (dealer + position // 13) % 4)
        if problem:
            raise error(position + 1, problem)
    if len(text) != 52:
        raise error(len(text) + 1, f"a board is 52 letters, this line has {len(text)}")
    return owners.deal()


def bhg_line(owners: list[int], board: int) -> str:
    dealer = board_dealer_vul(board)[0]
    return "".join(bhg_letter(number) for step in range(4)
                   for number in range(1, 53) if owners[number - 1] == (dealer + step) % 4)


def bhg_hand(mask: int) -> str:
    """A hand's letters in card-number order (spades A..2 are A..M): per
    suit a row of a table made on first use."""
    if not _BHG_SUITS:
        for suit in range(4):  # S H D C: card numbers 1-13 .. 40-52
            letters = [bhg_letter(13 * suit + 13 - rank) for rank in range(13)]
            _BHG_SUITS.append(["".join(letters[rank] for rank in range(12, -1, -1)
                                       if bits >> rank & 1) for bits in range(SUIT_MASK + 1)])
        _BHG_BITS.update((bhg_letter(number), 1 << (52 - number)) for number in range(1, 53))
    spades, hearts, diamonds, clubs = _BHG_SUITS
    return (spades[mask >> 39 & SUIT_MASK] + hearts[mask >> 26 & SUIT_MASK]
            + diamonds[mask >> 13 & SUIT_MASK] + clubs[mask & SUIT_MASK])


_BHG_SUITS: list[list[str]] = []
_BHG_BITS: dict[str, int] = {}


def write_bhg(deals: Iterable[Deal], target: Target) -> None:
    """Boards numbered from the first deal's board. Each deal is checked as
    it is read (the first problem is the first in the input's order, a
    reader's or this writer's, as on the bulk path), and nothing is written
    before every deal is."""
    first = 1
    lines = [""]
    for index, deal in enumerate(deals):
        if not index:
            first = deal.board or 1
        if not deal.is_full():
            owners_of(deal, index + 1)  # its error
        dealer = board_dealer_vul(first + index)[0]
        masks = deal.masks
        lines.append("".join([bhg_hand(masks[(dealer + step) % 4]) for step in range(4)]))
    text = "\n".join(lines) + "\n"
    with TextSink(target) as sink:
        sink.write(text)


# -- .csv: 16 holdings, the board, dealer/vulnerability -------------------------------

_CSV_VULS = {"-": Vul.NONE, "NS": Vul.NS, "EW": Vul.EW, "ALL": Vul.BOTH, "BOTH": Vul.BOTH}
_CSV_VUL_TEXT = {Vul.NONE: "-", Vul.NS: "NS", Vul.EW: "EW", Vul.BOTH: "All"}


def read_csv(source: Source, filename: str | None = None) -> Iterator[Deal]:
    name = source_name(source, filename)
    for line_number, line in enumerate(text_lines(source), 1):
        if line.strip():
            yield decode_csv(line, line_number, name)


def _csv_fields(line: str) -> list[tuple[int, str]]:
    """(column, text) of each quoted field; ValueError (message, column)."""
    fields = []
    position = 0
    while True:
        if position >= len(line) or line[position] != '"':
            raise TextProblem("expected a field in double quotes", position)
        close = line.find('"', position + 1)
        if close < 0:
            raise TextProblem("a field has no closing double quote", position)
        fields.append((position + 2, line[position + 1:close]))
        position = close + 1
        if position >= len(line):
            return fields
        if line[position] != ",":
            raise TextProblem("expected a comma between fields", position)
        position += 1


def decode_csv(line: str, line_number: int, name: str | None) -> Deal:
    text = line.rstrip()
    board: int | None = None  # known once its field is read

    def error(column: int, message: str) -> DppError:
        return DppError(message, line=line_number, column=column, filename=name,
                        source_line=line, board=board)

    try:
        fields = _csv_fields(text)
    except TextProblem as bad:
        raise error(bad.offset + 1, bad.message) from None
    if len(fields) != 18:
        raise error(1, f"a board is 18 fields, this line has {len(fields)}")
    board_column, board_text = fields[16]
    value = digits_value(board_text)
    if not value:
        raise error(board_column, digits_problem(board_text, "the board number")
                    if too_long(board_text) else
                    f"the board number must be a positive integer, got {quote(board_text)}")
    board = value
    owners = Owners(board)
    masks = _usual_holdings([holding for _, holding in fields[:16]])
    for index, (column, holding) in enumerate(fields[:16] if masks is None else ()):
        seat, suit = divmod(index, 4)
        for offset, letter in enumerate(holding):
            if letter.upper() not in RANK_LETTERS:
                raise error(column + offset, f"{quote(letter)} is not a rank (AKQJT98765432)")
            number = 13 * suit + RANK_LETTERS.index(letter.upper()) + 1
            problem = owners.give(number, seat)
            if problem:
                raise error(column + offset, problem)
    problem = owners.count_problem() if masks is None else None
    if problem:
        raise error(1, problem)
    meta_column, meta = fields[17]
    dealer_text, slash, vul_text = meta.partition("/")
    if not slash or dealer_text.upper() not in ("N", "E", "S", "W") or \
            vul_text.upper() not in _CSV_VULS:
        raise error(meta_column, f"expected dealer/vulnerability such as 'N/-' or 'E/All', "
                                 f"got {quote(meta)}")
    masks = owners.masks if masks is None else masks
    return Deal((masks[0], masks[1], masks[2], masks[3]), board=board,
                dealer=Seat.from_char(dealer_text), vul=_CSV_VULS[vul_text.upper()])


def _usual_holdings(holdings: list[str]) -> list[int] | None:
    """The four masks of 16 holdings written as the writer writes them (upper
    case, high first) that make a full deal, else None."""
    masks = []
    for seat in range(4):
        mask = 0
        for shift, text in zip((39, 26, 13, 0), holdings[4 * seat:4 * seat + 4], strict=True):
            bits = holding_bits(text)
            if bits is None:
                return None
            mask |= bits << shift
        masks.append(mask)
    return masks if mask_problem(tuple(masks)) is None and sum(masks) == FULL_MASK else None


def csv_line(owners: list[int], board: int, dealer: Seat, vul: Vul) -> str:
    holdings = ["".join(RANK_LETTERS[rank] for rank in range(13)
                        if owners[13 * suit + rank] == seat)
                for seat in range(4) for suit in range(4)]
    fields = [*holdings, str(board), f"{dealer}/{_CSV_VUL_TEXT[vul]}"]
    return ",".join(f'"{field}"' for field in fields) + "\n"


def csv_text(deals: Iterable[Deal], first: int | None = None) -> str:
    """The lines of ``deals``; a deal without a board numbered ``first`` plus
    its place (``first``: the first deal's board, 1 without one, when None).
    Each deal is checked as it is read, so the first problem is the first
    in the input's order, a reader's or this writer's, as on the bulk path."""
    lines = []
    for index, deal in enumerate(deals):
        if first is None:
            first = deal.board or 1
        board = deal.board or first + index
        dealer, vul = board_dealer_vul(board)
        if not deal.is_full():
            owners_of(deal, index + 1)  # its error
        holdings = [holding_text(mask >> shift & SUIT_MASK)
                    for mask in deal.masks for shift in (39, 26, 13, 0)]
        meta = (f"{dealer if deal.dealer is None else deal.dealer}/"
                f"{_CSV_VUL_TEXT[vul if deal.vul is None else deal.vul]}")
        lines.append('"' + '","'.join([*holdings, str(board), meta]) + '"\n')
    return "".join(lines)


def write_csv(deals: Iterable[Deal], target: Target) -> None:
    """Nothing is written before every deal is made into its line."""
    text = csv_text(deals)
    with TextSink(target) as sink:
        sink.write(text)
