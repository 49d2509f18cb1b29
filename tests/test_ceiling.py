"""The cheating seers that bound the critters search (bestiary.sim.ceiling)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.critters import GAME
from bestiary.critters.state import CrittersState
from bestiary.sim.ceiling import Games, Seer, play
from bestiary.sim.runner import GameSpec, start_match


def _everything(state: CrittersState) -> Counter[str]:
    cards: Counter[str] = Counter(state.draw_pile + state.centre_pile)
    for p in state.players:
        cards.update(state.hand(p))
        for s in state.tableau(p):
            cards.update(s["cards"])
    return cards


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), shuffle=st.integers(0, 10_000))
def test_shuffling_the_draw_pile_moves_no_card_elsewhere(seed: int, shuffle: int) -> None:
    state = GAME.new_game(["a", "b"], seed=seed)
    before = _everything(state)
    views = {p: state.view(p) for p in state.players}
    state.shuffle_draw_pile(random.Random(shuffle))
    assert _everything(state) == before
    # The order is nobody's knowledge: every seat's view is the same as before.
    assert {p: state.view(p) for p in state.players} == views
    fresh = state.clone()  # nothing kept: every view built anew from the shuffled pile
    assert {p: fresh.view(p) for p in fresh.players} == views


def _seated(sees: str, seed: int = 3) -> tuple[Seer, CrittersState]:
    seer = Seer("a", random.Random(seed), sees, iterations=4)
    match = start_match(GameSpec(0, "critters", ("greedy", "greedy"), seed))
    seer.match = match
    state = match.state
    assert isinstance(state, CrittersState)
    return seer, state


def test_a_seer_of_the_future_plays_out_on_the_real_draw_pile() -> None:
    seer, truth = _seated("future")
    sample = seer.sample(random.Random(1))
    assert sample is not truth
    assert sample.draw_pile == truth.draw_pile
    assert [sample.hand(p) for p in truth.players] == [truth.hand(p) for p in truth.players]


def test_a_seer_of_hands_knows_the_hands_but_not_the_draw_order() -> None:
    seer, truth = _seated("hands")
    orders = {tuple(seer.sample(random.Random(r)).draw_pile) for r in range(5)}
    assert len(orders) > 1
    for r in range(5):
        sample = seer.sample(random.Random(r))
        assert [sample.hand(p) for p in truth.players] == [truth.hand(p) for p in truth.players]
        assert sorted(sample.draw_pile) == sorted(truth.draw_pile)


def test_searching_leaves_the_real_game_untouched() -> None:
    seer, truth = _seated("hands")
    events = list(truth.events())
    views = {p: truth.view(p) for p in truth.players}
    legal = truth.legal_actions(truth.to_act or "a")
    if truth.to_act == "a" and len(legal) > 1:
        assert seer.act(truth.view("a"), legal) in legal
    assert truth.events() == events
    assert {p: truth.view(p) for p in truth.players} == views


def test_a_seer_must_see_something_named() -> None:
    with pytest.raises(ValueError, match="hands or future"):
        Seer("a", random.Random(0), "everything", iterations=4)


def test_seers_play_whole_games_against_greedy() -> None:
    wins = play(Games("future", 2, seed=5, start=0, stop=2, iterations=4))
    assert wins in {0.0, 0.5, 1.0, 1.5, 2.0}
