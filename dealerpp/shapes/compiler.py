"""The shape compiler's front door: text in, ``Compiled`` out.

    >>> from dealerpp.shapes.compiler import compile_shape
    >>> compile_shape("shape{north, 5M(xxx)}").dealer_text()
    'shape(north, x5xx + 5xxx)'
"""

from __future__ import annotations

from dealerpp.diagnostics import Diagnostic, DppError, source_line_of
from dealerpp.records import Record
from dealerpp.shapes.ast import ShapeCall
from dealerpp.shapes.expand import _group_mask, _label_bindings, _slot_mask, expand_list
from dealerpp.shapes.parser import parse_body, parse_call
from dealerpp.shapes.shapeset import ShapeSet
from dealerpp.shapes.universe import FULL_MASK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dealerpp.shapes.emit import EmitMode

COMPASSES = ("north", "east", "south", "west")


class Compiled(Record, frozen=False):
    """A compiled shape{} expression: its set, its compass (for a whole
    ``shape{...}``), and its warnings. Equal when all three are."""

    shapes: ShapeSet
    compass: str | None
    warnings: list[Diagnostic]

    def __init__(self, shapes: ShapeSet, compass: str | None = None,
                 warnings: list[Diagnostic] | None = None) -> None:
        super().__init__(shapes, compass, [] if warnings is None else warnings)

    def dealer_list(self, mode: EmitMode = "compact", *, compact: bool = True) -> str:
        """The set as a dealer list (``mode``: see ``ShapeSet.to_dealer``)."""
        return self.shapes.to_dealer(mode, compact=compact)

    def dealer_text(self, mode: EmitMode = "compact", *, compact: bool = True) -> str:
        """``shape(north, LIST)`` for a whole shape{}, or just ``LIST`` for a body."""
        listing = self.dealer_list(mode, compact=compact)
        return f"shape({self.compass}, {listing})" if self.compass else listing


def is_call(text: str) -> bool:
    """Whether ``text`` is a whole ``shape{...}`` rather than a bare list."""
    return text.lstrip().startswith("shape")


def compile_shape(text: str) -> Compiled:
    """Compile a shape{} body (``"5+M3+c(31)"``) or a whole ``"shape{north, ...}"``."""
    if not isinstance(text, str):
        raise TypeError(f"a shape{{}} expression is a str, not {type(text).__name__}")
    plain = _plain_call(text)
    if plain is not None:
        return Compiled(ShapeSet(plain[1]), plain[0], [])
    if is_call(text):
        call = parse_call(text)
        _check_compass(call, text)
        shapes, warnings = expand_list(call.shapes, text)
        return Compiled(shapes, call.compass, warnings)
    shapes, warnings = expand_list(parse_body(text), text)
    return Compiled(shapes, None, warnings)


# --- the plain call, read and expanded in one go ------------------------------
#
# Most blocks of a script are ``shape{COMPASS, PATTERN}`` with one pattern of
# slots and labels, no blank inside it, no condition. Such a block is read
# and expanded here with no AST (a 1,000-line script spent a quarter of its
# time in the hand-written reader and the expander, issue 28). Anything
# else, or anything that would give an error or a warning (a slot count
# other than 4, a suit label named twice, an empty set: exact lengths that
# cannot add up to 13, an M with no major left give one), is left to the
# reader and the expander, which say what is wrong.
# tests/shapes/test_plain_call.py holds the two ways equal on generated texts.

_LENGTH_VALUE = {c: n for n, c in enumerate("0123456789TJQK")}
_MAX = 13
_EVERY_LENGTH = frozenset(range(_MAX + 1))
_SUIT_LABELS = {"s": 0, "h": 1, "d": 2, "c": 3, "S": 0, "H": 1, "D": 2, "C": 3}
_FREE_LABELS = ("M", "m")
# Slots read before, by their text; emptied when full (a long-running editor
# session meets many ranges).
_PLAIN_SLOTS: dict[str, frozenset[int] | None] = {}
_KEPT = 4096


def _plain_call(text: str) -> tuple[str, int] | None:
    """``(compass, mask)`` of a plain ``shape{COMPASS, PATTERN}``, or None."""
    if not text.startswith("shape{") or text[-1:] != "}":
        return None
    comma = text.find(",", 6)
    compass = text[6:comma]
    if comma < 0 or compass not in COMPASSES:
        return None
    start, end = comma + 1, len(text) - 1
    while text[start] in " \t":  # (stops at the closing brace at the latest)
        start += 1
    while end > start and text[end - 1] in " \t":
        end -= 1
    read = _plain_pattern(text[start:end])
    if read is None:
        return None
    items, labels, group = read
    mask = _plain_mask(items, labels, group)
    return (compass, mask) if mask else None


def _plain_pattern(body: str) -> tuple[list[frozenset[int]], list[str | None],
                                       list[frozenset[int]] | None] | None:
    """The slots and labels of a pattern, and its group's slots; None for
    anything else, or for a pattern the expander would refuse."""
    items: list[frozenset[int]] = []
    labels: list[str | None] = []
    group: list[frozenset[int]] | None = None
    at, end = 0, len(body)
    while at < end and body[at] != "(":
        at = _plain_slot(body, at, items)
        if at < 0:
            return None
        label = body[at:at + 1]
        if label in _SUIT_LABELS or label in _FREE_LABELS:
            at += 1  # (5M+ is left: no slot starts with a sign)
            labels.append(label.lower() if label in _SUIT_LABELS else label)
        else:
            labels.append(None)
    if at < end:  # a group, closing the pattern
        if body[-1] != ")":
            return None
        group = []
        at += 1
        while at < end - 1:
            at = _plain_slot(body, at, group)
            if at < 0:
                return None
        if not group:
            return None
    if len(items) + len(group or ()) != 4:
        return None
    named = [label for label in labels if label in _SUIT_LABELS]
    if len(set(named)) < len(named):
        return None
    # (an M or m with no suit left has no binding: the set is empty)
    return items, labels, group


def _plain_slot(body: str, at: int, slots: list[frozenset[int]]) -> int:
    """Read the slot at ``at`` into ``slots``: where it ends, or -1 for no
    slot the plain path takes."""
    char = body[at]
    if char == "[":
        end = body.find("]", at) + 1
        if not end:
            return -1
    elif char == "x":
        end = at + 1
    elif char in _LENGTH_VALUE:
        end = at + 2 if body[at + 1:at + 2] in ("+", "-") else at + 1
    else:
        return -1
    written = body[at:end]
    if written in _PLAIN_SLOTS:
        found = _PLAIN_SLOTS[written]
    else:
        if len(_PLAIN_SLOTS) >= _KEPT:
            _PLAIN_SLOTS.clear()
        found = _PLAIN_SLOTS[written] = _slot_of(written)
    if found is None:
        return -1
    slots.append(found)
    return end


def _slot_of(written: str) -> frozenset[int] | None:
    """A slot's lengths: ``5``, ``5+``, ``5-``, ``x``, ``[3-5]``, ``[35]``;
    None for a range the reader would refuse."""
    if written == "x":
        return _EVERY_LENGTH
    if written[0] != "[":
        n = _LENGTH_VALUE[written[0]]
        if len(written) == 1:
            return frozenset([n])
        return frozenset(range(n, _MAX + 1) if written[1] == "+" else range(n + 1))
    inside, lengths, k = written[1:-1], set[int](), 0
    while k < len(inside):
        low = _LENGTH_VALUE.get(inside[k])
        if low is None:
            return None
        if inside[k + 1:k + 2] == "-":
            high = _LENGTH_VALUE.get(inside[k + 2:k + 3] or "?")
            if high is None or high < low:
                return None
            lengths.update(range(low, high + 1))
            k += 3
        else:
            lengths.add(low)
            k += 1
    return frozenset(lengths)  # ("[]": no length, so no shape)


def _plain_mask(items: list[frozenset[int]], labels: list[str | None],
                group: list[frozenset[int]] | None) -> int:
    """The expander's set for the pattern: its slots on their suits, for
    every way to give the M and m labels a suit."""
    mask = 0
    for binding in _label_bindings([label for label in labels if label is not None]):
        suits: list[int | None] = []
        seen = {"M": 0, "m": 0}
        for label in labels:
            if label is None:
                suits.append(None)
            elif label in seen:
                suits.append(binding[f"{label}{seen[label]}"])
                seen[label] += 1
            else:
                suits.append(_SUIT_LABELS[label])
        free = [suit for suit in range(4) if suit not in suits]
        placed = [suit if suit is not None else free.pop(0) for suit in suits]
        part = FULL_MASK
        for suit, lengths in zip(placed, items, strict=True):
            part &= _slot_mask(suit, lengths)
        if group:
            part &= _group_mask(tuple(free), tuple(group))
        mask |= part
    return mask


def _check_compass(call: ShapeCall, text: str) -> None:
    if call.compass in COMPASSES:
        return
    hint = None
    if call.compass.lower() in COMPASSES:
        hint = f"dealer's compass words are lower case: {call.compass.lower()}"
    raise DppError(
        f"unknown compass {call.compass!r}: expected north, east, south or west",
        call.compass_pos.line,
        call.compass_pos.column,
        None,
        source_line_of(text, call.compass_pos.line),
        hint,
    )


def expand(text: str) -> ShapeSet:
    """The exact set of shapes a shape{} body or whole shape{} denotes.

    >>> from dealerpp import expand
    >>> len(expand("(4432)")), len(expand("5+M3+c(31)"))
    (12, 8)
    """
    return compile_shape(text).shapes
