"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a fresh determinization (a full state the searching seat cannot tell from
the real one, dealt by a belief that never sees the true hidden cards), walks one shared tree with
UCB using availability counts (a move only competes in the iterations where it was legal), plays
the rest of the game out with a cheap policy, and credits every player with their share of the win.

Progressive widening keeps the many near-identical choices (a Game Changer can swap any card
for any card) from drowning the search: a node considers only its ``k(n)`` best moves by a
prior ranking, ``k`` growing with the node's visits ``n``. The budget is iterations AND time:
the search stops at whichever runs out first, so a live table never waits past its clock and a
simulation stays reproducible when the iteration budget is the one that binds.

The search knows no game: states are the core ``State`` (``clone``, ``apply``,
``legal_actions``, ``to_act``, ``chance_due``, ``chance_outcome``, ``is_over``, ``winners``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bestiary.core.values import by_fields


class SearchState(Protocol):
    """What the search uses of a game state (a subset of ``bestiary.core.game.State``)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def chance_due(self) -> bool: ...

    def clone(self) -> Any: ...

    def apply(self, action: Any) -> Any: ...

    def legal_actions(self, player: str) -> list[Any]: ...

    def chance_outcome(self, rng: random.Random) -> Any: ...

    def winners(self) -> list[str]: ...


# A determinization: a full state consistent with what the searching seat has seen.
Sampler = Callable[[random.Random], Any]
# Ranks a node's moves, best first (the order progressive widening admits them in).
Ranker = Callable[[Any, str, list[Any]], list[Any]]
# The playout policy: the move ``actor`` makes in ``state``.
Policy = Callable[[Any, str, random.Random], Any]
# Values a position a depth-limited playout left unfinished: player -> expected win share.
Evaluator = Callable[[Any], Mapping[str, float]]
# Who must act now (None at chance or when the game is over).
Actor = Callable[[Any], str | None]
# Applies a move the state itself just listed as legal (a game may skip re-checking it).
Step = Callable[[Any, Any], Any]


def apply(state: Any, move: Any) -> Any:
    return state.apply(move)


@dataclass(frozen=True)
class Budget:
    """Stop after ``iterations`` or after ``millis`` of wall time, whichever comes first.

    At least one of them is given. One "iteration" is one playout (one root move tried on one
    determinization), so an iteration budget is the same work on any machine.
    """

    iterations: int | None = 200
    millis: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.millis is None:
            raise ValueError("give the search budget in iterations, milliseconds or both")
        if (self.iterations is not None and self.iterations < 1) or (
            self.millis is not None and not 0 < self.millis < math.inf
        ):
            raise ValueError("the search budget must be positive")


@dataclass(frozen=True)
class Widening:
    """``k(n) = ceil(base + scale * n ** power)`` moves are considered at a node visited n times."""

    base: float = 2.0
    scale: float = 1.0
    power: float = 0.5

    def width(self, visits: int) -> int:
        grown: float = self.scale * math.pow(visits, self.power)
        return math.ceil(self.base + grown)


@dataclass
class Node:
    """One move in the tree; ``mover`` is the player who made it (their reward is stored)."""

    mover: str | None = None
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[Any, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        mean = self.reward / self.visits
        return mean + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)

    @property
    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Searcher:
    """One configured search: how to rank, play out and judge; how wide and how far."""

    actor: Actor
    rank: Ranker
    policy: Policy
    evaluate: Evaluator | None = None
    depth: int = 400
    exploration: float = 0.7
    widening: Widening = Widening()
    root_widening: Widening = Widening(base=3.0, scale=0.5, power=0.5)
    step: Step = apply
    # How sure the search must be before it overrules the ranker's favourite root move: the
    # paired mean gain over it (same deals, same luck) less ``confidence`` standard errors must
    # be above zero. None: the most rewarding move, however thin the evidence.
    confidence: float | None = None


@dataclass
class Result:
    """The chosen move, the root's children (move -> node) and how much was searched."""

    move: Any
    root: Node
    iterations: int
    seconds: float
    # Each root move's reward in each round it was tried (round -> reward): paired evidence.
    rounds: dict[Any, dict[int, float]] = field(default_factory=dict)


def search(
    searcher: Searcher,
    sample: Sampler,
    me: str,
    moves: Sequence[Any],
    rng: random.Random,
    budget: Budget,
) -> Result:
    """The move for ``me`` among ``moves`` (its legal actions now), searched on ``sample``'s worlds.

    The root is searched in rounds: each round samples one determinization and one playout seed
    and tries every admitted root move on that same sample (common random numbers), so moves are
    compared on the same luck; the root admits moves by the ranker as rounds accumulate. Below the
    root the tree is searched with UCB and progressive widening.
    """
    start = time.perf_counter()
    root = Node()
    if not moves:
        raise ValueError("search needs at least one legal move")
    if len(moves) == 1:
        return Result(moves[0], root, 0, 0.0)
    first = sample(rng)
    ranked = searcher.rank(first, me, list(moves))
    deadline = None if budget.millis is None else start + budget.millis / 1000
    limit = budget.iterations
    done = 0
    rounds = 0
    world = first
    paired: dict[Any, dict[int, float]] = {}
    while True:
        width = min(len(ranked), searcher.root_widening.width(rounds))
        admitted = ranked[:width]
        seed = rng.getrandbits(63)
        for move in admitted:
            if (limit is not None and done >= limit) or (
                deadline is not None and done and time.perf_counter() >= deadline
            ):
                return _finish(searcher, root, ranked, paired, done, start)
            node = root.children.get(move)
            if node is None:
                node = root.children[move] = Node(mover=me)
            node.available += 1
            state = world.clone()
            state.apply(move)
            reward = _iterate(searcher, node, state, random.Random(seed))
            paired.setdefault(move, {})[rounds] = reward
            done += 1
        rounds += 1
        world = sample(rng)


def _finish(
    searcher: Searcher,
    root: Node,
    ranked: list[Any],
    paired: dict[Any, dict[int, float]],
    done: int,
    start: float,
) -> Result:
    """The root move to play (see ``Searcher.confidence``); ties go to the ranker's order."""
    if searcher.confidence is None:
        best = _most_rewarding(root, ranked)
    else:
        best = _surest_gain(ranked, paired, searcher.confidence)
    return Result(best, root, done, time.perf_counter() - start, paired)


def _most_rewarding(root: Node, ranked: list[Any]) -> Any:
    best = ranked[0]
    best_mean = -1.0
    fewest = max((c.visits for c in root.children.values()), default=0) // 2
    for move in ranked:
        child = root.children.get(move)
        # A move admitted late has few rounds: it must have half the rounds to overrule.
        if child is None or child.visits == 0 or child.visits < fewest:
            continue
        if child.mean > best_mean:
            best, best_mean = move, child.mean
    return best


def _surest_gain(ranked: list[Any], paired: dict[Any, dict[int, float]], z: float) -> Any:
    """The move whose paired gain over the ranker's favourite is surest, if any is sure enough.

    Every root move is tried on the same deal with the same playout seed in a round, so the
    difference of two moves' rewards in one round is mostly the moves' doing, not the luck's.
    """
    favourite = ranked[0]
    base = paired.get(favourite, {})
    best, best_bound = favourite, 0.0
    for move in ranked[1:]:
        gains = [r - base[k] for k, r in paired.get(move, {}).items() if k in base]
        n = len(gains)
        if n < 2:
            continue
        mean = sum(gains) / n
        var = sum((g - mean) ** 2 for g in gains) / (n - 1)
        bound = mean - z * math.sqrt(var / n)
        if bound > best_bound:
            best, best_bound = move, bound
    return best


def _rewards(state: SearchState) -> dict[str, float]:
    winners = state.winners() if state.is_over else []
    if not winners:
        return {}
    share = 1.0 / len(winners)
    return dict.fromkeys(winners, share)


def _iterate(searcher: Searcher, start: Node, state: Any, rng: random.Random) -> float:
    """One iteration below ``start`` (whose move is already applied to ``state``).

    Returns the reward of ``start``'s mover.
    """
    path = [start]
    node = start
    actor_of, rank = searcher.actor, searcher.rank
    while not state.is_over:  # selection and expansion
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        actor = actor_of(state)
        assert actor is not None
        moves = state.legal_actions(actor)
        ranked = False
        if len(moves) > 1:
            width = searcher.widening.width(node.visits)
            if width < len(moves):
                moves = rank(state, actor, moves)[:width]
                ranked = True
        children = node.children
        for m in moves:
            child = children.get(m)
            if child is not None:
                child.available += 1
        untried = [m for m in moves if m not in children]
        if untried:
            # The ranker's favourite among the untried, else any (all are admitted).
            move = untried[0] if ranked else rng.choice(untried)
            child = children[move] = Node(mover=actor, available=1)
            searcher.step(state, move)
            path.append(child)
            break
        move = max(moves, key=lambda m: children[m].ucb(searcher.exploration))
        node = children[move]
        searcher.step(state, move)
        path.append(node)
    steps = 0
    policy, step = searcher.policy, searcher.step
    while not state.is_over and steps < searcher.depth:  # playout
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        actor = actor_of(state)
        assert actor is not None
        step(state, policy(state, actor, rng))
        steps += 1
    if state.is_over or searcher.evaluate is None:
        rewards: Mapping[str, float] = _rewards(state)
    else:
        rewards = searcher.evaluate(state)
    for visited in path:  # backpropagation
        visited.visits += 1
        if visited.mover is not None:
            visited.reward += rewards.get(visited.mover, 0.0)
    return rewards.get(start.mover or "", 0.0)


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Budget, Widening)
