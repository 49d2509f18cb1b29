"""Play one seeded game with bots and report what happened.

critters is turn-based: whoever must act (the player whose turn it is, or the target who must
answer an action) is asked for a move. wild is real-time, simulated in discrete ticks: in each
tick every player may act once, in a seeded random order, unless their reaction model still
has them waiting; a game with no meeting for ``nightfall_ticks`` ticks ends at Nightfall.

Every random choice comes from the game's seed: the deal, the tick order and every bot's RNG
are derived from it, so one ``GameSpec`` always gives the same game, in any process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.agent import Agent
from bestiary.core.errors import IllegalAction
from bestiary.core.game import Game, State, get_game
from bestiary.core.records import dumps
from bestiary.sim.bots import make_agent
from bestiary.sim.outcome import outcome_fields

# A wild game with no meeting for this many ticks ends at Nightfall (the simulation's stand-in
# for the live game's ``nightfall_seconds``).
DEFAULT_NIGHTFALL_TICKS = 40
# Hard caps so that a faulty bot can never hang a simulation.
MAX_TICKS = 5_000
MAX_MOVES = 5_000


class BotFault(RuntimeError):
    """A bot asked for an action the rules refuse, or refused to move when it had to."""


@dataclass(frozen=True)
class GameSpec:
    """Everything one simulated game depends on (picklable, so it can go to another process)."""

    index: int
    game: str
    bots: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)  # effective, from the header
    keep_record: bool = False
    nightfall_ticks: int = DEFAULT_NIGHTFALL_TICKS

    @property
    def players(self) -> tuple[str, ...]:
        """Seat names: ``p1``, ``p2``, ... (the bots sit in ``bots`` order)."""
        return tuple(f"p{seat + 1}" for seat in range(len(self.bots)))


@dataclass(frozen=True)
class GameResult:
    """What one game gave: per-seat lists follow seat order."""

    index: int
    seed: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    length: int
    ticks: int
    outcomes: Mapping[str, int]
    ended: str
    record: tuple[str, ...] | None = None
    # From the finished state (sim/outcome.py): a shared win, nobody scored, each seat's play.
    tie: bool = False
    zero_zero: bool = False
    strategy: tuple[Mapping[str, float], ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)  # effective, from the header
    # Wall-clock seconds to play it: reported, never compared (results are seeded, time is not).
    seconds: float = field(default=0.0, compare=False)

    def win_share(self, seat: int) -> float:
        """1 for a sole win, 1/k for a win shared by k players, else 0."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


def _derive(seed: int, seats: int) -> tuple[int, int, list[int]]:
    """Seeds for the deal, the table (tick order, chance) and each seat's bot, in that order."""
    rng = random.Random(seed)
    deal = rng.getrandbits(63)
    table = rng.getrandbits(63)
    bots = [rng.getrandbits(63) for _ in range(seats)]
    return deal, table, bots


def play_game(
    spec: GameSpec,
    game: Game | None = None,
    bot_maker: Callable[[str, str, str, int], Agent] = make_agent,
) -> GameResult:
    """Play ``spec`` to the end and return its result (and record, if asked)."""
    start = time.perf_counter()
    rules = game if game is not None else get_game(spec.game)
    players = spec.players
    deal_seed, table_seed, bot_seeds = _derive(spec.seed, len(players))
    state = rules.new_game(players, dict(spec.options), seed=deal_seed)
    agents = [
        bot_maker(spec.game, name, player, bot_seeds[seat])
        for seat, (name, player) in enumerate(zip(spec.bots, players, strict=True))
    ]
    table = random.Random(table_seed)
    if getattr(state, "meetings", None) is not None:
        length, ticks, ended = _play_ticks(rules, state, agents, table, spec.nightfall_ticks)
    else:
        length, ended = _play_turns(state, agents, table)
        ticks = 0
    seat_of = {p: i for i, p in enumerate(players)}
    scores = state.scores()
    record = None
    if spec.keep_record:
        header = {**state.header(), "bots": list(spec.bots), "sim_seed": spec.seed}
        record = (dumps(header), *(dumps(e) for e in state.events()))
    return GameResult(
        index=spec.index,
        seed=spec.seed,
        bots=spec.bots,
        winners=tuple(sorted(seat_of[p] for p in state.winners())),
        scores=tuple(scores[p] for p in players),
        length=length,
        ticks=ticks,
        outcomes=_outcomes(state),
        record=record,
        seconds=time.perf_counter() - start,
        **outcome_fields(state, ended),
    )


def _apply(state: State, agent: Agent, action: Any) -> None:
    try:
        state.apply(action)
    except IllegalAction as err:
        raise BotFault(
            f"bot for {agent.player} played {action!r}, which is refused: {err}"
        ) from None


def _play_turns(state: State, agents: Sequence[Agent], chance: random.Random) -> tuple[int, str]:
    by_player = {agent.player: agent for agent in agents}
    moves = 0
    while not state.is_over:
        if getattr(state, "chance_due", False):
            state.apply(state.chance_outcome(chance))  # type: ignore[attr-defined]
            continue
        if moves >= MAX_MOVES:
            return moves, "capped"
        actor = getattr(state, "awaiting", None) or getattr(state, "turn", None)
        if actor is None:
            actor = next(p for p in state.players if state.legal_actions(p))
        agent = by_player[actor]
        action = agent.act(state.view(actor))
        if action is None:
            raise BotFault(f"bot for {actor} made no move when it had to")
        _apply(state, agent, action)
        moves += 1
    return moves, "won"


def _play_ticks(
    rules: Game,
    state: State,
    agents: Sequence[Agent],
    table: random.Random,
    nightfall_ticks: int,
) -> tuple[int, int, str]:
    seats = list(range(len(agents)))
    waiting = [0] * len(agents)
    meetings: list[Any] = state.meetings  # type: ignore[attr-defined]
    actions = 0
    quiet = 0
    tick = 0
    while not state.is_over:
        tick += 1
        before = len(meetings)
        table.shuffle(seats)
        for seat in seats:
            if state.is_over:
                break
            if waiting[seat] > 0:
                waiting[seat] -= 1
                continue
            agent = agents[seat]
            action = agent.act(state.view(agent.player))
            waiting[seat] = agent.reaction_ticks()
            if action is not None:
                _apply(state, agent, action)
                actions += 1
        if state.is_over:
            break
        meetings = state.meetings  # type: ignore[attr-defined]
        quiet = 0 if len(meetings) != before else quiet + 1
        if quiet >= nightfall_ticks or tick >= MAX_TICKS:
            state.apply(rules.action_from_event({"do": "nightfall"}))
            return actions, tick, "nightfall"
    return actions, tick, "sundown" if getattr(state, "ended_by", None) else "out_of_cards"


def _outcomes(state: State) -> dict[str, int]:
    meetings = getattr(state, "meetings", None)
    if meetings is None:
        return {}
    counts = {"mate": 0, "eat": 0, "avoid": 0}
    for meeting in meetings:
        counts[meeting.outcome] = counts.get(meeting.outcome, 0) + 1
    return counts
