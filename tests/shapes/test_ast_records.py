"""The AST nodes are hand-written records (no dataclasses on the start-up
path): they must still compare, hash, show, copy and pickle by value, and
refuse assignment as the frozen dataclasses they replace did."""

from __future__ import annotations

import copy
import pickle

import pytest

from dealerpp.shapes import ast
from dealerpp.shapes.parser import parse_call

TEXT = "shape{north, 5+M(xxx):h>s ? d : c - any 4432 + [3-5]x[13]}"


def test_nodes_are_equal_and_hashed_by_value() -> None:
    first, second = parse_call(TEXT), parse_call(TEXT)
    assert first is not second
    assert first == second and hash(first) == hash(second)
    assert parse_call(TEXT.replace("5+", "6+")) != first
    assert ast.Pos(1, 2) != (1, 2)  # a node is not its tuple of fields
    assert len({ast.Pos(1, 2), ast.Pos(1, 2), ast.Pos(2, 1)}) == 2


def test_nodes_copy_and_pickle_whole() -> None:
    call = parse_call(TEXT)
    assert pickle.loads(pickle.dumps(call)) == call
    assert copy.deepcopy(call) == call and copy.copy(call) == call


def test_nodes_refuse_assignment() -> None:
    pos = ast.Pos(3, 4)
    with pytest.raises(AttributeError):
        pos.line = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del pos.column
    assert (pos.line, pos.column) == (3, 4)


def test_nodes_show_their_fields_in_order() -> None:
    number = ast.Number(10, ast.Pos(1, 7), "4294967306")
    assert repr(number) == ("Number(value=10, pos=Pos(line=1, column=7), "
                            "written='4294967306')")

