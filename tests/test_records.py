"""dealerpp.records: the one base of the hand-made records (AST nodes,
diagnostics). What a record gives is checked against what ``dataclasses``
gives for the same fields, the behaviour it stands in for."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from dealerpp.records import Record


class Point(Record):
    x: int
    y: int
    label: str | None = None


class Point3(Point):
    z: int = 0


class Box(Record, frozen=False):
    width: int
    height: int = 1


@dataclasses.dataclass(frozen=True)
class PointDataclass:  # the behaviour Point stands in for
    x: int
    y: int
    label: str | None = None


CALLS: list[tuple[tuple[object, ...], dict[str, object]]] = [
    ((1, 2), {}), ((1, 2, "a"), {}), ((1,), {"y": 2}), ((), {"y": 2, "x": 1, "label": "b"}),
    ((1, 2), {"label": None}),
]


@pytest.mark.parametrize(("values", "named"), CALLS)
def test_a_record_is_built_and_shown_as_a_dataclass_is(
        values: tuple[object, ...], named: dict[str, object]) -> None:
    record, expected = Point(*values, **named), PointDataclass(*values, **named)  # type: ignore[arg-type]
    assert (record.x, record.y, record.label) == dataclasses.astuple(expected)
    assert repr(record) == repr(expected).replace("PointDataclass", "Point")
    assert hash(record) == hash(Point(record.x, record.y, record.label))


BAD_CALLS: list[tuple[tuple[object, ...], dict[str, object]]] = [
    ((1, 2, "a", 4), {}), ((1,), {}), ((), {"y": 2}), ((1, 2), {"colour": 3}),
    ((1, 2), {"x": 1}),
]


@pytest.mark.parametrize(("values", "named"), BAD_CALLS)
def test_a_call_a_dataclass_refuses_is_refused(
        values: tuple[object, ...], named: dict[str, object]) -> None:
    with pytest.raises(TypeError):
        PointDataclass(*values, **named)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Point(*values, **named)  # type: ignore[arg-type]


def test_records_are_equal_by_class_and_fields() -> None:
    assert Point(1, 2) == Point(1, 2, None)
    assert Point(1, 2) != Point(2, 1)
    assert Point(1, 2) != (1, 2, None)
    assert Point3(1, 2) != Point(1, 2)  # a subclass is another kind of record
    assert len({Point(1, 2), Point(1, 2), Point(1, 3)}) == 2


def test_a_subclass_adds_its_fields_after_its_parents() -> None:
    point = Point3(1, 2, z=5)
    assert Point3._fields == ("x", "y", "label", "z")
    assert repr(point) == "Point3(x=1, y=2, label=None, z=5)"
    assert Point3(1, 2).z == 0 and Point3(1, 2).label is None


def test_a_record_has_slots_and_no_dict() -> None:
    with pytest.raises(AttributeError):
        Point(1, 2).__dict__  # noqa: B018 - the absence is what is tested


def test_a_read_only_record_refuses_assignment() -> None:
    point = Point(1, 2)
    with pytest.raises(AttributeError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.y  # type: ignore[misc]
    assert (point.x, point.y) == (1, 2)


def test_a_mutable_record_is_assigned_and_not_hashed() -> None:
    box = Box(2)
    box.height = 3
    assert box == Box(2, 3) and box != Box(2)
    with pytest.raises(TypeError):
        hash(box)


def test_records_copy_and_pickle_whole() -> None:
    for record in (Point(1, 2, "a"), Point3(1, 2, z=3), Box(4, 5)):
        assert pickle.loads(pickle.dumps(record)) == record
        assert copy.deepcopy(record) == record and copy.copy(record) == record


def test_replace_changes_the_fields_named() -> None:
    point = Point(1, 2, "a")
    assert point.replace(y=7) == Point(1, 7, "a")
    assert point == Point(1, 2, "a")
    with pytest.raises(TypeError):
        point.replace(colour=1)


def test_a_mutable_default_is_refused() -> None:
    with pytest.raises(TypeError):
        class Bad(Record):  # the class statement itself must fail
            items: list[int] = []  # noqa: RUF012 - the refused default


def test_a_field_without_a_default_cannot_follow_one_with() -> None:
    with pytest.raises(TypeError):
        class Bad(Record):  # the class statement itself must fail
            x: int = 0
            y: int
