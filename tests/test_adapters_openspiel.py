"""OpenSpiel conformance of ``python_bestiary_critters`` and ``python_bestiary_wild``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from bestiary.adapters import openspiel_critters, openspiel_wild  # noqa: E402


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("serialize", [False, True])
def test_critters_passes_random_sim_test(players: int, serialize: bool) -> None:
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialize, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "quiet_ticks": 8},
        {"players": 3, "objectives": True, "mating_bonus": True, "quiet_ticks": 6},
        {"players": 3, "objectives": True, "turn_based": True, "quiet_ticks": 6},
    ],
)
@pytest.mark.parametrize("serialize", [False, True])
def test_wild_passes_random_sim_test(params: dict[str, Any], serialize: bool) -> None:
    game = pyspiel.load_game(openspiel_wild.SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialize, verbose=False)


def test_game_types_are_as_documented() -> None:
    critters = pyspiel.load_game(openspiel_critters.SHORT_NAME).get_type()
    assert critters.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert critters.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert critters.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    wild = pyspiel.load_game(openspiel_wild.SHORT_NAME).get_type()
    assert wild.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS


def _deal(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(rng.choices(actions, probs)[0])


def test_critters_information_state_holds_only_own_cards_after_the_deal() -> None:
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    _deal(state, random.Random(1))
    engine = state.engine
    for seat, name in enumerate(("player_0", "player_1")):
        lines = state.information_state_string(seat).splitlines()
        assert lines[1] == f"hand{seat} " + " ".join(sorted(engine.hand(name)))
        seen = sorted(line.split(" ", 1)[1] for line in lines[2:])
        assert seen == sorted(engine.hand(name))


def _critters_after(players: int, seed: int, moves: int) -> tuple[Any, Any]:
    """A critters game after ``moves`` random moves (and the chance nodes they lead to)."""
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": players})
    state = game.new_initial_state()
    rng = random.Random(seed)
    _deal(state, rng)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
        _deal(state, rng)
    return game, state


def test_critters_resample_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    _, state = _critters_after(players=3, seed=5, moves=12)
    player = state.current_player()
    other_hands = set()
    for seed in range(6):
        sample = state.resample(player, random.Random(seed))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        other_hands.add(tuple(sorted(sample.engine.hand(f"player_{(player + 1) % 3}"))))
    assert len(other_hands) > 1


def _openspiel_ismcts(game: Any, seed: int) -> Any:
    """OpenSpiel's own ISMCTS bot as shipped: no resampler of ours, consistent action sets."""
    return ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(seed)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(seed + 1),
    )


def _ismcts_game(
    game: Any, g: int, other: Callable[[Any, random.Random], int], searches: Callable[[Any], bool]
) -> Any:
    """A full game: OpenSpiel's ISMCTS in seat ``g % 2`` where ``searches(state)``, else
    ``other(state, rng)``; every searched action is legal. Returns the last state."""
    bot = _openspiel_ismcts(game, g)
    state = game.new_initial_state()
    rng = random.Random(g)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
        elif state.current_player() == g % 2 and searches(state):
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(other(state, rng))
    assert searched > 0
    return state


def test_openspiel_ismcts_plays_full_critters_games_unchanged() -> None:
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": 2})
    for g in range(2):
        state = _ismcts_game(game, g, lambda s, rng: rng.choice(s.legal_actions()), lambda s: True)
        assert sum(state.returns()) == 0.0


def test_resample_from_infostate_keeps_the_seats_information_state() -> None:
    game, state = _critters_after(players=2, seed=4, moves=9)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(6):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        # A real history: replayed from its own actions it is the same state.
        assert str(game.deserialize_state(sample.serialize())) == str(sample)
        hands.add(tuple(sorted(sample.engine.hand(f"player_{1 - player}"))))
    assert len(hands) > 1


def test_critters_resample_from_infostate_after_a_reshuffle() -> None:
    # Six seats run the Draw Pile out: with these random moves it is reshuffled once.
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": 6})
    state = game.new_initial_state()
    rng = random.Random(0)
    _deal(state, rng)
    while not any("shuffled into a new Draw Pile" in line for line in state.seat_log(0)):
        assert not state.is_terminal()
        state.apply_action(rng.choice(state.legal_actions()))
        _deal(state, rng)
    assert not state.is_terminal()
    player = state.current_player()
    sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert str(game.deserialize_state(sample.serialize())) == str(sample)


def test_critters_resample_from_infostate_over_the_whole_tiny_tree() -> None:
    game = pyspiel.load_game(
        openspiel_critters.SHORT_NAME, {"variant": "tiny", "deal_at_once": True}
    )
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    decisions = 0

    def walk(state: Any) -> None:
        nonlocal decisions
        if state.is_terminal():
            return
        if not state.is_chance_node():
            p = state.current_player()
            sample = state.resample_from_infostate(p, sampler)
            assert sample.information_state_string(p) == state.information_state_string(p)
            assert sample.information_state_tensor(p) == state.information_state_tensor(p)
            assert sample.legal_actions() == state.legal_actions()
            decisions += 1
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    assert decisions == 838


CREATURE_ORDER = ("megalotaur", "snerlep", "fizzalisk", "wiffaloon", "skeevil")


def _seeker(state: Any, seat: int, rng: random.Random) -> int:
    """A wild seat that meets whenever it can and else mostly calls what another calls."""
    legal: list[int] = state.legal_actions(seat)
    meets = [a for a in legal if a >= 34]
    heard = [state.table.state.offer_call(p) for p in state.table.state.players]
    wanted = [CREATURE_ORDER.index(c) for c in heard if c is not None] or [0]
    calls = [a for a in legal if 9 <= a < 34 and (a - 9) % 5 in wanted]
    if rng.random() < 0.8 and (meets or calls):
        return (meets or calls)[0]
    return rng.choice(legal)


def _wild_with_meetings(params: dict[str, Any], seed: int, ticks: int) -> Any:
    game = pyspiel.load_game(openspiel_wild.SHORT_NAME, params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(ticks):
        for _ in range(params["players"] if params["turn_based"] else 1):
            _deal(state, rng)
            assert not state.is_terminal()
            if state.is_simultaneous_node():
                state.apply_actions([_seeker(state, q, rng) for q in range(params["players"])])
            else:
                state.apply_action(_seeker(state, state.current_player(), rng))
    _deal(state, rng)
    assert len(state.table.state.meetings) >= 2
    return game, state


def test_openspiel_ismcts_plays_full_wild_games_unchanged() -> None:
    game = pyspiel.load_game(
        openspiel_wild.SHORT_NAME, {"players": 2, "turn_based": True, "quiet_ticks": 12}
    )
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    meetings = 0
    for g in range(2):
        # Both seats seek meetings for the first 20 ticks, then one searches.
        state = _ismcts_game(
            game,
            g,
            lambda s, rng: _seeker(s, s.current_player(), rng),
            lambda s: s.table.ticks >= 20,
        )
        meetings += len(state.table.state.meetings)
    assert meetings > 0  # the searches re-dealt hands that meetings had shown


@pytest.mark.parametrize("turn_based", [True, False])
def test_wild_resample_from_infostate_is_a_real_history_the_seat_cannot_tell(
    turn_based: bool,
) -> None:
    params = {"players": 3, "turn_based": turn_based, "quiet_ticks": 30}
    game, state = _wild_with_meetings(params, seed=3, ticks=25)
    player = state.current_player() if turn_based else 0
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(8):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions(player) == state.legal_actions(player)
        # A real history: replayed from its own actions it is the same state.
        again = game.deserialize_state(sample.serialize())
        assert str(again) == str(sample)
        for q in range(3):
            assert again.information_state_string(q) == sample.information_state_string(q)
        others.add(tuple(tuple(sorted(sample.table.state.hand(f"player_{q}"))) for q in range(3)))
    assert len(others) > 1


def test_turn_based_wild_keeps_a_pick_from_the_seats_after_it() -> None:
    game = pyspiel.load_game(openspiel_wild.SHORT_NAME, {"players": 2, "turn_based": True})
    state = game.new_initial_state()
    _deal(state, random.Random(1))
    before = state.information_state_string(1)
    assert state.current_player() == 0
    call = next(a for a in state.legal_actions() if 9 <= a < 34)
    state.apply_action(call)
    assert state.current_player() == 1
    assert state.information_state_string(1) == before
    assert state.information_state_string(0).endswith(f"picked {state.action_to_string(0, call)}")


def test_wild_tick_order_is_a_chance_node_only_when_two_seats_act() -> None:
    game = pyspiel.load_game(openspiel_wild.SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    _deal(state, random.Random(2))
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    draw_or_wait = [0, 0, 0]
    state.apply_actions(draw_or_wait)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    first = next(a for a in state.legal_actions(0) if a != 0)
    second = next(a for a in state.legal_actions(1) if a != 0)
    state.apply_actions([first, second, 0])
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]
    state.apply_action(1)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS


def test_wild_others_see_a_call_but_not_its_card() -> None:
    game = pyspiel.load_game(openspiel_wild.SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    _deal(state, random.Random(3))
    call = next(a for a in state.legal_actions(0) if 9 <= a < 34)
    state.apply_actions([call, 0])
    own = state.information_state_string(0).splitlines()[-1]
    theirs = state.information_state_string(1).splitlines()[-1]
    assert '"card"' in own and '"call"' in own
    assert '"card"' not in theirs and '"call"' in theirs


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        (openspiel_critters.SHORT_NAME, {"players": 9}, "critters takes 2 to 8 players"),
        (openspiel_critters.SHORT_NAME, {"set_size": 5}, "set_size"),
        (openspiel_wild.SHORT_NAME, {"players": 7}, "wild takes 2 to 6 players"),
    ],
)
def test_bad_parameters_are_refused_in_one_sentence(
    name: str, params: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(name, params)


@pytest.mark.parametrize("name", [openspiel_critters.SHORT_NAME, openspiel_wild.SHORT_NAME])
def test_a_clone_plays_on_without_touching_the_original(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(20):  # a few decisions in: both games last longer than that
        _deal(state, rng)
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    _deal(state, rng)
    assert not state.is_terminal()
    before = (str(state), state.history(), state.information_state_string(0))
    clone = state.clone()
    for _ in range(30):
        _deal(clone, rng)
        if clone.is_terminal():
            break
        if clone.is_simultaneous_node():
            clone.apply_actions([rng.choice(clone.legal_actions(p)) for p in range(3)])
        else:
            clone.apply_action(rng.choice(clone.legal_actions()))
    assert clone.history() != state.history()
    assert (str(state), state.history(), state.information_state_string(0)) == before
