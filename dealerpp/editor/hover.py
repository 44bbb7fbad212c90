"""What hover shows: a shape{} block's or shape() call's dealer list, count
and exact probability; a variable's definition (and its probability where
it is one seat's shapes); a dealer word's meaning."""

from __future__ import annotations

from dealerpp.diagnostics import DppError
from dealerpp.editor import knowledge
from dealerpp.editor.outline import COMMENTS, Outline
from dealerpp.editor.shapes_of import VariableShapes, block_compiled, call_compiled, call_tokens
from dealerpp.script.lexer import RegionToken

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dealerpp.shapes.shapeset import ShapeSet

# A dealer list longer than this is cut in a hover.
LIST_LIMIT = 1500


def hover(outline: Outline, offset: int) -> tuple[str, int, int] | None:
    """Markdown about what is at ``offset``, and the offsets it is about."""
    token = outline.token_at(offset)
    if token is None or token.type in COMMENTS or token.type == "STRING":
        return None
    start, end = token.start_pos or 0, token.end_pos or 0
    if token.type == "SHAPE_BLOCK" and isinstance(token, RegionToken):
        return _block(outline, token), start, end
    code = [t for t in outline.tokens if t.type not in COMMENTS]
    if token.type == "SHAPE":
        index = next((i for i, t in enumerate(code) if t is token), None)
        if index is not None and call_tokens(code, index) is not None:
            return _call(outline, code, index), start, end
    if token.type == "IDENT":
        about = _variable(outline, str(token))
        return (about, start, end) if about else None
    meaning = knowledge.meaning(str(token))
    return (f"`{token}`: {meaning.partition(': ')[2]}" if ": " in meaning else meaning,
            start, end) if meaning else None


def _block(outline: Outline, token: RegionToken) -> str:
    try:
        compiled = block_compiled(token, outline.text)
        listing = compiled.dealer_text()
    except DppError as error:
        return f"shape{{}}: does not compile: {error.message}"
    except RecursionError:
        return "shape{}: nested too deeply to compile"
    return _shapes_text("shape{}", compiled.shapes, listing)


def _call(outline: Outline, code: list, index: int) -> str:  # type: ignore[type-arg]
    found = call_compiled(code, index, outline.text)
    if found is None:
        return knowledge.FUNCTIONS["shape"]
    seat, shapes = found
    return _shapes_text("shape()", shapes, f"shape({seat}, {shapes.to_dealer()})")


def _shapes_text(what: str, shapes: ShapeSet, listing: str) -> str:
    count = len(shapes)
    probability = shapes.probability()
    chance = knowledge.probability_text(probability.numerator, probability.denominator)
    if len(listing) > LIST_LIMIT:
        listing = listing[:LIST_LIMIT] + " ..."
    plural = "" if count == 1 else "s"
    return (f"**{what}**: {count} shape{plural} of 560; a hand has one of them with "
            f"probability {chance}\n\n```dealer\n{listing}\n```")


def _variable(outline: Outline, name: str) -> str | None:
    statement = outline.definition_of(name)
    if statement is None:
        return None
    line = outline.text.count("\n", 0, statement.start) + 1
    text = f"**{name}**, defined on line {line}:\n\n```dealer\n{outline.statement_text(statement)}\n```"
    known = VariableShapes(outline).of(name)
    if known is not None:
        seat, shapes = known
        probability = shapes.probability()
        chance = knowledge.probability_text(probability.numerator, probability.denominator)
        text += (f"\n\n{seat}'s hand has one of its {len(shapes)} shapes with probability "
                 f"{chance}")
    return text
