"""Writing an observation into a row of a vector env's batch array.

A row is a memoryview of the float32 batch array: every item written to it is one generic
buffer write (about a fifth of a microsecond), far dearer than an item of a Python list. So the
encoders count into a list of whole numbers first and the row gets only the entries that are
not zero, once each (an observation is mostly zeros: a hand, a few sets, a few flags).

>>> row = [0.0] * 4
>>> write_nonzero(row, [0, 2, 0, 1])
>>> row
[0.0, 2, 0.0, 1]
"""

from __future__ import annotations

from collections.abc import MutableSequence


def write_nonzero(row: MutableSequence[float] | bytearray, counts: list[int]) -> None:
    """Write ``counts``' non-zero entries into ``row`` (zeroed), at the same positions.

    A ``bytearray`` takes an item for half a memoryview row's cost (critters' vector env
    keeps its observations in them, copied into its batch once per step); it refuses a count
    over 255 with ValueError.
    """
    for j in range(len(counts)):
        value = counts[j]
        if value:
            row[j] = value
