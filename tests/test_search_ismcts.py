"""The search's root choice: it overrules the ranker's favourite only on a sure paired gain."""

from __future__ import annotations

import random
from typing import Any

from bestiary.search.ismcts import Budget, Searcher, search

# Each move wins when the round's luck (one uniform draw, the same for every move of a round)
# falls below its odds.
ODDS = {"plain": 0.5, "twin": 0.5, "good": 0.9}


class OneMove:
    """A game of one move for ``me``, then one draw of luck decides it."""

    def __init__(self) -> None:
        self.move: str | None = None
        self.luck: float | None = None

    @property
    def is_over(self) -> bool:
        return self.luck is not None

    @property
    def chance_due(self) -> bool:
        return self.move is not None and self.luck is None

    def clone(self) -> OneMove:
        other = OneMove()
        other.move, other.luck = self.move, self.luck
        return other

    def apply(self, action: Any) -> None:
        if self.move is None:
            self.move = action
        else:
            self.luck = action

    def legal_actions(self, player: str) -> list[Any]:
        return list(ODDS) if self.move is None else []

    def chance_outcome(self, rng: random.Random) -> float:
        return rng.random()

    def winners(self) -> list[str]:
        assert self.move is not None and self.luck is not None
        return ["me"] if self.luck < ODDS[self.move] else ["them"]


def _searcher(favourite_first: list[str], confidence: float | None) -> Searcher:
    def rank(state: Any, actor: str, moves: list[Any]) -> list[Any]:
        return sorted(moves, key=favourite_first.index)

    return Searcher(
        actor=lambda s: None if s.is_over or s.chance_due else "me",
        rank=rank,
        policy=lambda s, a, r: None,
        confidence=confidence,
    )


def _choose(order: list[str], confidence: float | None, seed: int) -> str:
    result = search(
        _searcher(order, confidence),
        lambda rng: OneMove(),
        "me",
        list(ODDS),
        random.Random(seed),
        Budget(iterations=150),
    )
    assert result.iterations == 150
    return str(result.move)


def test_a_clearly_better_move_overrules_the_favourite() -> None:
    assert all(_choose(["plain", "twin", "good"], 1.0, seed) == "good" for seed in range(10))


def test_an_equal_move_never_overrules_the_favourite() -> None:
    # Same luck in a round: "plain" and "twin" always score alike, so their paired gain is 0.
    assert all(_choose(["twin", "plain", "good"], 1.0, seed) != "plain" for seed in range(10))
    assert all(_choose(["plain", "twin", "good"], 1.0, seed) != "twin" for seed in range(10))


def test_the_rounds_are_paired_on_the_same_luck() -> None:
    result = search(
        _searcher(["plain", "twin", "good"], 1.0),
        lambda rng: OneMove(),
        "me",
        list(ODDS),
        random.Random(3),
        Budget(iterations=60),
    )
    plain, twin = result.rounds["plain"], result.rounds["twin"]
    assert plain and plain == {k: twin[k] for k in plain if k in twin}
