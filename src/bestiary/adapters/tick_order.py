"""The ``Match``'s RNG on discrete ticks, whose next shuffle may be told the order.

Apart from ``ticks`` because it subclasses ``random.Random``: ``ticks`` is compiled (mypyc),
and a compiled class cannot extend a Python one, so this one stays interpreted (as
``core.errors`` does for the driver's exceptions).
"""

from __future__ import annotations

import random
from typing import Any


class OrderedRandom(random.Random):
    """A ``random.Random``; its next shuffle follows ``order`` if set (OpenSpiel's chance
    outcome names the order of a tick's actions)."""

    order: list[str] | None = None

    def shuffle(self, x: Any) -> None:
        if self.order is None:
            super().shuffle(x)
            return
        rank = {p: i for i, p in enumerate(self.order)}
        x[:] = sorted(x, key=lambda p: rank.get(p, len(rank)))
        self.order = None
