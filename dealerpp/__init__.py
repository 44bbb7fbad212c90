"""dealerpp: a compiler-grade preprocessor for dealer scripts, and a deal-file toolkit.

    >>> from dealerpp import expand
    >>> shapes = expand("5+M(xxx)")
    >>> len(shapes), (5, 4, 3, 1) in shapes
    (310, True)

Names are imported on first use, so ``import dealerpp`` stays cheap.
"""

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "expand": "dealerpp.shapes.compiler",
    "compile_shape": "dealerpp.shapes.compiler",
    "Compiled": "dealerpp.shapes.compiler",
    "ShapeSet": "dealerpp.shapes.shapeset",
    "Shape": "dealerpp.shapes.universe",
    "DppError": "dealerpp.diagnostics",
    "Diagnostic": "dealerpp.diagnostics",
    "preprocess": "dealerpp.script.rewrite",
    "Preprocessed": "dealerpp.script.rewrite",
    "generate": "dealerpp.dealing",
    "Deal": "dealerpp.deals.model",
    "Hand": "dealerpp.deals.model",
    "Holding": "dealerpp.deals.model",
    "Seat": "dealerpp.deals.model",
    "Suit": "dealerpp.deals.model",
    "Vul": "dealerpp.deals.model",
}

__all__ = [
    "Compiled", "Deal", "Diagnostic", "DppError", "Hand", "Holding", "Preprocessed", "Seat",
    "Shape", "ShapeSet", "Suit", "Vul", "__version__", "compile_shape", "expand", "generate",
    "preprocess",
]

if TYPE_CHECKING:
    from dealerpp.dealing import generate
    from dealerpp.deals.model import Deal, Hand, Holding, Seat, Suit, Vul
    from dealerpp.diagnostics import Diagnostic, DppError
    from dealerpp.script.rewrite import Preprocessed, preprocess
    from dealerpp.shapes.compiler import Compiled, compile_shape, expand
    from dealerpp.shapes.shapeset import ShapeSet
    from dealerpp.shapes.universe import Shape


def __dir__() -> "list[str]":
    """The names a user takes, imported yet or not, and the subpackages
    loaded: what tab completion (a notebook's) offers. Not the module's
    own helpers (``TYPE_CHECKING``)."""
    found = globals()
    loaded = {name for name, value in found.items()
              if type(value) is type(__import__("sys")) and not name.startswith("_")}
    return sorted(loaded | set(__all__) | {name for name in found if name.startswith("__")})


def __getattr__(name: str) -> "Any":  # (no __future__ import: it costs start-up)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dealerpp' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
