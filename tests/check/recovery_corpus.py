"""The error-recovery corpus: scripts dealer accepts, each with one to three
mistakes injected on chosen lines, and the lines they are on.

The bases are the bundled examples (examples/*.dpp, checked before
expansion) and the scripts in recovery/, written in the style of real
dealer and DealerV2 scripts. The mistakes are the ones people make: a stray
token, an operator typed twice, a misspelt function, a decimal constant,
and DealerV2's constructs that Debian's dealer lacks (a seat pair as an
argument, `title`, `seed`, `printrpt`, `usereval`, `$1`). Every mutant is
made by rule, not at random: each kind of mistake goes on the first, middle
and last line where it fits, and pairs and triples of kinds go on distinct
lines.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent.parent

# A line that starts a statement (where a new statement line may go before).
_STATEMENT_START = re.compile(
    r"^\s*(generate|produce|dealer|vulnerable|predeal|pointcount|altcount|condition|action"
    r"|[A-Za-z_][A-Za-z0-9_]*\s*=[^=])")
_FUNCTION = re.compile(r"\b(hcp|spades|hearts|loser|controls|hascard|top5|aces)\(")
_SEAT_ARGUMENT = re.compile(r"(?<=[a-z0-9]\()(north|south|east|west)\b")
_COMPARED_NUMBER = re.compile(r"(?:(?<=[<>=]= )|(?<=[<>] ))\d{1,2}\b")
_OPERATOR = re.compile(r"(?<= )(>=|<=|==|&&|\|\||and|or)(?= )")
_HCP_CALL = re.compile(r"\bhcp\((north|south|east|west)\)")
_FIRST_TOKEN = re.compile(r"^\s*[^\s(]+")


@dataclass(frozen=True)
class Mutant:
    name: str
    text: str
    injected: tuple[int, ...]          # 1-based lines holding a mistake
    line_of: tuple[int, ...]           # line_of[n - 1]: the mutant's line of base line n
    dpp: bool


@dataclass(frozen=True)
class Base:
    name: str
    lines: tuple[str, ...]
    dpp: bool

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def bases() -> list[Base]:
    found = [Base(path.name, tuple(path.read_text().splitlines()), True)
             for path in sorted((PROJECT / "examples").glob("*.dpp"))]
    found += [Base(path.name, tuple(path.read_text().splitlines()), False)
              for path in sorted((HERE / "recovery").glob("*.dl"))]
    return found


def _code_lines(base: Base) -> list[int]:
    """0-based indexes of the lines that start with code, outside comments
    and the inside of shape{} blocks."""
    from dealerpp.script.lexer import regions

    text = base.text
    starts = [0]
    for line in base.lines:
        starts.append(starts[-1] + len(line) + 1)
    found = set()
    for region in regions(text):
        if region.kind != "code":
            continue
        for index, line in enumerate(base.lines):
            if region.start <= starts[index] < region.end and line.strip():
                found.add(index)
    return sorted(index for index in found
                  if not base.lines[index].lstrip().startswith(("#", "//", "/*", "}", "+", "-")))


# An edit: (base, line index) -> the new line, or None where it does not fit.
Edit = Callable[[str], str | None]


def _code_part(line: str) -> str:
    """The line without a trailing comment (these bases put no # in code)."""
    return re.split(r"\s(#|//)", line, maxsplit=1)[0]


def _outside_shape_blocks(line: str, pattern: re.Pattern[str]) -> re.Match[str] | None:
    code = _code_part(line)
    for found in pattern.finditer(code):
        before = code[:found.start()]
        if before.count("shape{") == before.count("}") and before.count('"') % 2 == 0:
            return found
    return None


def _replace(line: str, found: re.Match[str] | None, text: str) -> str | None:
    if found is None:
        return None
    return line[:found.start()] + text + line[found.end():]


def stray(char: str) -> Edit:
    def edit(line: str) -> str | None:
        first = _FIRST_TOKEN.match(line)
        if first is None or not _STATEMENT_START.match(line):
            return None
        return line[:first.end()] + f" {char}" + line[first.end():]
    return edit


def doubled_operator(line: str) -> str | None:
    found = _outside_shape_blocks(line, _OPERATOR)
    return None if found is None else _replace(line, found, f"{found.group()} {found.group()}")


def misspelt_function(line: str) -> str | None:
    found = _outside_shape_blocks(line, _FUNCTION)
    if found is None:
        return None
    word = found.group(1)
    misspelt = word[0] + word[2] + word[1] + word[3:]
    return _replace(line, found, misspelt + "(")


def decimal(line: str) -> str | None:
    found = _outside_shape_blocks(line, _COMPARED_NUMBER)
    return None if found is None else _replace(line, found, found.group() + ".5")


def seat_pair(line: str) -> str | None:
    found = _outside_shape_blocks(line, _SEAT_ARGUMENT)
    if found is None:
        return None
    return _replace(line, found, "NS" if found.group() in ("north", "south") else "EW")


def usereval(line: str) -> str | None:
    return _replace(line, _outside_shape_blocks(line, _HCP_CALL), "usereval(24, NS, 3)")


def parameter(line: str) -> str | None:
    return _replace(line, _outside_shape_blocks(line, _COMPARED_NUMBER), "$1")


def printrpt(line: str) -> str | None:
    found = re.match(r"^\s*action\b", line)
    if found is None:
        return None
    return line[:found.end()] + " printrpt(hcp(north), hcp(south))," + line[found.end():]


_EQUALS = re.compile(r"(?<= )==(?= )")
_AND_WORD = re.compile(r"(?<= )(&&|and)(?= )")
_KEYWORD = re.compile(r"^\s*(condition|action|produce|generate|dealer|predeal)\b")


def single_equals(line: str) -> str | None:
    return _replace(line, _outside_shape_blocks(line, _EQUALS), "=")


def single_ampersand(line: str) -> str | None:
    return _replace(line, _outside_shape_blocks(line, _AND_WORD), "&")


def capital_seat(line: str) -> str | None:
    found = _outside_shape_blocks(line, _SEAT_ARGUMENT)
    return None if found is None else _replace(line, found, found.group().capitalize())


def misspelt_keyword(line: str) -> str | None:
    """Two letters of a statement keyword swapped: `conidtion`, `actoin`."""
    found = _KEYWORD.match(line)
    if found is None:
        return None
    word, start = found.group(1), found.start(1)
    return line[:start] + word[:3] + word[4] + word[3] + word[5:] + line[found.end(1):]


_DEFINITION = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*=(?!=)")


def definition_with_equals(line: str) -> str | None:
    """A definition typed with `==`: `lp1 == ...`."""
    found = _DEFINITION.match(line)
    return None if found is None else line[:found.end() - 1] + "==" + line[found.end():]


def trailing_hash(line: str) -> str | None:
    if (_code_part(line) != line or not _STATEMENT_START.match(line) or '"' in line
            or "shape{" in line):
        return None
    return line + "  # note"


EDITS: dict[str, Edit] = {
    "stray-at": stray("@"), "stray-semicolon": stray(";"), "stray-bracket": stray("]"),
    "doubled-operator": doubled_operator, "misspelt-function": misspelt_function,
    "decimal": decimal, "seat-pair": seat_pair, "usereval": usereval, "parameter": parameter,
    "printrpt": printrpt,
}
# New lines, put before a statement.
NEW_LINES = {"title": 'title "Practice hands"', "seed": "seed 42"}
KINDS = (*EDITS, *NEW_LINES)
# More kinds, injected into the real scripts only (REAL_KINDS).
EDITS.update({"single-equals": single_equals, "single-ampersand": single_ampersand,
              "capital-seat": capital_seat, "misspelt-keyword": misspelt_keyword,
              "trailing-hash": trailing_hash, "definition-with-equals": definition_with_equals})
NEW_LINES.update({
    "vulnerable-both": "vulnerable both", "vulnerable-All": "vulnerable All",
    "z-contract": "action average score(vul, z3N, 9)",
    "evalcontract-call": "action evalcontract(north, z3N, vul)",
    "bboalert": "Import,https://example.org/scenario.txt",
})
REAL_KINDS = (*EDITS, *NEW_LINES)


def _places(base: Base, kind: str) -> list[int]:
    """Line indexes where a kind of mistake fits."""
    code = _code_lines(base)
    if kind in NEW_LINES:
        return [index for index in code if _STATEMENT_START.match(base.lines[index])]
    return [index for index in code if EDITS[kind](base.lines[index]) is not None]


def _spread(places: list[int]) -> list[int]:
    """The first, middle and last of ``places``."""
    return sorted({places[0], places[len(places) // 2], places[-1]}) if places else []


def mutate(base: Base, mistakes: list[tuple[str, int]]) -> Mutant:
    """``base`` with each (kind, line index) mistake, at most one a line."""
    lines: list[str] = []
    injected: list[int] = []
    line_of: list[int] = []
    chosen = dict((index, kind) for kind, index in mistakes)
    for index, line in enumerate(base.lines):
        kind = chosen.get(index)
        if kind in NEW_LINES:
            lines.append(NEW_LINES[kind])
            injected.append(len(lines))
        elif kind is not None:
            edited = EDITS[kind](line)
            assert edited is not None
            line = edited
            injected.append(len(lines) + 1)
        lines.append(line)
        line_of.append(len(lines))
    name = base.name + ":" + "+".join(f"{kind}@{index + 1}" for kind, index in mistakes)
    return Mutant(name, "".join(line + "\n" for line in lines), tuple(injected),
                  tuple(line_of), base.dpp)


def mutants(kinds: tuple[str, ...] = KINDS) -> Iterator[Mutant]:
    """Every mutant of the corpus: each kind alone at up to three places,
    then pairs and triples of kinds on distinct lines."""
    for base in bases():
        places = {kind: _places(base, kind) for kind in kinds}
        for kind in kinds:
            for index in _spread(places[kind]):
                yield mutate(base, [(kind, index)])
        usable = [kind for kind in kinds if places[kind]]
        for offset in range(len(usable)):
            group = [usable[(offset + step) % len(usable)] for step in range(1 + offset % 3)]
            chosen: list[tuple[str, int]] = []
            taken: set[int] = set()
            for position, kind in enumerate(group):
                free = [i for i in places[kind] if i not in taken]
                if free:
                    index = free[(position * 7 + offset) % len(free)]
                    chosen.append((kind, index))
                    taken.add(index)
            if len(chosen) > 1:
                yield mutate(base, chosen)


# Real scripts to inject the same mistakes into, where the corpus is at hand.
REAL_SCRIPTS = Path(os.environ.get("DEALERPP_CORPUS", PROJECT.parent / "shared/corpus")) / "dealer-scripts/pbs"


def real_bases(folder: Path = REAL_SCRIPTS) -> list[Base]:
    return [Base(path.name, tuple(path.read_text(errors="surrogateescape").splitlines()), False)
            for path in sorted(folder.glob("*.dlr"))]


def exactly_right(bases_to_use: list[Base],
                  kinds: tuple[str, ...] = KINDS) -> tuple[int, int, list[str]]:
    """How many mutants of ``bases_to_use`` check gets exactly right (one
    error on each injected line, no other new diagnostic: a message that
    only names a moved line is not new), out of how many, and the others."""
    import re

    from dealerpp.script.check import check_text

    def seen(text: str) -> list[tuple[int | None, str, str]]:
        return [(d.line, d.severity, re.sub(r"line \d+", "line N", d.message))
                for d in check_text(text, "script.dl", max_errors=0)]

    baseline = {base.name: seen(base.text) for base in bases_to_use}
    global bases
    saved = bases
    bases = lambda: bases_to_use  # noqa: E731 - mutants() reads the bases from here
    try:
        right, total, wrong = 0, 0, []
        for mutant in mutants(kinds):
            total += 1
            found = seen(mutant.text)
            before = {(mutant.line_of[line - 1] if line and line <= len(mutant.line_of)
                       else line, severity, message)
                      for line, severity, message in baseline[mutant.name.split(":")[0]]}
            errors = sorted(line or 0 for line, severity, _ in found if severity == "error")
            new = [f for f in found if f[1] != "error" and f not in before]
            if errors == list(mutant.injected) and not new:
                right += 1
            else:
                wrong.append(mutant.name)
    finally:
        bases = saved
    return right, total, wrong
