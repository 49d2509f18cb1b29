"""What a seated player missed while away: kept for them, handed over when they come back.

While a seat of a game in play has no socket, the table keeps that seat's own form of every new
event (each with its ``seq``; the events its stand-in bot made carry ``stand_in``) and the
seat's view from when it left, so that the returning client can tell what happened in between
as sentences, its stand-in's moves marked as the stand-in's. Memory only, bounded: after
``LIMIT`` events the oldest go (``dropped`` says how many), and a server restart forgets it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bestiary.core.records import Event

LIMIT = 400  # events kept per absent seat (a whole wild game is about 150-300)


@dataclass
class Absence:
    since: int  # the seq of the last event the seat saw
    view: Any  # the seat's view then (what the client narrates the missed events from)
    events: list[Event] = field(default_factory=list)
    dropped: int = 0

    def message(self) -> dict[str, Any]:
        """The ``away`` message to the returning seat (docs/protocol.md)."""
        return {
            "type": "away",
            "since": self.since,
            "view": self.view,
            "events": self.events,
            "dropped": self.dropped,
        }


class AwayLog:
    """Each absent seat's missed events, by player name."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._absent: dict[str, Absence] = {}

    def left(self, player: str, seq: int, view: Any) -> None:
        """``player``'s last socket went at ``seq``, seeing ``view`` (a later call: no change)."""
        self._absent.setdefault(player, Absence(seq, view))

    def missing(self) -> list[str]:
        return list(self._absent)

    def add(self, player: str, first_seq: int, events: list[Event]) -> None:
        """``player``'s form of new events, the first of them numbered ``first_seq``."""
        absence = self._absent[player]
        absence.events.extend({**e, "seq": first_seq + i} for i, e in enumerate(events))
        over = len(absence.events) - self.limit
        if over > 0:
            del absence.events[:over]
            absence.dropped += over

    def back(self, player: str) -> Absence | None:
        """``player`` came back: what they missed (None if nothing was kept), forgotten here."""
        return self._absent.pop(player, None)
