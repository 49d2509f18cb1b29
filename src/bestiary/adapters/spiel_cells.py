"""Cheap copies for OpenSpiel's ``clone()`` of Python states.

OpenSpiel clones a Python state by deep-copying its attributes. Deep-copying an engine state,
its interned actions and encoding caches costs milliseconds; ISMCTS clones at every
simulation. A ``Cell`` holds a value that a deep copy copies with the value's own cheap copy
(``WildState.clone``, ``list.copy``), and shared tables are not copied at all. ``Tables``
keeps each parameter set's table where every state finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Cell(Generic[T]):
    """A value that ``copy.deepcopy`` copies with ``copy`` instead of walking it."""

    __slots__ = ("copy", "value")

    def __init__(self, value: T, copy: Callable[[T], T]) -> None:
        self.value = value
        self.copy = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Cell[T]:
        return Cell(self.copy(self.value), self.copy)


class Shared:
    """A mixin for fixed tables that every copy of a state may share."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class Tables(Generic[T]):
    """The (cached) table of each parameter set, called as ``table_for(params)``.

    Kept outside the pybind11 game object: Python attributes of a game that only C++ holds
    are lost, so states look their table up by the game's parameters.
    """

    def __init__(self, defaults: Mapping[str, Any], make: Callable[[dict[str, Any]], T]) -> None:
        self.defaults = dict(defaults)
        self.make = make
        self.made: dict[tuple[tuple[str, Any], ...], T] = {}

    def __call__(self, params: Mapping[str, Any]) -> T:
        key = tuple(sorted({**self.defaults, **params}.items()))
        table = self.made.get(key)
        if table is None:
            table = self.made[key] = self.make(dict(key))
        return table
