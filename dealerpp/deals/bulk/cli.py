"""The bulk path of ``dealerpp convert``.

``try_bulk`` is called by the convert command before it reads anything: for
two different formats that both have a fast path it converts the file in
chunks (with a progress bar on a terminal) and returns the exit status;
otherwise it returns None and the command goes on per deal. This module
imports numpy only once it has decided to take the bulk path.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

# Same names as dealerpp.deals.FORMATS and the extensions of
# dealerpp.deals.detect, kept here so deciding costs neither numpy nor the
# deal model (import time counts when a conversion takes a second).
FAST_FORMATS = ("deals", "hex", "giblib", "pbn", "oneline")
_EXTENSIONS = {".deals": "deals", ".hex": "hex", ".gib": "giblib", ".pbn": "pbn"}


def is_fast_pair(src_fmt: str | None, dst_fmt: str | None) -> bool:
    """Both formats fast, and different (a same-format copy keeps things,
    such as PBN tag text or card order, that only the per-deal path knows)."""
    return src_fmt in FAST_FORMATS and dst_fmt in FAST_FORMATS and src_fmt != dst_fmt


def _by_extension(name: str) -> str | None:
    if name == "-":
        return None
    return _EXTENSIONS.get(os.path.splitext(name)[1].lower())


def try_bulk(args: argparse.Namespace, prog: str, pbn_options: dict[str, Any] | None = None,
             errors: Callable[[], int] = lambda: 0) -> int | None:
    """Convert ``args.input`` to ``args.output`` in bulk, or None if this
    pair of formats is not for the bulk path (the caller then goes on)."""
    to_fmt = args.to_fmt or _by_extension(args.output)
    if to_fmt not in FAST_FORMATS:
        return None
    source: Any = sys.stdin.buffer if args.input == "-" else args.input
    name = "<stdin>" if args.input == "-" else args.input
    from_fmt = args.from_fmt or _by_extension(args.input)
    if from_fmt is None:  # an unknown extension, or standard input: look at the content
        from dealerpp.deals import detect

        try:
            from_fmt, source = detect.detect(source, None if args.input == "-" else name)
        except OSError:
            return None  # let the per-deal path report it as it does
    if not is_fast_pair(from_fmt, to_fmt):
        return None
    if args.input == "-":
        source = _stdin_like(source)

    from dealerpp.cli.convert import report_converted, report_input_error
    from dealerpp.cli.status import EXIT_INPUT, EXIT_OK
    from dealerpp.deals.bulk.fallback import ModelPerDeal
    from dealerpp.deals.bulk.stream import convert_file
    from dealerpp.diagnostics import DppError

    per_deal = ModelPerDeal(pbn_options if from_fmt == "pbn" else None)
    try:
        total = convert_file(source, args.output, from_fmt, to_fmt, quiet=args.quiet,
                             filename=name, per_deal=per_deal)
    except BrokenPipeError:
        # the reader (often `head`) went away: not our error, as for the per-deal path
        from dealerpp.cli import _silence_stdout

        _silence_stdout()
        return EXIT_OK
    except (DppError, OSError) as error:
        return report_input_error(error, args, name)
    report_converted(prog, total, args.quiet, errors())
    return EXIT_INPUT if errors() else EXIT_OK


def _stdin_like(source: Any) -> Any:
    """Standard input (or the peeking reader detection wrapped around it) as
    a binary file object that is not mistaken for a path."""
    return source if hasattr(source, "read") else sys.stdin.buffer
