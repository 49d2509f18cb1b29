"""Cheap copies for OpenSpiel's ``clone()`` of Python states.

OpenSpiel clones a Python state by deep-copying its attributes. Deep-copying an engine state,
its interned actions and encoding caches costs milliseconds; ISMCTS clones at every
simulation. A ``Cell`` holds a value that a deep copy copies with the value's own cheap copy
(``WildState.clone``, ``list.copy``), and shared tables are not copied at all.
"""

from __future__ import annotations

from collections.abc import Callable
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
