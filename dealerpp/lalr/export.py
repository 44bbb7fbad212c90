"""Lark → parse tables as plain data (run at build time, not at run time).

    python -m dealerpp.lalr.export          # rewrite dealerpp/lalr/tables/*.json
    python -m dealerpp.lalr.export --check  # exit 1 if a table is out of date

Lark reads ``grammar/NAME.lark`` and computes its LALR(1) table, its
lexers (one per parser state for the contextual lexer) and how each rule
builds its tree. This module copies those facts into a JSON document that
``dealerpp.lalr.runtime`` runs without importing Lark. The document records
the SHA-256 of the grammar it came from, so a stale table is never used.

The facts are read from Lark 1.x objects (``parse_table``, the lexers'
terminals and their "unless" keyword lists, ``Rule.options``). The tests parse
thousands of inputs with both Lark and the runtime and compare the results.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dealerpp.grammars import grammar_digest, grammar_path

TABLES_DIR = Path(__file__).resolve().parent / "tables"

# What each grammar needs: its start symbols, its lexer, and the terminals a
# post-lexer may produce in any state (Lark's ``always_accept``).
GRAMMARS: dict[str, dict[str, Any]] = {
    "shape": {"start": ["call", "body"], "lexer": "contextual",
              "always_accept": ["SPACED_PLUS", "SPACED_MINUS"]},
    "dealer": {"start": ["start"], "lexer": "basic", "always_accept": []},
}


def lark_parser(name: str, postlex: Any = None) -> Any:
    """Lark's own LALR parser for ``grammar/NAME.lark`` (the tests' oracle).

    Without ``postlex``, a grammar whose post-lexer adds terminals gets one
    that only declares them (enough for the tables)."""
    from lark import Lark

    settings = GRAMMARS[name]

    class _AlwaysAccept:  # a post-lexer that only declares its terminals
        always_accept = tuple(settings["always_accept"])

        def process(self, stream: Any) -> Any:
            return stream

    return Lark(grammar_path(name).read_text(encoding="utf-8"), parser="lalr",
                start=settings["start"], lexer=settings["lexer"],
                propagate_positions=True, maybe_placeholders=False,
                postlex=postlex or (_AlwaysAccept() if settings["always_accept"] else None))


def export(name: str) -> dict[str, Any]:
    """The parse tables of ``grammar/NAME.lark`` as a JSON-ready document."""
    import lark

    parser = lark_parser(name)
    table = parser.parser.parser.parser.parse_table
    rules = list(parser.rules)
    rule_index = {id(rule): i for i, rule in enumerate(rules)}
    number = _canonical_numbers(table)
    states = sorted(table.states, key=number.__getitem__)
    return {
        "grammar": name,
        "sha256": grammar_digest(name),
        "lark": lark.__version__,
        "start_states": {s: number[n] for s, n in table.start_states.items()},
        "end_states": {s: number[n] for s, n in table.end_states.items()},
        "terminals": [_terminal(t) for t in parser.terminals],
        "ignore": sorted(parser.lexer_conf.ignore),
        "rules": [_rule(rule) for rule in rules],
        "actions": [{symbol: _action(action, argument, rule_index, number)
                     for symbol, (action, argument) in sorted(table.states[s].items())}
                    for s in states],
        "lexers": _lexers(parser, states),
    }


def _canonical_numbers(table: Any) -> dict[Any, int]:
    """Lark numbers its states in an order that changes with Python's hash
    seed; number them breadth first from the start states instead, so the
    same grammar always gives the same file."""
    number: dict[Any, int] = {}
    queue = [table.start_states[name] for name in sorted(table.start_states)]
    for state in queue:
        number.setdefault(state, len(number))
    position = 0
    while position < len(queue):
        actions = table.states[queue[position]]
        position += 1
        for symbol in sorted(actions):
            action, argument = actions[symbol]
            if action.name == "Shift" and argument not in number:
                number[argument] = len(number)
                queue.append(argument)
    if len(number) != len(table.states):
        raise ValueError("a parser state is unreachable from the start states")
    return number


def _terminal(terminal: Any) -> dict[str, Any]:
    pattern = terminal.pattern
    return {"name": terminal.name, "regexp": pattern.to_regexp(), "priority": terminal.priority,
            "type": pattern.type, "value": pattern.value, "max_width": pattern.max_width}


def _rule(rule: Any) -> list[Any]:
    """[origin, tree name, inline a single child?, length, kept children or None].

    Kept children are [index, inline?] pairs: anonymous and ``_`` terminals are
    dropped, ``_rule`` children are spliced into their parent. None means every
    child is kept as it is.
    """
    from lark.parse_tree_builder import _should_expand

    options = rule.options
    kept = [[i, _should_expand(symbol)] for i, symbol in enumerate(rule.expansion)
            if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out)]
    if len(kept) == len(rule.expansion) and not any(inline for _, inline in kept):
        kept = None
    name = rule.alias or options.template_source or rule.origin.name
    return [rule.origin.name, str(name), bool(options.expand1 and not rule.alias),
            len(rule.expansion), kept]


def _action(action: Any, argument: Any, rule_index: dict[int, int],
            number: dict[Any, int]) -> int:
    """A shift is the state's number; a reduction by rule r is -1 - r."""
    if action.name == "Shift":
        return number[argument]
    return -1 - rule_index[id(argument)]


def _lexers(parser: Any, states: list[Any]) -> dict[str, Any]:
    """The distinct lexers and which one each parser state uses.

    A lexer is its terminals in the order they are tried, plus, for a
    regexp terminal that also matches keywords (WORD and ``shape``), the
    keywords a whole match turns into.
    """
    lexer = parser.parser.lexer
    lexer = getattr(lexer, "lexer", lexer)  # behind a post-lexer connector
    configs: list[dict[str, Any]] = []
    seen: dict[str, int] = {}

    def number(basic: Any) -> int:
        config = _basic_lexer(basic)
        key = json.dumps(config, sort_keys=True)
        if key not in seen:
            seen[key] = len(configs)
            configs.append(config)
        return seen[key]

    if hasattr(lexer, "lexers"):  # contextual
        by_state = [number(lexer.lexers[s]) for s in states]
        root = number(lexer.root_lexer)
    else:
        root = number(lexer)
        by_state = [root] * len(states)
    return {"configs": configs, "by_state": by_state, "root": root}


def _basic_lexer(basic: Any) -> dict[str, Any]:
    scanner = basic.scanner  # builds the terminal order and the keyword callbacks
    unless = {name: [[t.name, t.pattern.to_regexp()] for t in callback.scanner.terminals]
              for name, callback in sorted(basic.callback.items())}
    return {"terminals": [[t.name, t.pattern.to_regexp()] for t in scanner.terminals],
            "unless": unless,
            "ignore": sorted(basic.ignore_types)}


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, separators=(",", ":"), sort_keys=True) + "\n"


def table_path(name: str) -> Path:
    return TABLES_DIR / f"{name}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="report out-of-date tables instead of writing them")
    options = parser.parse_args(argv)
    stale = []
    for name in GRAMMARS:
        text = render(export(name))
        path = table_path(name)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(path)
        if not options.check:
            TABLES_DIR.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{path}: {'out of date' if options.check else 'written'}")
    return 1 if options.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
