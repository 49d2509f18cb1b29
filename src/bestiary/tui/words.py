"""Every event of a game said in words, for the log beside the table: the ``LogLine``.

Each game's terminal board says its own events (``Board.line``, in its board module). The
words are given an event already redacted for the one who reads them (``core.game.redacted``,
the one filter), so they can only say what that reader may know. A hidden card is named only
when the event still carries it and the reader is not the one who played it (they hold it
already): the replay viewer's show-everything mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Event = dict[str, Any]


@dataclass(frozen=True)
class LogLine:
    """One line of the table's narration; ``to_you`` lines stand out on screen."""

    text: str
    to_you: bool = False
