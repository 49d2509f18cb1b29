"""Hypothesis properties of wild under random legal play, with the sheet's Packs and smaller
ones (the ``pack_creatures`` and ``pack_copies`` options)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.driver import LazyView
from bestiary.core.game import replay
from bestiary.wild import GAME, OBJECTIVES, Nightfall, WildState
from bestiary.wild.objectives import OBJECTIVE_BY_ID
from bestiary.wild.setup import pack_for

PLAYERS = ["ann", "bob", "carl", "dee", "eve", "fay"]
# (pack_creatures, pack_copies): the sheet's Pack first, then every smaller one.
PACKS = [(5, 2), (3, 1), (3, 2), (4, 1), (4, 2), (5, 1)]
Game = tuple[int, int, bool, bool, tuple[int, int]]

games = st.tuples(
    st.integers(0, 2**32),
    st.integers(2, 6),
    st.booleans(),
    st.booleans(),
    st.sampled_from(PACKS),
)


def new(seed: int, n: int, bonus: bool, objectives: bool, pack: tuple[int, int]) -> WildState:
    creatures, copies = pack
    options = {
        "mating_bonus": bonus,
        "objectives": objectives,
        "pack_creatures": creatures,
        "pack_copies": copies,
    }
    return GAME.new_game(PLAYERS[:n], options, seed=seed)


def full_pack(state: WildState) -> Counter[str]:
    """Every card one player was dealt."""
    return Counter(pack_for(state.deal.options))


def random_step(state: WildState, rng: random.Random) -> bool:
    """One random legal action by a random able player; False if nobody can act."""
    able = [p for p in state.players if state.legal_actions(p)]
    if not able:
        return False
    state.apply(rng.choice(state.legal_actions(rng.choice(able))))
    return True


def played(game: Game, steps: int) -> tuple[WildState, random.Random]:
    """A new game after up to ``steps`` random legal actions, and the RNG that chose them."""
    state = new(*game)
    rng = random.Random(game[0])
    for _ in range(steps):
        if state.is_over or not random_step(state, rng):
            break
    return state, rng


def cards_by_owner(state: WildState) -> dict[str, Counter[str]]:
    owned: dict[str, Counter[str]] = {p: Counter() for p in state.players}
    for p in state.players:
        owned[p].update(state.hand(p))
        owned[p].update(state.pack(p))
        offer = state.offer(p)
        if offer is not None:
            owned[p][offer[0]] += 1
        for creature, owner in state.den(p):
            owned[owner][creature] += 1
    for creature, owner, _ in state.watering_hole():
        owned[owner][creature] += 1
    return owned


def check_scores(state: WildState) -> None:
    bonus = state.deal.options["mating_bonus"]
    scores = state.scores()
    for p in state.players:
        den = state.den(p)
        points = len(den) + (sum(owner != p for _, owner in den) if bonus else 0)
        objective = state.objective(p)
        if state.is_over and objective is not None and state.objective_scores(p):
            points += OBJECTIVE_BY_ID[objective].points
        assert scores[p] == points


@settings(max_examples=150, deadline=None)
@given(games, st.integers(0, 400))
def test_cards_are_conserved_and_scores_follow_from_dens(game: Game, steps: int) -> None:
    state = new(*game)
    dealt = full_pack(state)
    rng = random.Random(game[0])
    for _ in range(steps):
        if state.is_over or not random_step(state, rng):
            break
        assert cards_by_owner(state) == {p: dealt for p in state.players}
        check_scores(state)
    if not state.is_over:
        state.apply(Nightfall())
    assert cards_by_owner(state) == {p: dealt for p in state.players}
    assert all(not state.hand(p) and state.offer(p) is None for p in state.players)
    check_scores(state)
    winners = state.winners()
    assert winners and winners == [p for p in state.players if p in winners]


@settings(max_examples=150, deadline=None)
@given(games)
def test_random_play_ends_and_replays_exactly(game: Game) -> None:
    state = new(*game)
    steps = GAME.random_playout(state, random.Random(game[0]), max_steps=3000)
    assert state.is_over
    assert 0 < steps <= 3001
    assert len(state.events()) == steps
    again = new(*game)
    GAME.random_playout(again, random.Random(game[0]), max_steps=3000)
    assert again.header() == state.header()
    assert again.events() == state.events()
    lines = json.loads(json.dumps([state.header(), *state.events()]))
    replayed = replay(lines[0], list(enumerate(lines[1:], start=2)))
    assert replayed.summary() == state.summary()
    assert replayed.events() == state.events()
    assert replayed.header() == state.header()


def redeal_hidden(state: WildState, seat: str, rng: random.Random) -> WildState:
    """A copy where every card ``seat`` cannot see is dealt again (counts and Calls kept)."""
    other = state.clone()
    for i, p in enumerate(other.players):
        if p == seat:
            rng.shuffle(other._packs[i])
            continue
        pool = other._packs[i][:]
        pool += other._held[i]
        if other._offer_card[i] >= 0:
            pool.append(other._offer_card[i])
        rng.shuffle(pool)
        other._held[i] = [pool.pop() for _ in other._held[i]]
        if other._offer_card[i] >= 0:
            other._offer_card[i] = pool.pop()
        other._packs[i] = pool
    if other.deal.objectives is not None and not other.is_over:  # turned up at the end
        mine = other.deal.objectives[seat]
        spare = [o.id for o in OBJECTIVES if o.id != mine]
        rng.shuffle(spare)
        objectives = {p: (mine if p == seat else spare.pop()) for p in other.players}
        other.deal = dataclasses.replace(other.deal, objectives=objectives)
    return other


@settings(max_examples=150, deadline=None)
@given(games, st.integers(0, 200), st.integers(0, 5))
def test_view_unchanged_when_hidden_cards_are_redealt(game: Game, steps: int, which: int) -> None:
    state, rng = played(game, steps)
    seat = state.players[which % len(state.players)]
    for _ in range(3):
        redealt = redeal_hidden(state, seat, rng)
        assert redealt.view(seat) == state.view(seat)
        assert redealt.view(None) == state.view(None)


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 200))
def test_views_are_json_and_spectators_see_no_hidden_cards(game: Game, steps: int) -> None:
    state, _ = played(game, steps)
    spectator = state.view(None)
    assert json.loads(json.dumps(spectator)) == spectator
    assert not {"hand", "offer", "objective"} & set(spectator)
    for p in state.players:
        mine = state.view(p)
        assert mine["hand"] == state.hand(p)
        private = ("hand", "offer", "objective", "you")
        public = {k: v for k, v in mine.items() if k not in private}
        assert public == {k: v for k, v in spectator.items() if k != "you"}


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 300))
def test_a_lazy_view_answers_every_key_as_the_seats_whole_view(game: Game, steps: int) -> None:
    """What a lazy view answers, from the state's ``view_part`` or the whole view, is the seat's
    own view's (the spectator's too), and a part is refused to anyone not at the table."""
    state, _ = played(game, steps)
    for seat in [*state.players, None]:
        whole = state.view(seat)
        assert state.view_part(seat, "calls") == whole["calls"]
        for key in ("hand", "offer", "players", "no such key"):
            with pytest.raises(KeyError):
                state.view_part(seat, key)  # not answered alone: read from the whole view
        if seat is None:
            continue  # a lazy view is a seat's (a bot's)
        for key in whole:
            assert LazyView(state, seat)[key] == whole[key]
        assert dict(LazyView(state, seat)) == whole
        with pytest.raises(KeyError):
            LazyView(state, seat)["pack"]
    with pytest.raises(KeyError):
        state.view_part("nobody", "calls")
