"""Copying and pickling the engines' values the same way, compiled or pure.

A compiled (mypyc) class is made only through its ``__init__``, and a frozen one refuses the
attribute-by-attribute restore that ``copy`` and ``pickle`` use by default (OpenSpiel deep-copies
and serializes states, multiprocessing pickles results). So each frozen value is registered with
``copyreg`` to be rebuilt from its fields; pure Python classes take the same path.

>>> import copy, pickle
>>> from bestiary.wild.actions import Call
>>> call = Call("ann", "fox", "owl")
>>> pickle.loads(pickle.dumps(call)) == copy.deepcopy(call) == call
True
"""

from __future__ import annotations

import copyreg
import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def by_fields(*classes: type) -> None:
    """Copy and pickle each of these dataclasses by calling it with its fields."""
    for cls in classes:
        copyreg.pickle(cls, _from_fields)


def by_arguments(cls: type[T], arguments: Callable[[T], tuple[Any, ...]]) -> None:
    """Copy and pickle ``cls`` by calling it with ``arguments(value)``."""
    copyreg.pickle(cls, lambda value: (type(value), arguments(value)))


def _from_fields(value: Any) -> tuple[Any, tuple[Any, ...]]:
    fields = dataclasses.fields(value)
    return type(value), tuple(getattr(value, f.name) for f in fields if f.init)
