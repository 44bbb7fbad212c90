"""LIN round trips over boards built structurally: LIN -> LIN and LIN ->
PBN -> LIN keep the deal, board, dealer, vulnerability, calls with their
alerts and explanations, play, claim, players and room."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dealerpp.deals.formats import lin, pbn
from dealerpp.deals.game import Alert, Game, Players, Room
from dealerpp.deals.model import Deal, Seat, Vul, deal_trumps
from tests.conftest import examples
from tests.deals.strategies import auctions, full_masks, legal_play

# Text a LIN value and a PBN tag or note hold as it is (no '|', no line break,
# no blank at either end, which PBN's Note drops).
words = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FF,
                                       blacklist_characters='|"\\{}',
                                       blacklist_categories=("Cs",)), min_size=1, max_size=12)
# pn separates names by commas; a PBN tag whose value is "#" copies the game before's
names = words.filter(lambda name: "," not in name and name != "#")


@st.composite
def boards(draw: st.DrawFn) -> Deal:
    masks = draw(full_masks())
    board = draw(st.integers(1, 300))
    dealer = draw(st.sampled_from(list(Seat)))
    auction = draw(st.one_of(st.just(()), auctions()))
    deal = Deal(masks, board=board, dealer=dealer, vul=draw(st.sampled_from(list(Vul))),
                auction=auction)
    play = ()
    if auction:
        last = max(i for i, call in enumerate(auction) if call.is_bid)
        strain = auction[last].strain
        side = last % 2
        first = next(i for i, call in enumerate(auction)
                     if i % 2 == side and call.is_bid and call.strain == strain)
        play = legal_play(draw, masks, deal_trumps(deal), dealer.next(first + 1))
    alerts = tuple(Alert(i, draw(st.booleans()), draw(st.one_of(st.just(""), words)))
                   for i in sorted(draw(st.sets(st.integers(0, max(len(auction) - 1, 0)),
                                                max_size=3))) if auction)
    alerts = tuple(a for a in alerts if a.alerted or a.text)
    players = draw(st.one_of(st.none(), st.builds(Players, names, names, names, names)))
    room = draw(st.one_of(st.none(), st.sampled_from(list(Room))))
    claim = draw(st.one_of(st.none(), st.integers(0, 13))) if auction else None
    game = Game(alerts, claim, players, room)
    return Deal(masks, board=board, dealer=dealer, vul=deal.vul, auction=auction, play=play,
                game=None if game == Game() else game)


def view(deal: Deal) -> tuple[object, ...]:
    game = deal.game or Game()
    return (deal.masks, deal.board, deal.dealer, deal.vul, deal.auction, deal.play,
            game.alerts, game.claim, game.players, game.room)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(boards(), min_size=1, max_size=4))
def test_lin_to_lin_and_through_pbn(sample: list[Deal]) -> None:
    text = lin.dumps(sample)
    again = list(lin.read(text.encode()))
    assert [view(d) for d in again] == [view(d) for d in sample]
    through = list(lin.read(lin.dumps(pbn.read(pbn.dumps(again))).encode()))
    assert [view(d) for d in through] == [view(d) for d in sample]
