"""Deals: one model and readers/writers for every deal format.

``read(source, fmt=None)`` yields deals lazily; ``write(deals, target,
fmt=None)`` writes them. The model lives in :mod:`dealerpp.deals.model`.
"""

from __future__ import annotations

from dealerpp.deals.model import (
    Call,
    Card,
    Deal,
    GibInfo,
    Hand,
    PbnComment,
    PbnInfo,
    PbnTag,
    Seat,
    Strain,
    Suit,
    Vul,
)

__all__ = [
    "Call",
    "Card",
    "Deal",
    "GibInfo",
    "Hand",
    "PbnComment",
    "PbnInfo",
    "PbnTag",
    "Seat",
    "Strain",
    "Suit",
    "Vul",
]
