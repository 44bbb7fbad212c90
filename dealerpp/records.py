"""Small records: a class that lists its typed fields and gets the rest.

    class Pos(Record):
        line: int
        column: int

gives ``Pos(3, 7)`` (or ``Pos(line=3, column=7)``), equality and hashing by
the fields in order, ``Pos(line=3, column=7)`` as its repr, copying and
pickling, and ``__slots__`` made from the fields. A record is read-only
unless its class says ``frozen=False``; then it can be assigned to, and is
not hashed. A field given a value in the class body has that default.
A record may write its own ``__init__`` (to check or convert its
arguments) and fill its fields there.

This is what ``dataclasses`` would give, without importing ``dataclasses``
(and ``typing``): that import and its class building cost more than a
one-line script takes to compile. Type checkers read a record as a
dataclass (``dataclass_transform``). The annotations are read as written,
so a module defining records needs ``from __future__ import annotations``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing stays unimported at run time
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar

    from typing_extensions import dataclass_transform

    R = TypeVar("R", bound="Record")
else:
    def dataclass_transform(**_options: object) -> object:
        return lambda cls: cls

_set = object.__setattr__  # fills a read-only record's slots
_MUTABLE_DEFAULTS = (list, dict, set, bytearray)  # shared by every record: refused


class _RecordType(type):
    """Makes a record class: its ``_fields``, defaults and ``__slots__``."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                frozen: bool = True) -> _RecordType:
        if any(isinstance(base, _RecordType) for base in bases):  # not Record itself
            own = _own_fields(name, namespace)
            fields, defaults = _fields_and_defaults(name, bases, own, namespace)
            namespace.update(__slots__=own, _fields=fields, _defaults=defaults)
            if not frozen:
                namespace.setdefault("__hash__", None)  # mutable, compared by value
                namespace.setdefault("__setattr__", object.__setattr__)
                namespace.setdefault("__delattr__", object.__delattr__)
        return super().__new__(mcls, name, bases, namespace)


def _own_fields(name: str, namespace: dict[str, Any]) -> tuple[str, ...]:
    """The fields a record class adds: its annotated names but class variables."""
    annotations = namespace.get("__annotations__")
    if annotations is None and "__annotate_func__" in namespace:
        raise TypeError(f"record {name}: its module needs 'from __future__ import annotations'")
    return tuple(field for field, kind in (annotations or {}).items()
                 if not str(kind).startswith("ClassVar"))


def _fields_and_defaults(name: str, bases: tuple[type, ...], own: tuple[str, ...],
                         namespace: dict[str, Any]) -> tuple[tuple[str, ...], tuple[object, ...]]:
    """All the fields of a record class, its bases' first, and the defaults of
    the last ones (taken out of ``namespace``, where they would clash with
    the slots)."""
    inherited: tuple[str, ...] = ()
    defaults: dict[str, object] = {}
    for base in bases:
        fields, tail = getattr(base, "_fields", ()), getattr(base, "_defaults", ())
        inherited += fields
        defaults.update(zip(fields[len(fields) - len(tail):], tail, strict=True))
    for field in own:
        if field in namespace:
            defaults[field] = namespace.pop(field)
            if isinstance(defaults[field], _MUTABLE_DEFAULTS):
                raise TypeError(f"record {name}: field {field!r} has a mutable default")
    fields = inherited + own
    required = [field for field in fields if field not in defaults]
    if fields[:len(required)] != tuple(required):
        raise TypeError(f"record {name}: a field without a default follows one with")
    return fields, tuple(defaults[field] for field in fields[len(required):])


@dataclass_transform(frozen_default=True)
class Record(metaclass=_RecordType):
    """The base of a record (see the module's docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()  # in order
    _defaults: ClassVar[tuple[object, ...]] = ()  # of the last fields

    def __init__(self, *values: object, **named: object) -> None:
        fields = self._fields
        if named or len(values) != len(fields):
            values = self._completed(values, named)
        for field, value in zip(fields, values):  # noqa: B905 - as many as fields
            _set(self, field, value)

    def _completed(self, values: tuple[object, ...], named: dict[str, object]
                   ) -> tuple[object, ...]:
        """Every field's value, in order: ``values`` first, then ``named`` or
        the defaults."""
        fields, defaults = self._fields, self._defaults
        first_default = len(fields) - len(defaults)
        if not named and first_default <= len(values) <= len(fields):
            return values + defaults[len(values) - first_default:]
        name = type(self).__name__
        if len(values) > len(fields):
            raise TypeError(f"{name} takes {len(fields)} fields, {len(values)} given")
        rest = []
        for index in range(len(values), len(fields)):
            if fields[index] in named:
                rest.append(named.pop(fields[index]))
            elif index >= first_default:
                rest.append(defaults[index - first_default])
            else:
                raise TypeError(f"{name} needs a value for {fields[index]!r}")
        if named:
            raise TypeError(f"{name} has no field {next(iter(named))!r} left to fill")
        return values + tuple(rest)

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, field) for field in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{field}={getattr(self, field)!r}" for field in self._fields)
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        # (pickle and copy would otherwise fill the slots by assignment)
        return (type(self), self._values())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def replace(self: R, **changes: object) -> R:
        """A copy with the given fields changed (as ``dataclasses.replace``)."""
        unknown = changes.keys() - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values = {field: getattr(self, field) for field in self._fields}
        values.update(changes)
        return type(self)(**values)
