"""The searching critters bot: ISMCTS over deals drawn from the seat's belief.

Every round re-deals the hidden cards by the seat's :class:`Belief` (the unseen cards, bent by
what the other players' answers and passes gave away), tries each admitted move on that deal,
and plays the game out with the greedy bot's judgement (no noise: every root move meets the
same luck, so their paired difference is the moves' doing). The greedy score also ranks moves
for progressive widening, so the dozens of Game Changer swaps do not each take a share of the
budget before the few sensible moves are known, and the search plays greedy's favourite unless
another move's paired gain over it is more than a standard error above zero (``confidence``).
More playouts buy little: 300 a move did no better against ``greedy`` than 100 (docs/sim.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.bots.critters import CritterBot, View, greedy_playout, legal_moves, ranked
from bestiary.bots.critters_belief import Belief
from bestiary.core.agent import register_bot
from bestiary.core.bot_params import BotParam
from bestiary.critters.state import CrittersState
from bestiary.search.ismcts import Budget, Result, Searcher, Widening, search


def progress(state: CrittersState, player: str) -> float:
    """Full-set kinds, plus a fraction for each incomplete set and its size."""
    size = state.set_size
    full = set()
    partial = 0.0
    for s in state.tableau(player):
        if s["full"]:
            full.add(s["kind"])
        else:
            partial += (len(s["cards"]) / size) ** 2
    return len(full) + 0.5 * partial


def judge(state: CrittersState) -> Mapping[str, float]:
    """Win chances of an unfinished game: a softmax over everyone's progress."""
    weights = {p: math.exp(JUDGE_SHARPNESS * progress(state, p)) for p in state.players}
    total = sum(weights.values())
    return {p: w / total for p, w in weights.items()}


def to_act(state: CrittersState) -> str | None:
    return state.to_act


def step(state: CrittersState, move: Any) -> None:
    """Apply a move ``state.legal_actions`` just listed, without checking it again."""
    state.play_legal(move)


JUDGE_SHARPNESS = 1.5
SEARCHER = Searcher(
    actor=to_act,
    rank=ranked,
    policy=greedy_playout,
    evaluate=judge,
    depth=400,
    exploration=0.7,
    widening=Widening(base=2.0, scale=1.0, power=0.5),
    root_widening=Widening(base=3.0, scale=0.5, power=0.5),
    step=step,
    confidence=1.0,
)

# The registered bot's budget: iterations make a simulation the same on any machine; the time
# cap keeps a live table's answer under a second even on a slow or busy machine.
ISMCTS_ITERATIONS = 100
ISMCTS_MILLIS = 900.0


class IsmctsBot(CritterBot):
    """Information-set MCTS over deals drawn from its belief about the hidden cards."""

    def __init__(
        self,
        player: str,
        rng: random.Random,
        budget: Budget | None = None,
        searcher: Searcher = SEARCHER,
        belief: Belief | None = None,
    ) -> None:
        super().__init__(player, rng)
        self.budget = budget or Budget(iterations=ISMCTS_ITERATIONS, millis=ISMCTS_MILLIS)
        self.searcher = searcher
        self.belief = belief or Belief(player)
        self.last: Result | None = None

    def act(self, view: View, legal: Sequence[Any] | None = None) -> Any | None:
        self.belief.observe(view)
        moves = list(legal) if legal is not None else legal_moves(view, self.rng)
        if view["over"] or not moves:
            return None
        belief = self.belief

        def sample(rng: random.Random) -> CrittersState:
            return belief.sample(view, rng)

        self.last = search(self.searcher, sample, self.player, moves, self.rng, self.budget)
        belief.remember(self.last.move)
        return self.last.move

    def choose(self, view: View, moves: list[Any]) -> Any:
        return self.act(view, moves)


@register_bot(
    "critters",
    "ismcts",
    f"Searches {ISMCTS_ITERATIONS} playouts per move (at most {ISMCTS_MILLIS / 1000:g} s) on"
    " deals dealt by what the other players' answers and passes gave away, played out greedily;"
    " overrules greedy's favourite only on a sure paired gain.",
    rank=2,
    seconds=ISMCTS_MILLIS / 1000,
    persona="Thinks ahead about what the others may hold before each move (up to a second).",
    params=(
        BotParam(
            "iterations",
            ISMCTS_ITERATIONS,
            1,
            10_000,
            "playouts per move (the time cap stays)",
            integer=True,
        ),
    ),
)
def _ismcts(player: str, rng: random.Random, iterations: int = ISMCTS_ITERATIONS) -> IsmctsBot:
    return IsmctsBot(player, rng, Budget(iterations=iterations, millis=ISMCTS_MILLIS))
