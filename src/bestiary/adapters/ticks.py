"""Call of the Wild on discrete ticks for learners: the core ``Match`` driver, one setting of it.

Every wild adapter drives the game through ``bestiary.core.driver.Match``, as ``bestiary sim``
and a live table do. The one real-time model has one RL setting, ``Pace.learner_every_tick``:
the learners are the Match's outside seats and choose an action (or ``wait``) at every tick;
bots seated in the Match (Gym opponents) decide at their own reaction times, as at a live
table. Within a tick the Match applies everyone's actions one by one in the order its seeded
RNG shuffles; an action that an earlier one in the same tick made illegal (the partner already
met someone else, the Call changed, ...) is skipped and reported, never replaced. Nightfall is
the game's own quiet clock (option ``nightfall_seconds``): ``quiet_ticks`` only chooses the
tick's length in seconds so that Nightfall falls after that many ticks without a meeting
(default: the Pace's 0.35 s ticks, so 343 ticks at the default 120 s).

OpenSpiel makes the tick's order an explicit chance outcome: ``play_tick`` then names the order
and the Match's shuffle follows it (``tick_order.OrderedRandom``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bestiary.adapters.tick_order import OrderedRandom
from bestiary.core.agent import Agent
from bestiary.core.driver import Match, Pace
from bestiary.core.values import by_arguments
from bestiary.wild import GAME, WildAction, WildState

LEARNERS = Pace(learner_every_tick=True)
QUIET_OPTION = "nightfall_seconds"


def pace_for(state: WildState, quiet_ticks: int | None) -> Pace:
    """The learners' Pace; with ``quiet_ticks``, ticks long enough for that Nightfall budget."""
    if quiet_ticks is None:
        return LEARNERS
    if not isinstance(quiet_ticks, int) or isinstance(quiet_ticks, bool) or quiet_ticks < 1:
        raise ValueError(f"the Nightfall budget must be at least one tick, not {quiet_ticks!r}")
    return Pace(tick_seconds=_quiet_seconds(state) / quiet_ticks, learner_every_tick=True)


def _quiet_seconds(state: WildState) -> float:
    """The game's Nightfall clock in seconds (its option, or the option's default)."""
    seconds = state.header()["options"].get(QUIET_OPTION)
    return float(GAME.info.option(QUIET_OPTION).default if seconds is None else seconds)


@dataclass
class TickReport:
    """What one tick did: the outside actions applied, and why the skipped ones were skipped."""

    applied: list[WildAction] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    nightfall: bool = False

    def __init__(  # compiled, as the driver's Played (the dataclass's own runs interpreted)
        self,
        applied: list[WildAction] | None = None,
        skipped: dict[str, str] | None = None,
        nightfall: bool = False,
    ) -> None:
        self.applied = [] if applied is None else applied
        self.skipped = {} if skipped is None else skipped
        self.nightfall = nightfall


class TickedWild:
    """A ``WildState`` played through a ``Match``, the learners acting every tick."""

    def __init__(
        self,
        state: WildState,
        quiet_ticks: int | None = None,
        agents: Mapping[str, Agent] | None = None,
        seed: int = 0,
        match: Match | None = None,
    ) -> None:
        """``match``: a copy's driver (``clone``), already holding ``state`` and its RNG."""
        self.quiet_setting = quiet_ticks
        self.pace = pace_for(state, quiet_ticks)
        if match is None:
            match = Match(GAME, state, agents, seed=seed, pace=self.pace)
            match.rng = OrderedRandom(seed)
        rng = match.rng
        assert isinstance(rng, OrderedRandom)
        self.match = match
        self._rng = rng
        self.quiet_ticks = self.pace.ticks(_quiet_seconds(state))

    @property
    def state(self) -> WildState:
        return self.state_of(self.match)

    @staticmethod
    def state_of(match: Match) -> WildState:
        state = match.state
        assert isinstance(state, WildState)
        return state

    @property
    def ticks(self) -> int:
        return self.match.tick

    @property
    def quiet(self) -> int:
        """Ticks since the last meeting (or the start): public, everyone sees the clock."""
        due = self.match.deadlines().get("quiet")
        return 0 if due is None else self.match.tick - (due - self.quiet_ticks)

    @property
    def quiet_share(self) -> float:
        """How much of the Nightfall budget is spent (0..1)."""
        return min(1.0, self.quiet / self.quiet_ticks)

    def clone(self) -> TickedWild:
        """An independent copy (OpenSpiel clones states): the game, the clock and the RNG."""
        match = self.match.copy(self.match.state.clone())
        rng = OrderedRandom()
        rng.setstate(self._rng.getstate())
        match.rng = rng
        return TickedWild(self.state_of(match), self.quiet_setting, match=match)

    def play_tick(
        self, chosen: Sequence[WildAction | None], order: Sequence[int] | None = None
    ) -> TickReport:
        """One tick: ``chosen[seat]`` for each outside seat (None waits), bots as they wake.

        ``order`` (seat indices) fixes the order of the outside actions; None lets the Match
        shuffle, as it does everywhere.
        """
        players = self.state.players
        outside = {
            players[seat]: action for seat, action in enumerate(chosen) if action is not None
        }
        if order is not None:
            self._rng.order = [players[seat] for seat in order]
        done = self.match.step_tick(outside)
        self._rng.order = None
        applied = [
            outside[p.by] for p in done.played if p.by in outside and p.by not in done.skipped
        ]
        return TickReport(
            applied=applied,
            skipped=dict(done.skipped),
            nightfall=self.state.ending() == "nightfall",
        )


# Copied and pickled through __init__ with its driver (bestiary.core.values: a compiled class
# needs it; OpenSpiel serializes states).
by_arguments(TickedWild, lambda t: (t.state, t.quiet_setting, None, 0, t.match))
