"""``dealerpp expand EXPR``: compile one shape{} expression and show its shapes."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence

from dealerpp.cli.common import add_emit_option, print_diagnostics
from dealerpp.diagnostics import DppError
from dealerpp.shapes.compiler import Compiled, compile_shape
from dealerpp.shapes.shapeset import ShapeSet
from dealerpp.status import EXIT_INPUT, EXIT_OK

EPILOG = """\
examples:
  dealerpp expand '5+M(xxx)'                 the dealer list: 5xxx + x5xx + ...
  dealerpp expand 'shape{north, (4432)}'     shape(north, any 4432)
  dealerpp expand --list '5M(332)'           one shape per line: 5=3=3=2 ...
  dealerpp expand --stats '(4333) + (4432) + (5332)'
  dealerpp expand --json 'x5+xx:h>s'
  dealerpp expand --stats 4=4=3=2 5=3=3=2     shapes as --list writes them

A term starting with '-' needs '--' first: dealerpp expand -- '-4333 + xxxx'.
"""


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compile a shape{} body ('5+M3+c(31)') or a whole shape{north, ...} "
                    "and print dealer's equivalent.")
    parser.add_argument("expression", nargs="+", metavar="EXPR",
                        help="the expression (several words are joined with spaces)")
    show = parser.add_mutually_exclusive_group()
    show.add_argument("--list", action="store_true", help="one shape per line, as S=H=D=C")
    show.add_argument("--count", action="store_true", help="the number of shapes")
    show.add_argument("--stats", action="store_true",
                      help="count, total probability and each shape's probability")
    show.add_argument("--json", action="store_true",
                      help='{"dealer": ..., "shapes": [[s,h,d,c], ...], "count": N, '
                           '"probability": P}')
    add_emit_option(parser)
    return parser


def main(argv: Sequence[str], prog: str = "dealerpp expand") -> int:
    options = build_parser(prog).parse_args(list(argv))
    text = " ".join(options.expression)
    try:
        compiled = compile_shape(from_list_notation(text))
    except DppError as error:
        print(error, file=sys.stderr)
        return EXIT_INPUT
    print_diagnostics(compiled.warnings)
    print(render(compiled, options))
    return EXIT_OK


_LIST_SHAPE = re.compile(r"(\d+)=(\d+)=(\d+)=(\d+)")
_LIST_SEPARATORS = re.compile(r"[\s,+]+")
_LENGTH_LETTERS = {10: "T", 11: "J", 12: "Q", 13: "K"}


def from_list_notation(text: str) -> str:
    """Shapes written as ``--list`` prints them (``4=4=3=2``, one or more,
    apart by spaces, commas or ``+``), as the shape language writes them
    (``4432 + 5332``, where the compiler checks their total); any other
    text as it is."""
    words = [word for word in _LIST_SEPARATORS.split(text) if word]
    shapes = [_LIST_SHAPE.fullmatch(word) for word in words]
    if not words or not all(shapes):
        return text
    lengths = [[int(length) for length in match.groups()] for match in shapes if match]
    if any(max(shape) > 13 for shape in lengths):
        return text
    return " + ".join("".join(_LENGTH_LETTERS.get(n, str(n)) for n in shape)
                      for shape in lengths)


def render(compiled: Compiled, options: argparse.Namespace) -> str:
    shapes = compiled.shapes
    if options.list:
        return "\n".join(str(shape) for shape in shapes)
    if options.count:
        return str(len(shapes))
    if options.stats:
        return _stats(compiled)
    dealer = compiled.dealer_text(options.emit)
    if options.json:
        return json.dumps({
            "dealer": dealer,
            "shapes": [list(shape) for shape in shapes],
            "count": len(shapes),
            "probability": float(shapes.probability()),
        })
    return dealer


def _stats(compiled: Compiled) -> str:
    shapes = compiled.shapes
    total = shapes.probability()
    lines = [
        f"shapes:      {len(shapes)}",
        f"probability: {float(total):.6f} ({float(total) * 100:.4f}%)",
        "",
        f"{'shape':<10} {'probability':>12} {'percent':>9}",
    ]
    for shape in shapes:
        p = float(ShapeSet.of([shape]).probability())
        lines.append(f"{shape!s:<10} {p:>12.8f} {p * 100:>8.4f}%")
    return "\n".join(lines)
