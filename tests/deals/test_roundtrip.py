"""Property tests: random deals, full and partial, survive each format with
everything the format carries."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

import dealerpp.deals as deals_api
from dealerpp.deals import (
    Deal,
    GibInfo,
    PbnComment,
    PbnInfo,
    PbnTag,
    Seat,
    Strain,
    Vul,
    display,
    slots,
)
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.formats import _dealer_output as dealer_output
from dealerpp.deals.formats import giblib, listing, pbn
from dealerpp.deals.formats import hex as hex26
from dealerpp.deals.model import board_dealer_vul, cards_of_mask
from dealerpp.diagnostics import DppError
from tests.conftest import examples

from .strategies import any_masks, auctions, equal_masks, full_masks, legal_play, safe_text


def whole(deals: Iterable[Deal]) -> list[tuple[object, ...]]:
    """Each deal with the format slots its equality leaves out."""
    return [(d, d.tricks, d.extra, d.order) for d in deals]


FAST = settings(max_examples=examples(60), deadline=None)


@FAST
@given(any_masks())
def test_deals_round_trip(masks: tuple[int, int, int, int]) -> None:
    deal = Deal(masks)
    data = binary.dumps_deals([deal, deal])
    assert whole(binary.read_deals(data)) == whole([deal, deal])
    assert whole(binary.read_deals(io.BytesIO(data))) == whole([deal, deal])


@FAST
@given(st.data(), st.one_of(full_masks(), any_masks()), st.integers(1, 255), auctions())
def test_dx_round_trip(data: st.DataObject, masks: tuple[int, int, int, int], number: int,
                       auction: tuple) -> None:
    strain = auction[-4].strain
    play = legal_play(data.draw, masks, strain, data.draw(st.sampled_from(list(Seat))))
    # a record's board comes back with the cycle's dealer and vulnerability
    deal = Deal(masks, number, *board_dealer_vul(number), auction=auction, play=play)
    bare = Deal(masks, number + 1, *board_dealer_vul(number + 1))
    encoded = binary.dumps_dx([deal, bare])
    assert whole(binary.read_dx(encoded)) == whole([deal, bare])


@FAST
@given(full_masks(), st.one_of(st.none(), st.integers(1, 16)))
def test_hex_round_trip(masks: tuple[int, int, int, int], board: int | None) -> None:
    meta = {}
    if board is not None:
        dealer, vul = board_dealer_vul(board)
        meta = {"board": board, "dealer": dealer, "vul": vul}
    deal = Deal(masks, **meta)  # type: ignore[arg-type]
    assert whole(hex26.read(hex26.dumps([deal]))) == whole([deal])


names = st.from_regex(r"[A-Za-z0-9_.]{1,10}", fullmatch=True)
trick_chars = "0123456789ABCD-"


@FAST
@given(st.data(), equal_masks())
def test_giblib_round_trip(data: st.DataObject, masks: tuple[int, int, int, int]) -> None:
    per_hand = bin(masks[0]).count("1")
    allowed = [c for c in trick_chars if c == "-" or int(c, 16) <= per_hand]
    tricks = data.draw(st.one_of(st.none(), st.text(st.sampled_from(allowed), min_size=20,
                                                     max_size=20)))
    trumps = data.draw(st.one_of(st.none(), st.sampled_from(list(Strain))))
    leader = data.draw(st.sampled_from(list(Seat)))
    play = legal_play(data.draw, masks, trumps, leader)
    keep_leader = data.draw(st.booleans())
    name = data.draw(st.one_of(st.none(), names))
    note = data.draw(safe_text.filter(lambda t: "=" not in t))
    comments = (note,) if note.strip() else ()
    gib = GibInfo(name, trumps, leader if keep_leader else None, comments)
    table = None if tricks is None else giblib.tricks_of_text(tricks, per_hand)
    deal = Deal(masks, play=play, tricks=table, extra=gib)
    text = giblib.dumps([deal, deal])
    back = list(giblib.read(text))
    for got in back:
        assert got.masks == deal.masks and got.play == deal.play
        assert isinstance(got.extra, GibInfo)
        assert (got.extra.name, got.extra.trumps, got.extra.leader, got.tricks) == (
            name, trumps, gib.leader, table)
        assert any(note.strip() in c for c in got.extra.comments) or not note.strip()
    # A second round trip is exact, byte for byte.
    assert giblib.dumps(back) == text
    assert whole(giblib.read(giblib.dumps(back))) == whole(back)


tag_names = st.from_regex(r"X[A-Za-z0-9_]{0,8}", fullmatch=True)
tag_values = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF,
                                            blacklist_categories=("Cs",)), max_size=15)
comment_items = st.one_of(
    st.builds(PbnComment, st.just(";"), safe_text),
    st.builds(PbnComment, st.just("{"), safe_text.filter(lambda t: t.strip() != "")),
)


@FAST
@given(st.data(), any_masks())
def test_pbn_round_trip(data: st.DataObject, masks: tuple[int, int, int, int]) -> None:
    items = data.draw(st.lists(st.one_of(st.builds(PbnTag, tag_names, tag_values), comment_items),
                               max_size=5, unique_by=lambda i: getattr(i, "name", id(i))))
    board = data.draw(st.one_of(st.none(), st.integers(1, 99)))
    dealer = data.draw(st.one_of(st.none(), st.sampled_from(list(Seat))))
    vul = data.draw(st.one_of(st.none(), st.sampled_from(list(Vul))))
    auction = data.draw(st.one_of(st.just(()), auctions()))
    play = ()
    if auction and all(bin(m).count("1") == bin(masks[0]).count("1") for m in masks):
        play = legal_play(data.draw, masks, auction[-4].strain, data.draw(st.sampled_from(list(Seat))))
    deal = Deal(masks, board=board, dealer=dealer, vul=vul, auction=auction, play=play,
                extra=PbnInfo(tuple(items)) if items else None)
    text = pbn.dumps([deal, deal])
    back = list(pbn.read(text))
    assert len(back) == 2
    for got in back:
        assert (got.masks, got.board, got.dealer, got.vul, got.auction, got.play) == (
            deal.masks, board, dealer, vul, auction, play)
        assert isinstance(got.extra, PbnInfo)
        kept = [i for i in got.extra.items if i in items]
        assert kept == items
    assert pbn.dumps(back) == text


@FAST
@given(st.data(), any_masks())
def test_listing_round_trip(data: st.DataObject, masks: tuple[int, int, int, int]) -> None:
    order = tuple(tuple(data.draw(st.permutations(list(cards_of_mask(m))))) for m in masks)
    canonical = all(o == tuple(cards_of_mask(m)) for o, m in zip(order, masks, strict=True))
    deal = Deal(masks, order=None if canonical else order)
    assert whole(listing.read(listing.dumps([deal, deal]))) == whole([deal, deal])


@FAST
@given(any_masks(), equal_masks())
def test_dealer_outputs_round_trip(masks: tuple[int, int, int, int],
                                   equal: tuple[int, int, int, int]) -> None:
    deal = Deal(masks)
    one = "".join(dealer_output.format_oneline(deal) for _ in range(2))
    assert whole(dealer_output.read_oneline(one)) == whole([deal, deal])
    compact = "".join(dealer_output.format_compact(deal) for _ in range(2))
    assert whole(dealer_output.read_compact(compact)) == whole([deal, deal])
    # printall needs hands of equal length; a suit of 11+ cards overflows its
    # column and the reader follows the shift.
    deal = Deal(equal)
    everything = "".join(dealer_output.format_printall(deal, n) for n in (1, 2))
    assert whole(dealer_output.read_printall(everything)) == whole([deal, deal])


@FAST
@given(st.data(), any_masks())
def test_slots_and_layout_round_trip(data: st.DataObject, masks: tuple[int, int, int, int]) -> None:
    deal = Deal(masks)
    assert whole([slots.from_slots(slots.to_slots(deal))]) == whole([deal])
    assert whole([display.from_layout(display.to_layout(deal))]) == whole([deal])


@FAST
@given(st.data(), full_masks())
def test_trick_array_round_trip(data: st.DataObject, masks: tuple[int, int, int, int]) -> None:
    leader = data.draw(st.sampled_from(list(Seat)))
    play = legal_play(data.draw, masks, Strain.NOTRUMP, leader)
    deal = Deal(masks, play=play)
    played = 0
    for card in play:
        played |= 1 << card
    after = Deal(tuple(m & ~played for m in masks))  # type: ignore[arg-type]
    rebuilt = slots.from_slots(slots.to_slots(after), slots.to_tricks(deal))
    assert whole([rebuilt]) == whole([deal])


def test_api_read_write_every_format(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    cards = list(range(52))
    sample = []
    for _ in range(5):
        rng.shuffle(cards)
        masks = [sum(1 << c for c in cards[i * 13:(i + 1) * 13]) for i in range(4)]
        sample.append(Deal(tuple(masks)))  # type: ignore[arg-type]
    for fmt in deals_api.FORMATS:
        path = tmp_path / f"out.{fmt}"
        deals_api.write(str(path), sample, fmt)
        back = list(deals_api.read_source(path))  # by content, or the extension when known
        assert [d.masks for d in back] == [d.masks for d in sample], fmt
        back = list(deals_api.read_source(path.read_bytes(), fmt))
        assert [d.masks for d in back] == [d.masks for d in sample], fmt


def test_printall_long_suits() -> None:
    for text in ("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
                 "N:AKQJT9876543.2.. 2.AKQJT987654.3. .3.AKQJT9876542. ...AKQJT98765432"):
        deal = Deal.from_pbn(text)
        out = dealer_output.format_printall(deal, 1)
        assert list(dealer_output.read_printall(out)) == [deal]


@FAST
@given(st.data(), full_masks(), auctions())
def test_dx_through_pbn_keeps_auction_and_play(data: st.DataObject,
                                               masks: tuple[int, int, int, int],
                                               auction: tuple) -> None:
    play = legal_play(data.draw, masks, auction[-4].strain, data.draw(st.sampled_from(list(Seat))))
    deal = Deal(masks, auction=auction, play=play)
    back = next(pbn.read(pbn.dumps(binary.read_dx(binary.dumps_dx([deal])))))
    assert (back.masks, back.auction, back.play) == (masks, auction, play)


def test_dx_refuses_a_play_it_could_not_read_back() -> None:
    # PBN keeps a play from hidden hands (West leads the SQ, which no
    # known hand holds); .dx would write it, then refuse its own file.
    game = ('[Deal "W:- 5.76.AK97654.Q32 - T632.854.J.AK874"]\n[Contract "3NT"]\n'
            '[Play "W"]\nSQ S5 SA S2\n')
    (deal,) = pbn.read(game)
    assert deal.play
    out = io.BytesIO()
    try:
        deals_api.write(out, [deal], "dx")
    except DppError as error:
        assert "deal 1:" in str(error) and "SQ" in str(error)
    else:
        raise AssertionError(f"written: {out.getvalue().hex()}")
    assert out.getvalue() == b""


@FAST
@given(full_masks(), st.text(st.sampled_from("0123456789ABCD"), min_size=20, max_size=20))
def test_giblib_tricks_through_pbn(masks: tuple[int, int, int, int], tricks: str) -> None:
    deal = Deal(masks, tricks=giblib.tricks_of_text(tricks, 13))
    back = next(giblib.read(giblib.dumps(pbn.read(pbn.dumps([deal])))))
    assert back.tricks == deal.tricks
    assert giblib.dumps([back]).endswith(":" + tricks + "\n")


def test_read_detects_from_file_objects(tmp_path) -> None:  # type: ignore[no-untyped-def]
    deal = Deal.from_pbn("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")
    data = binary.dumps_deals([deal] * 300)
    assert list(deals_api.read_source(io.BytesIO(data))) == [deal] * 300
    text = dealer_output.format_compact(deal) * 300
    assert [d.masks for d in deals_api.read_source(io.StringIO(text))] == [deal.masks] * 300
    path = tmp_path / "x.txt"
    path.write_text(text)
    with open(path, "rb") as handle:
        assert len(list(deals_api.read_source(handle))) == 300
    with open(path) as handle:
        assert len(list(deals_api.read_source(handle))) == 300


def test_readers_stream(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Taking the first deal reads only the start of a large file."""
    deal = Deal.from_pbn("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")
    # One deal's record, repeated (writing each copy took seconds).
    for fmt, data in (("deals", binary.dumps_deals([deal]) * 40000),
                      ("giblib", giblib.dumps([deal]).encode() * 20000),
                      ("pbn", (pbn.dumps([deal]) + "\n").encode() * 10000)):
        path = tmp_path / f"big.{fmt}"
        path.write_bytes(data)
        with open(path, "rb") as handle:
            first = next(iter(deals_api.read_source(handle, fmt)))
            assert first.masks == deal.masks
            assert handle.tell() < len(data) // 4, fmt
