"""A live game at the terminal: one human seat, bots in the others, and the words for each move.

``LiveTable`` holds no clock of its own: wild's real time is a count of ticks that the app
advances on a timer (tests advance it by hand), and critters moves when someone acts. Both
games go through ``apply`` only, so nothing the engine refuses ever happens.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bestiary.core.agent import Agent, make_bot
from bestiary.core.driver import Pace
from bestiary.core.errors import BadOption, IllegalAction
from bestiary.core.game import Game, State, get_game
from bestiary.core.records import write_record
from bestiary.tui.words import critters_words, wild_words

# Real time for wild: one tick is this many seconds by default; bots count their reaction in
# ticks. Slower than a simulation's so that a person can follow and answer.
PACE = Pace()
TICK_SECONDS = 0.6
DEFAULT_NIGHTFALL_SECONDS = 120.0


@dataclass(frozen=True)
class LogLine:
    """One line of the table's narration; ``to_you`` lines stand out on screen."""

    text: str
    to_you: bool = False


def seat_names(human: str, bots: Sequence[str]) -> list[str]:
    """Seat names: the human first, then each bot by its own name (``greedy-2`` for a second).

    >>> seat_names("you", ["greedy", "greedy", "ismcts"])
    ['you', 'greedy', 'greedy-2', 'ismcts']
    """
    names = [human]
    for bot in bots:
        name, n = bot, 1
        while name in names:
            n += 1
            name = f"{bot}-{n}"
        names.append(name)
    return names


def bot_list(spec: str, players: int) -> list[str]:
    """The bots for the seats after the human's, from ``--bots``: one name fills every seat.

    >>> bot_list("greedy", 3)
    ['greedy', 'greedy']
    >>> bot_list("reader,hunter", 3)
    ['reader', 'hunter']
    """
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names:
        raise BadOption("--bots needs at least one bot name")
    if len(names) == 1:
        return names * (players - 1)
    if len(names) != players - 1:
        raise BadOption(
            f"{players} players need {players - 1} bots after your seat, "
            f"but --bots names {len(names)}"
        )
    return names


class LiveTable:
    """One game being played: the state, the human's seat, the bots and the narration."""

    def __init__(
        self,
        game: Game,
        state: State,
        human: str,
        bots: Mapping[str, Agent],
        seed: int = 0,
        tick_seconds: float = TICK_SECONDS,
    ) -> None:
        if human not in state.players:
            raise BadOption(f"{human!r} has no seat at this table")
        self.game = game
        self.state = state
        self.human = human
        self.bots = dict(bots)
        self.rng = random.Random(seed)
        if not tick_seconds > 0:
            raise BadOption("a tick must last a positive number of seconds")
        self.tick_seconds = tick_seconds
        self.log: list[LogLine] = []
        self.ticks = 0
        self.quiet_ticks = 0  # wild: ticks since the last meeting, for Nightfall
        self.times: list[float] = []  # seconds into the game of each event, for the record
        self.started = time.monotonic()
        self._wait = {name: 0 for name in self.bots}
        options = state.header().get("options", {})
        seconds = float(options.get("nightfall_seconds", DEFAULT_NIGHTFALL_SECONDS))
        self.nightfall_ticks = max(1, round(seconds / tick_seconds))

    @classmethod
    def new(
        cls,
        game_name: str,
        human: str,
        bots: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        tick_seconds: float = TICK_SECONDS,
    ) -> LiveTable:
        """Seat ``human`` first and ``bots`` (registered bot names) after; deal from ``seed``."""
        game = get_game(game_name)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        players = seat_names(human, bots)
        state = game.new_game(players, options, seed)
        agents = {
            name: make_bot(game_name, bot, name, seed + seat)
            for seat, (name, bot) in enumerate(zip(players[1:], bots, strict=True), start=1)
        }
        return cls(game, state, human, agents, seed, tick_seconds)

    @property
    def name(self) -> str:
        return self.game.info.name

    def view(self) -> dict[str, Any]:
        return self.state.view(self.human)

    # ---- acting -------------------------------------------------------------------------

    def play(self, action: Any) -> str | None:
        """Apply the human's action; the engine's reason (one sentence) if it is refused."""
        try:
            self._apply(action)
        except IllegalAction as err:
            return str(err)
        return None

    def play_event(self, event: dict[str, Any]) -> str | None:
        """Apply the human's action given as a record event (``by`` filled in)."""
        try:
            action = self.game.action_from_event({"by": self.human, **event})
        except IllegalAction as err:
            return str(err)
        return self.play(action)

    def _apply(self, action: Any) -> None:
        before = len(getattr(self.state, "meetings", ()))
        self.state.apply(action)
        events = self.state.events()
        fresh = events[len(self.times) :]  # the action, and any chance event it brought on
        self.times.extend([self.seconds()] * len(fresh))
        for event in fresh:
            self.log.append(self._words(event, before))

    def seconds(self) -> float:
        """Seconds into the game: wild's ticks of real time, or the clock between turns."""
        if self.name == "wild":
            return round(self.ticks * self.tick_seconds, 2)
        return round(time.monotonic() - self.started, 2)

    def _words(self, event: dict[str, Any], meetings_before: int) -> LogLine:
        if self.name != "wild":
            return LogLine(critters_words(event), event.get("target") == self.human)
        meetings = self.state.meetings  # type: ignore[attr-defined]
        if event.get("do") == "meet" and len(meetings) > meetings_before:
            from bestiary.wild.meetings import describe_meeting

            self.quiet_ticks = 0
            involved = self.human in (event.get("by"), event.get("with"))
            return LogLine(wild_words(event, meeting=describe_meeting(meetings[-1])), involved)
        return LogLine(wild_words(event), event.get("with") == self.human)

    def _bot_move(self, name: str) -> bool:
        """Let bot ``name`` act on its own view; True if it did something."""
        legal = self.state.legal_actions(name)
        if not legal:
            return False
        action = self.bots[name].act(self.state.view(name), legal)
        if action is None:
            return False
        try:
            self._apply(action)
        except IllegalAction as err:
            self.log.append(LogLine(f"({name} tried something the rules refuse: {err})"))
            return False
        return True

    # ---- wild: real time ----------------------------------------------------------------

    def tick(self) -> None:
        """One tick of wild's real time: each bot whose reaction time is up acts once."""
        if self.state.is_over:
            return
        self.ticks += 1
        self.quiet_ticks += 1
        order = list(self.bots)
        self.rng.shuffle(order)
        for name in order:
            if self.state.is_over:
                return
            self._wait[name] -= 1
            if self._wait[name] > 0:
                continue
            self._bot_move(name)
            self._wait[name] = self.rng.choice(PACE.reaction_ticks)
        if not self.state.is_over and self.quiet_ticks >= self.nightfall_ticks:
            from bestiary.wild.actions import Nightfall

            self._apply(Nightfall())

    # ---- critters: turns ----------------------------------------------------------------

    def to_act(self) -> str | None:
        """Who must act now in critters (the target while an answer is awaited), or None."""
        if self.state.is_over:
            return None
        awaiting: str | None = getattr(self.state, "awaiting", None)
        turn: str | None = getattr(self.state, "turn", None)
        return awaiting or turn

    def bot_turn(self) -> bool:
        """Critters: let the bot whose move it is (or a due chance event) act once.

        Returns False when it is the human's move or the game is over. A bot that offers
        nothing legal passes its move to its first legal action (and the log says so).
        """
        if self.state.is_over:
            return False
        if getattr(self.state, "chance_due", False):
            self._apply(self.state.chance_outcome(self.rng))
            return True
        name = self.to_act()
        if name is None or name == self.human or name not in self.bots:
            return False
        if not self._bot_move(name):
            legal = self.state.legal_actions(name)
            if not legal:
                return False
            self.log.append(
                LogLine(f"({name} had no move of its own; it takes the first legal one)")
            )
            self._apply(legal[0])
        return True

    # ---- the record ---------------------------------------------------------------------

    def record_events(self) -> list[dict[str, Any]]:
        """Every event so far, each stamped with ``t`` (seconds into the game)."""
        events = self.state.events()
        return [dict(e, t=t) for e, t in zip(events, self.times, strict=False)] + events[
            len(self.times) :
        ]

    def save(self, path: str | Path) -> None:
        """Write the game's record (RECORDS.md): header, then every event."""
        write_record(path, self.state.header(), self.record_events())
