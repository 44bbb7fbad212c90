"""grammar/dealer.tmLanguage.json, tokenized as VS Code tokenizes it: by
vscode-textmate on vscode-oniguruma (npm), run by node. .ci/run installs
them in .ci/node/ (ignored by git); locally the tests skip, saying so,
without them; under CI=true their absence is a failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import lru_cache

import pytest

from tests.conftest import PROJECT_ROOT

GRAMMAR = PROJECT_ROOT / "grammar" / "dealer.tmLanguage.json"
TOKENIZE = PROJECT_ROOT / "tests" / "editor" / "tokenize.js"
NODE_MODULES = PROJECT_ROOT / ".ci" / "node" / "node_modules"
Token = tuple[int, str, list[str]]


@lru_cache(maxsize=8)
def tokens(script: str) -> list[Token]:
    node = shutil.which("node")
    missing = [name for name in ("vscode-textmate", "vscode-oniguruma")
               if not (NODE_MODULES / name).is_dir()]
    if node is None or missing:
        what = "node" if node is None else ", ".join(missing)
        message = (f"{what} missing: apt-get install nodejs npm, then npm install --prefix "
                   ".ci/node vscode-textmate vscode-oniguruma (as .ci/run does)")
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}; CI must install it")
        pytest.skip(message)
    done = subprocess.run([node, str(TOKENIZE), str(GRAMMAR)], input=script,
                          capture_output=True, text=True, timeout=60, check=True,
                          env={**os.environ, "NODE_PATH": str(NODE_MODULES)})
    return [(line, text, scopes) for line, text, scopes in json.loads(done.stdout)]


def scope_of(found: list[Token], line: int, text: str) -> list[str]:
    """The scopes of the first token ``text`` on ``line`` (0-based)."""
    for token_line, token_text, scopes in found:
        if token_line == line and token_text == text:
            return scopes[1:]  # without source.dealer
    raise AssertionError(f"no token {text!r} on line {line}: "
                         f"{[t for t in found if t[0] == line]}")


SAMPLE = """\
generate 100000 // how many
# a comment in column 1
/* a comment
   over lines with "quotes" and shape{north, 5xxx} */
opener = hcp(north) >= 15 && shape{north, (4333) + 5+M(xxx):h>s // inside
    - x[0-1]xx}
lead = shape(west, any 4432 + 5xxx) || spades(west) > 4
predeal south SAK, HQJ
dealer west
vulnerable NS
condition opener and not lead
action printoneline, average "south's points" hcp(south, spades)
"""


def test_the_sample_is_tokenized_as_each_part_means() -> None:
    found = tokens(SAMPLE)
    expected = {
        (0, "generate"): "keyword.control.statement.dealer",
        (0, "100000"): "constant.numeric.dealer",
        (0, " how many"): "comment.line.double-slash.dealer",
        (1, " a comment in column 1"): "comment.line.number-sign.dealer",
        (3, '   over lines with "quotes" and shape{north, 5xxx} '): "comment.block.dealer",
        (4, "opener"): "variable.other.definition.dealer",
        (4, "="): "keyword.operator.assignment.dealer",
        (4, "hcp"): "support.function.dealer",
        (4, "north"): "constant.language.seat.dealer",
        (4, ">="): "keyword.operator.comparison.dealer",
        (4, "&&"): "keyword.operator.logical.dealer",
        (6, "shape"): "support.function.dealer",
        (6, "any"): "keyword.other.any.shape.dealer",
        (6, "4432"): "constant.other.shape.dealer",
        (6, "5xxx"): "constant.other.shape.dealer",
        (6, "spades"): "support.function.dealer",
        (7, "predeal"): "keyword.control.statement.dealer",
        (8, "west"): "constant.language.seat.dealer",
        (9, "NS"): "constant.language.vulnerability.dealer",
        (10, "and"): "keyword.operator.logical.dealer",
        (10, "lead"): "variable.other.dealer",
        (11, "printoneline"): "keyword.other.action.dealer",
        (11, "south's points"): "string.quoted.double.dealer",
    }
    for (line, text), scope in expected.items():
        assert scope in scope_of(found, line, text), (line, text)
    assert "constant.language.suit.dealer" in scope_of(found, 11, "spades")


def test_a_shape_block_has_scopes_of_its_own_over_lines() -> None:
    found = tokens(SAMPLE)
    block = "meta.shape-block.dealer"
    assert scope_of(found, 4, "{") == [block, "punctuation.section.block.begin.dealer"]
    assert scope_of(found, 4, "M") == [block, "variable.language.suit.shape.dealer"]
    assert scope_of(found, 4, ":") == [block, "punctuation.separator.condition.shape.dealer"]
    assert scope_of(found, 4, " inside")[:2] == [block, "comment.line.double-slash.dealer"]
    # The block goes on over the line break, to its `}`.
    assert scope_of(found, 5, "[") == [block, "punctuation.section.range.shape.dealer"]
    assert scope_of(found, 5, "}") == [block, "punctuation.section.block.end.dealer"]
    assert block not in scope_of(found, 6, "lead")


def test_every_example_script_is_tokenized_whole() -> None:
    """Every character of each example is in some token, and every word of
    dealer's that hover explains gets a scope beyond the plain variable."""
    from dealerpp.editor import knowledge

    # One node process for them all (each start loads the regex engine).
    text = "".join(path.read_text() for path in sorted((PROJECT_ROOT / "examples").glob("*.dpp")))
    found = tokens(text)
    assert "".join(t[1] for t in found) == text.replace("\n", "")
    assert any("meta.shape-block.dealer" in t[2] for t in found)
    words = " ".join(f"{w}(north)" if w in knowledge.FUNCTIONS else w
                     for w in knowledge.every_word())
    for _line, text, scopes in tokens(words + "\n"):
        if text.strip() and text not in "()":
            assert "variable.other.dealer" not in scopes, text
