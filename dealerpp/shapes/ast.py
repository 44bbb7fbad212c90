"""Typed AST of the shape{} language.

Every node carries ``pos``: the 1-based line and column where it starts in
the text that was parsed, so later stages can point at the exact place.

Nodes are small immutable records: equal and hashed by their fields, shown
as ``Name(field=value, ...)``. They are written out by hand rather than made
by ``dataclasses``, whose import and class building cost more than a
one-line script takes to compile.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Literal

    SlotKind = Literal["exact", "at_least", "at_most", "range", "any"]
    Sign = Literal["+", "-"]

_set = object.__setattr__  # the one way to fill a read-only node


class _Node:
    """A read-only record: equal, hashed and shown by its ``_fields``."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()  # in order (``__slots__`` is kept sorted)

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, _Node)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        # (pickle and copy would otherwise fill the slots by assignment)
        return (type(self), self._values())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


class Pos(_Node):
    __slots__ = ("column", "line")
    _fields = ("line", "column")
    line: int
    column: int

    def __init__(self, line: int, column: int) -> None:
        _set(self, "line", line)
        _set(self, "column", column)


# --- patterns ---------------------------------------------------------------


class Slot(_Node):
    """One suit length: ``5``, ``5+``, ``5-``, ``[3-5]``, ``x``."""

    __slots__ = ("kind", "lengths", "pos", "text")
    _fields = ("kind", "lengths", "text", "pos")
    kind: SlotKind
    lengths: frozenset[int]  # the allowed lengths, within 0..13
    text: str
    pos: Pos

    def __init__(self, kind: SlotKind, lengths: frozenset[int], text: str, pos: Pos) -> None:
        _set(self, "kind", kind)
        _set(self, "lengths", lengths)
        _set(self, "text", text)
        _set(self, "pos", pos)


class Item(_Node):
    """A slot with an optional label (``s h d c`` a suit, ``M`` a major, ``m`` a minor)."""

    __slots__ = ("label", "label_pos", "pos", "slot")
    _fields = ("slot", "label", "pos", "label_pos")
    slot: Slot
    label: str | None  # normalised: 's' 'h' 'd' 'c' 'M' 'm'
    pos: Pos
    label_pos: Pos | None

    def __init__(self, slot: Slot, label: str | None, pos: Pos, label_pos: Pos | None = None) -> None:
        _set(self, "slot", slot)
        _set(self, "label", label)
        _set(self, "pos", pos)
        _set(self, "label_pos", label_pos)


class Pattern(_Node):
    """``items`` take named or remaining suits in order; ``group`` slots take
    the suits left over in every order. ``any 4432`` is a pattern whose four
    slots are all in the group."""

    __slots__ = ("group", "is_any", "items", "pos")
    _fields = ("items", "group", "pos", "is_any")
    items: tuple[Item, ...]
    group: tuple[Item, ...] | None
    pos: Pos
    is_any: bool

    def __init__(self, items: tuple[Item, ...], group: tuple[Item, ...] | None, pos: Pos, is_any: bool = False) -> None:
        _set(self, "items", items)
        _set(self, "group", group)
        _set(self, "pos", pos)
        _set(self, "is_any", is_any)

    @property
    def slot_count(self) -> int:
        return len(self.items) + len(self.group or ())


# --- conditions -------------------------------------------------------------


class Number(_Node):
    """An integer literal. ``value`` is what dealer reads (see
    ``condition.dealer_literal``); ``written`` keeps the digits as written
    when that differs (4294967306 is read as 10), else None."""

    __slots__ = ("pos", "value", "written")
    _fields = ("value", "pos", "written")
    value: int
    pos: Pos
    written: str | None

    def __init__(self, value: int, pos: Pos, written: str | None = None) -> None:
        _set(self, "value", value)
        _set(self, "pos", pos)
        _set(self, "written", written)


class Variable(_Node):
    """A suit length: 's' 'h' 'd' 'c', or 'M' / 'm' (the pattern's major / minor)."""

    __slots__ = ("name", "pos")
    _fields = ("name", "pos")
    name: str
    pos: Pos

    def __init__(self, name: str, pos: Pos) -> None:
        _set(self, "name", name)
        _set(self, "pos", pos)


class Unary(_Node):
    __slots__ = ("op", "operand", "pos")
    _fields = ("op", "operand", "pos")
    op: str  # '!', '-', '+'  ('not' is normalised to '!')
    operand: Expr
    pos: Pos

    def __init__(self, op: str, operand: Expr, pos: Pos) -> None:
        _set(self, "op", op)
        _set(self, "operand", operand)
        _set(self, "pos", pos)


class Binary(_Node):
    __slots__ = ("left", "op", "pos", "right")
    _fields = ("op", "left", "right", "pos")
    op: str  # C operator: '*' '/' '%' '+' '-' '<' '<=' '>' '>=' '==' '!=' '&&' '||'
    left: Expr
    right: Expr
    pos: Pos

    def __init__(self, op: str, left: Expr, right: Expr, pos: Pos) -> None:
        _set(self, "op", op)
        _set(self, "left", left)
        _set(self, "right", right)
        _set(self, "pos", pos)


class Conditional(_Node):
    __slots__ = ("if_false", "if_true", "pos", "test")
    _fields = ("test", "if_true", "if_false", "pos")
    test: Expr
    if_true: Expr
    if_false: Expr
    pos: Pos

    def __init__(self, test: Expr, if_true: Expr, if_false: Expr, pos: Pos) -> None:
        _set(self, "test", test)
        _set(self, "if_true", if_true)
        _set(self, "if_false", if_false)
        _set(self, "pos", pos)


Expr = Number | Variable | Unary | Binary | Conditional


# --- terms and lists --------------------------------------------------------


class Term(_Node):
    __slots__ = ("condition", "pattern", "pos")
    _fields = ("pattern", "condition", "pos")
    pattern: Pattern
    condition: Expr | None
    pos: Pos

    def __init__(self, pattern: Pattern, condition: Expr | None, pos: Pos) -> None:
        _set(self, "pattern", pattern)
        _set(self, "condition", condition)
        _set(self, "pos", pos)


class SignedTerm(_Node):
    __slots__ = ("sign", "term")
    _fields = ("sign", "term")
    sign: Sign
    term: Term

    def __init__(self, sign: Sign, term: Term) -> None:
        _set(self, "sign", sign)
        _set(self, "term", term)


class ShapeList(_Node):
    __slots__ = ("pos", "terms")
    _fields = ("terms", "pos")
    terms: tuple[SignedTerm, ...]
    pos: Pos

    def __init__(self, terms: tuple[SignedTerm, ...], pos: Pos) -> None:
        _set(self, "terms", terms)
        _set(self, "pos", pos)


class ShapeCall(_Node):
    """A whole ``shape{COMPASS, ...}``."""

    __slots__ = ("compass", "compass_pos", "pos", "shapes")
    _fields = ("compass", "compass_pos", "shapes", "pos")
    compass: str
    compass_pos: Pos
    shapes: ShapeList
    pos: Pos

    def __init__(self, compass: str, compass_pos: Pos, shapes: ShapeList, pos: Pos) -> None:
        _set(self, "compass", compass)
        _set(self, "compass_pos", compass_pos)
        _set(self, "shapes", shapes)
        _set(self, "pos", pos)
