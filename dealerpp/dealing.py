"""``generate``: deals from a dealer.dpp script, dealt by the real dealer.

    from dealerpp import expand, generate

    for deal in generate("condition shape{north, 5+M(xxx)}", produce=2, seed=1):
        print(deal.north, deal.north.shape in expand("5+M(xxx)"))

The script is preprocessed (its shape{} blocks compiled) and checked first,
so a mistake in it raises ``DppError`` with its line and column before
dealer starts. dealer is found as ``dealerpp run`` finds it; it deals with
the script's own conditions and settings, and its output is read back as
``Deal``s while it runs. Only the action is replaced (by ``printoneline``: a
later ``action`` statement overrides an earlier one), which uses no random
numbers, so a seed gives the deals ``dealer -s SEED`` gives for the
preprocessed script. A script that sets the dealer or the vulnerability
gets ``printpbn`` instead, so that dealer itself says what its words meant
(its ``[Dealer]`` and ``[Vulnerable]``); the deals carry those it set, and
None for what it left unsaid.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from typing import IO

from dealerpp.deals.model import Deal
from dealerpp.diagnostics import DppError
from dealerpp.script.dealer import DealerNotFound, find_dealer

# Appended to the script: its deals as lines a reader follows exactly, or
# as PBN games where the deals must carry the dealer or vulnerability.
_ONELINE = "\naction printoneline\n"
_PBN = "\naction printpbn\n"
# dealer reads -p into a C int: -p 0 deals its default number (40), and a
# larger number than this deals none.
_DEALER_INT_MAX = 2**31 - 1


def generate(script: str | os.PathLike[str], produce: int | None = None,
             seed: int | None = None, *, filename: str | None = None) -> Iterator[Deal]:
    """Deals the real dealer deals for ``script`` (its text, or a path), lazily.

    ``produce``: how many (dealer's ``-p``, 1 to 2**31 - 1; by default the
    script's own ``produce``); ``seed``: dealer's ``-s``. Raises, before the first deal:
    ``DppError`` for a mistake in the script (with its position),
    ``DealerNotFound`` (a FileNotFoundError) when dealer is not installed.
    A failure of dealer itself is a ``DppError`` with what dealer said.
    """
    text, name = _script_text(script, filename)
    try:
        dealer_text = _checked_script(text, name)
    except DppError as error:
        if isinstance(script, str) and _names_a_file(script):
            error.hint = (f"a str is the script's text; to deal from the file, give its path: "
                          f"generate(pathlib.Path({script.strip()!r}))")
        raise
    dealer = find_dealer()
    if dealer is None:
        raise DealerNotFound
    arguments = [dealer]
    if produce is not None:
        arguments += ["-p", str(_whole(produce, "produce", low=1, high=_DEALER_INT_MAX))]
    if seed is not None:
        arguments += ["-s", str(_whole(seed, "seed"))]
    says = _settings_stated(dealer_text)
    action = _PBN if any(says) else _ONELINE
    return _deals_of(arguments, (dealer_text + action).encode("utf-8", "surrogateescape"), name,
                     says)


def _settings_stated(text: str) -> tuple[bool, bool]:
    """Whether a checked script sets the dealer, and the vulnerability: its
    ``dealer`` and ``vulnerable`` words (keywords, as none/all/NS/EW are)
    appear in no other statement dealer takes."""
    from dealerpp.script.lexer import tokens

    kinds = {token.type for token in tokens(text)}
    return "DEALER" in kinds, "VULNERABLE" in kinds


def _script_text(script: str | os.PathLike[str], filename: str | None) -> tuple[str, str]:
    if isinstance(script, os.PathLike):
        path = os.fspath(script)
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read(), filename or path
    if not isinstance(script, str):
        raise TypeError(f"a script is a str or a path, not {type(script).__name__}")
    return script, filename or "<script>"


def _names_a_file(text: str) -> bool:
    """Whether a script's text that failed is rather a file's name (one
    line, an existing file or a script's extension)."""
    name = text.strip()
    return "\n" not in name and (name.lower().endswith((".dpp", ".dl", ".dlr", ".dli"))
                                  or os.path.isfile(name))


def _whole(value: int, what: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low \
            or (high is not None and value > high):
        span = f" from {low} to {high}" if high is not None else ""
        raise ValueError(f"{what} must be a whole number{span}, not {value!r}")
    return value


def _checked_script(text: str, name: str) -> str:
    """The preprocessed script; DppError at the first error in it."""
    from dealerpp.script.check import check_text
    from dealerpp.script.rewrite import preprocess_script

    result = preprocess_script(text, name)
    for found in check_text(text, name, dpp=True, blocks_compiled=True):
        if found.severity == "error":
            raise DppError(found.message, found.line, found.column, found.filename,
                           found.source_line, found.hint)
    return result.text


def _deals_of(arguments: list[str], script: bytes, name: str,
              says: tuple[bool, bool]) -> Iterator[Deal]:
    """dealer's deals; it starts on the first ``next`` and is stopped when
    the caller stops early."""
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    stdin, stdout = _pipe(process.stdin), _pipe(process.stdout)
    try:
        try:  # dealer reads the whole script before it deals
            stdin.write(script)
            stdin.close()
        except BrokenPipeError:
            pass  # it stopped reading: its status and message say why
        yield from _read_output(stdout, f"dealer's output for {name}", says)
        stdout.close()
        if process.wait() != 0:
            said = _pipe(process.stderr).read().decode("utf-8", "replace").strip()
            raise DppError(f"dealer failed (status {process.returncode}): "
                           f"{said or 'it said nothing'}", filename=name)
    finally:
        if process.poll() is None:  # the caller stopped early, or reading failed
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def _read_output(stdout: IO[bytes], filename: str, says: tuple[bool, bool]) -> Iterator[Deal]:
    """The deals of dealer's printoneline output, or of its printpbn output
    with only the dealer and vulnerability the script set (its Board,
    Event and the like are dealer's inventions, not the script's)."""
    if not any(says):
        from dealerpp.deals.formats._dealer_output import read_oneline

        yield from read_oneline(stdout, filename=filename)
        return
    from dealerpp.deals.formats.pbn import read

    dealer_said, vulnerability_said = says
    for deal in read(stdout, filename):
        yield Deal(deal.masks, dealer=deal.dealer if dealer_said else None,
                   vul=deal.vul if vulnerability_said else None)


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    if stream is None:  # Popen made every pipe asked for
        raise RuntimeError("dealer's pipe is missing")
    return stream
