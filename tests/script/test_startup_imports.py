"""The preprocessing command must start fast (issue 15: a one-line script in
at most 3x the interpreter's own start-up). Speed is measured in bench/;
here we hold the cause: what the plain ``dealerpp FILE`` paths import."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

# Modules that cost a millisecond or more to import and that preprocessing
# does not need (argparse: only for help, version and unusual arguments).
HEAVY = ("argparse", "dataclasses", "inspect", "hashlib", "tempfile", "fractions", "pathlib",
         "urllib", "shutil", "difflib", "json", "numpy", "lark", "gettext", "locale",
         "pygls", "lsprotocol", "cattrs")  # (the language server's: only `dealerpp lsp`)

# Run as the console script does (scripts/dealerpp: the front door, which
# hands anything but a plain script to dealerpp.cli.main, signals installed).
RUN = """\
import sys
from dealerpp.quick import main
sys.argv = ["dealerpp", *sys.argv[1:]]
status = main("dealerpp")
sys.stdout.flush()
sys.stderr.write("\\nSTATUS %d MODULES %s" % (status, " ".join(sorted(sys.modules))))
"""


def _imported(tmp_path: Path, *arguments: str, text: str = "x = shape{north, 5+M(xxx)}\n"
              ) -> set[str]:
    script = tmp_path / "one.dpp"
    script.write_text(text)
    done = subprocess.run([sys.executable, "-c", RUN, *arguments], cwd=tmp_path,
                          input=text, capture_output=True,
                          text=True, timeout=60, check=False)
    tail = done.stderr.rpartition("\nSTATUS ")[2]
    status, _, modules = tail.partition(" MODULES ")
    assert status == "0", done.stderr
    return set(modules.split())


def _top_level(modules: set[str]) -> set[str]:
    return {name.partition(".")[0] for name in modules}


@pytest.mark.parametrize("arguments", [
    ("one.dpp",), ("--no-check", "one.dpp"), ("-o", "out.dl", "one.dpp"), ("-",),
    ("--emit=list", "one.dpp"), ("one.dpp", "--emit", "shortest", "--no-check"),
])
def test_preprocessing_imports_nothing_heavy(tmp_path: Path, arguments: tuple[str, ...]) -> None:
    modules = _imported(tmp_path, *arguments)
    # the run did compile the shape{}, or found its list among the shipped ones
    assert {"dealerpp.shapes.emit", "dealerpp.shapes.generated.common_terms"} & modules
    assert sorted(_top_level(modules) & set(HEAVY)) == []


# The one-shape path's modules, beyond the interpreter's own (bench/bench_importtime.py):
# a term with a shipped list, and one the front door compiles.
MODULE_LIST = Path(__file__).resolve().parents[2] / "bench" / "startup_modules.txt"
COMPILED_MODULE_LIST = MODULE_LIST.with_name("startup_modules_compiled.txt")
COMPILED = "x = shape{north, 5+M4+m(xx)}\n"
# Never on the preprocessing path (issue 28): numpy, the deal formats, and
# the checker's logic analysis (dealer expressions' value ranges), which a
# script without conditions does not need.
NEVER = re.compile(r"numpy|dealerpp\.deals|dealerpp\.script\.check\.(logic|domain|findings|analysis)")


def _interpreters_own() -> set[str]:
    done = subprocess.run([sys.executable, "-c", "import sys; print(*sys.modules)"],
                          capture_output=True, text=True, timeout=60, check=True)
    return set(done.stdout.split())


@pytest.mark.parametrize(("module_list", "text"), [
    (MODULE_LIST, "x = shape{north, 5+M(xxx)}\n"), (COMPILED_MODULE_LIST, COMPILED)])
def test_a_one_shape_script_imports_only_the_listed_modules(
        tmp_path: Path, module_list: Path, text: str) -> None:
    listed = {line.strip() for line in module_list.read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    added = _imported(tmp_path, "one.dpp", text=text) - _interpreters_own()
    # A new import here costs every run: make it lazy, or list it on purpose
    # (python bench/bench_importtime.py --write, and say why in the commit).
    assert sorted(added - listed) == []


@pytest.mark.parametrize("text", ["x = shape{north, 5+M(xxx)}\n", COMPILED])
@pytest.mark.parametrize("arguments", [("one.dpp",), ("--no-check", "one.dpp"), ("-",)])
def test_preprocessing_never_imports_numpy_the_formats_or_the_analysis(
        tmp_path: Path, arguments: tuple[str, ...], text: str) -> None:
    modules = _imported(tmp_path, *arguments, text=text)
    assert sorted(name for name in modules if NEVER.match(name)) == []


def test_help_still_comes_from_argparse(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "dealerpp", "--no-check", "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "usage: dealerpp" in done.stdout


def test_preprocessing_imports_no_typing(tmp_path: Path) -> None:
    assert "typing" not in _imported(tmp_path, "one.dpp")


ARGUMENT_WORDS = ["-o", "--output", "--emit", "--emit=list", "--emit=bogus", "--emit=",
                  "--no-check", "--no-check=1", "-", "a.dpp", "out", "--output=o.dl", "-x",
                  "--", "compact", "shortest", "", "--no", "-oout", "-1", "--help"]


@given(st.lists(st.sampled_from(ARGUMENT_WORDS), max_size=6))
def test_plain_arguments_read_by_hand_as_argparse_reads_them(argv: list[str]) -> None:
    from dealerpp.cli.preprocess import _plain_options, build_parser

    by_hand = _plain_options(argv)
    if by_hand is None:
        return  # argparse reads these itself
    parsed = build_parser("dealerpp").parse_args(argv)  # raises SystemExit on a mistake
    fields = ("file", "output", "emit", "no_check")
    assert [getattr(by_hand, f) for f in fields] == [getattr(parsed, f) for f in fields]


def test_the_plain_forms_are_read_by_hand() -> None:
    from dealerpp.cli.preprocess import _plain_options

    for argv in ([], ["a.dpp"], ["-"], ["-o", "out", "a.dpp"], ["a.dpp", "--output=out"],
                 ["--emit", "list", "--no-check", "a.dpp"]):
        assert _plain_options(argv) is not None, argv
