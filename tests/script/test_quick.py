"""The console scripts' front door (``dealerpp.quick``) answers a plain
one-shape script itself: its output must be the preprocessor's, byte for
byte, with nothing the checker or the rewriter would have said; anything
else it must decline. Checked against the preprocessor itself
(``preprocess_script(check=True)``), the shipped lists against a fresh
build and dealer's reading of each list."""

from __future__ import annotations

import os
import re._parser as sre_parse
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from dealerpp import quick
from dealerpp.cli.commands import SUBCOMMANDS
from dealerpp.diagnostics import DppError
from dealerpp.lalr.generated import dealer as dealer_tables
from dealerpp.script import lexer
from dealerpp.script.rewrite import preprocess_script
from dealerpp.shapes.compiler import compile_shape, expand
from dealerpp.shapes.dealer_list import read_dealer_list
from dealerpp.shapes.generated.common_terms import LISTS
from dealerpp.shapes.universe import FULL_MASK
from tests.conftest import examples
from tests.shapes.test_quick_parse import shape_lists
from tools.common_terms import DATA_FILE, build, data_source


def full_path(text: str) -> str | None:
    """The preprocessor's output when it has nothing to say; None otherwise."""
    done = preprocess_script(text, "one.dpp", check=True)
    return None if done.warnings or done.findings else done.text


def agrees(text: str) -> bool:
    """Whether the front door declines ``text`` or answers as the preprocessor does."""
    answer = quick.rewritten(text)
    return answer is None or answer == full_path(text)


# --- the shipped lists ----------------------------------------------------------------

def test_the_shipped_lists_are_a_fresh_build() -> None:
    assert DATA_FILE.read_text() == data_source(build()), "run: python tools/common_terms.py"


def test_every_shipped_list_means_its_term() -> None:
    assert len(LISTS) > 300
    for term, listing in LISTS.items():
        assert read_dealer_list(listing) == expand(term), term


def test_every_shipped_term_as_a_definition_and_a_condition() -> None:
    for term in LISTS:
        for text in (f"x = shape{{north, {term}}}\ncondition x\n", f"shape{{west,{term} }}"):
            answer = quick.rewritten(text)
            assert answer is not None and answer == full_path(text), text


# --- plain scripts, and those that are not ----------------------------------------------

PLAIN = [
    "x = shape{north, 5+M(xxx)}\n",
    "shape{north, 5+M(xxx)}\n",
    "shape{north, 5+M(xxx)}",
    "",
    "\n\n",
    "  opener\t=\tshape{ south ,  (4333) + (4432) + (5332) }  \ncondition opener\n",
    "a = shape{north, 5+M(xxx)}\nb = shape{south, 5+m(xxx)}\ncondition shape{east, (4432)}\n"
    "action printall\nproduce 10\n",
    "produce 1000000\n",
    "x5x = shape{north, 6+xxx}\n",
    "x = shape{north, 5+M4+m(xx)}\n",  # no shipped list: compiled
    "shape{east, 4+s4+h(xx):d>c,h+s==10}\ncondition x\n".replace("condition x\n", ""),
]

NOT_PLAIN = [
    "x = shape{north, 5+M(xxx)}\nx = shape{north, 5+M(xxx)}\n",  # redefined
    "north = shape{north, 5+M(xxx)}\n",  # a reserved word
    "xxxx = shape{north, 5+M(xxx)}\n",  # a pattern
    "shape{north, 5+M(xxx)}\nshape{south, 5+M(xxx)}\n",  # two conditions
    "condition y\n",  # unknown
    "x = shape{north, 5+M(xxx)} // a comment\n",
    "x = shape{North, 5+M(xxx)}\n",
    "x = shape {north, 5+M(xxx)}\n",
    "x = shape{north, 5+M(xxx)}\r\n",
    "x = shape{north, 5+M(xyz)}\n",  # an error
    "x = shape{north, xxxx}\n",  # every shape: left to the checker
    "x = shape{north, 5xxx - 5xxx}\n",  # no shape
    "x = shape{north, 4432 + 5xxx:s<5}\n",  # the compiler warns
    "produce 0\n",
    "produce 10\nproduce 10\n",
    "x = shape{north, 5+M(xxx)};\n",
    "x = shape{north,\n5+M(xxx)}\n",
    "é = shape{north, 5+M(xxx)}\n",
    "".join(f"v{n} = shape{{north, 5+M(xxx)}}\n" for n in range(32)),  # past dealer's 31
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_scripts_are_answered_as_the_preprocessor_does(text: str) -> None:
    answer = quick.rewritten(text)
    assert answer is not None
    assert answer == full_path(text)


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_other_scripts_are_declined(text: str) -> None:
    assert quick.rewritten(text) is None


NAMES = ["x", "y", "opener", "x5x", "xxxx", "x5xx", "north", "hcp", "hcps", "shape", "shape2",
         "pt9", "pt10", "top2", "top6", "and", "andy", "c13", "SA", "Nt", "a_1", "_a", "1a"]
TERMS = [*list(LISTS)[::37], "5+M(xyz)", "xxxx", "(4333", "x4+xx:h>=s", "5M(xxx) // no",
         "5+M4+m(xx)", "4+s4+h(xx):d>c,h+s==10", "x[3-5]x[13]", "5m(332) + 5m2s(42)",
         "5+xxx - 5+xxx", "4432 + 5xxx:s<5", "4432 + 4432", "(4333):s>h", "xxxx - (4333)", "shape{north, 4432}"]
COMPASS = ["north", "south", "west", "east", "North", "nord"]


@st.composite
def statements(draw: st.DrawFn) -> str:
    space = draw(st.sampled_from(["", " ", "  ", "\t", " \t"]))
    block = (f"shape{{{draw(st.sampled_from(['', ' ']))}{draw(st.sampled_from(COMPASS))}"
             f",{space}{draw(st.sampled_from(TERMS))}{space}}}")
    name = draw(st.sampled_from(NAMES))
    kind = draw(st.sampled_from(["define", "bare", "condition", "condition name", "action",
                                 "produce", "other"]))
    if kind == "define":
        return f"{name}{space}={space}{block}"
    if kind == "bare":
        return block
    if kind == "condition":
        return f"condition{space or ' '}{block}"
    if kind == "condition name":
        return f"condition {name}"
    if kind == "action":
        return draw(st.sampled_from(["action printall", "action printpbn", "action  printall"]))
    if kind == "produce":
        return f"produce {draw(st.sampled_from(['1', '10', '007', '10000000', '-1', '2147483648']))}"
    return draw(st.sampled_from(["generate 10", "dealer north", "# a comment", "// too",
                                 "x", "hcp(north) > 10", "predeal north SA"]))


@given(st.lists(st.tuples(st.sampled_from(["", " ", "\t"]), statements()), max_size=6),
       st.sampled_from(["\n", "\n\n", " \n"]), st.booleans())
def test_generated_scripts_are_declined_or_answered_alike(
        lines: list[tuple[str, str]], newline: str, final: bool) -> None:
    text = newline.join(indent + line for indent, line in lines) + (newline if final else "")
    assert agrees(text)


# --- terms without a shipped list: compiled by the front door ---------------------------

# Terms built from a shape, each of its lengths written exactly or loosened
# (``5+``, ``6-``, ``[4-6]``, ``x``), the suits named by distinct labels or
# left to the group, so that most of them are valid and answered; conditions
# of every kind, divisions that trap (a warning: declined), sets empty or full.
_CONDITIONS = st.sampled_from(["", "", "", ":s>h", ":d+c>=6", ":M>=5", ":m<3", ":(s+h)%2==1",
                               ":s>h,c>d", ":h/(d-2)>1", ":s*2>=h%3||c!=0&&d<4", ":!(s==h)",
                               ":-s<-3", ":s - h > 1", ":4294967306>s"])
_LENGTH = "0123456789TJQK"


@st.composite
def _slot(draw: st.DrawFn, length: int) -> str:
    how = draw(st.sampled_from(["exact", "exact", "plus", "minus", "range", "x"]))
    if how == "plus" and length <= 9:
        return f"{_LENGTH[max(0, length - draw(st.integers(0, 2)))]}+"
    if how == "minus" and length <= 9:
        return f"{_LENGTH[min(9, length + draw(st.integers(0, 2)))]}-"
    if how == "range":
        low, high = max(0, length - draw(st.integers(0, 2))), min(13, length + draw(st.integers(0, 2)))
        return f"[{_LENGTH[low]}-{_LENGTH[high]}]"
    return "x" if how == "x" else _LENGTH[length]


@st.composite
def _pattern(draw: st.DrawFn) -> str:
    lengths = draw(st.permutations([*draw(st.sampled_from(["4333", "4432", "5332", "5431",
                                                           "5521", "6331", "7420", "9310",
                                                           "T210"]))]))
    shape = [_LENGTH.index(c) for c in lengths]
    if draw(st.integers(0, 5)) == 0:
        return "any " + "".join(draw(_slot(n)) for n in shape)
    suits = draw(st.permutations([0, 1, 2, 3]))
    outside = draw(st.integers(0, 4))
    text = ""
    for suit in suits[:outside]:
        label = draw(st.sampled_from(["", "shdc"[suit], "Mm"[suit // 2]]))
        text += draw(_slot(shape[suit])) + label
    if outside < 4:
        text += "(" + "".join(draw(_slot(shape[suit])) for suit in suits[outside:]) + ")"
    return text + draw(_CONDITIONS)


@st.composite
def plain_terms(draw: st.DrawFn) -> str:
    """A shape list of one to three patterns."""
    text = draw(_pattern())
    for _ in range(draw(st.integers(0, 2))):
        text += draw(st.sampled_from([" + ", " - ", "+", "-"])) + draw(_pattern())
    return text


def _compilers_list(term: str) -> str | None:
    """What the compiler itself makes of ``term`` when it has nothing to say
    and the set is neither empty nor every shape; None otherwise."""
    try:
        compiled = compile_shape(term)
    except DppError:  # the front door must decline too
        return None
    if compiled.warnings or compiled.shapes.mask in (0, FULL_MASK):
        return None
    return compiled.dealer_list()


@settings(max_examples=examples(400), deadline=None)
@given(st.one_of(plain_terms(), shape_lists()))
def test_a_compiled_term_is_the_compilers_list(term: str) -> None:
    answer = quick._compiled_list(term.strip(" \t"))
    event("answered" if answer is not None else "declined")
    if answer is not None:
        assert answer == _compilers_list(term.strip(" \t"))
    text = f"x = shape{{north, {term}}}\ncondition x\n"
    assert agrees(text)


@pytest.mark.parametrize("term", ["5+M4+m(xx)", "4+s4+h(xx):d>c,h+s==9", "x[3-5]x[13]",
                                  "5m(332) + 5m2s(42)", "(4333):s>h", "xxxx - (4333)",
                                  "any 5xxx:s>=5 - 5332", "6+M(xxx):M+m>=10"])
def test_everyday_terms_without_a_list_are_compiled_by_the_front_door(term: str) -> None:
    assert term not in LISTS
    answer = quick._compiled_list(term)
    assert answer is not None and answer == _compilers_list(term)
    assert read_dealer_list(answer) == expand(term)


# --- dealer's words ------------------------------------------------------------------------

def _words(pattern: str) -> Iterator[str]:
    """The words a keyword terminal's (finite) pattern matches."""
    def expand_items(items: list[tuple[object, object]]) -> Iterator[str]:
        if not items:
            yield ""
            return
        (op, value), rest = items[0], items[1:]
        heads: list[str]
        if op is sre_parse.LITERAL:
            heads = [chr(value)]  # type: ignore[arg-type]
        elif op is sre_parse.IN:
            heads = []
            for kind, item in value:  # type: ignore[attr-defined]
                if kind is sre_parse.RANGE:
                    heads += [chr(c) for c in range(item[0], item[1] + 1)]
                else:
                    heads.append(chr(item))
        elif op is sre_parse.BRANCH:
            heads = [w for branch in value[1] for w in expand_items(list(branch))]  # type: ignore[index]
        elif op is sre_parse.SUBPATTERN:
            heads = list(expand_items(list(value[3])))  # type: ignore[index]
        elif op is sre_parse.MAX_REPEAT:
            low, high, inner = value  # type: ignore[misc]
            assert high <= 1
            heads = ([""] if low == 0 else []) + list(expand_items(list(inner)))
        elif op is sre_parse.ASSERT_NOT:
            heads = [""]
        else:
            raise AssertionError(f"unexpected {op} in {pattern}")
        for head in heads:
            for tail in expand_items(rest):
                yield head + tail

    yield from expand_items(list(sre_parse.parse(pattern)))


def dealer_keywords() -> set[str]:
    found = set()
    for _name, pattern, priority, *_ in dealer_tables.TERMINALS:
        if priority == 3:  # the keywords
            found |= {w for w in _words(pattern) if w.isalnum() and w.islower()}
    return found


def test_dealer_words_are_the_grammars_keywords() -> None:
    assert dealer_keywords() == quick.DEALER_WORDS


@given(st.one_of(st.sampled_from(sorted(dealer_keywords())), st.text("abcx01_", max_size=6))
       .flatmap(lambda word: st.tuples(st.just(word), st.text("abx0_s", max_size=2)))
       .map("".join))
def test_a_plain_name_is_a_name_to_dealers_scanner(name: str) -> None:
    if quick._is_plain_name(name):
        assert lexer._word_kind(name) == "IDENT"
        assert [token.type for token in lexer.tokens(name)] == ["IDENT"]


def test_the_subcommands_are_the_commands() -> None:
    assert set(quick.SUBCOMMANDS) == set(SUBCOMMANDS)


# --- as a process ------------------------------------------------------------------------

ONE = "x = shape{north, 5+M(xxx)}\n"
SEEN = "import sys\nsys.stderr.write(' '.join(sorted(sys.modules)))\n"


def run(*args: str, stdin: str = ONE) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "-m", "dealerpp", *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_plain_script_from_standard_input_and_a_file(tmp_path: Path) -> None:
    script = tmp_path / "one.dpp"
    script.write_text(ONE)
    expected = full_path(ONE)
    for args in ((), ("-",), (str(script),), ("--no-check", str(script)),
                 ("--emit", "compact", str(script))):
        done = run(*args)
        assert (done.returncode, done.stdout, done.stderr) == (0, expected, ""), args


def test_a_declined_script_from_standard_input_is_read_once() -> None:
    done = run("-", stdin="x = shape{north, 5+M(xyz)}\n")
    assert done.returncode == 1 and "<stdin>:1:" in done.stderr and done.stdout == ""
    done = run(stdin="x = shape{north, xxxx}\ncondition x\n")
    assert done.returncode == 0 and "shape(north, xxxx)" in done.stdout


def _front_door_modules(tmp_path: Path, text: str) -> set[str]:
    script = tmp_path / "one.dpp"
    script.write_text(text)
    code = f"import sys\nsys.argv = ['dealerpp', {str(script)!r}]\n" \
           "from dealerpp.quick import main\nstatus = main()\n" + SEEN
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    return set(done.stderr.split())


def test_the_front_door_loads_neither_the_compiler_nor_the_checker(tmp_path: Path) -> None:
    modules = _front_door_modules(tmp_path, ONE)
    assert "dealerpp.shapes.generated.common_terms" in modules
    assert not {"dealerpp.cli", "dealerpp.shapes.compiler", "dealerpp.script.check", "re",
                "signal", "enum"} & modules


def test_a_term_without_a_shipped_list_loads_the_compilers_pieces_but_no_more(
        tmp_path: Path) -> None:
    """The hand-written reader, the expander and the emitter: not the LALR
    parser, the diagnostics, the checker, nor ``re`` and its kin."""
    modules = _front_door_modules(tmp_path, "x = shape{north, 5+M4+m(xx)}\n")
    assert {"dealerpp.shapes.quick_parse", "dealerpp.shapes.expand",
            "dealerpp.shapes.emit"} <= modules
    assert not {"dealerpp.cli", "dealerpp.script.check", "dealerpp.script.rewrite",
                "dealerpp.shapes.compiler", "dealerpp.shapes.parser", "dealerpp.lalr",
                "dealerpp.diagnostics", "dealerpp.shapes.shapeset", "dealerpp.lengths",
                "re", "enum", "functools", "collections", "operator", "heapq", "typing",
                "signal"} & modules


def test_a_stop_signal_while_reading_standard_input_ends_the_run() -> None:
    process = subprocess.Popen([sys.executable, "-m", "dealerpp", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)  # started, waiting for standard input
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)  # before standard input is closed
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGTERM
    assert err == b"dealerpp: stopped by SIGTERM\n" and out == b""
