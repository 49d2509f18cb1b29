"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a fresh determinization of the searching seat's view (every hidden card
re-dealt at random, never the true deal), walks one shared tree with UCB using availability
counts (a move only competes in the iterations where it was legal), plays the rest of the game
out with a cheap policy, and credits every player with their share of the win.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bestiary.critters.actions import Complete, PlaySet, UltimateCollector
from bestiary.critters.state import CrittersState, determinize

# The rollout stops here (a draw for everyone) if the game has not ended; games rarely get close.
ROLLOUT_LIMIT = 400
_MAKERS = (PlaySet, Complete, UltimateCollector)


# Narrows a node's moves to those worth searching (e.g. a heuristic's best few).
Pruner = Callable[[CrittersState, str, list[Any]], list[Any]]


# Values a position that a depth-limited playout left unfinished: player -> expected win share.
Evaluator = Callable[[CrittersState], dict[str, float]]


@dataclass(frozen=True)
class Playout:
    """How an iteration finishes the game: a policy, a depth limit, and a judge for the rest."""

    rng: random.Random
    policy: Callable[[CrittersState, str, random.Random], Any]
    depth: int
    evaluate: Evaluator | None


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
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


@dataclass(frozen=True)
class Budget:
    """Stop after ``iterations`` or after ``millis`` of wall time, whichever is given."""

    iterations: int | None = 200
    millis: float | None = None

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.millis is None):
            raise ValueError("give the search budget in iterations or in milliseconds, not both")
        if (self.iterations is not None and self.iterations < 1) or (
            self.millis is not None and self.millis <= 0
        ):
            raise ValueError("the search budget must be positive")


def rollout_move(state: CrittersState, actor: str, rng: random.Random) -> Any:
    """Cheap playout policy: make or steal a set when possible, else a random move."""
    moves = state.legal_actions(actor)
    makers = [m for m in moves if type(m) in _MAKERS]
    return rng.choice(makers or moves)


def _rewards(state: CrittersState) -> dict[str, float]:
    winners = state.winners() if state.is_over else []
    if not winners:
        return {}
    share = 1.0 / len(winners)
    return dict.fromkeys(winners, share)


def search(
    view: Mapping[str, Any],
    rng: random.Random,
    budget: Budget,
    exploration: float = 0.7,
    policy: Callable[[CrittersState, str, random.Random], Any] = rollout_move,
    prune: Pruner | None = None,
    depth: int = ROLLOUT_LIMIT,
    evaluate: Evaluator | None = None,
    stick: float | None = None,
) -> tuple[Any, Node]:
    """The move to make from ``view`` (the searching seat is ``view["you"]``), and the tree.

    The root is searched in rounds: each round samples one determinization and one playout
    seed and tries every candidate move on that same sample (common random numbers), so that
    moves are compared on the same luck; below the root the tree is searched with UCB.

    With ``stick``, the first candidate (a pruner lists its favourite first) is kept unless
    another move beats it, round by round, by more than ``stick`` standard errors: a heuristic's
    choice is only overruled on evidence, not on the noise of a few playouts.
    """
    me: str = view["you"]
    root = Node()
    plain = dict(view)
    sample = determinize(plain, me, rng)
    moves = sample.legal_actions(me)
    if prune is not None and len(moves) > 1:
        moves = prune(sample, me, moves)
    for move in moves:
        root.children[move] = Node(mover=me)
    if len(moves) == 1:
        return moves[0], root
    deadline = None if budget.millis is None else time.perf_counter() + budget.millis / 1000
    done = 0
    gains: dict[Any, list[float]] = {move: [] for move in moves}
    while True:
        if budget.iterations is not None and done >= budget.iterations:
            break
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        if done:
            sample = determinize(plain, me, rng)
        seed = rng.getrandbits(63)
        for move in moves:
            state = sample.clone()
            state.apply(move)
            node = root.children[move]
            node.available += 1
            playout = Playout(random.Random(seed), policy, depth, evaluate)
            gains[move].append(_iterate(node, state, playout, exploration, prune))
            done += 1
    if stick is not None:
        return _overrule(moves, gains, stick), root
    children = root.children
    best = max(moves, key=lambda m: children[m].reward / max(1, children[m].visits))
    return best, root


def _overrule(moves: list[Any], gains: Mapping[Any, list[float]], stick: float) -> Any:
    """The first move, unless another is better on paired rounds by ``stick`` standard errors."""
    default = moves[0]
    best, best_margin = default, 0.0
    base = gains[default]
    rounds = len(base)
    if rounds < 2:
        return default
    for move in moves[1:]:
        diffs = [a - b for a, b in zip(gains[move], base, strict=True)]
        mean = sum(diffs) / rounds
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (rounds - 1))
        margin = mean - stick * spread / math.sqrt(rounds)
        if margin > best_margin:
            best, best_margin = move, margin
    return best


def _iterate(
    start: Node,
    state: CrittersState,
    playout: Playout,
    exploration: float,
    prune: Pruner | None,
) -> float:
    """One iteration below ``start`` (whose move is already applied to ``state``).

    Returns the reward of ``start``'s mover.
    """
    path = [start]
    node = start
    rng, policy = playout.rng, playout.policy
    while not state.is_over:  # selection and expansion
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        actor = state.to_act
        assert actor is not None
        moves = state.legal_actions(actor)
        if prune is not None and len(moves) > 1:
            moves = prune(state, actor, moves)
        children = node.children
        untried = [m for m in moves if m not in children]
        for m in moves:
            child = children.get(m)
            if child is not None:
                child.available += 1
        if untried:
            move = rng.choice(untried)
            child = children[move] = Node(mover=actor, available=1)
            state.apply(move)
            path.append(child)
            break
        move = max(moves, key=lambda m: children[m].ucb(exploration))
        node = children[move]
        state.apply(move)
        path.append(node)
    steps = 0
    while not state.is_over and steps < playout.depth:  # playout
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        actor = state.to_act
        assert actor is not None
        state.apply(policy(state, actor, rng))
        steps += 1
    if state.is_over or playout.evaluate is None:
        rewards = _rewards(state)
    else:
        rewards = playout.evaluate(state)
    for visited in path:  # backpropagation
        visited.visits += 1
        if visited.mover is not None:
            visited.reward += rewards.get(visited.mover, 0.0)
    return rewards.get(start.mover or "", 0.0)
