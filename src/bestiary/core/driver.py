"""The one match driver: every front end plays every game through ``Match``.

Time is counted in ticks. A live server turns wall time into ticks (``tick_seconds`` each);
simulation, the RL adapters, the terminal and the demo count them directly. Whatever drives
the clock, the same seed and the same ticks give the same game, because everything a table
does by itself happens here, at a tick, in a seeded order:

- **bots** decide at their wake tick. In a real-time game every bot wakes again a reaction
  time after its last decision (drawn from ``Pace.reaction_ticks`` at a table of bots only;
  where a person sits, from ``Pace.person_reaction_ticks``, and a reaction time after the first
  change it has not yet acted on: see ``Pace``). Reaction times are independent of the cards:
  timing never tells a hand. In a turn-based game a bot wakes ``Pace.turn_pause_ticks`` after
  the turn (or the answer) became its own.
- **chance** is sampled the moment it is due, with the table's seeded RNG.
- **timers**: the quiet clock of a real-time game (wild's Nightfall: ``GameInfo.quiet_option``
  seconds without progress) and the answer clock (a player who lets ``Pace.answer_seconds`` pass
  is answered for by the game's ``timeout_action``, critters' ``allow``).

Bots due at the same tick act one after another in an order shuffled by the table's RNG; each
sees what the previous ones did. Timers due at a tick run after its bots.

>>> from bestiary.core.game import get_game
>>> from bestiary.core.agent import make_bot
>>> game = get_game("critters")
>>> state = game.new_game(["ann", "bo"], seed=3)
>>> bots = {p: make_bot("critters", "random", p, seed=i) for i, p in enumerate(state.players)}
>>> match = Match(game, state, bots, seed=9)
>>> _ = match.play()
>>> state.is_over
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.agent import Agent
from bestiary.core.chance import pick, shuffle
from bestiary.core.errors import BotFault as BotFault  # with the errors: stays interpreted
from bestiary.core.errors import IllegalAction
from bestiary.core.game import Game, State
from bestiary.core.info import OptionSpec
from bestiary.core.records import Event
from bestiary.core.values import by_fields

# Safety caps: a faulty bot (or one that always waits) can never hang a driver.
MAX_TICKS = 200_000
MAX_DECISIONS = 20_000


# The table's pace choices (the lobby's "Bots' pace", `bestiary serve --pace`): what each one
# sets of ``Pace`` is in ``Pace.chosen``.
PACES = ("normal", "slow", "fast")


@dataclass(frozen=True)
class Pace:
    """The one real-time model, with its documented defaults (docs/driver.md).

    A tick is ``tick_seconds`` of wall time at a live table. Bots keep one of two paces:

    - **the lab's** (``bestiary sim``, every table of bots only): a bot in a real-time game
      decides again ``reaction_ticks`` (2 to 6 ticks, 0.7 to 2.1 s) after each decision,
      whatever happened meanwhile: as fast as the driver allows;
    - **a person's** (a table where a person sits): a bot also decides again after each
      decision, but a change made by someone else (a Call, an ask, a meeting) is noticed like a
      person notices it: the bot answers ``person_reaction_ticks`` (2.8 to 5.6 s by default)
      after the first change it has not yet acted on, never sooner. So no bot snaps up a Call
      before a person could have read it, and a person's Call is answered as soon as a bot's.

    ``people`` says which: False, the lab's pace at every table (the default: simulation, the
    RL adapters); True, a person's pace at every table (``bestiary sim --pace live``, so a
    designer can measure what a live table plays); None, a person's pace exactly when a seat
    belongs to a person (a live table: the pace follows who sits there).
    A bot in a turn-based game moves ``turn_pause_ticks`` (the lab's) or
    ``person_turn_pause_ticks`` after its turn begins.
    ``learner_every_tick`` is the RL setting: outside seats (learners) act every tick.
    """

    tick_seconds: float = 0.35
    reaction_ticks: tuple[int, ...] = (2, 3, 4, 5, 6)
    turn_pause_ticks: int = 3
    answer_seconds: float = 30.0
    learner_every_tick: bool = False
    people: bool | None = False
    person_reaction_ticks: tuple[int, ...] = tuple(range(8, 17))
    person_turn_pause_ticks: int = 3

    def __post_init__(self) -> None:
        if not (math.isfinite(self.tick_seconds) and self.tick_seconds > 0):
            raise ValueError("a tick must last a positive number of seconds")
        for reactions in (self.reaction_ticks, self.person_reaction_ticks):
            if not reactions or min(reactions) < 1:
                raise ValueError("reaction times must be at least one tick")
        if min(self.turn_pause_ticks, self.person_turn_pause_ticks) < 0:
            raise ValueError("the turn pause cannot be negative")

    @classmethod
    def chosen(
        cls,
        choice: str = "normal",
        tick_seconds: float = 0.35,
        answer_seconds: float = 30.0,
        people: bool | None = None,
    ) -> Pace:
        """A table's pace by its name in ``PACES`` (a person's pace follows who sits there):

        - ``normal``: a wild bot answers a change 2.8 to 5.6 s after it (8 to 16 ticks), a
          critters bot moves 1.05 s (3 ticks) after its turn begins;
        - ``slow``: 4.2 to 8.4 s (12 to 24 ticks), and 2.8 s (8 ticks);
        - ``fast``: the lab's pace even with people seated (2 to 6 ticks), and one tick.

        These are seconds at the default 0.35 s tick, held as whole ticks (rounded up), as the
        lab's reaction is: a table with another ``tick_seconds`` (``serve --tick``) runs the
        same game on a faster or slower clock.
        """
        if choice not in PACES:
            raise ValueError(f"the pace must be one of {', '.join(PACES)}, not {choice!r}")
        base = cls()  # the default tick, which the seconds above are given in
        if choice == "fast":
            return cls(
                tick_seconds=tick_seconds,
                answer_seconds=answer_seconds,
                turn_pause_ticks=base.ticks(0.35),
                people=False,
            )
        react, pause = {"normal": ((2.8, 5.6), 1.0), "slow": ((4.2, 8.4), 2.5)}[choice]
        return cls(
            tick_seconds=tick_seconds,
            answer_seconds=answer_seconds,
            people=people,
            person_reaction_ticks=base.span(*react),
            person_turn_pause_ticks=base.ticks(pause),
        )

    def span(self, low: float, high: float) -> tuple[int, ...]:
        """Every whole number of ticks from ``low`` to ``high`` seconds."""
        return tuple(range(self.ticks(low), self.ticks(high) + 1))

    def ticks(self, seconds: float) -> int:
        """``seconds`` as a whole number of ticks (at least one)."""
        return max(1, math.ceil(seconds / self.tick_seconds - 1e-9))

    def seconds(self, ticks: int) -> float:
        return ticks * self.tick_seconds


def pace_option(real_time: bool, default: str = "normal", tick_seconds: float = 0.35) -> OptionSpec:
    """The table option ``pace`` as the lobby offers it, each choice in the model's numbers
    (in seconds at the table's tick)."""

    def said(choice: str) -> str:
        pace = Pace.chosen(choice, tick_seconds=tick_seconds)
        if real_time:
            lo, hi = pace.person_reaction_ticks[0], pace.person_reaction_ticks[-1]
            if choice == "fast":
                lo, hi = pace.reaction_ticks[0], pace.reaction_ticks[-1]
                return f"fast, as in the lab ({_s(pace, lo)} to {_s(pace, hi)} s)"
            return f"{choice}, {_s(pace, lo)} to {_s(pace, hi)} s"
        ticks = pace.turn_pause_ticks if choice == "fast" else pace.person_turn_pause_ticks
        return f"{choice}, {_s(pace, ticks)} s"

    what = "a bot answers what changed" if real_time else "a bot waits before its move"
    return OptionSpec(
        "pace",
        "choice",
        default,
        choices=PACES,
        description=f"Bots' pace ({what}: {'; '.join(said(c) for c in PACES)})",
    )


def _s(pace: Pace, ticks: int) -> str:
    return f"{pace.seconds(ticks):g}"


@dataclass
class Played:
    """What happened at one tick: who acted (None: the table) and the events it produced."""

    tick: int
    by: str | None
    events: list[Event]

    # Its own __init__ (the dataclass keeps it): mypyc compiles it, while the one dataclasses
    # writes runs interpreted, about four times dearer (one Played per action).
    def __init__(self, tick: int, by: str | None, events: list[Event]) -> None:
        self.tick = tick
        self.by = by
        self.events = events


@dataclass
class TickReport:
    """One tick stepped with outside actions (RL): what was applied, what was skipped and why."""

    played: list[Played] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)

    def __init__(  # compiled, as Played's (one per learner tick)
        self, played: list[Played] | None = None, skipped: dict[str, str] | None = None
    ) -> None:
        self.played = [] if played is None else played
        self.skipped = {} if skipped is None else skipped


# Every attribute of a Match but its game and state (what pickling keeps; _copy copies them).
_FIELDS = (
    "pace",
    "rng",
    "strict",
    "real_time",
    "people",
    "person_paced",
    "_pause",
    "_noticed",
    "_noticing",
    "tick",
    "decisions",
    "faults",
    "agents",
    "_wake",
    "_progress",
    "_last_progress",
    "_quiet_ticks",
    "_asked",
    "_answers",
)


class LazyView(Mapping[str, Any]):
    """``state.view(player)``, built the first time a bot reads it, no more than that view.

    Given to a bot whose class sets ``lazy_view = True`` (a random bot reads its view rarely if
    at all): building views is a large part of a wild learner tick in the vector env, whose
    opponents are random bots. Until the view is built, a key is asked of
    the state's optional ``view_part(player, key)`` first (``State``): a game answers there the
    keys it can give without the rest of the view (wild: the Calls heard) and raises KeyError
    for the others, which are then read from the whole view.
    """

    __slots__ = ("_player", "_state", "_view")

    def __init__(self, state: State, player: str) -> None:
        self._state = state
        self._player = player
        self._view: dict[str, Any] | None = None

    def _built(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._state.view(self._player)
        return self._view

    def __getitem__(self, key: str) -> Any:
        if self._view is None:
            part = getattr(self._state, "view_part", None)
            if part is not None:
                try:
                    return part(self._player, key)
                except KeyError:
                    pass  # not a part the game gives alone
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


class Match:
    """One game being played by any mix of bots and outside players (people, learners).

    ``agents`` maps seats to bots; every other seat acts only through ``submit`` (or the
    ``outside`` actions of ``step_tick``). ``strict`` (simulation) turns a bot's refused action
    into BotFault; a live table (``strict=False``) logs it through ``faults`` and goes on.
    """

    def __init__(
        self,
        game: Game,
        state: State,
        agents: Mapping[str, Agent] | None = None,
        seed: int = 0,
        pace: Pace | None = None,
        strict: bool = True,
        copy_of: Match | None = None,
    ) -> None:
        if copy_of is not None:  # copy(): a compiled (mypyc) Match is made only by __init__
            self._copy(copy_of, state)
            return
        self.game = game
        self.state = state
        self.pace = pace or Pace()
        self.rng = random.Random(seed)
        self.strict = strict
        self.real_time = game.info.real_time
        # The seats of people: every seat without a bot when play begins (a stand-in who
        # plays for an absent person later keeps that person's pace).
        self.people = frozenset(p for p in state.players if p not in (agents or {}))
        chosen = self.pace.people
        self.person_paced = bool(self.people) if chosen is None else chosen
        self._pause = (
            self.pace.person_turn_pause_ticks if self.person_paced else self.pace.turn_pause_ticks
        )
        self._noticed: set[str] = set()  # bots answering a change at their wake (a person's pace)
        self._noticing = self.person_paced and self.real_time
        self.tick = 0
        self.decisions = 0
        self.faults: list[str] = []
        self.agents: dict[str, Agent] = {}
        self._wake: dict[str, int] = {}
        self._progress = state.progress
        self._last_progress = 0
        self._quiet_ticks = self._quiet_budget()
        self._asked: dict[str, int] = {}  # outside players to act, since which tick
        # Outside players' waits are tracked only in a game that answers for a slow player.
        self._answers = game.info.answer_timeout
        for player in state.players:
            agent = (agents or {}).get(player)
            if agent is not None:
                self.set_agent(player, agent)
        self._settle([])

    def copy(self, state: State) -> Match:
        """This match on ``state`` (a clone of its state): clock, wake ticks, timers and seats
        copied; the game, pace, bots and RNG shared (give the copy its own ``rng`` if it must
        draw apart: OpenSpiel's clone in bestiary.adapters.ticks does)."""
        return Match(self.game, state, pace=self.pace, strict=self.strict, copy_of=self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and deep-copied) as a new match on its state given its fields: a compiled
        (mypyc) Match is made only through its __init__ (OpenSpiel serializes states)."""
        kept = {name: getattr(self, name) for name in _FIELDS}
        return type(self), (self.game, self.state), kept

    def _copy(self, other: Match, state: State) -> None:
        # Every attribute __init__ sets (tests/test_core_driver.py checks that none is missed).
        self.game = other.game
        self.state = state
        self.pace = other.pace
        self.rng = other.rng
        self.strict = other.strict
        self.real_time = other.real_time
        self.people = other.people
        self.person_paced = other.person_paced
        self._pause = other._pause
        self._noticed = set(other._noticed)
        self._noticing = other._noticing
        self.tick = other.tick
        self.decisions = other.decisions
        self.faults = other.faults[:]
        self.agents = dict(other.agents)
        self._wake = dict(other._wake)
        self._progress = other._progress
        self._last_progress = other._last_progress
        self._quiet_ticks = other._quiet_ticks
        self._asked = dict(other._asked)
        self._answers = other._answers

    # ------------------------------------------------------------------ seats

    def set_agent(self, player: str, agent: Agent | None) -> None:
        """Put a bot in ``player``'s seat (a stand-in), or take it out (None: a person is back)."""
        if agent is None:
            self.agents.pop(player, None)
            self._wake.pop(player, None)
            self._noticed.discard(player)
        else:
            self.agents[player] = agent
            self._asked.pop(player, None)
            if self.real_time:
                self._wake[player] = self.tick + self._reaction()
        self._schedule_turns()

    # ------------------------------------------------------------------ the clock

    def next_due(self) -> int | None:
        """The tick at which the table will next do something by itself (None: never)."""
        if self.state.is_over:
            return None
        due = [*self._wake.values()]
        if self._quiet_ticks is not None:
            due.append(self._last_progress + self._quiet_ticks)
        limit = self._answer_ticks()
        if limit is not None:
            due.extend(since + limit for since in self._answer_waits())
        return max(min(due), self.tick) if due else None

    def advance(self, to_tick: int, most: int | None = None) -> list[Played]:
        """Run everything due up to ``to_tick`` (the live clock's now); what was played.

        ``most`` bounds the work of one call (a live table's, on the event loop): once that
        many actions are played no further tick is begun (a tick's movers always finish), the
        clock stays at the last tick run and the rest is still due for the next call. However
        far behind its clock a table is, one call never plays a whole game.
        """
        played: list[Played] = []
        while not self.state.is_over:
            due = self.next_due()
            if due is None or due > to_tick:
                break
            if most is not None and len(played) >= most:
                return played
            self._run_tick(due, {}, played, None)
        self.tick = max(self.tick, to_tick)
        return played

    def play(self, max_ticks: int = MAX_TICKS) -> list[Played]:
        """Play on to the end with no outside player (simulation); what was played.

        A game still going at ``max_ticks`` gets the game's quiet action (wild: Nightfall),
        or stops where it is if it has none.
        """
        played: list[Played] = []
        while not self.state.is_over:
            due = self.next_due()
            if due is None or due > max_ticks or self.decisions >= MAX_DECISIONS:
                break
            self._run_tick(due, {}, played, None)
        if not self.state.is_over:
            quiet = self.state.quiet_action()
            if quiet is not None:
                self.tick = max(self.tick, min(max_ticks, self.tick + 1))
                self._apply(None, quiet, played)
        return played

    def step_tick(self, outside: Mapping[str, Any | None]) -> TickReport:
        """One tick with these outside actions (None waits), in the tick's shuffled order.

        The RL adapters' step: learners act every tick (``Pace.learner_every_tick``). An
        outside action that an earlier one in the same tick made illegal is skipped and
        reported, never replaced.
        """
        report = TickReport()
        if not self.state.is_over:
            self._run_tick(self.tick + 1, outside, report.played, report)
        return report

    # ------------------------------------------------------------------ outside players

    def submit(self, player: str, action: Any) -> list[Event]:
        """A person's (or any outside player's) action now; IllegalAction if refused. The
        events it made, then those of the chance it made due (a reshuffle), in order."""
        if player in self.agents:
            raise IllegalAction(f"{player}'s seat is being played by a bot")
        by = getattr(action, "by", None)
        if by != player:
            raise IllegalAction(f"you play {player}, not {by!r}")
        played: list[Played] = []
        self._apply(player, action, played)
        return [event for step in played for event in step.events]

    # ------------------------------------------------------------------ inside a tick

    def _run_tick(
        self,
        tick: int,
        outside: Mapping[str, Any | None],
        played: list[Played],
        report: TickReport | None,
    ) -> None:
        self.tick = tick
        state = self.state
        bots = [p for p in state.players if self._wake.get(p, tick + 1) <= tick]
        movers: list[str] = [p for p in state.players if outside.get(p) is not None]
        movers += bots
        if len(movers) > 1:
            shuffle(self.rng, movers)
        for player in movers:
            if state.is_over:
                break
            if player in outside:
                self._outside_move(player, outside[player], played, report)
            elif self._noticing and self._wake.get(player, tick + 1) > tick:
                continue  # a change earlier in this tick: answered a reaction time from now
            else:
                self._bot_move(player, played)
        if not state.is_over:
            self._timers(played)

    def _outside_move(
        self, player: str, action: Any, played: list[Played], report: TickReport | None
    ) -> None:
        try:
            self._apply(player, action, played)
        except IllegalAction as err:
            if report is not None:
                report.skipped[player] = str(err)

    def _bot_move(self, player: str, played: list[Played]) -> None:
        state = self.state
        agent = self.agents[player]
        self._noticed.discard(player)
        if self.real_time:
            self._wake[player] = self.tick + self._reaction()
        else:
            self._wake.pop(player, None)
        legal = state.legal_actions(player)
        if not legal:
            return
        self.decisions += 1
        # A bot that reads its view only now and then gets it built on first read.
        view = LazyView(state, player) if getattr(agent, "lazy_view", False) else state.view(player)
        action = agent.act(view, legal)
        if action is None:
            if not self.real_time:
                self._fault(f"bot for {player} made no move when it had to")
                self._wake[player] = self.tick + max(1, self._pause)
            return
        try:
            self._apply(player, action, played)
        except IllegalAction as err:
            self._fault(f"bot for {player} played {action!r}, which is refused: {err}")
            if not self.real_time:
                self._wake[player] = self.tick + max(1, self._pause)

    def _fault(self, text: str) -> None:
        if self.strict:
            raise BotFault(text)
        self.faults.append(text)

    def _timers(self, played: list[Played]) -> None:
        state = self.state
        if self._quiet_ticks is not None and self.tick >= self._last_progress + self._quiet_ticks:
            quiet = state.quiet_action()
            if quiet is not None:
                self._apply(None, quiet, played)
                return
        limit = self._answer_ticks()
        if limit is None:
            return
        for player, since in list(self._asked.items()):
            answer = state.timeout_action(player)
            if answer is not None and self.tick >= since + limit:
                self._apply(None, answer, played, by=player)
                return

    def _apply(
        self, player: str | None, action: Any, played: list[Played], by: str | None = None
    ) -> None:
        events = self.state.apply(action)
        played.append(Played(self.tick, by or player, events))
        self._settle(played)
        if self._noticing:
            self._notice(by or player)

    def _notice(self, actor: str | None) -> None:
        """A person's pace: every bot answers this change a reaction time from now, unless it
        is already answering an earlier one (then it acts at that one's time, seeing everything
        since, as a person who was already about to move does). A bot's own move is such a
        change for itself: its next decision is already due a reaction time after it."""
        if actor in self._wake:
            self._noticed.add(actor)
        for player in self.state.players:
            if player not in self._noticed and player in self._wake:
                self._noticed.add(player)
                self._wake[player] = self.tick + self._reaction()

    def _settle(self, played: list[Played]) -> None:
        """After any change: chance that is due, the quiet clock, whose turn it now is."""
        state = self.state
        while state.chance_due and not state.is_over:
            events = state.apply(state.chance_outcome(self.rng))
            played.append(Played(self.tick, None, events))
        if state.progress != self._progress:
            self._progress = state.progress
            self._last_progress = self.tick
        self._schedule_turns()

    def _schedule_turns(self) -> None:
        state = self.state
        if state.is_over:
            self._wake.clear()
            self._asked.clear()
            self._noticed.clear()
            return
        if self.real_time and not self._answers:
            return  # bots keep their own wake ticks; nobody outside has an answer clock
        acting = state.actors
        if not self.real_time:
            for player in list(self._wake):
                if player not in acting:
                    del self._wake[player]
            for player in acting:
                if player in self.agents and player not in self._wake:
                    self._wake[player] = self.tick + self._pause
        if not self._answers:
            return
        for player in list(self._asked):
            if player not in acting or player in self.agents:
                del self._asked[player]
        for player in acting:
            if player not in self.agents and player not in self._asked:
                self._asked[player] = self.tick

    def _answer_waits(self) -> list[int]:
        state = self.state
        return [s for p, s in self._asked.items() if state.timeout_action(p) is not None]

    def _answer_ticks(self) -> int | None:
        return self.pace.ticks(self.pace.answer_seconds) if self._asked else None

    def _reaction(self) -> int:
        if self.person_paced:
            return pick(self.rng, self.pace.person_reaction_ticks)
        return pick(self.rng, self.pace.reaction_ticks)

    def _quiet_budget(self) -> int | None:
        option = self.game.info.quiet_option
        if option is None:
            return None
        seconds = self.state.header().get("options", {}).get(option)
        if seconds is None:
            seconds = self.game.info.option(option).default
        return self.pace.ticks(float(seconds))

    # ------------------------------------------------------------------ read-outs

    def deadlines(self) -> dict[str, Any]:
        """Public timers in ticks for clients to show (quiet clock, answers awaited)."""
        out: dict[str, Any] = {}
        if self.state.is_over:
            return out
        if self._quiet_ticks is not None:
            out["quiet"] = self._last_progress + self._quiet_ticks
        limit = self._answer_ticks()
        if limit is not None:
            answers = {
                p: s + limit
                for p, s in self._asked.items()
                if self.state.timeout_action(p) is not None
            }
            if answers:
                out["answer"] = answers
        return out


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Pace)
