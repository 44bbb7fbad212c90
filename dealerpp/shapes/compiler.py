"""The shape compiler's front door: text in, ``Compiled`` out.

    >>> from dealerpp.shapes.compiler import compile_shape
    >>> compile_shape("shape{north, 5M(xxx)}").dealer_text()
    'shape(north, x5xx + 5xxx)'
"""

from __future__ import annotations

from dealerpp.diagnostics import Diagnostic, DppError, source_line_of
from dealerpp.records import Record
from dealerpp.shapes.ast import ShapeCall
from dealerpp.shapes.expand import expand_list
from dealerpp.shapes.parser import parse_body, parse_call
from dealerpp.shapes.shapeset import ShapeSet

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
    if is_call(text):
        call = parse_call(text)
        _check_compass(call, text)
        shapes, warnings = expand_list(call.shapes, text)
        return Compiled(shapes, call.compass, warnings)
    shapes, warnings = expand_list(parse_body(text), text)
    return Compiled(shapes, None, warnings)


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
