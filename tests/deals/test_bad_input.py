"""Bad input: each problem is a DppError naming the record; a fuzz test
sees nothing but DppError."""

from __future__ import annotations

import random
import struct

import pytest

import dealerpp.deals as api
from dealerpp.deals import Deal
from dealerpp.deals.formats import _binary as binary
from dealerpp.deals.formats import _dealer_output as dealer_output
from dealerpp.deals.formats import giblib, listing, pbn
from dealerpp.deals.formats import hex as hex26
from dealerpp.deals.options import ReadOptions
from dealerpp.diagnostics import DppError

FULL = Deal.from_pbn("N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T")
GIB_LINE = "JT852.93.KQ7.J82 AQ97.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9:88887777A9A977778888"
GIB_HANDS = "j95.t8632.j65.85 t862.ak54.73.q92 k743.j.a98.ajt76 aq.q97.kqt42.k43"
PLAYED = "{name=cpt leader=w played=c8.c9.ct.ck-h7.h2.hk.hj-d3.d8.dk.d5-h9.h3.ha}\n" + GIB_HANDS


def error_of(reader, data) -> DppError:  # type: ignore[no-untyped-def]
    with pytest.raises(DppError) as caught:
        list(reader(data))
    return caught.value


# -- .deals --------------------------------------------------------------------

def test_deals_truncated_names_offset() -> None:
    data = binary.dumps_deals([FULL, FULL])[:-5]
    error = error_of(binary.read_deals, data)
    assert error.line is None and error.byte == 32 and "multiple of 32" in error.message
    assert str(error).startswith("byte 32: error: truncated record")  # in words, made once


def test_deals_card_twice_hand_too_long_high_bits() -> None:
    n, e, s, w = FULL.masks
    twice = struct.pack("<4Q", n | 1, e | 1, s, w)
    assert "in two hands" in error_of(binary.read_deals, twice).message
    long = struct.pack("<4Q", n | (e & -e), e & (e - 1), s, w)
    assert "14 cards" in error_of(binary.read_deals, binary.dumps_deals([FULL]) + long).message
    second = error_of(binary.read_deals, binary.dumps_deals([FULL]) + long)
    assert (second.byte, second.deal, second.output) == (32, 2, False)
    high = struct.pack("<4Q", n | 1 << 60, e, s, w)
    assert "bits 52-63" in error_of(binary.read_deals, high).message


# -- .dx -------------------------------------------------------------------------

def dx(number: int, deal: Deal, auction: bytes, play: bytes) -> bytes:
    return bytes([number]) + binary.deal_to_bytes(deal) + auction + b"\xff" + play + b"\xff"


def test_dx_errors() -> None:
    good = dx(1, FULL, bytes([33, 1, 1, 1]), b"")
    assert len(list(binary.read_dx(good + good))) == 2
    assert "truncated" in error_of(binary.read_dx, good + good[:20]).message
    assert "no 0xFF" in error_of(binary.read_dx, good + good[:-1]).message
    assert "deal number 0" in error_of(binary.read_dx, dx(0, FULL, b"", b"")).message
    bad_call = error_of(binary.read_dx, good + dx(2, FULL, bytes([3]), b""))
    assert "not a call" in bad_call.message and bad_call.byte == len(good) + 33
    assert "not a card" in error_of(binary.read_dx, dx(1, FULL, b"", bytes([52]))).message
    # West leads the club ten; North, holding clubs, plays the diamond ace.
    ct, da = 8, 25
    revoke = error_of(binary.read_dx, dx(1, FULL, bytes([32 | 16]), bytes([ct, da])))
    assert "revoke" in revoke.message and revoke.byte == 0


# -- hex ---------------------------------------------------------------------------

def test_hex_errors() -> None:
    text = "F2F25B5CC55E31928E2E32C949\nF2F25B5CC55E31928E2E32C94\n"
    error = error_of(hex26.read, text)
    assert (error.line, "26 hex digits" in error.message) == (2, True)
    error = error_of(hex26.read, "F2F25B5CC55E31928E2E32C9G9")
    assert (error.line, error.column) == (1, 25)
    assert "13 cards" in error_of(hex26.read, "00" * 13).message
    assert "suffix" in error_of(hex26.read, "F2F25B5CC55E31928E2E32C949-XY").message


# -- giblib ----------------------------------------------------------------------------

def test_giblib_errors() -> None:
    truncated = error_of(giblib.read, GIB_LINE + "\n" + GIB_LINE[:40] + "\n")
    assert truncated.line == 2 and "4 hands" in truncated.message
    twice = GIB_LINE.replace("JT852", "AT852", 1)
    assert "in two hands" in error_of(giblib.read, twice).message
    long = "JT8752.93.KQ7.J82 AQ9.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9"
    assert "14 cards, over 13" in error_of(giblib.read, long).message
    short = "JT852.93.KQ7.J8 AQ97.JT654.T6.A5 43.AK8.A542.7643 K6.Q72.J983.KQT9"
    assert "same number" in error_of(giblib.read, short).message
    bad_char = error_of(giblib.read, GIB_LINE.replace("KQ7", "KX7", 1))
    assert (bad_char.line, bad_char.column) == (1, 11)
    assert "above" in error_of(giblib.read, "A... K... Q... J...:" + "2" * 20).message
    assert "20 characters" in error_of(giblib.read, GIB_LINE + "8").message


def test_giblib_played_errors() -> None:
    assert list(giblib.read(PLAYED))
    # East holds a club (AJT76) but discards a spade on the club lead: a revoke.
    revoke = PLAYED.replace("c8.c9.ct.ck", "c8.c9.s3.ck")
    error = error_of(giblib.read, revoke)
    assert "revoke" in error.message and error.line == 1
    wrong_hand = PLAYED.replace("c8.c9.ct.ck", "c8.ct.c9.ck")
    assert "on turn" in error_of(giblib.read, wrong_hand).message
    wrong_leader = PLAYED.replace("leader=w", "leader=n")
    assert "leader=" in error_of(giblib.read, wrong_leader).message
    # The second trick must be led by the winner of the first (South, CK).
    wrong_trick_leader = PLAYED.replace("h7.h2.hk.hj", "h2.hk.hj.h7")
    assert "on turn" in error_of(giblib.read, wrong_trick_leader).message
    assert "not closed" in error_of(giblib.read, "{name=x\n" + GIB_HANDS).message
    assert "not followed" in error_of(giblib.read, GIB_HANDS + "\n{x}\n").message


def test_giblib_trumps_decide_the_winner() -> None:
    # West leads the heart king; North, void in hearts, plays the D3.
    hands = "3.K.. ..3.2 4.2.. 5.3..\n"
    assert list(giblib.read("{trumps=d played=hk.d3.h2.h3-c2}\n" + hands))
    assert list(giblib.read("{played=hk.d3.h2.h3-s3}\n" + hands))
    error = error_of(giblib.read, "{trumps=n played=hk.d3.h2.h3-c2}\n" + hands)
    assert "West is on turn" in error.message


# -- PBN -------------------------------------------------------------------------------

GAME = """[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:5.76.AK97654.Q32 AK84.AKT3.Q.J965 T632.854.J.AK874 QJ97.QJ92.T832.T"]
[Contract "3NT"]
[Play "E"]
SA S2 S7 S5
"""


def test_pbn_errors() -> None:
    assert len(list(pbn.read(GAME + "\n" + GAME))) == 2
    twice = GAME.replace("QJ97.", "QJ95.")
    error = error_of(pbn.read, "\n" + twice)
    assert error.line == 5 and "two hands" in error.message
    long = GAME.replace("QJ97.QJ92", "QJ976.QJ92").replace("T632", "T32")
    assert "over 13" in error_of(pbn.read, long).message
    assert "not closed" in error_of(pbn.read, '[Deal "N:5.76').message
    assert "not closed" in error_of(pbn.read, GAME + "{ open\n").message


def test_pbn_rule_breaks_are_warnings_kept_on_the_game() -> None:
    """PBN 2.1 import is tolerant: what is not a deal error is a warning,
    the game is kept as written (``strict`` makes it an error)."""
    def warnings(text: str) -> list[str]:
        (deal,) = pbn.read(text, options=ReadOptions(need_deal=False))
        return [w.message for w in deal.extra.problems]

    assert any("Dealer" in w for w in warnings(GAME.replace('"N"]', '"Q"]', 1)))
    assert any("Vulnerable" in w for w in warnings(GAME.replace("None", "Nobody")))
    assert any("revoke" in w for w in warnings(GAME.replace("SA S2 S7 S5", "SA H5 S7 S5")))
    assert any("earlier game" in w for w in warnings('[Event "#"]\n'))
    assert any("given again" in w for w in warnings(GAME + '[Board "2"]\n'))
    assert warnings('[Event "x"]\n') == []  # kept, with no deal
    assert list(pbn.read('[Event "x"]\n')) == []
    revoke = error_of(lambda t: pbn.read(t, options=ReadOptions(strict=True)),
                      GAME.replace("SA S2 S7 S5", "SA H5 S7 S5"))
    assert "revoke" in revoke.message and (revoke.line, revoke.column) == (7, 4)


def test_pbn_inheritance() -> None:
    second = '[Board "2"]\n[Dealer "#"]\n[Deal "#"]\n'
    first, other = list(pbn.read(GAME + "\n" + second))
    assert other.masks == first.masks and other.dealer == first.dealer and other.board == 2


# -- listing and dealer outputs ----------------------------------------------------------

def test_listing_errors() -> None:
    good = listing.dumps([FULL])
    assert "expected East" in error_of(listing.read, good.replace("East ", "South")).message
    error = error_of(listing.read, good.replace("H7 H6", "H7 H7"))
    assert error.line == 1 and "twice" in error.message
    assert "not a card" in error_of(listing.read, good.replace("DA", "DX")).message
    assert "hands" in error_of(listing.read, "\n".join(good.splitlines()[:3])).message
    long = good.replace("Player East : SA", "Player East :").replace("CQ C3 C2", "CQ C3 C2 SA")
    assert "over 13" in error_of(listing.read, long).message


def test_dealer_output_errors() -> None:
    one = dealer_output.format_oneline(FULL)
    assert "printoneline" in error_of(dealer_output.read_oneline, one[:30]).message
    assert "two hands" in error_of(dealer_output.read_oneline, one.replace("Q32", "QJ2")).message
    compact = dealer_output.format_compact(FULL)
    assert "truncated" in error_of(dealer_output.read_compact, compact[:37]).message
    every = dealer_output.format_printall(FULL, 1)
    assert "truncated" in error_of(dealer_output.read_printall, every[:60]).message
    assert "bad suit" in error_of(dealer_output.read_printall, every.replace("K 9", "K X")).message


# -- fuzz ---------------------------------------------------------------------------------

def _samples() -> dict[str, bytes]:
    other = Deal.from_pbn("N:J76.J98542.74.AK 52..AKQ8652.QJ83 AKQT8.KT6.J3.965 943.AQ73.T9.T742")
    text = {
        "giblib": (GIB_LINE + "\n" + PLAYED + "\n{ a comment }\n" + GIB_LINE + "\n").encode(),
        "pbn": (GAME + "\n% x\n; y\n" + GAME.replace('"1"', '"#"') + '[Auction "N"]\n1NT Pass AP\n').encode(),
        "hex": b"F2F25B5CC55E31928E2E32C949-3\n4B0B4FAC05918F6623B3965CB7\n",
        "listing": listing.dumps([FULL, other]).encode(),
        "oneline": (dealer_output.format_oneline(FULL) + dealer_output.format_oneline(other)).encode(),
        "compact": (dealer_output.format_compact(FULL) + "7\n" + dealer_output.format_compact(other)).encode(),
        "printall": (dealer_output.format_printall(FULL, 1) + dealer_output.format_printall(other, 2)).encode(),
        "deals": binary.dumps_deals([FULL, other]),
        "dx": binary.dumps_dx([Deal(FULL.masks, 3, auction=tuple()), other]),
    }
    return text


def _mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif op == 1:
            data.insert(at, rng.choice(b"{}[]\";:.-# \n\r\tAKQJT98765432shdcNESWx\xff\x00\xc3"))
        elif op == 2 and data:
            del data[at:at + rng.randint(1, 8)]
        elif op == 3:
            data = data[:at]
        else:
            data[at:at] = data[rng.randrange(len(data) + 1):][: rng.randint(1, 20)]
    return bytes(data)


def test_fuzz_only_dpp_errors() -> None:
    rng = random.Random(20261122)
    samples = _samples()
    for fmt, data in samples.items():
        assert list(api.read_source(data, fmt)), fmt
    for _ in range(3000):
        fmt = rng.choice(list(samples))
        mutated = _mutate(rng, samples[fmt])
        for chosen in (fmt, None):
            try:
                for _deal in api.read_source(mutated, chosen):
                    pass
            except DppError:
                pass


def test_fuzzed_deals_write_and_read_back_in_every_format() -> None:
    """Whatever a reader accepts, every writer either writes readably or
    refuses with a DppError (a partial deal in hex, say)."""
    import io

    rng = random.Random(7)
    samples = _samples()
    for _ in range(300):
        fmt = rng.choice(list(samples))
        try:
            read = list(api.read_source(_mutate(rng, samples[fmt]), fmt))
        except DppError:
            continue
        for out in api.FORMATS:
            buffer = io.BytesIO()
            try:
                api.write(buffer, read, out)
            except DppError:
                continue
            back = list(api.read_source(buffer.getvalue(), out))
            assert [d.masks for d in back] == [d.masks for d in read], (fmt, out)


def test_more_card_twice_and_long_hands() -> None:
    n, e, s, w = FULL.masks
    bad_deal = struct.pack("<4Q", (n & (n - 1)) | (e & -e), e, s, w)
    error = error_of(binary.read_dx, b"\x05" + bad_deal + b"\xff\xff")
    assert "two hands" in error.message and error.byte == 1
    long = struct.pack("<4Q", n | (e & -e), e & (e - 1), s, w)
    assert "14 cards" in error_of(binary.read_dx, b"\x05" + long + b"\xff\xff").message
    compact = dealer_output.format_compact(FULL).replace("n 5.76.AK97654.Q32", "n 5.76.AK97654.QJ32")
    assert "14 cards" in error_of(dealer_output.read_compact, compact).message
    compact = dealer_output.format_compact(FULL).replace("e AK84.AKT3.Q.J965", "e AK84.AKT3.Q.J964")
    assert "two hands" in error_of(dealer_output.read_compact, compact).message
    every = dealer_output.format_printall(FULL, 1).replace("A K 8 4 ", "A K 8 5 ")
    assert "two hands" in error_of(dealer_output.read_printall, every).message
    long_line = dealer_output.format_oneline(FULL).replace("w QJ97.QJ92.", "w QJ97.QJ982.").replace(
        "s T632.854.J.AK874", "s T632.54.J.AK874")
    assert "14 cards" in error_of(dealer_output.read_oneline, long_line).message


def test_pbn_error_line_after_a_leading_escape_line() -> None:
    """A '%' line before the first game used to leave the game's line at 0."""
    from dealerpp import deals

    text = '% a note\n\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543Z"]\n'
    with pytest.raises(DppError) as caught:
        deals.loads(text.encode(), "pbn", filename="in")
    assert caught.value.line == 3


@pytest.mark.parametrize(("fmt", "data"), [
    ("giblib", b"\xe9KQ... ... ... ...\n"),
    ("hex", b"\xe9" + b"0" * 25 + b"\n"),
    ("listing", b"Deal #1: Player North: \xe9A\n"),
    ("pbn", b'[Deal "N:\xe9KQ... ... ... ..."]\n'),
    ("oneline", b"n \xe9.76.AK97654.Q32 e AK84.AKT3.Q.J965 s T632.854.J.AK874 w QJ97.QJ92.T832.T\n"),
    ("bhg", b"\n" + b"\xe9" * 52 + b"\n"),
])
def test_an_undecodable_byte_is_shown_as_the_byte_it_is(fmt: str, data: bytes) -> None:
    # Read with surrogateescape, a latin-1 byte is a lone surrogate: quoted
    # with repr() it would show as '\udce9', a character the file does not hold.
    problems: list = []  # the PBN reader reports Diagnostics
    try:
        list(pbn.read(data, options=ReadOptions(report=problems.append)) if fmt == "pbn" else api.read_source(data, fmt))
    except DppError as error:
        problems.append(error.diagnostic.headline())
    headlines = [p if isinstance(p, str) else p.headline() for p in problems]
    assert headlines and all("\\udc" not in h for h in headlines), headlines
    assert any("\\xe9" in h for h in headlines), headlines
