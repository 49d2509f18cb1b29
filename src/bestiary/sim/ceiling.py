"""How far above ``greedy`` can a critters bot get? The search, handed what no player may see.

Two cheating seats bound what an honest bot's search can reach against ``greedy``; they are
yardsticks for the ladder (docs/bots.md) and a designer's measure of how much the game rewards
skill, never bots for a table:

- ``hands``: the ``ismcts`` search with every hand known (each playout deals only the Draw Pile
  afresh), so the belief about the other hands costs nothing;
- ``future``: also knows the Draw Pile's order (each playout is the real future for as long as
  nobody reshuffles), which no player can know.

Games go through the one driver (``start_match``), seeded and seated as the ladder's matchups
are, so game i here is dealt as game i of ``bestiary ladder``'s ``ismcts`` against ``greedy``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.bots.critters_search import ISMCTS_ITERATIONS, SEARCHER
from bestiary.core.agent import Agent
from bestiary.core.driver import Match
from bestiary.critters.state import CrittersState
from bestiary.search.ismcts import Budget, search
from bestiary.sim.bots import make_agent
from bestiary.sim.parallel import game_seed
from bestiary.sim.runner import GameSpec, start_match
from bestiary.sim.seating import seat_bots

SEERS = ("hands", "future")


class Seer:
    """A seat that searches on the true state (a copy per playout): it cheats by design."""

    def __init__(self, player: str, rng: random.Random, sees: str, iterations: int) -> None:
        if sees not in SEERS:
            raise ValueError(f"a seer sees {' or '.join(SEERS)}, not {sees!r}")
        self.player = player
        self.rng = rng
        self.sees = sees
        self.budget = Budget(iterations=iterations)
        self.match: Match | None = None  # seated by ``play``: the table it looks through

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        return search(SEARCHER, self.sample, self.player, list(legal), self.rng, self.budget).move

    def sample(self, rng: random.Random) -> CrittersState:
        """One playout's deal: the true state, its Draw Pile re-shuffled unless it sees that too."""
        assert self.match is not None, "seat the seer at a match first"
        truth = self.match.state
        assert isinstance(truth, CrittersState)
        copy = truth.clone()
        if self.sees == "hands":
            copy.shuffle_draw_pile(rng)
        return copy


@dataclass(frozen=True)
class Games:
    """Games ``start`` to ``stop`` of a seer against ``greedy`` (picklable: one worker's share)."""

    sees: str
    players: int
    seed: int
    start: int
    stop: int
    iterations: int = ISMCTS_ITERATIONS


def play(part: Games) -> float:
    """The seer's wins (a shared win counts 1/k) over ``part``'s games."""
    return sum(_one_game(part, i) for i in range(part.start, part.stop))


def _one_game(part: Games, i: int) -> float:
    """Game i: the seer's share of the win (0 if it lost)."""
    lineup = seat_bots(["seer", *["greedy"] * (part.players - 1)], part.players, i)
    seers: list[Seer] = []

    def maker(game: str, name: str, player: str, seed: int) -> Agent:
        if name != "seer":
            return make_agent(game, name, player, seed)
        seer = Seer(player, random.Random(seed), part.sees, part.iterations)
        seers.append(seer)
        return seer

    match = start_match(GameSpec(i, "critters", lineup, game_seed(part.seed, i)), None, maker)
    for seer in seers:
        seer.match = match
    match.play()
    winners = match.state.winners()
    mine = match.state.players[(-i) % part.players]  # where the rotation put the seer
    return 1 / len(winners) if mine in winners else 0.0
