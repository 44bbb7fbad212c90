"""Strains and calls: what an auction is made of (``Strain``, ``Call``,
numbered as in .dx files) and the strain an auction ends in."""

from __future__ import annotations

import enum

from dealerpp.deals.cards import SUIT_CHARS, Suit
from dealerpp.diagnostics import quote


class Strain(enum.IntEnum):
    """A denomination, numbered as in .dx bids (C D H S N = 0..4)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    def __str__(self) -> str:
        return "NT" if self is Strain.NOTRUMP else SUIT_CHARS[self]

    @classmethod
    def from_text(cls, text: str) -> Strain:
        upper = text.upper()
        if upper in ("N", "NT"):
            return cls.NOTRUMP
        return cls(Suit.from_char(upper))

    @property
    def suit(self) -> Suit | None:
        return None if self is Strain.NOTRUMP else Suit(self)


class Call(int):
    """A call, as its .dx byte: ``(level << 5) | (1 << strain)`` for a bid,
    1 Pass, 2 Double, 4 Redouble."""

    __slots__ = ()

    def __new__(cls, code: int) -> Call:
        if code not in _CALL_NAMES:
            raise ValueError(f"not a call byte: {code}")
        return super().__new__(cls, code)

    @classmethod
    def bid(cls, level: int, strain: Strain | int) -> Call:
        if not 1 <= level <= 7 or not 0 <= strain <= 4:
            raise ValueError(f"no such bid: level {level} strain {strain}")
        return cls(level << 5 | 1 << int(strain))

    @classmethod
    def from_str(cls, text: str) -> Call:
        """Parse ``Pass``/``P``, ``X``, ``XX``, ``1C`` .. ``7NT`` (any case)."""
        code = _CALL_CODES.get(text.upper())
        if code is None:
            raise ValueError(f"not a call: {quote(text)}")
        return cls(code)

    @property
    def is_bid(self) -> bool:
        return self >= 32

    @property
    def level(self) -> int:
        return self >> 5

    @property
    def strain(self) -> Strain | None:
        if not self.is_bid:
            return None
        return Strain((self & 31).bit_length() - 1)

    def __str__(self) -> str:
        return _CALL_NAMES[self]

    def __repr__(self) -> str:
        return f"Call({str(self)!r})"


PASS_CODE, DOUBLE_CODE, REDOUBLE_CODE = 1, 2, 4
_CALL_NAMES: dict[int, str] = {PASS_CODE: "Pass", DOUBLE_CODE: "X", REDOUBLE_CODE: "XX"}
for _level in range(1, 8):
    for _strain in Strain:
        _CALL_NAMES[_level << 5 | 1 << _strain] = f"{_level}{_strain}"
_CALL_CODES: dict[str, int] = {name.upper(): code for code, name in _CALL_NAMES.items()}
_CALL_CODES["P"] = PASS_CODE
for _level in range(1, 8):
    _CALL_CODES[f"{_level}N"] = _level << 5 | 1 << Strain.NOTRUMP


def auction_strain(auction: tuple[Call, ...]) -> Strain | None:
    """The strain of the auction's last bid; None without a bid."""
    for call in reversed(auction):
        if call.is_bid:
            return call.strain
    return None
