"""No bot sees hidden information: bots act on views alone; search re-deals what it cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.bots.critters_search import IsmctsBot
from bestiary.bots.wild_view import legal_moves
from bestiary.core.agent import bot_entries, make_bot
from bestiary.critters import GAME as CRITTERS
from bestiary.critters import CrittersState
from bestiary.critters.state import determinize
from bestiary.search.ismcts import Budget
from bestiary.wild import CREATURES
from bestiary.wild import GAME as WILD

WILD_BOTS = [e.name for e in bot_entries("wild")]
CRITTER_BOTS = [e.name for e in bot_entries("critters")]


def test_every_personality_is_registered_with_a_description() -> None:
    assert set(WILD_BOTS) == {
        "random",
        "honest",
        "hunter",
        "trickster",
        "reader",
        "cautious",
        "sleeper",
        "avenger",
        "matcher",
    }
    assert set(CRITTER_BOTS) == {"random", "greedy", "ismcts"}
    for game in ("wild", "critters"):
        for entry in bot_entries(game):
            assert entry.description.endswith(".") and "\n" not in entry.description


def _critters_midgame(seed: int, moves: int) -> CrittersState:
    state = CRITTERS.new_game(["a", "b", "c"], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        actor = state.to_act
        assert actor is not None
        state.apply(rng.choice(state.legal_actions(actor)))
    return state


def _twin(state: CrittersState, player: str, seed: int) -> CrittersState:
    """Another true state that ``player`` cannot tell apart: every hidden card re-dealt."""
    return determinize(state.view(player), player, random.Random(seed))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 25))
def test_critters_bots_decide_the_same_whatever_the_hidden_cards(seed: int, moves: int) -> None:
    state = _critters_midgame(seed, moves)
    if state.is_over:
        return
    player = state.to_act
    assert player is not None
    twin = _twin(state, player, seed + 1)
    assert twin.view(player) == state.view(player)
    for name in CRITTER_BOTS:
        if name == "ismcts":
            continue  # searched below with a small budget
        legal = state.legal_actions(player)
        assert twin.legal_actions(player) == legal
        mine = make_bot("critters", name, player, 7).act(state.view(player), legal)
        theirs = make_bot("critters", name, player, 7).act(twin.view(player), legal)
        assert mine == theirs


def test_ismcts_decides_the_same_whatever_the_hidden_cards() -> None:
    state = _critters_midgame(3, 9)
    player = state.to_act
    assert player is not None
    twin = _twin(state, player, 99)
    others = [p for p in state.players if p != player]
    assert any(state.hand(p) != twin.hand(p) for p in others) or state.draw_pile != twin.draw_pile
    budget = Budget(iterations=30)
    bot_a = IsmctsBot(player, random.Random(5), budget)
    bot_b = IsmctsBot(player, random.Random(5), budget)
    move_a = bot_a.act(state.view(player), state.legal_actions(player))
    move_b = bot_b.act(twin.view(player), twin.legal_actions(player))
    assert move_a == move_b
    assert bot_a.last is not None and bot_b.last is not None
    assert {m: c.visits for m, c in bot_a.last.root.children.items()} == {
        m: c.visits for m, c in bot_b.last.root.children.items()
    }


def test_determinization_is_built_from_the_view_alone() -> None:
    state = _critters_midgame(12, 6)
    player = state.to_act
    assert player is not None
    twin = _twin(state, player, 4)
    # Same view, same RNG: the same determinization, whichever true deal lies behind the view.
    a = determinize(state.view(player), player, random.Random(1))
    b = determinize(twin.view(player), player, random.Random(1))
    others = [p for p in state.players if p != player]
    assert [a.hand(p) for p in others] == [b.hand(p) for p in others]
    assert a.draw_pile == b.draw_pile
    # And the hidden cards really are re-dealt: samples differ from each other.
    samples = {
        tuple(
            tuple(sorted(determinize(state.view(player), player, random.Random(s)).hand(p)))
            for p in others
        )
        for s in range(20)
    }
    assert len(samples) > 1


def _wild_packs(rng: random.Random, top: list[str]) -> list[str]:
    rest = list(CREATURES * 2)
    for card in top:
        rest.remove(card)
    rng.shuffle(rest)
    return top + rest


@pytest.mark.parametrize("name", WILD_BOTS)
def test_wild_bots_ignore_cards_they_cannot_see(name: str) -> None:
    """Two tables that look the same from p1's seat: other Packs and p1's Pack order differ."""
    rng = random.Random(4)
    tables = []
    for _ in range(2):
        packs = {
            "p1": _wild_packs(rng, ["snerlep", "skeevil", "snerlep"]),
            "p2": _wild_packs(rng, []),
            "p3": _wild_packs(rng, []),
        }
        header = {"game": "wild", "version": 1, "players": ["p1", "p2", "p3"], "packs": packs}
        tables.append(WILD.from_header(header))
    first, second = tables
    assert first.view("p1") == second.view("p1")
    assert first.summary() != second.summary()
    for seed in range(5):
        legal = first.legal_actions("p1")
        assert second.legal_actions("p1") == legal
        a = make_bot("wild", name, "p1", seed).act(first.view("p1"), legal)
        b = make_bot("wild", name, "p1", seed).act(second.view("p1"), legal)
        assert a == b


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_wild_moves_from_the_view_are_the_engines_legal_moves(seed: int, players: int) -> None:
    names = [f"p{i + 1}" for i in range(players)]
    state = WILD.new_game(names, seed=seed)
    rng = random.Random(seed)
    for _ in range(120):
        if state.is_over:
            break
        for p in names:
            assert set(legal_moves(state.view(p))) == set(state.legal_actions(p))
        actor = rng.choice(names)
        actions = state.legal_actions(actor)
        if actions:
            state.apply(rng.choice(actions))


def test_views_handed_to_bots_hold_no_other_hand() -> None:
    state = WILD.new_game(["p1", "p2"], seed=1)
    view: dict[str, Any] = state.view("p1")
    assert view["hand"] == state.hand("p1")
    assert "hands" not in view and "p2" not in str(view.get("hand"))
