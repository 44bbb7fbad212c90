"""``dealerpp.lengths._Lengths`` is written out by hand (no ``collections``
on the start-up path): it must behave as the class ``namedtuple`` makes,
checked against one made here."""

from __future__ import annotations

import copy
import pickle
from collections import namedtuple
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerpp.lengths import Shape

FIELDS = ("spades", "hearts", "diamonds", "clubs")
Reference = namedtuple("Reference", FIELDS)  # the class to compare with

LENGTHS = st.tuples(*[st.integers(0, 13)] * 4)


@given(LENGTHS)
def test_a_shape_is_the_tuple_namedtuple_makes(lengths: tuple[int, int, int, int]) -> None:
    shape, reference = Shape(*lengths), Reference(*lengths)
    assert shape == reference == lengths and hash(shape) == hash(lengths)
    assert [getattr(shape, f) for f in FIELDS] == [getattr(reference, f) for f in FIELDS]
    assert repr(shape) == repr(reference).replace("Reference(", "Shape(")
    assert shape._asdict() == reference._asdict()
    assert Shape(**reference._asdict()) == shape
    assert Shape._make(lengths) == shape and type(Shape._make(lengths)) is Shape
    assert shape._replace(clubs=9) == reference._replace(clubs=9)
    assert type(shape._replace(spades=1)) is Shape
    assert pickle.loads(pickle.dumps(shape)) == shape
    assert type(copy.copy(shape)) is Shape and copy.deepcopy(shape) == shape
    match shape:
        case Shape(s, h, d, c):
            assert (s, h, d, c) == lengths


def test_the_class_attributes_are_namedtuples() -> None:
    assert Shape._fields == Reference._fields == Shape.__match_args__
    assert Shape._field_defaults == {}
    assert Shape.spades.__doc__ == Reference.spades.__doc__
    assert not hasattr(Shape(1, 2, 3, 7), "__dict__")


MISTAKES = [
    lambda cls: cls._make((1, 2, 3)), lambda cls: cls._make((1, 2, 3, 4, 5)),
    lambda cls: cls(1, 2, 3), lambda cls: cls(1, 2, 3, 4, 5),
    lambda cls: cls(1, 2, 3, 7)._replace(north=1), lambda cls: cls(1, 2, 3, 7)._replace(1),
]


@pytest.mark.parametrize("mistake", MISTAKES)
def test_mistakes_raise_as_namedtuples_do(mistake: Callable[[type], object]) -> None:
    with pytest.raises((TypeError, ValueError)) as ours:
        mistake(Shape)
    with pytest.raises((TypeError, ValueError)) as theirs:
        mistake(Reference)
    assert ours.type is theirs.type
