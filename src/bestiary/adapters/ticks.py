"""Call of the Wild on discrete ticks, the time model of every adapter for wild.

Wild has no turns. In simulation time is cut into ticks: in each tick every seat chooses one
action or ``wait``; the chosen actions are applied one by one in an order drawn at random for
that tick. An action that an earlier one in the same tick made illegal (the partner already
met someone else, the Call changed, ...) is skipped and counts as a wait: it is reported, never
replaced by another action. When ``quiet_ticks`` ticks pass without a meeting, Nightfall ends
the game (RULINGS.md: the tick budget of simulation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bestiary.core.errors import IllegalAction
from bestiary.wild import Nightfall, WildAction, WildState

DEFAULT_QUIET_TICKS_PER_PLAYER = 25


@dataclass
class TickReport:
    """What one tick did: the actions applied, and why the skipped ones were skipped."""

    applied: list[WildAction] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    nightfall: bool = False


class TickedWild:
    """A ``WildState`` driven tick by tick, with the Nightfall clock."""

    def __init__(self, state: WildState, quiet_ticks: int | None = None) -> None:
        n = len(state.players)
        self.state = state
        self.quiet_ticks = quiet_ticks or DEFAULT_QUIET_TICKS_PER_PLAYER * n
        if self.quiet_ticks < 1:
            raise ValueError("the Nightfall budget must be at least one tick")
        self.ticks = 0
        self.quiet = 0

    @property
    def quiet_share(self) -> float:
        """How much of the Nightfall budget is spent (0..1): public, everyone sees the clock."""
        return self.quiet / self.quiet_ticks

    def clone(self) -> TickedWild:
        other = TickedWild(self.state.clone(), self.quiet_ticks)
        other.ticks = self.ticks
        other.quiet = self.quiet
        return other

    def play_tick(self, chosen: Sequence[WildAction | None], order: Sequence[int]) -> TickReport:
        """Apply ``chosen[seat]`` for each seat in ``order`` (None waits), then run the clock."""
        state = self.state
        report = TickReport()
        met = len(state.meetings)
        for seat in order:
            action = chosen[seat]
            if action is None or state.is_over:
                continue
            try:
                state.apply(action)
            except IllegalAction as err:
                report.skipped[state.players[seat]] = str(err)
            else:
                report.applied.append(action)
        self.ticks += 1
        if state.is_over:
            return report
        self.quiet = 0 if len(state.meetings) != met else self.quiet + 1
        if self.quiet >= self.quiet_ticks:
            state.apply(Nightfall())
            report.nightfall = True
        return report
