"""How a table runs (its settings, apart from the game's own options) and its clock.

``TableSettings`` is stored with a table; ``TableClock`` is the wall clock and scheduler a live
table runs on (tests step a fake one).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bestiary.core.driver import Pace

_PACE = Pace()


@dataclass(frozen=True)
class TableSettings:
    """How the table runs, apart from the game's own options (all in seconds).

    ``tick_seconds`` and ``answer_seconds`` are the core's one real-time model (``Pace``), with
    its defaults; ``think_seconds`` is a bot's time budget for one decision (None: the time a
    bot waits before it acts, see :meth:`budget`): the stand-in is the strongest bot that
    decides within it (``core.agent.default_bot``).
    """

    answer_seconds: float = _PACE.answer_seconds  # critters: an unanswered action is `allow`
    grace_seconds: float = 30.0  # a seat left empty this long is played by a bot
    tick_seconds: float = _PACE.tick_seconds  # one tick of the driver's clock, live
    stand_in: str | None = None  # which bot stands in; None = default_bot within think_seconds
    think_seconds: float | None = None
    # the bots' pace, one of the driver's PACES (the lobby's "Bots' pace", `serve --pace`): a
    # person's pace while a person sits at the table, the lab's at a table of bots only
    bots_pace: str = "normal"
    # turn-based games: seconds a bot's move waits, over the pace's own (None: the pace's; the
    # API's `bot_pause`, which tests use to run a critters table quickly or slowly)
    bot_pause: float | None = None
    # turn-based games: a person's turn clock; when it runs out, a bot makes that one move for
    # them and the log says so (None: no clock, the table waits)
    turn_seconds: float | None = 90.0

    @property
    def pace(self) -> Pace:
        pace = Pace.chosen(self.bots_pace, self.tick_seconds, self.answer_seconds, people=None)
        if self.bot_pause is None:
            return pace
        # at least a tick: a pause of 0 ticks would play every bot's turn at the same instant
        pause = max(1, round(self.bot_pause / self.tick_seconds))
        return replace(pace, turn_pause_ticks=pause, person_turn_pause_ticks=pause)

    def budget(self, real_time: bool) -> float:
        """A decision's time budget: the shortest reaction of a real-time bot (0.7 s by
        default), the pause before a turn-based bot moves (1 s), or ``think_seconds``."""
        if self.think_seconds is not None:
            return self.think_seconds
        pace = self.pace
        return pace.seconds(min(pace.reaction_ticks) if real_time else pace.turn_pause_ticks)

    def as_json(self) -> dict[str, Any]:
        return {
            "answer_seconds": self.answer_seconds,
            "grace_seconds": self.grace_seconds,
            "tick_seconds": self.tick_seconds,
            "stand_in": self.stand_in,
            "think_seconds": self.think_seconds,
            "bots_pace": self.bots_pace,
            "bot_pause": self.bot_pause,
            "turn_seconds": self.turn_seconds,
        }

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> TableSettings:
        """Settings as stored with a table (keys this version does not know are ignored)."""
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in stored.items() if k in known})


class Handle(Protocol):
    def cancel(self) -> None: ...


class TableClock:
    """A table's time: monotonic seconds, and a scheduler. Tests step a fake one."""

    def now(self) -> float:
        return time.monotonic()

    def later(self, delay: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(delay, callback)
