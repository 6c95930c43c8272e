"""Small helpers for ``from_wire``: type and count checks that name the field."""

from __future__ import annotations

from .errors import InvalidEncoding
from .group import Point, Scalar

__all__ = ["as_list", "as_point", "as_scalar", "as_points", "as_scalars", "as_received_point",
           "as_received_points"]


def as_list(data: object, field: str, count: int) -> list[object]:
    """``data`` as a list (or tuple) of exactly ``count`` items; :class:`InvalidEncoding`
    naming ``field`` otherwise."""
    if not isinstance(data, list | tuple):
        raise InvalidEncoding(f"{field} must be a list, got {type(data).__name__}")
    if len(data) != count:
        raise InvalidEncoding(f"{field} must have {count} items, got {len(data)}")
    return list(data)


def as_point(data: object, field: str) -> Point:
    return Point.from_bytes(data, field)


def as_received_point(data: object, field: str) -> Point:
    """A point that a proof verification multiplies by a scalar: validated by that
    multiplication, once (:meth:`Point.received`)."""
    return Point.received(data, field)


def as_received_points(data: object, field: str, count: int) -> tuple[Point, ...]:
    """:func:`as_points` for points that a proof verification multiplies by a scalar."""
    items = as_list(data, field, count)
    return tuple(Point.received(x, f"{field}[{i}]") for i, x in enumerate(items))


def as_scalar(data: object, field: str) -> Scalar:
    return Scalar.from_bytes(data, field)


def as_points(data: object, field: str, count: int) -> tuple[Point, ...]:
    items = as_list(data, field, count)
    return tuple(Point.from_bytes(x, f"{field}[{i}]") for i, x in enumerate(items))


def as_scalars(data: object, field: str, count: int) -> tuple[Scalar, ...]:
    items = as_list(data, field, count)
    return tuple(Scalar.from_bytes(x, f"{field}[{i}]") for i, x in enumerate(items))
