"""The model split into parts (cards, hand, calls, deal, play) behind one
front, ``dealerpp.deals.model``: what was made before the split still loads,
and the hot reads find their tables in their own module."""

from __future__ import annotations

import dis
import pickle
import types

from dealerpp.deals import calls, cards, deal, hand, model, play
from dealerpp.deals.formats.giblib import GibInfo
from dealerpp.deals.model import Call, Card, Deal, Hand, Seat, Strain, Suit, Tricks, Vul

# pickle.dumps((deal, hand, Suit.HEARTS, Strain.NOTRUMP), 2) by main at
# 61dbd62, before the split: every class named dealerpp.deals.model.X, the
# deal's game record left to its format data as dealerpp.deals.model._Unasked
# (the deal as built in test_a_pickle_made_before_the_split_loads).
BEFORE_SPLIT = (
    b"\x80\x02(cdealerpp.deals.model\nDeal\nq\x00)\x81q\x01}q\x02(X\x05\x00\x00\x00mas"
    b"ksq\x03(\x8a\x07\x80\x83\x81\x08\xa8\x00\x0e\x8a\x07pH\x00\xe2\x11\xc0\x00\x8a"
    b"\x07\x0c\x04P\x15@8\x01\x8a\x06\x030.\x00\x06\x07tq\x04X\x05\x00\x00\x00boardq"
    b"\x05K\x07X\x06\x00\x00\x00dealerq\x06cdealerpp.deals.seat\nSeat\nq\x07K\x03\x85q"
    b"\x08Rq\tX\x03\x00\x00\x00vulq\ncdealerpp.deals.model\nVul\nq\x0bK\x03\x85q\x0cRq"
    b"\rX\x07\x00\x00\x00auctionq\x0ecdealerpp.deals.model\nCall\nq\x0fK0\x85q\x10\x81"
    b"q\x11h\x0fK\x01\x85q\x12\x81q\x13\x86q\x14X\x04\x00\x00\x00playq\x15cdealerpp.de"
    b"als.model\nCard\nq\x16K/\x85q\x17\x81q\x18\x85q\x19X\x06\x00\x00\x00tricksq\x1ac"
    b"dealerpp.deals.model\nTricks\nq\x1b)\x81q\x1c}q\x1dX\x06\x00\x00\x00valuesq\x1e("
    b"K\x00K\x01K\x02K\x03K\x04K\x05K\x06K\x07K\x08K\tK\nK\x0bK\x0cNNNNNNNtq\x1fsbX"
    b"\x05\x00\x00\x00extraq cdealerpp.deals.formats.giblib\nGibInfo\nq!)\x81q\x22}q#("
    b"X\x04\x00\x00\x00nameq$X\x01\x00\x00\x00xq%X\x06\x00\x00\x00trumpsq&NX\x06\x00"
    b"\x00\x00leaderq\'NX\x08\x00\x00\x00commentsq()ubX\x05\x00\x00\x00orderq)NX\x04"
    b"\x00\x00\x00gameq*cdealerpp.deals.model\n_Unasked\nq+h*\x85q,Rq-ubcdealerpp.deal"
    b"s.model\nHand\nq.\x8a\x07P\x81\x06\x00\x81\x03\x0b\x85q/Rq0cdealerpp.deals.model"
    b"\nSuit\nq1K\x02\x85q2Rq3cdealerpp.deals.model\nStrain\nq4K\x04\x85q5Rq6tq7."
)


def test_a_pickle_made_before_the_split_loads() -> None:
    found = pickle.loads(BEFORE_SPLIT)
    expected = Deal.from_pbn(
        "N:AKQ2.KJ3.Q54.JT9 T9.Q8765.A3.K876 J876.A42.KJ9.Q54 543.T9.T8762.A32",
        board=7, dealer=Seat.WEST, vul=Vul.BOTH,
        auction=(Call.from_str("1NT"), Call.from_str("Pass")), play=(Card.from_str("ST"),),
        tricks=Tricks((*range(13), *[None] * 7)), extra=GibInfo(name="x"))
    assert found == (expected, Hand("AQJ432.8.764.T86"), Suit.HEARTS, Strain.NOTRUMP)
    loaded = found[0]
    assert (loaded.tricks, loaded.extra, loaded.game) == (expected.tricks, GibInfo(name="x"), None)
    # the game record still left to the format data: the member itself
    assert loaded.__dict__["game"] is expected.__dict__["game"] is deal._Unasked.GAME
    assert pickle.loads(pickle.dumps(loaded)) == expected


def test_the_front_names_each_parts_object_itself() -> None:
    for name in model.__all__:
        assert any(getattr(part, name, None) is getattr(model, name)
                   for part in (cards, hand, calls, deal, play)), name


def _module_attribute_reads(function: types.FunctionType) -> list[str]:
    """``module.name`` reads in ``function``: a global that is a module,
    then an attribute of it (one look-up more at every call)."""
    found = []
    previous = None
    for instruction in dis.get_instructions(function):
        if (previous is not None and instruction.opname in ("LOAD_ATTR", "LOAD_METHOD")
                and isinstance(function.__globals__.get(previous), types.ModuleType)):
            found.append(f"{previous}.{instruction.argval}")
        previous = instruction.argval if instruction.opname == "LOAD_GLOBAL" else None
    return found


def test_the_hot_reads_find_their_tables_as_globals_of_their_module() -> None:
    """hand.hcp, .shape and the other counts, deal.north and making a Deal
    read their tables and helpers as globals of their own module, none as
    an attribute of another module."""
    hot = [getattr(Hand, name).fget for name in (
        "hcp", "controls", "losers", "shape", "is_balanced", "spades", "clubs")]
    hot += [getattr(Deal, name).fget for name in ("north", "east", "south", "west", "hands")]
    hot += [Deal.__init__, Deal.__getitem__, deal.full_deal, hand._hand]
    assert [(function.__qualname__, _module_attribute_reads(function))
            for function in hot if _module_attribute_reads(function)] == []
