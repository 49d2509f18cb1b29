"""Play one seeded game with bots and report what happened.

Every game is played by the core ``Match`` driver, the same one that runs live tables, the
terminal and the RL adapters: turns or real time, chance, timers and bots' reaction times are
the one model of ``bestiary.core.driver`` (a wild game ends at Nightfall after the game's
``nightfall_seconds`` without a meeting, counted in the driver's ticks).

Every random choice comes from the game's seed: the deal, the table (bot order within a tick,
reaction times, chance) and every bot's RNG are derived from it, so one ``GameSpec`` always
gives the same game, in any process.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.agent import Agent
from bestiary.core.driver import BotFault, Match, Pace
from bestiary.core.game import Game, State, get_game
from bestiary.core.records import dumps
from bestiary.sim.bots import make_agent
from bestiary.sim.outcome import outcome_fields
from bestiary.sim.settings import every_option

__all__ = ["BotFault", "GameResult", "GameSpec", "play_game"]


@dataclass(frozen=True)
class GameSpec:
    """Everything one simulated game depends on (picklable, so it can go to another process)."""

    index: int
    game: str
    bots: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    keep_record: bool = False
    pace: str = "lab"  # a key of SIM_PACES: the lab's pace, or a live table's (a person's)

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
    options: Mapping[str, Any] = field(default_factory=dict)  # every option (sim/settings.py)
    tallies: str = "tallies"  # what ``outcomes`` counts, in the game's word (wild: meetings)
    # Wall-clock seconds to play it: reported, never compared (results are seeded, time is not).
    seconds: float = field(default=0.0, compare=False)
    # Fingerprints for paired comparisons (sim/paired.py): of the deal (the header's cards,
    # seats and first player, not its options) and of each move in order.
    deal: int = field(default=0, compare=False, repr=False)
    moves: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def win_share(self, seat: int) -> float:
        """1 for a sole win, 1/k for a win shared by k players, else 0."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


# The paces a simulation may play at: the lab's (bots only), or the one a live table keeps
# while a person sits at it ("normal", docs/driver.md), so a designer's figure holds there.
SIM_PACES = {"lab": Pace(), "live": Pace.chosen("normal", people=True)}


def derive_seeds(seed: int, seats: int) -> tuple[int, int, list[int]]:
    """Seeds for the deal, the table (tick order, reactions, chance) and each seat's bot."""
    rng = random.Random(seed)
    deal = rng.getrandbits(63)
    table = rng.getrandbits(63)
    bots = [rng.getrandbits(63) for _ in range(seats)]
    return deal, table, bots


def start_match(
    spec: GameSpec,
    game: Game | None = None,
    bot_maker: Callable[[str, str, str, int], Agent] = make_agent,
    pace: Pace | None = None,
) -> Match:
    """The dealt game of ``spec`` with its bots seated, ready to play (not yet played)."""
    rules = game if game is not None else get_game(spec.game)
    players = spec.players
    deal_seed, table_seed, bot_seeds = derive_seeds(spec.seed, len(players))
    state = rules.new_game(players, dict(spec.options), seed=deal_seed)
    agents = {
        player: bot_maker(spec.game, name, player, bot_seeds[seat])
        for seat, (name, player) in enumerate(zip(spec.bots, players, strict=True))
    }
    return Match(rules, state, agents, seed=table_seed, pace=pace)


def play_game(
    spec: GameSpec,
    game: Game | None = None,
    bot_maker: Callable[[str, str, str, int], Agent] = make_agent,
) -> GameResult:
    """Play ``spec`` to the end and return its result (and record, if asked)."""
    start = time.perf_counter()
    match = start_match(spec, game, bot_maker, SIM_PACES[spec.pace])
    match.play()
    state = match.state
    players = spec.players
    seat_of = {p: i for i, p in enumerate(players)}
    scores = state.scores()
    record = None
    fields = outcome_fields(state)
    # Every declared option, the deck by name and hash (the header leaves some out).
    fields["options"] = every_option(spec.game, spec.options, state.header())
    if spec.keep_record:
        header = {**state.header(), "bots": list(spec.bots), "sim_seed": spec.seed}
        record = (dumps(header), *(dumps(e) for e in state.events()))
    return GameResult(
        index=spec.index,
        seed=spec.seed,
        bots=spec.bots,
        winners=tuple(sorted(seat_of[p] for p in state.winners())),
        scores=tuple(scores[p] for p in players),
        length=sum(1 for event in state.events() if "by" in event),  # moves, not the table's
        ticks=match.tick if match.real_time else 0,
        outcomes=_outcomes(state),
        tallies=match.game.info.analytics.tallies,
        ended=state.ending() or "capped",
        record=record,
        seconds=time.perf_counter() - start,
        deal=deal_print(state.header()),
        moves=tuple(zlib.crc32(dumps(e).encode()) for e in state.events() if "by" in e),
        **fields,
    )


# Header keys that say how a game is scored or named, not which cards were dealt to whom.
_NOT_DEALT = frozenset({"options", "objectives", "version", "seed", "deck_name", "deck_hash"})


def deal_print(header: Mapping[str, Any]) -> int:
    """A fingerprint of the deal a header records: equal for two games dealt the same cards,
    seats and first player, whatever their scoring options (Objectives are dealt beside the
    cards, from their own draws, so turning them on leaves the cards' deal as it was)."""
    return zlib.crc32(dumps({k: v for k, v in header.items() if k not in _NOT_DEALT}).encode())


def _outcomes(state: State) -> dict[str, int]:
    return state.tallies()
