"""Seeded random mutations of valid dealer scripts, and running real dealer on
them, for measuring how often ``check`` agrees with dealer.

A mutant is one valid script with one to three random edits: a token dropped
or duplicated, a character inserted or deleted. ``dealer_accepts`` runs the
real dealer with a tiny generate count; dealer *accepts* a script when it
exits 0 (a parse error exits 255 with ``line N: ...`` on stderr; a crash at run
time exits with a signal or another status, which check counts as an error too).
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASES = HERE / "bases"
DEALER_EXAMPLES = Path("/usr/share/doc/dealer/examples")
# Examples that need nothing unusual at run time.
EXAMPLE_NAMES = (
    "Descr.1c", "Descr.2nt", "Descr.6c", "Descr.blue_team", "Descr.controls",
    "Descr.evaluation", "Descr.junkstayman", "Descr.notrump", "Descr.pbn",
    "Descr.stayman", "Descr.test_operator_order", "Descr.vvga2", "Descr.weaktwo",
    "Descr.yarb", "Descr.you_hold",
)
# Rough tokens: words, numbers, strings, comments, operators, single characters.
_TOKEN = re.compile(r'"[^"]*"|//[^\n]*|/\*.*?\*/|[A-Za-z0-9_]+|&&|\|\||[=!<>]=|\\n|\S', re.S)
_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzACDHNSTQKJ0123456789x"
    "()(),,,===+-*/%<>!&|?:#\"{};[]\\ \n\n\t."
)


def base_scripts() -> dict[str, str]:
    """The valid scripts mutants come from: ours, and dealer's examples if present."""
    scripts = {path.name: path.read_text() for path in sorted(BASES.glob("*.dl"))}
    for name in EXAMPLE_NAMES:
        path = DEALER_EXAMPLES / name
        if path.exists():
            scripts[name] = path.read_text()
    return scripts


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of ``text``."""
    for _ in range(rng.choice((1, 1, 2, 3))):
        text = _EDITS[rng.randrange(len(_EDITS))](text, rng)
    return text


def _drop_token(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in _TOKEN.finditer(text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + text[end:]


def _duplicate_token(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in _TOKEN.finditer(text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:end] + rng.choice((" ", "", "\n")) + text[start:end] + text[end:]


def _insert_char(text: str, rng: random.Random) -> str:
    where = rng.randrange(len(text) + 1)
    return text[:where] + rng.choice(_ALPHABET) + text[where:]


def _delete_char(text: str, rng: random.Random) -> str:
    if not text:
        return text
    where = rng.randrange(len(text))
    return text[:where] + text[where + 1:]


# Words and symbols of dealer's language (and a few of its traps) for token
# replacement and insertion.
_VOCABULARY = tuple(
    " ".join((
        "generate produce dealer vulnerable predeal pointcount altcount condition action",
        "print printall printew printpbn printcompact printoneline printes average frequency",
        "north east south west clubs spade hearts notrumps nv vul NS EW all none any hcp pt3",
        "tens aces top5 c13 loser controls cccc quality shape hascard score imps rnd and or",
        "not && || ! == != < <= > >= + - * / % ? : = ( ) , SAK H C AS 2C x3N 4333 5xxx xxxx",
        '0 1 13 14 -1 "s" \\n # // /* */ x a b { ; SA KS',
    )).split(" ")
)


def _replace_token(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in _TOKEN.finditer(text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(_VOCABULARY) + text[end:]


def _insert_token(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in _TOKEN.finditer(text)]
    where = rng.choice(spans)[1] if spans else 0
    return text[:where] + " " + rng.choice(_VOCABULARY) + " " + text[where:]


_EDITS = (_drop_token, _duplicate_token, _insert_char, _delete_char, _replace_token,
          _insert_token)


def mutants(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (name, text) mutants, the same for the same seed."""
    rng = random.Random(seed)
    bases = base_scripts()
    names = sorted(bases)
    result = []
    for index in range(count):
        name = names[index % len(names)]
        result.append((f"{name}#{index}", mutate(bases[name], rng)))
    return result


def dealer_accepts(dealer: str, text: str, workdir: Path) -> tuple[bool, str]:
    """Whether dealer runs ``text`` to completion, and what it said on stderr."""
    script = workdir / "mutant.dl"
    script.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    try:
        done = subprocess.run(
            [dealer, "-s", "1", "-g", "3", str(script)],
            capture_output=True, timeout=10, cwd=workdir,
        )
    except subprocess.TimeoutExpired:
        return False, "timeout"
    stderr = done.stderr.decode("latin-1").strip()
    return done.returncode == 0, f"exit {done.returncode}: {stderr}"
