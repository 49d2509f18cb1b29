"""critters bots: scenarios from explicit deals, search budgets, and strength against random."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.bots.critters import Position
from bestiary.core.agent import make_bot
from bestiary.critters import GAME, CrittersState
from bestiary.critters.actions import (
    Allow,
    Complete,
    Down,
    HopOver,
    Pass,
    PlaySet,
    SayNo,
    UltimateCollector,
)
from bestiary.search.ismcts import Budget
from bestiary.sim.parallel import run_games
from bestiary.sim.seating import sim_specs
from bestiary.sim.summary import summarize

FILLER = ["rabbit", "squirrel", "raccoon", "hedgehog", "turtle", "otter"] * 2


def _known(pos: Position) -> tuple[Any, ...]:
    """Every field of a position (a compiled one has no ``vars``)."""
    return (pos.me, pos.size, pos.to_win, pos.hand, pos.full, pos.partial, pos.pending)


def table(hands: dict[str, list[str]], draw: list[str]) -> CrittersState:
    """A game that deals exactly ``hands`` (one at a time from the first seat), then ``draw``."""
    players = list(hands)
    size = len(hands[players[0]])
    deck = [hands[p][i] for i in range(size) for p in players] + draw
    header = {
        "game": "critters",
        "version": 1,
        "players": players,
        "options": {"hand_limit": size},
        "deck": deck,
        "first": players[0],
    }
    return GAME.from_header(header)


def choice(name: str, state: CrittersState, player: str, seed: int = 1) -> Any:
    bot = make_bot("critters", name, player, seed)
    return bot.act(state.view(player), state.legal_actions(player))


def _steal_to_win() -> CrittersState:
    state = table(
        {
            "ann": ["fox", "fox", "fox", "owl", "owl", "owl", "ultimate_collector"],
            "bo": ["frog", "frog", "frog", "wild", "otter", "otter", "otter"],
        },
        FILLER,
    )
    for action in (
        PlaySet("ann", "fox", ("fox", "fox", "fox")),
        PlaySet("bo", "frog", ("frog", "frog", "wild")),
        PlaySet("ann", "owl", ("owl", "owl", "owl")),
        Pass("bo"),
    ):
        state.apply(action)
    return state


@pytest.mark.parametrize("name", ["greedy", "ismcts"])
def test_a_steal_that_wins_is_taken(name: str) -> None:
    state = _steal_to_win()
    assert choice(name, state, "ann") == UltimateCollector("ann", "bo", "frog")


def test_greedy_says_no_to_ultimate_collector() -> None:
    state = table(
        {
            "ann": ["fox", "fox", "fox", "ultimate_collector", "owl"],
            "bo": ["frog", "frog", "frog", "no", "otter"],
        },
        FILLER,
    )
    state.apply(PlaySet("ann", "fox", ("fox", "fox", "fox")))
    state.apply(PlaySet("bo", "frog", ("frog", "frog", "frog")))
    state.apply(UltimateCollector("ann", "bo", "frog"))
    assert choice("greedy", state, "bo") == SayNo("bo")


def test_greedy_saves_a_lone_no_for_steals() -> None:
    state = table(
        {
            "ann": ["fox", "fox", "hop_over", "owl", "owl"],
            "bo": ["frog", "rabbit", "otter", "no", "otter"],
        },
        FILLER,
    )
    state.apply(Down("ann", "fox"))
    state.apply(Down("bo", "frog"))
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "otter"))
    state.apply(HopOver("ann", "bo", "otter", "otter"))
    assert choice("greedy", state, "bo") == Allow("bo")


def test_greedy_completes_a_set_rather_than_pass() -> None:
    state = table(
        {"ann": ["fox", "fox", "owl", "rabbit", "frog"], "bo": ["otter"] * 5},
        FILLER,
    )
    state.apply(Down("ann", "fox"))
    state.apply(Down("bo", "otter"))
    move = choice("greedy", state, "ann")
    assert move == Complete("ann", "fox", ("fox",)) or move == Down("ann", "fox")


def test_budget_needs_a_positive_limit() -> None:
    with pytest.raises(ValueError, match="iterations, milliseconds or both"):
        Budget(iterations=None)
    with pytest.raises(ValueError, match="positive"):
        Budget(iterations=0)
    with pytest.raises(ValueError, match="positive"):
        Budget(iterations=None, millis=-1)
    assert Budget(iterations=10, millis=5).iterations == 10


def test_ismcts_plays_whole_games_in_every_seat() -> None:
    specs = sim_specs("critters", ["ismcts", "random", "greedy"], 3, 3, seed=2)
    results = list(run_games(specs, jobs=1))
    assert all(r.ended == "won" and r.winners for r in results)


def test_greedy_beats_random() -> None:
    specs = sim_specs("critters", ["greedy", "random"], 2, 80, seed=5)
    summary = summarize("critters", 2, run_games(specs, jobs=1))
    greedy, random_ = summary.by_bot["greedy"], summary.by_bot["random"]
    assert greedy.interval[0] > random_.interval[1]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_a_playout_reads_the_same_position_as_a_seat_reads_from_its_view(
    seed: int, players: int
) -> None:
    """``Position.from_state`` (the playouts' fast path) is ``Position.from_view`` exactly."""
    names = [f"p{i}" for i in range(players)]
    state = GAME.new_game(names, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        for p in names:
            mine = Position.from_state(state, p)
            assert _known(mine) == _known(Position.from_view(state.view(p)))
        actor = state.to_act
        assert actor is not None
        state.apply(rng.choice(state.legal_actions(actor)))
