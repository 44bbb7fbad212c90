"""Typed AST of the shape{} language.

Every node carries ``pos``: the 1-based line and column where it starts in
the text that was parsed, so later stages can point at the exact place.

Nodes are small read-only records (``dealerpp.records``): equal and hashed
by their fields, shown as ``Name(field=value, ...)``.
"""

from __future__ import annotations

from dealerpp.records import Record

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Literal

    SlotKind = Literal["exact", "at_least", "at_most", "range", "any"]
    Sign = Literal["+", "-"]


class Pos(Record):
    line: int
    column: int


# --- patterns ---------------------------------------------------------------


class Slot(Record):
    """One suit length: ``5``, ``5+``, ``5-``, ``[3-5]``, ``x``."""

    kind: SlotKind
    lengths: frozenset[int]  # the allowed lengths, within 0..13
    text: str
    pos: Pos


class Item(Record):
    """A slot with an optional label (``s h d c`` a suit, ``M`` a major, ``m`` a minor)."""

    slot: Slot
    label: str | None  # normalised: 's' 'h' 'd' 'c' 'M' 'm'
    pos: Pos
    label_pos: Pos | None = None


class Pattern(Record):
    """``items`` take named or remaining suits in order; ``group`` slots take
    the suits left over in every order. ``any 4432`` is a pattern whose four
    slots are all in the group."""

    items: tuple[Item, ...]
    group: tuple[Item, ...] | None
    pos: Pos

    @property
    def slot_count(self) -> int:
        return len(self.items) + len(self.group or ())


# --- conditions -------------------------------------------------------------


class Number(Record):
    """An integer literal. ``value`` is what dealer reads (see
    ``condition.dealer_literal``); ``written`` keeps the digits as written
    when that differs (4294967306 is read as 10), else None."""

    value: int
    pos: Pos
    written: str | None = None


class Variable(Record):
    """A suit length: 's' 'h' 'd' 'c', or 'M' / 'm' (the pattern's major / minor)."""

    name: str
    pos: Pos


class Unary(Record):
    op: str  # '!', '-', '+'  ('not' is normalised to '!')
    operand: Expr
    pos: Pos


class Binary(Record):
    op: str  # C operator: '*' '/' '%' '+' '-' '<' '<=' '>' '>=' '==' '!=' '&&' '||'
    left: Expr
    right: Expr
    pos: Pos


class Conditional(Record):
    test: Expr
    if_true: Expr
    if_false: Expr
    pos: Pos


Expr = Number | Variable | Unary | Binary | Conditional


# --- terms and lists --------------------------------------------------------


class Term(Record):
    pattern: Pattern
    condition: Expr | None
    pos: Pos


class SignedTerm(Record):
    sign: Sign
    term: Term


class ShapeList(Record):
    terms: tuple[SignedTerm, ...]
    pos: Pos


class ShapeCall(Record):
    """A whole ``shape{COMPASS, ...}``."""

    compass: str
    compass_pos: Pos
    shapes: ShapeList
    pos: Pos
