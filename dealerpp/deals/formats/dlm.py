"""Dealer4 / Duplimate ``.dlm`` files (docs/formats.md, "Dealing machines and club files").

A ``[Document]`` line, nine header lines, then always 99 boards: a
``Duplicates NN=`` line and a ``Board NN=`` line of 26 letters ``a``-``p``
(two cards a letter, ``4 * seat + seat``, card-number order) and a 3-digit
check value. Only the boards ``From board`` .. ``To board`` are deals; the
others are a fixed filler.

Reading verifies what a machine verifies: each board's check value (the
board number XOR the code of each letter) and the header's ``Checksum``
(Duplicates XOR From XOR To, XOR 1 for ``Status=Show``); a wrong one is an
error naming the board or the header, at its line and column.

Writing follows Big Deal's layout byte for byte, apart from the
``Headline`` (which names dealerpp): the boards must be 1-99 and leave no
gap between the first and the last, since a machine deals every board of
its range. A deal read from a .dlm carries the header it was read with
(a ``DlmInfo``, its ``Deal.extra``), so a .dlm copied to .dlm is the file it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import reduce
from operator import xor
from typing import ClassVar

from dealerpp.deals._io import TextSink, source_name, text_lines
from dealerpp.deals.formats._machines import Owners, owners_of
from dealerpp.deals.model import Deal, FormatData
from dealerpp.deals.numbers import digits_problem, digits_value, too_long
from dealerpp.deals.options import READ, WRITE, ReadOptions, Source, Target, WriteOptions
from dealerpp.deals.selection import spans_text
from dealerpp.diagnostics import DppError, quote

BOARDS = 99  # a file always holds boards 01-99
LETTERS = 26  # two cards a letter
CHECK_DIGITS = 3
#: a board outside From-To: North all spades, East hearts, South diamonds, West clubs
FILLER = "aaaaaabffffffkkkkkklpppppp"
SHOW, SEALED = "Show", "Sealed"


@dataclass(frozen=True)
class DlmInfo(FormatData):
    """What a Dealer4 .dlm file says besides the cards (``Deal.extra`` of a
    deal read from one): its header's values as read (``Status`` is
    ``Show`` or ``Sealed``), and the board's own ``Duplicates NN=`` value.
    Written back by the .dlm writer, so that a .dlm copied to .dlm is the
    file it was."""

    fmt: ClassVar[str] = "dlm"

    headline: str = ""
    status: str = "Show"
    duplicates: int = 1
    next_board: str = "0"
    printouts: str = "0"
    board_duplicates: str = "0"


# -- the two check values ------------------------------------------------------------

def board_check(board: int, letters: str) -> int:
    """A board's check value: its number XOR the code of each letter."""
    return reduce(xor, map(ord, letters), board)


def header_checksum(duplicates: int, first: int, last: int, status: str) -> int:
    """The header's ``Checksum``: Duplicates XOR From XOR To, XOR 1 when
    Status is Show."""
    return duplicates ^ first ^ last ^ (1 if status.lower() == SHOW.lower() else 0)


def letters_of(owners: list[int]) -> str:
    """The 26 letters of a deal given as the seat (0-3) of each card number."""
    return "".join(chr(ord("a") + 4 * owners[index] + owners[index + 1])
                   for index in range(0, 52, 2))


def board_line(board: int, letters: str) -> str:
    return f"Board {board:02d}={letters}{board_check(board, letters):03d}"


# -- reading -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Line:
    """A ``Key=Value`` line: the value stripped, where it is, the line itself."""

    value: str
    number: int
    column: int  # of the value's first character
    text: str


def read(source: Source, filename: str | None = None,
         options: ReadOptions = READ) -> Iterator[Deal]:
    """The boards From board .. To board of a .dlm file, once every check
    value of the file has been verified."""
    name = source_name(source, filename)
    values: dict[str, _Line] = {}
    boards = 0  # the Board lines so far: a board line's place is its deal's
    for number, text in enumerate(text_lines(source), 1):
        key, equals, raw = text.partition("=")
        if not equals:
            continue
        key = " ".join(key.split()).lower()
        column = text.index("=") + 2 + len(raw) - len(raw.lstrip())
        if key.startswith("board "):
            boards += 1
            if key in values:
                raise DppError(f"{key.capitalize()} is given twice (lines {values[key].number} "
                               f"and {number})", line=number, column=1, filename=name,
                               source_line=text, deal=boards)
        values[key] = _Line(raw.strip(), number, column, text)
    return options.numbered(_boards(values, name))


def _boards(values: dict[str, _Line], name: str | None) -> Iterator[Deal]:
    """Checked before the first deal is given (the file is in memory)."""
    crypto = values.get("crypto key")
    if crypto is not None and crypto.value.strip("0 "):
        raise DppError(f"this .dlm file is encrypted (Crypto key={crypto.value}); dealerpp "
                       "reads only files saved without encryption", filename=name)
    first = _number(values, "from board", name)
    last = _number(values, "to board", name)
    info = _verified_header(values, first, last, name)
    read_boards = {}
    lines = sorted(values.items(), key=lambda item: item[1].number)
    # a board line's place among them is the place of its record (deal) in the file
    for place, (key, line) in enumerate(((k, v) for k, v in lines if k.startswith("board ")), 1):
        board = _board_number(key, line, name, place)
        if board is not None:
            read_boards[board] = _decode(board, line, name, place)
    for board in range(first, last + 1):
        deal = read_boards.get(board)
        if deal is None:
            raise DppError(f"no 'Board {board:02d}=' line (From board {first} to To board {last})",
                           filename=name, board=board)
        duplicates = values.get(f"duplicates {board:02d}")
        yield replace(deal, extra=replace(
            info, board_duplicates=duplicates.value if duplicates else "0"))


def _info_of(deal: Deal) -> DlmInfo | None:
    extra = deal.extra
    return extra if isinstance(extra, DlmInfo) else None


def _board_number(key: str, line: _Line, name: str | None, place: int) -> int | None:
    """The board of a ``Board NN=`` line (None for any other key); a number
    too long to read is an error at it, not a line passed over."""
    prefix, _, digits = key.partition(" ")
    if prefix != "board":
        return None
    if too_long(digits):
        raise DppError(digits_problem(digits, "the board number"), line=line.number,
                       column=line.text.index(digits) + 1, filename=name, source_line=line.text,
                       deal=place)
    return digits_value(digits)


def _number(values: dict[str, _Line], key: str, name: str | None,
            default: int | None = None) -> int:
    found = values.get(key)
    if found is None and default is not None:
        return default
    value = None if found is None else digits_value(found.value)
    if value is None:
        spelled = "Checksum" if key == "checksum" else key.capitalize()
        why = f" ({digits_problem(found.value, 'this one')})" if found and too_long(found.value) else ""
        raise DppError(f"a .dlm file needs a '{spelled}=' line with a number{why}",
                       line=found.number if found else None,
                       column=found.column if found else None, filename=name,
                       source_line=found.text if found else None)
    return value


def _verified_header(values: dict[str, _Line], first: int, last: int,
                     name: str | None) -> DlmInfo:
    """The header's values; DppError at the Checksum line when it is wrong."""
    duplicates = _number(values, "duplicates", name, default=0)
    checksum = _number(values, "checksum", name)
    status = values["status"].value if "status" in values else ""
    expected = header_checksum(duplicates, first, last, status)
    if checksum != expected:
        line = values["checksum"]
        show = f", XOR 1 for Status={SHOW}" if expected != duplicates ^ first ^ last else ""
        raise DppError(
            f"header: Checksum={checksum} is wrong: Duplicates {duplicates} XOR From board "
            f"{first} XOR To board {last}{show} is {expected} (a machine rejects this file)",
            line=line.number, column=line.column, filename=name, source_line=line.text)

    def text(key: str) -> str:
        return values[key].value if key in values else ""

    return DlmInfo(headline=text("headline"), status=status, duplicates=duplicates,
                   next_board=text("next board to duplimate"), printouts=text("printouts"))


def _decode(board: int, line: _Line, name: str | None, place: int) -> Deal:
    """A board line's deal, its check value verified."""
    value = line.value

    def error(offset: int, message: str) -> DppError:
        return DppError(message, line=line.number, column=line.column + offset,
                        filename=name, source_line=line.text, deal=place, board=board)

    if len(value) < LETTERS:
        raise error(len(value), f"expected 26 letters a-p, got {len(value)} characters")
    letters, check = value[:LETTERS], value[LETTERS:]
    owners = Owners(board)
    for index, letter in enumerate(letters):
        code = ord(letter) - ord("a")
        if not 0 <= code < 16:
            raise error(index, f"{quote(letter)} is not a letter a-p")
        owners.give(2 * index + 1, code >> 2)
        owners.give(2 * index + 2, code & 3)
    expected = board_check(board, letters)
    if not (len(check) == CHECK_DIGITS and check.isascii() and check.isdigit()):
        raise error(LETTERS, f"expected a 3-digit check value after the 26 letters, "
                             f"got {quote(check)}; it should be {expected:03d}")
    if int(check) != expected:
        raise error(LETTERS, f"check value {check} is wrong: the board number XOR each "
                             f"letter's code is {expected:03d} (a machine rejects this board)")
    problem = owners.count_problem()
    if problem:
        raise error(0, problem)
    return owners.deal()


# -- writing ---------------------------------------------------------------------------------

def default_headline() -> str:
    """``Generated by dealerpp version X`` (Big Deal names itself there)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"Generated by dealerpp version {version('dealerpp')}"
    except PackageNotFoundError:  # run from a source tree that was not installed
        return "Generated by dealerpp"


def dumps(deals: Iterable[Deal], *, sealed: bool = False) -> str:
    """The .dlm text of ``deals``; DppError, before anything is written, for
    a deal that is not full, a board past 99 or given twice, or a board
    missing between the first and the last."""
    boards = _numbered_boards(deals)
    first, last = min(boards), max(boards)
    missing = [board for board in range(first, last + 1) if board not in boards]
    if missing:
        which = f"board {missing[0]} is" if len(missing) == 1 else \
            f"boards {spans_text(missing)} are"
        raise DppError(f"{which} missing: a .dlm file holds every board from "
                       f"From board {first} to To board {last} (a machine deals each of them); "
                       "convert --boards picks a range that has them all")
    info = next((kept for deal, _ in boards.values() if (kept := _info_of(deal)) is not None),
                None)
    info = info or DlmInfo(headline=default_headline())
    status = SEALED if sealed else info.status
    lines = ["[Document]", f"Headline={info.headline}", f"Status={status}",
             f"Duplicates={info.duplicates}", f"From board={first}", f"To board={last}",
             f"Next board to duplimate={info.next_board}", f"PrintOuts={info.printouts}",
             "Crypto key=0", f"Checksum={header_checksum(info.duplicates, first, last, status)}"]
    for board in range(1, BOARDS + 1):
        found = boards.get(board)
        board_info = _info_of(found[0]) if found else None
        duplicates = board_info.board_duplicates if board_info else "0"
        lines.append(f"Duplicates {board:02d}={duplicates}")
        lines.append(board_line(board, letters_of(found[1]) if found else FILLER))
    return "\n".join(lines) + "\n"


def write(deals: Iterable[Deal], target: Target, options: WriteOptions = WRITE) -> None:
    """Write ``deals`` as a .dlm file (``options.sealed``: ``Status=Sealed``,
    a set the machine must not display)."""
    text = dumps(deals, sealed=options.sealed)
    with TextSink(target) as sink:
        sink.write(text)


def _numbered_boards(deals: Iterable[Deal]) -> dict[int, tuple[Deal, list[int]]]:
    """Each board number with its deal and card owners. A deal without a
    number is the board after the one before it (the first: board 1)."""
    boards: dict[int, tuple[Deal, list[int]]] = {}
    places: dict[int, int] = {}
    board = 0
    for index, deal in enumerate(deals, 1):
        owners = owners_of(deal, index)
        board = deal.board if deal.board is not None else board + 1
        if not 1 <= board <= BOARDS:
            raise DppError(f"cannot be written to a .dlm file, which holds boards 1-{BOARDS}; "
                           "convert --boards picks the ones that fit", deal=index, board=board,
                           output=True)
        if board in boards:
            raise DppError(f"deal {places[board]} was this board already; a .dlm file holds "
                           "each board once", deal=index, board=board, output=True)
        boards[board], places[board] = (deal, owners), index
    if not boards:
        raise DppError("no deals to write: a .dlm file needs one board at least")
    return boards
