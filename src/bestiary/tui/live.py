"""A live game at the terminal: one human seat (or none: the demo), bots in the others, and
the words for each move.

``LiveTable`` plays through the core ``Match`` driver and nothing else: bots, their reaction
times and turn pauses, chance, Nightfall and the answer clock are the driver's one model
(``bestiary.core.driver.Pace``). The table holds no clock: the apps advance it to the tick that
wall time has reached (``tick = elapsed / pace.tick_seconds``), as a live server does; tests and
the demo advance it tick by tick. The human acts through ``Match.submit``, so nothing the engine
refuses ever happens.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bestiary.core.agent import Agent, make_bot
from bestiary.core.driver import Match, Pace, Played
from bestiary.core.errors import BadOption, IllegalAction
from bestiary.core.game import Game, State, get_game, redacted
from bestiary.core.records import Event, write_record
from bestiary.sim.runner import derive_seeds
from bestiary.tui.boards import board_of
from bestiary.tui.words import LogLine

__all__ = ["LiveTable", "LogLine", "Told", "WallClock", "bot_list", "seat_names"]

# Bound on the driver steps one ``run_bots`` may take (a bot that never ends its turn).
MAX_STEPS = 10_000


@dataclass(frozen=True)
class Told:
    """One event as the table's viewer saw it: when, the redacted event, and whether it made
    progress (wild: a meeting)."""

    tick: int
    event: Event
    progressed: bool


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
    """One game being played: the match, the human's seat (None: only bots), the narration."""

    def __init__(
        self,
        game: Game,
        state: State,
        human: str | None,
        bots: Mapping[str, Agent],
        seed: int = 0,
        pace: Pace | None = None,
    ) -> None:
        if human is not None and human not in state.players:
            raise BadOption(f"{human!r} has no seat at this table")
        # A live table goes on past a bot's refused move (logged); simulation stops on it.
        self._start(Match(game, state, bots, seed=seed, pace=pace, strict=False), human)

    @classmethod
    def watching(cls, match: Match, human: str | None = None) -> LiveTable:
        """A table around a match built elsewhere (the demo's, seated as ``bestiary sim``'s)."""
        table = cls.__new__(cls)
        table._start(match, human)
        return table

    def _start(self, match: Match, human: str | None) -> None:
        self.match = match
        self.game = match.game
        self.human = human
        self.board = board_of(match.game)
        self.log: list[LogLine] = []
        self.told: list[Told] = []
        self.times: list[float] = []  # seconds into the game of each event, for the record
        self._faults = 0
        # The narration follows its own copy of the game, rebuilt from the deal, so that each
        # event is told with the table as it stood just after it (wild: which meeting it made).
        self._shadow = match.game.from_header(match.state.header())
        self._tell(match.tick)

    @classmethod
    def new(
        cls,
        game_name: str,
        human: str,
        bots: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        pace: Pace | None = None,
    ) -> LiveTable:
        """Seat ``human`` first and ``bots`` (registered bot names) after.

        The deal, the table and the bots get their seeds from ``seed`` exactly as in
        ``bestiary sim`` (``derive_seeds``), so a seed deals the same game everywhere.
        """
        game = get_game(game_name)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        players = seat_names(human, bots)
        deal_seed, table_seed, bot_seeds = derive_seeds(seed, len(players))
        state = game.new_game(players, options, deal_seed)
        agents = {
            name: make_bot(game_name, bot, name, bot_seeds[seat])
            for seat, (name, bot) in enumerate(zip(players[1:], bots, strict=True), start=1)
        }
        return cls(game, state, human, agents, table_seed, pace)

    # ---- read-outs ----------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def pace(self) -> Pace:
        return self.match.pace

    @property
    def tick(self) -> int:
        return self.match.tick

    @property
    def name(self) -> str:
        return self.game.info.name

    def view(self) -> dict[str, Any]:
        return self.state.view(self.human)

    def seconds(self) -> float:
        """Seconds into the game: the driver's ticks of real time."""
        return round(self.pace.seconds(self.match.tick), 2)

    def seconds_until(self, tick: int) -> float:
        return max(0.0, self.pace.seconds(tick - self.match.tick))

    def human_to_act(self) -> bool:
        return self.human is not None and self.human in self.state.actors

    # ---- time ---------------------------------------------------------------------------

    def advance(self, to_tick: int) -> bool:
        """Let the table play everything due up to ``to_tick``; True if anything happened."""
        self._tell(self.match.tick)  # anything applied from outside the driver first
        before = len(self.told)
        played = self.match.advance(to_tick)
        self._tell_played(played)
        return len(self.told) > before

    def catch_up(self, elapsed: float) -> bool:
        """Advance to the tick that ``elapsed`` seconds of wall time have reached."""
        return self.advance(math.floor(elapsed / self.pace.tick_seconds + 1e-9))

    def step(self, limit: int | None = None) -> bool:
        """Advance to the next tick at which the table does something; False if none is due
        (by ``limit``, if given)."""
        due = self.match.next_due()
        if due is None or (limit is not None and due > limit):
            return False
        self.advance(due)
        return True

    def run_bots(self) -> bool:
        """Step on until the human must act or the game ends (no waiting: tests, turn games).

        True if anything happened. A real-time game is left where it is: its human may always
        act, so time there passes only by ``advance``.
        """
        moved = False
        for _ in range(MAX_STEPS):
            if self.state.is_over or self.human_to_act() or not self.step():
                break
            moved = True
        return moved

    # ---- the human's actions ------------------------------------------------------------

    def play(self, action: Any) -> str | None:
        """The human's action, now; the engine's reason (one sentence) if it is refused."""
        if self.human is None:
            return "you are watching this table, not playing at it"
        self._tell(self.match.tick)
        try:
            self.match.submit(self.human, action)
        except IllegalAction as err:
            return str(err)
        self._tell(self.match.tick)
        return None

    def play_event(self, event: dict[str, Any]) -> str | None:
        """The human's action given as a record event (``by`` filled in)."""
        try:
            action = self.game.action_from_event({"by": self.human, **event})
        except ValueError as err:  # not an action at all, or a card the rules do not know
            return str(err)
        return self.play(action)

    # ---- narration ----------------------------------------------------------------------

    def _tell_played(self, played: list[Played]) -> None:
        for entry in played:
            self._tell(entry.tick, limit=len(entry.events))
        self._tell(self.match.tick)

    def _tell(self, tick: int, limit: int | None = None) -> None:
        """Narrate the events not told yet (at most ``limit``), as the viewer may see them."""
        history = self.state.history
        start = len(self.times)
        stop = len(history) if limit is None else min(len(history), start + limit)
        if start >= stop:
            self._tell_faults()
            return
        shadow, words, viewer = self._shadow, self.board.words, self.human
        for i in range(start, stop):
            action = history[i]
            before = shadow.progress
            shadow.apply(action)
            seen = redacted(self.state, [action.to_event()], viewer)[0]  # the record line
            told = Told(tick, seen, shadow.progress != before)
            self.told.append(told)
            self.log.append(words(seen, viewer, shadow, told.progressed))
            self.times.append(round(self.pace.seconds(tick), 2))
        self._tell_faults()

    def _tell_faults(self) -> None:
        for fault in self.match.faults[self._faults :]:
            self.log.append(LogLine(f"({fault})"))
        self._faults = len(self.match.faults)

    # ---- the record ---------------------------------------------------------------------

    def record_events(self) -> list[dict[str, Any]]:
        """Every event so far, each stamped with ``t`` (seconds into the game)."""
        self._tell(self.match.tick)
        return [dict(e, t=t) for e, t in zip(self.state.events(), self.times, strict=True)]

    def save(self, path: str | Path) -> None:
        """Write the game's record (docs/records.md): header, then every event."""
        write_record(path, self.state.header(), self.record_events())


class WallClock:
    """Wall time as the table's ticks: the apps' timers call it to advance the table, the way
    a live server's clock does (``tick = elapsed / pace.tick_seconds``).

    The clock stands still while the table itself works (a searching bot may think for a
    second or two): otherwise the ticks it spent would be caught up at once, the next bot's
    turn pause would already be over and two moves would land together, too fast to follow.
    What happens at which tick is the driver's either way; only the wall time between differs.
    """

    def __init__(self, table: LiveTable, now: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.now = now
        self.origin = now() - table.pace.seconds(table.tick)

    def __call__(self) -> bool:
        """Advance the table to now; True if anything happened."""
        start = self.now()
        moved = self.table.catch_up(start - self.origin)
        self.origin += self.now() - start
        return moved
