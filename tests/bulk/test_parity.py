"""One behaviour on every path: for every fast format, the bulk path and the
per-deal reader accept the same files, report the same first error and read
the same deals (issue 18).

Files of generated deals, in each fast format and in the layouts its writers
and dealer produce, get one structural mutation (a byte deleted, inserted
or replaced, where and which chosen by hypothesis), then go through
``dealerpp convert`` twice: into the same format (the per-deal path) and
into another fast format (the bulk path). The bulk target is one that holds
every deal the source's reader can give (partial deals, end positions), so
a writer's limit never stands in front of a reader's error.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpp import deals as deals_api
from dealerpp.cli import main
from dealerpp.deals import formats
from dealerpp.deals.formats import pbn
from dealerpp.deals.formats.giblib import tricks_of_text
from dealerpp.deals.model import Call, Deal, Seat, Vul, board_dealer_vul
from dealerpp.deals.options import ReadOptions
from tests.conftest import examples
from tests.deals.strategies import full_masks

from .helpers import bulk, per_deal

# Targets that hold any deal the source's reader gives (hex and the club
# formats: full deals only; giblib: hands of one size only; pbn: no three
# full hands and a short fourth, which deals and oneline files can hold).
# The club formats' readers give full deals numbered by their place: pbn
# and hex keep the board numbers.
_CLUB = ("bri", "dge", "ber", "bhg")
HOLDS_ALL = {"deals": ("oneline",), "hex": ("deals", "giblib", "pbn", "oneline"),
             "giblib": ("deals", "pbn", "oneline"), "pbn": ("deals", "oneline"),
             "oneline": ("deals",), "lin": ("deals", "pbn", "oneline", "hex", "giblib"),
             "compact": ("deals", "oneline"), "dx": ("deals", "oneline"),
             "printall": ("deals", "oneline"), "csv": ("pbn", "lin"), "listing": ("deals", "oneline"),
             "html": ("pbn", "deals"),
             **{src: tuple(f for f in formats.FAST if f != src) for src in _CLUB}}
# Bytes that mean something in some format, and any byte at all.
STRUCTURAL = (b" .\n\r\t\x0c\x1c:-*[]\"{}%;#AKQJT98765432akqjtx0Ffe\x00\xc2\xa0\xef\xff"
              b"1\x03\x04\x05\x06")  # seat digit 1, the glyphs of .dge
BYTES = st.one_of(st.sampled_from(list(STRUCTURAL)), st.integers(0, 255))
TRICKS = st.text(alphabet="0123456789ABCD-", min_size=20, max_size=20)
CHUNKS = st.sampled_from([64, 100, 200, 1 << 20])
# What may follow a LIN set's lines: pairs of its last board, a new board
# with players, a comment, a blank line, a board in another layout.
LIN_TAILS = [b"mb|1S|mb|p|pg||\n", b"pn|a,b,c,d|qx|o9|md|3S,S,S|\n", b"% a note\n", b"\n",
             b"qx|o5|md|1SAKQJT98765432H,SH,SH|rh||ah|Board 5|sv|0|pg||\n"]
PBN_TAILS = [b'[Deal "#"]\n\n', b'[Board "7"]\n[Deal "#"]\n', b"% a note\n",
             b'[Event "x"]\n[Board "#"]\n[Deal "E:- - - -"]\n']


def test_every_fast_format_is_covered() -> None:
    assert set(HOLDS_ALL) == set(formats.FAST)
    for src, targets in HOLDS_ALL.items():
        assert all(formats.is_fast_pair(src, dst) for dst in targets)


@st.composite
def deal_files(draw: st.DrawFn, fmt: str) -> bytes:
    """A file of 1-4 full deals as the format's writer (or dealer) lays it out."""
    masks = draw(st.lists(full_masks(), min_size=1, max_size=4))
    if fmt == "giblib":
        deals = [Deal(m, tricks=None if t is None else tricks_of_text(t, 13))
                 for m, t in zip(masks, draw(st.lists(st.none() | TRICKS, min_size=len(masks),
                                                      max_size=len(masks))), strict=True)]
    elif fmt in ("hex", "pbn"):
        deals = [Deal(m, board=draw(st.none() | st.integers(1, 32))) for m in masks]
    elif fmt == "lin":
        deals = [lin_deal(draw, m) for m in masks]
    else:
        deals = [Deal(m) for m in masks]
    layout = draw(st.sampled_from(["writer", "lines", "bare", "printpbn"])) \
        if fmt == "pbn" else "writer"
    if layout == "printpbn":
        data = printpbn_games(masks, draw(st.integers(1, 40)))
    elif layout == "writer":
        out = io.BytesIO()
        deals_api.write(out, deals, fmt)
        data = out.getvalue()
    else:  # deal-string lines, as dealer's printpbn-less scripts write them
        first = draw(st.sampled_from(list(Seat)))
        data = "".join(pbn.deal_string(d, first, prefix=layout == "lines") + "\n"
                       for d in deals).encode()
    if fmt == "pbn":  # what the fast path hands to the PBN reader: games, '#', comments
        data += draw(st.sampled_from([b"", *PBN_TAILS]))
    if fmt == "lin":
        data += draw(st.sampled_from([b"", *LIN_TAILS]))
    if fmt == "ber":  # the reader allows a line end after the last board
        data += draw(st.sampled_from([b"", b"\n", b"\r\n"]))
    if fmt != "deals" and draw(st.booleans()):
        data = data.replace(b"\n", b"\r\n")
    return data


def lin_deal(draw: st.DrawFn, masks: tuple[int, int, int, int]) -> Deal:
    """A board as the LIN writer takes it: mostly deal-only (a line as Big
    Deal writes it), numbered or not, now and then with a dealer or
    vulnerability of its own, or an auction."""
    board = draw(st.none() | st.integers(1, 32) | st.integers(90, 1200))
    meta: dict[str, object] = {}
    if board is not None and draw(st.integers(0, 5)) == 0:
        meta["dealer"], meta["vul"] = draw(st.sampled_from(list(Seat))), Vul.BOTH
    if draw(st.integers(0, 5)) == 0:
        meta["auction"] = (Call.from_str("1S"), Call.from_str("P"))
    return Deal(masks, board=board, **meta)  # type: ignore[arg-type]


def printpbn_games(masks: list[tuple[int, int, int, int]], first_board: int = 1,
                   event: str = "Hand simulated by dealer with file x.dl, seed 7") -> bytes:
    """Games laid out as dealer's printpbn writes them (14 tags, a blank
    line after each; the real dealer's output is compared with this in
    test_printpbn_games_are_laid_out_as_dealer_writes_them)."""
    games = []
    for board, hands in enumerate(masks, first_board):
        dealer, vul = board_dealer_vul(board)
        games.append(
            f'[Event "{event}"]\n[Site "-"]\n[Date "2026.11.25"]\n[Board "{board}"]\n'
            '[West "-"]\n[North "-"]\n[East "-"]\n[South "-"]\n'
            f'[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n'
            f'[Deal "{pbn.deal_string(Deal(hands), Seat.NORTH)}"]\n'
            '[Declarer "?"]\n[Contract "?"]\n[Result "?"]\n\n')
    return "".join(games).encode()


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with one byte deleted, inserted or replaced."""
    how = draw(st.sampled_from(["delete", "insert", "replace"]))
    if how == "insert":
        at = draw(st.integers(0, len(data)))
        return data[:at] + bytes([draw(BYTES)]) + data[at:]
    at = draw(st.integers(0, len(data) - 1))
    rest = data[at + 1:]
    return data[:at] + (bytes([draw(BYTES)]) if how == "replace" else b"") + rest


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str, bytes, int, int | None]:
    """(source format, bulk target, a mutated file, the bulk path's chunk
    size, the first board of ``--first-board`` or None)."""
    src = draw(st.sampled_from(formats.FAST))
    return (src, draw(st.sampled_from(HOLDS_ALL[src])), draw(mutated(draw(deal_files(src)))),
            draw(CHUNKS), draw(st.none() | st.integers(1, 40)))


def convert(source: Path, target: Path, src: str, dst: str,
            first_board: int | None = None) -> tuple[int, str]:
    """Status and stderr of ``dealerpp convert -q``."""
    err = io.StringIO()
    numbering = [] if first_board is None else ["--first-board", str(first_board)]
    with contextlib.redirect_stderr(err):
        status = main(["convert", "-q", str(source), str(target), "--from", src, "--to", dst,
                       *numbering])
    return status, err.getvalue()


def first_problem(err: str) -> str:
    """The first line of stderr that is not a note. A note belongs to the
    target alone (.bhg lists hands from the dealer: "read it back with
    --first-board N"), and the per-deal run copies the source to itself."""
    return next((line for line in err.splitlines() if ": note: " not in line), "")


def check_parity(src: str, dst: str, data: bytes, chunk: int, first_board: int | None,
                 folder: Path) -> None:
    source = folder / "in"
    source.write_bytes(data)
    same, fast = folder / "same", folder / "fast"
    same.unlink(missing_ok=True)
    fast.unlink(missing_ok=True)
    per_status, per_err = convert(source, same, src, src, first_board)
    bulk_status, bulk_err = convert(source, fast, src, dst, first_board)
    assert per_status in (0, 1), per_err  # never an internal error (70)
    # the same status, and the same first problem: FILE:LINE:COL: error: MESSAGE
    if src == "pbn":  # a game with no deal is kept in PBN, left out with a warning in dst
        bulk_err = without_games_left_for_no_deal(bulk_err, source)
        if per_status == 0 and not list(deals_api.read_source(same, "pbn")):
            # only games without a deal: copied to PBN, and no deal at all for dst
            assert (bulk_status, bulk_err) == (
                1, f"dealerpp convert: error: no deal found in {source}: nothing written\n")
            assert not fast.exists()
            return
    if per_status == 0 and dst in formats.BY_PLACE and first_board is None and out_of_place(
            same, src):
        # the copy keeps each board's number; a format numbered by place is refused
        # (a game without a deal left out before a board, a gap: test_board_places)
        assert bulk_status == 1 and "would become board" in bulk_err and not fast.exists()
    else:
        assert (bulk_status, first_problem(bulk_err)) == (per_status, first_problem(per_err))
    if per_status == 0 and fast.exists():
        read_back = [d.masks for d in deals_api.read_source(same, src, first_board=first_board)]
        assert [d.masks for d in deals_api.read_source(fast, dst, first_board=first_board)
                ] == read_back
    elif per_status != 0 and src != "pbn":  # nothing partial written (PBN leaves out
        # the games with errors)
        assert not same.exists() and not fast.exists()
    # and through the library, into every other fast format, in chunks that
    # cut the file anywhere:
    # the same bytes, or the same error (a reader's, or a writer's limit)
    for other in formats.FAST:
        if other != src:
            assert bulk(data, src, other, chunk, first_board) == \
                per_deal(data, src, other, first_board), other


def out_of_place(copy: Path, src: str) -> bool:
    """Whether the deals of ``copy`` (those with a deal) are numbered other
    than the first board, the first plus one, ... (a deal without a number
    is in its place; hex holds the numbers modulo 16)."""
    boards = [d.board for d in deals_api.read_source(
        copy, src, options=ReadOptions(need_deal=True, report=lambda problem: None))]
    start = next((b for b in boards[:1] if b is not None), 1)
    modulus = 16 if src == "hex" else 1 << 62
    return any(b is not None and (b - start - i) % modulus for i, b in enumerate(boards))


def without_games_left_for_no_deal(err: str, source: Path) -> str:
    """stderr without the warnings (each its lines up to the next message)
    that name a game left out for having no deal."""
    kept, skipping = [], False
    for line in err.splitlines(keepends=True):
        if line.startswith((f"{source}:", "dealerpp")):
            skipping = line.startswith(f"{source}:") and " has no deal (" in line
        if not skipping:
            kept.append(line)
    return "".join(kept)


PARITY = settings(max_examples=examples(150), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PARITY
@given(cases())
def test_bulk_path_and_per_deal_reader_agree(tmp_path_factory: pytest.TempPathFactory,
                                             case: tuple[str, str, bytes, int, int | None]
                                             ) -> None:
    check_parity(*case, tmp_path_factory.mktemp("parity"))


@pytest.mark.slow
@settings(PARITY, max_examples=examples(1000))
@given(cases())
def test_bulk_path_and_per_deal_reader_agree_at_length(
        tmp_path_factory: pytest.TempPathFactory,
        case: tuple[str, str, bytes, int, int | None]) -> None:
    check_parity(*case, tmp_path_factory.mktemp("parity"))


# -- what no one-byte mutation reaches ------------------------------------------

GOOD_HEX = b"F2F25B5CC55E31928E2E32C949\n"
PAIR = b'[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"]\n\n'


def both_paths(data: bytes, src: str, dst: str) -> bytes | str:
    """The output or first error, the same through both paths (or a failure)."""
    expected = per_deal(data, src, dst)
    for chunk in (64, 1 << 20):
        assert bulk(data, src, dst, chunk=chunk) == expected, chunk
    return expected


def test_pbn_hash_copies_the_deal_of_a_game_the_fast_path_read() -> None:
    out = both_paths(PAIR * 3 + b'[Board "7"]\n[Deal "#"]\n', "pbn", "hex")
    assert out == GOOD_HEX * 3 + b"F2F25B5CC55E31928E2E32C949-7\n"


def test_pbn_hash_copies_the_tags_of_a_game_the_per_deal_reader_read() -> None:
    game = PAIR.replace(b"[Deal", b'[Board "5"]\n[Deal')
    out = both_paths(game + PAIR * 4 + b'[Board "#"]\n[Deal "#"]\n', "pbn", "hex")
    assert out == b"F2F25B5CC55E31928E2E32C949-5\n" + GOOD_HEX * 4 + (
        b"F2F25B5CC55E31928E2E32C949-5\n")


@pytest.mark.parametrize("fmt", ["hex", "pbn"])
def test_a_byte_order_mark_counts_only_at_the_start(fmt: str) -> None:
    good = GOOD_HEX if fmt == "hex" else PAIR
    assert both_paths(b"\xef\xbb\xbf" + good * 3, fmt, "deals") == bulk(good * 3, fmt, "deals")
    later_mark = both_paths(good * 3 + b"\xef\xbb\xbf" + good, fmt, "deals")
    if fmt == "pbn":  # PBN import takes a mark between games as white space (cat a.pbn b.pbn)
        assert later_mark == bulk(good * 4, fmt, "deals")
        return
    line = 1 + 3 * good.count(b"\n")  # the line with the mark: an error
    assert isinstance(later_mark, str) and later_mark.startswith(f"in:{line}:1: ")


@pytest.mark.parametrize("fmt", ["hex", "oneline"])
def test_a_lone_carriage_return_ends_a_line_on_both_paths(fmt: str) -> None:
    good = GOOD_HEX if fmt == "hex" else bulk(GOOD_HEX, "hex", "oneline")
    assert isinstance(good, bytes)
    data = good * 3 + good.replace(b"\n", b"\r") + good * 3 + b"junk\n"
    error = both_paths(data, fmt, "deals")
    # the CR ends line 4, so the junk is on line 8 (the 7th counting LFs only)
    assert isinstance(error, str) and error.startswith("in:8:1: ")


def test_an_indented_tag_opens_a_pbn_game() -> None:
    """The PBN reader strips a line before it looks for '[': the [Deal] game
    after ' [Board]' is that game's, not a deal of its own."""
    data = b' [Board "1"]\n' + PAIR * 3
    assert both_paths(data, "pbn", "hex") == b"F2F25B5CC55E31928E2E32C949-1\n" + GOOD_HEX * 2


LINE = b"5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T\n"


@pytest.mark.parametrize("indent", [b"", b"\t"])
def test_a_tag_line_as_wide_as_a_deal_line_opens_a_game(indent: bytes) -> None:
    """A tag line of the width of the deal lines around it: the lines up to
    the game's blank line are its sections, not deals."""
    tag = indent + b'[Event "' + b"x" * (57 - len(indent)) + b'"]\n'
    value = b"N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 -".ljust(58 - len(indent))
    deal_tag = indent + b'[Deal "' + value + b'"]\n'
    assert len(tag) == len(deal_tag) == len(LINE)
    # the game has no deal: left out (the reader's warning), its sections with it
    left_out = both_paths(LINE * 2 + tag + LINE * 2, "pbn", "deals")
    assert left_out == both_paths(LINE * 2, "pbn", "deals")
    assert isinstance(left_out, bytes) and len(left_out) == 2 * 32
    out = both_paths(LINE * 2 + deal_tag + LINE * 2, "pbn", "deals")
    assert isinstance(out, bytes) and len(out) == 3 * 32  # two deals, then the game's
