"""The console scripts' front door (``dealerpp``, ``dealer.dpp``,
``python -m dealerpp``): a plain one-shape script is answered here, with
nothing loaded but what the interpreter loads for ``python -c pass``;
every other run goes to ``dealerpp.cli.main``, unchanged.

Issue 28 asks a one-shape script to take at most 1.5x ``python -c pass``.
The preprocessor proper cannot: its modules, the shape compiler's tables
and the checker take twice the interpreter's own start-up to load. So a run
is answered here when all of these hold, and goes the long way otherwise:

- the arguments are ``[FILE | -] [--no-check] [--emit compact]`` (no ``-o``,
  no subcommand), the standard streams are open (standard output a
  file's, buffered or not), standard input is no terminal;
- the script is short ASCII text of lines, each blank or one statement,
  with spaces and tabs around: ``NAME = shape{COMPASS, TERM}``, a bare
  ``shape{COMPASS, TERM}``, ``condition shape{COMPASS, TERM}``, ``condition
  NAME``, ``action printall``, ``produce N``; a NAME is lower case, defined
  once before use, and no word of dealer's; at most one condition, one
  action, one produce; no comment, string or other character;
- every TERM compiles without an error or a warning to a set that is
  neither empty nor every shape. A common term's default list ships in
  ``dealerpp/shapes/generated/common_terms.py`` (made by the compiler,
  ``tools/common_terms.py``), so a script of common terms loads nothing
  more; any other term is compiled here by the compiler's own pieces (the
  hand-written reader, the expander, the emitter and its term table), none
  of which imports ``re``, ``enum``, ``functools`` or ``collections``: not
  the LALR parser, the diagnostics (until there is something to say), the
  checker. A term the hand-written reader leaves to the LALR parser goes
  the long way.

Such a script is one the checker has nothing to say about and the
rewriter only swaps each block for ``shape(COMPASS, LIST)``, so the output
is the preprocessor's, byte for byte (``tests/script/test_quick.py``
compares the two on every shipped term and on generated scripts in and
around this form). Anything else, or any doubt, is declined: a script read
from standard input is handed on as read.
"""

import gc
import io
import os
import sys

from dealerpp.status import EXIT_BROKEN_PIPE, EXIT_INPUT, EXIT_OK

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import BinaryIO

# dealerpp.cli.commands.SUBCOMMANDS' names (a test holds them equal): never a FILE here.
SUBCOMMANDS = ("expand", "run", "check", "convert", "show", "lsp")
LONGEST = 4096  # characters: a longer script goes the long way
SHAPE_LIMIT = 31  # more shape() calls get the rewriter's warning
COMPASSES = ("north", "east", "south", "west")
# Every lower-case word dealer's scanner reads as something else than a
# name (grammar/dealer.lark; a test derives them from the shipped tables);
# its lower-case patterns (x5xx, xxxx) are caught by ``_is_plain_name``.
DEALER_WORDS = frozenset((
    "generate", "produce", "dealer", "vulnerable", "none", "all", "ns", "ew", "predeal",
    "pointcount", "altcount", "condition", "action", "print", "printall", "printew", "printpbn",
    "printcompact", "printoneline", "printes", "evalcontract", "average", "frequency", "north",
    "east", "south", "west", "club", "clubs", "diamond", "diamonds", "heart", "hearts", "spade",
    "spades", "notrump", "notrumps", "nv", "vul", "any", "hcp", "hcps", "pt0", "pt1", "pt2",
    "pt3", "pt4", "pt5", "pt6", "pt7", "pt8", "pt9", "ten", "tens", "jack", "jacks", "queen",
    "queens", "king", "kings", "ace", "aces", "top2", "top3", "top4", "top5", "c13", "loser",
    "losers", "control", "controls", "cccc", "quality", "shape", "hascard", "trick", "tricks",
    "score", "imp", "imps", "rnd", "and", "or", "not"
))
NAME_START = "abcdefghijklmnopqrstuvwxyz"
NAME_CHARS = frozenset(NAME_START + "0123456789_")
DIGITS = "0123456789"


def main(prog: str = "dealerpp") -> int:
    """Run the command as a process of its own (``sys.argv``)."""
    # The work here is bounded (LONGEST characters) and makes no garbage
    # cycles worth a collection: the collector's passes over the loaded
    # modules and tables (a term's compile loads ten thousand objects)
    # would only cost time. The long way collects as it always has.
    gc.disable()
    status = _quick(sys.argv[1:], prog)
    if status is not None:
        gc.freeze()  # left to the exit (as dealerpp.cli does)
        return status
    gc.enable()
    from dealerpp.cli import main as full_main

    return full_main(None, prog)


def _quick(argv: list[str], prog: str) -> int | None:
    """The run's exit status, or None when it is not one for here."""
    path = _plain_input(argv)
    if path is None or not _plain_streams():
        return None
    from dealerpp.stopping import install

    install(prog)
    data = _read(path)
    if data is None:
        return None
    output = rewritten(data.decode("utf-8", errors="surrogateescape"))
    if output is None:
        if path == "-":  # handed on as read
            sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding=sys.stdin.encoding,
                                         errors=sys.stdin.errors)
        return None
    return _write(output.encode(), prog)


def _plain_input(argv: list[str]) -> str | None:
    """The script's path (``-``: standard input) for ``[FILE|-] [--no-check]
    [--emit compact]`` in any order, each at most once; None for anything else."""
    path = None
    rest = list(argv)
    for flags in (["--no-check"], ["--emit", "compact"], ["--emit=compact"]):
        for at in range(len(rest) - len(flags) + 1):
            if rest[at:at + len(flags)] == flags:
                del rest[at:at + len(flags)]
                break
    if len(rest) > 1 or (rest and rest[0].startswith("-") and rest[0] != "-"):
        return None
    if rest and rest[0] in SUBCOMMANDS:
        return None
    path = rest[0] if rest else "-"
    if path == "-" and _is_terminal(sys.stdin):
        return None  # the interactive session
    if "--emit" in argv and "--emit=compact" in argv:
        return None  # given twice: argparse's to judge
    return path


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return True  # no plain stream: the long way


def _plain_streams() -> bool:
    """The three standard streams are open, and standard output is a file's."""
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        return False
    return isinstance(getattr(sys.stdout, "buffer", None), (io.BufferedWriter, io.FileIO))


def _read(path: str) -> bytes | None:
    """The script's bytes; None when they cannot be read (the long way
    reports why) or a file is too long to be plain."""
    try:
        if path == "-":
            return bytes(sys.stdin.buffer.read())
        with open(path, "rb") as file:
            data = file.read(LONGEST + 1)
    except (OSError, ValueError):
        return None
    return None if len(data) > LONGEST else data


def _write(output: bytes, prog: str) -> int:
    """Write the output as ``dealerpp.cli.main`` does, with its statuses."""
    try:
        _write_all(sys.stdout.buffer, output)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE  # the reader went away, not our error
    except OSError as error:
        _silence_stdout()
        try:
            sys.stderr.write(f"{prog}: error: cannot write standard output: "
                             f"{error.strerror or error}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        return EXIT_INPUT
    return EXIT_OK


def _write_all(target: "BinaryIO", data: bytes) -> None:
    """All of ``data``: a raw file (``python -u``, PYTHONUNBUFFERED) may take
    only part of it at a time (a pipe takes 64 KiB)."""
    view = memoryview(data)
    while view:
        written = target.write(view)
        if written is None:  # a non-blocking output that is full
            raise BlockingIOError(11, "standard output would block")
        view = view[written:]


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the final flush at exit cannot
    fail again after the failure was reported."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def rewritten(text: str) -> str | None:
    """The preprocessor's output for a plain script (see the module's
    docstring), or None for any other text."""
    if len(text) > LONGEST or not text.isascii():
        return None
    script = _Plain()
    lines = text.split("\n")
    for number, line in enumerate(lines):
        done = script.statement(line)
        if done is None:
            return None
        lines[number] = done
    if script.blocks > SHAPE_LIMIT:
        return None
    return "\n".join(lines)


class _Plain:
    """What the statements so far have defined and set."""

    def __init__(self) -> None:
        from dealerpp.shapes.generated.common_terms import LISTS

        self.lists = LISTS
        self.names: set[str] = set()
        self.seen: set[str] = set()  # condition, action, produce
        self.blocks = 0

    def statement(self, line: str) -> str | None:
        """``line`` as the preprocessor writes it, or None when not plain."""
        body = line.strip(" \t")
        if not body:
            return line
        indent = line[:len(line) - len(line.lstrip(" \t"))]
        trailer = line[len(indent) + len(body):]
        done = self._statement(body)
        return None if done is None else indent + done + trailer

    def _statement(self, body: str) -> str | None:
        if body.startswith("shape{"):
            return self._once("condition", self._block(body))
        word, rest = _first_word(body)
        if word == "condition" and rest in self.names:
            return self._once("condition", body)
        if word == "condition":
            block = self._block(rest)
            return self._once("condition", None if block is None else body[:-len(rest)] + block)
        if word == "action" and rest == "printall":
            return self._once("action", body)
        if word == "produce" and rest[:1] in "123456789" and len(rest) <= 7 and all(
                c in DIGITS for c in rest):
            return self._once("produce", body)
        return self._definition(body)

    def _once(self, what: str, done: str | None) -> str | None:
        if done is None or what in self.seen:
            return None
        self.seen.add(what)
        return done

    def _definition(self, body: str) -> str | None:
        name, equals, value = body.partition("=")
        name, value = name.rstrip(" \t"), value.lstrip(" \t")
        if not equals or not _is_plain_name(name) or name in self.names:
            return None
        block = self._block(value)
        if block is None:
            return None
        self.names.add(name)
        return body[:len(body) - len(value)] + block

    def _block(self, text: str) -> str | None:
        """``shape(COMPASS, LIST)`` for ``text``, a whole ``shape{COMPASS, TERM}``
        with a shipped TERM; None otherwise."""
        if not (text.startswith("shape{") and text.endswith("}")):
            return None
        inside = text[6:-1]
        if any(c in inside for c in "{}\"#/"):
            return None
        compass, comma, term = inside.partition(",")
        compass, term = compass.strip(" \t"), term.strip(" \t")
        if not comma or compass not in COMPASSES:
            return None
        listing = self.lists.get(term)
        if listing is None:
            listing = _compiled_list(term)
        if listing is None:
            return None
        self.blocks += 1
        return f"shape({compass}, {listing})"


def _compiled_list(term: str) -> str | None:
    """The default list of a term with no shipped list, from the compiler's
    own pieces (the hand-written reader, the expander, the emitter: neither
    the LALR parser nor the checker, nor ``re``); None when the reader leaves
    the term to the LALR parser, the compiler has anything to say (an error,
    a warning), or the set is empty or every shape (the checker has
    something to say about such a condition): the long way then."""
    if term.startswith("shape") or not term:
        return None  # the compiler would read a whole call
    from dealerpp.shapes.ast import ShapeList
    from dealerpp.shapes.quick_parse import parse_quick

    parsed = parse_quick(term, "body")
    if not isinstance(parsed, ShapeList):
        return None
    from dealerpp.shapes.expand import expand_mask

    try:
        mask, warnings = expand_mask(parsed, term)
    except Exception:  # an error of the input, or of ours: the long way reports it
        return None
    from dealerpp.shapes.universe import FULL_MASK

    if warnings or mask in (0, FULL_MASK):
        return None
    from dealerpp.shapes.emit import dealer_list

    return dealer_list(mask)


def _first_word(body: str) -> tuple[str, str]:
    """``body``'s first word and the rest, without the spaces and tabs between."""
    for at, char in enumerate(body):
        if char in " \t":
            return body[:at], body[at:].lstrip(" \t")
    return body, ""


def _is_plain_name(name: str) -> bool:
    """A lower-case name dealer's scanner reads as a name: no word of its
    own, and no pattern (``x5xx``: an x and three digits or x's)."""
    if name == "" or name[0] not in NAME_START or name in DEALER_WORDS:
        return False
    if len(name) == 4 and name[0] == "x" and all(c in "0123456789x" for c in name[1:]):
        return False
    return all(c in NAME_CHARS for c in name)
