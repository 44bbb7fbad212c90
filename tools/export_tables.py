"""Lark → parse tables as Python data (run at build time, never at run time).

    python tools/export_tables.py          # rewrite dealerpp/lalr/generated/NAME.py
    python tools/export_tables.py --check  # exit 1 if a table is out of date

Lark reads ``grammar/NAME.lark`` and computes its LALR(1) table. This tool
uses Lark's public interface only: the ``Lark`` constructor, and Lark's
serialized form of a parser (what ``Lark.save`` stores and ``python -m
lark.tools.serialize`` writes "for integration with other languages"):
its terminals, its rules with their tree options, and its parse table.
What Lark's lexers then do with the terminals is Lark's documented
behaviour, rebuilt here (see ``_lexer``):

- a lexer tries its terminals by priority, then longest possible match,
  then longest pattern, then name (Lark's grammar reference, "Notes for
  when using a lexer");
- a literal that a regexp terminal of the same priority matches whole is
  not tried on its own: a match of that regexp equal to the literal becomes
  the literal's token (``shape`` and ``any`` rather than a WORD);
- Lark's *contextual* lexer gives each parser state a lexer of the
  terminals that state accepts, the ignored ones and the post-lexer's.

The result is a Python module of literals (tuples and strings), which
imports from its ``.pyc`` without parsing anything: ``dealerpp.lalr.load``
runs it with ``dealerpp/lalr/runtime.py``, without Lark. The module records
the SHA-256 of the grammar it came from; the tests check that it is today's
grammar, that this tool writes the same module again, and that the runtime
parses as Lark does, token for token, tree for tree, error for error.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

from dealerpp.grammars import grammar_digest, grammar_path
from dealerpp.lalr.terminals import literal_starts

TABLES_DIR = Path(__file__).resolve().parent.parent / "dealerpp" / "lalr" / "generated"

# What each grammar needs: its start symbols, its lexer, and the terminals a
# post-lexer may produce in any state (Lark's ``always_accept``).
GRAMMARS: dict[str, dict[str, Any]] = {
    "shape": {"start": ["call", "body"], "lexer": "contextual",
              "always_accept": ["SPACED_PLUS", "SPACED_MINUS"]},
    "dealer": {"start": ["start"], "lexer": "basic", "always_accept": []},
}

Json = Any  # a part of Lark's serialized parser


def lark_parser(name: str, postlex: Any = None) -> Any:
    """Lark's own LALR parser for ``grammar/NAME.lark`` (the tests' oracle).

    Without ``postlex``, a grammar whose post-lexer adds terminals gets one
    that only declares them."""
    settings = GRAMMARS[name]

    class _AlwaysAccept:  # a post-lexer that only declares its terminals
        always_accept = tuple(settings["always_accept"])

        def process(self, stream: Any) -> Any:
            return stream

    if postlex is None and settings["always_accept"]:
        postlex = _AlwaysAccept()
    return _lark(name, postlex)


def _lark(name: str, postlex: Any) -> Any:
    from lark import Lark

    settings = GRAMMARS[name]
    return Lark(grammar_path(name).read_text(encoding="utf-8"), parser="lalr",
                start=settings["start"], lexer=settings["lexer"],
                propagate_positions=True, maybe_placeholders=False, postlex=postlex)


def serialized(name: str) -> tuple[Json, dict[str, Json]]:
    """Lark's serialized parser for ``grammar/NAME.lark``: (data, memo).

    The post-lexer stays out (it is an object, not data); it changes which
    terminals the lexers take, not the parse table."""
    from lark.tools.serialize import serialize

    out = io.StringIO()
    serialize(_lark(name, None), out)  # type: ignore[no-untyped-call]  # Lark's tool is untyped
    document = json.loads(out.getvalue())
    return document["data"], document["memo"]


class Tables:
    """The runtime's tables of one grammar, made from Lark's serialized parser."""

    def __init__(self, name: str) -> None:
        data, memo = serialized(name)
        self.name = name

        def deref(ref: Json) -> Json:
            return memo[str(ref["@"])]

        lexer_conf = data["parser"]["lexer_conf"]
        self.terminals = [_terminal(deref(ref)) for ref in lexer_conf["terminals"]]
        self.ignore = sorted(lexer_conf["ignore"])
        rule_index = {ref["@"]: i for i, ref in enumerate(data["rules"])}
        self.rules = [_rule(deref(ref)) for ref in data["rules"]]
        table = data["parser"]["parser"]
        symbols = table["tokens"]
        # state -> {symbol: shift target (a state) or reduction (a rule index)}
        states: dict[int, dict[str, tuple[str, int]]] = {
            int(state): {symbols[str(symbol)]: (("reduce", rule_index[argument["@"]]) if kind
                                                 else ("shift", argument))
                         for symbol, (kind, argument) in actions.items()}
            for state, actions in table["states"].items()}
        number = _canonical_numbers(states, table["start_states"])
        order = sorted(states, key=number.__getitem__)
        self.start_states = sorted((s, number[n]) for s, n in table["start_states"].items())
        self.end_states = sorted((s, number[n]) for s, n in table["end_states"].items())
        self.actions = [_actions(states[s], number) for s in order]
        self._lexers(GRAMMARS[name], [states[s] for s in order])

    def _lexers(self, settings: dict[str, Any], states: list[dict[str, Any]]) -> None:
        """The distinct lexers, and which one each parser state uses."""
        by_name = {t["name"]: t for t in self.terminals}
        configs: list[Json] = []
        seen: dict[str, int] = {}

        def number(names: set[str]) -> int:
            config = _lexer([by_name[n] for n in sorted(names) if n in by_name], self.ignore)
            key = repr(config)
            if key not in seen:
                seen[key] = len(configs)
                configs.append(config)
            return seen[key]

        self.root_lexer = number(set(by_name))
        if settings["lexer"] == "contextual":
            extra = set(self.ignore) | set(settings["always_accept"])
            self.lexer_of_state = [number(set(actions) | extra) for actions in states]
        else:
            self.lexer_of_state = [self.root_lexer] * len(states)
        self.lexers = configs

    def starts(self) -> tuple[tuple[str, str | None], ...]:
        """Each regexp a lexer tries and the characters its match can start
        with (``literal_starts``, None where that is not plain), worked out
        here once instead of in every process that lexes."""
        regexps = {regexp for terminals, keywords, _ in self.lexers
                   for regexp in [r for _, r in terminals]
                   + [r for _, words in keywords for _, r in words]}
        regexps |= {terminal["regexp"] for terminal in self.terminals}
        found = ((regexp, literal_starts(regexp)) for regexp in sorted(regexps))
        return tuple((regexp, None if chars is None else "".join(sorted(chars)))
                     for regexp, chars in found)

    def source(self) -> str:
        """The text of ``dealerpp/lalr/generated/NAME.py``: a table a line (they
        are data; their form is told once, in ``dealerpp/lalr/generated/__init__.py``)."""
        import lark

        tables = {
            "GRAMMAR": self.name, "SHA256": grammar_digest(self.name), "LARK": lark.__version__,
            "TERMINALS": tuple(_terminal_row(t) for t in self.terminals),
            "IGNORE": tuple(self.ignore), "RULES": tuple(self.rules),
            "START_STATES": tuple(self.start_states), "END_STATES": tuple(self.end_states),
            "ACTIONS": tuple(self.actions), "LEXERS": tuple(self.lexers),
            "LEXER_OF_STATE": tuple(self.lexer_of_state), "ROOT_LEXER": self.root_lexer,
            "STARTS": self.starts(),
        }
        return (f'"""The parse tables of grammar/{self.name}.lark: made by '
                '``python tools/export_tables.py``, do not edit."""\n\n'
                + "".join(f"{name} = {value!r}\n" for name, value in tables.items()))


def _terminal(definition: Json) -> dict[str, Any]:
    """A terminal as the runtime (and the checker's scanner) reads it."""
    pattern = definition["pattern"]
    is_string = pattern["__type__"] == "PatternStr"
    regexp = re.escape(pattern["value"]) if is_string else pattern["value"]
    for flag in pattern["flags"]:  # as Lark writes a pattern's flags
        regexp = f"(?{flag}:{regexp})"
    return {"name": definition["name"], "regexp": regexp, "priority": definition["priority"],
            "type": "str" if is_string else "re", "value": pattern["value"],
            "max_width": len(pattern["value"]) if is_string else _bounded(pattern["_width"][1]),
            "flags": frozenset(pattern["flags"])}


# ``re``'s MAXREPEAT, the width of an unbounded pattern, is 2**32 - 1 on some
# builds of the same Python and 2**64 on others; written as one value, the
# tables do not depend on the interpreter that made them. Only the order of
# widths matters, and no bounded terminal comes near it.
UNBOUNDED = 2**32 - 1


def _bounded(width: int) -> int:
    return min(width, UNBOUNDED)


def _terminal_row(terminal: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(terminal[key] for key in ("name", "regexp", "priority", "type", "value",
                                            "max_width"))


def _rule(rule: Json) -> tuple[Any, ...]:
    """(origin, tree name, inline a single child?, length, kept children or None).

    Kept children are (index, inline?) pairs: anonymous and ``_`` terminals
    are filtered out, ``_rule`` children are spliced into their parent (Lark's
    tree-construction rules). None means every child is kept as it is.
    """
    options = rule["options"]
    expansion = rule["expansion"]
    kept: tuple[tuple[int, bool], ...] | None = tuple(
        (i, symbol["__type__"] == "NonTerminal" and symbol["name"].startswith("_"))
        for i, symbol in enumerate(expansion)
        if options["keep_all_tokens"] or not (symbol["__type__"] == "Terminal"
                                              and symbol["filter_out"]))
    if kept is not None and len(kept) == len(expansion) and not any(i for _, i in kept):
        kept = None
    name = rule["alias"] or options["template_source"] or rule["origin"]["name"]
    return (rule["origin"]["name"], str(name), bool(options["expand1"] and not rule["alias"]),
            len(expansion), kept)


def _canonical_numbers(states: dict[int, dict[str, tuple[str, int]]],
                       start_states: dict[str, int]) -> dict[int, int]:
    """Lark numbers its states in an order that changes with Python's hash
    seed; number them breadth first from the start states instead, so the
    same grammar always gives the same file."""
    number: dict[int, int] = {}
    queue = [start_states[name] for name in sorted(start_states)]
    for state in queue:
        number.setdefault(state, len(number))
    position = 0
    while position < len(queue):
        actions = states[queue[position]]
        position += 1
        for symbol in sorted(actions):
            kind, argument = actions[symbol]
            if kind == "shift" and argument not in number:
                number[argument] = len(number)
                queue.append(argument)
    if len(number) != len(states):
        raise ValueError("a parser state is unreachable from the start states")
    return number


def _actions(actions: dict[str, tuple[str, int]], number: dict[int, int]) -> tuple[Any, ...]:
    symbols = tuple(sorted(actions))
    return symbols, tuple(number[actions[s][1]] if actions[s][0] == "shift" else -1 - actions[s][1]
                          for s in symbols)


def _lexer(terminals: list[dict[str, Any]], ignore: list[str]) -> tuple[Any, ...]:
    """One lexer: its terminals in the order tried, the keywords its regexp
    terminals turn into, and the ignored terminals."""
    tried = sorted(terminals, key=lambda t: (-t["priority"], -t["max_width"],
                                              -len(t["value"]), t["name"]))
    keywords: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    embedded: set[str] = set()
    for regexp_terminal in (t for t in tried if t["type"] == "re"):
        words = []
        for literal in (t for t in tried if t["type"] == "str"):
            if literal["priority"] != regexp_terminal["priority"]:
                continue
            found = re.match(regexp_terminal["regexp"], literal["value"])
            if found is not None and found.group() == literal["value"]:
                words.append((literal["name"], literal["regexp"]))
                if literal["flags"] <= regexp_terminal["flags"]:
                    embedded.add(literal["name"])
        if words:
            keywords.append((regexp_terminal["name"], tuple(words)))
    return (tuple((t["name"], t["regexp"]) for t in tried if t["name"] not in embedded),
            tuple(keywords), tuple(ignore))


def table_path(name: str) -> Path:
    return TABLES_DIR / f"{name}.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="report out-of-date tables instead of writing them")
    options = parser.parse_args(argv)
    stale = []
    for name in GRAMMARS:
        text = Tables(name).source()
        path = table_path(name)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(path)
        if not options.check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path}: {'out of date' if options.check else 'written'}")
    return 1 if options.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
