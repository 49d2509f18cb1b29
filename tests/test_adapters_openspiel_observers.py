"""``python_bestiary_critters`` observers honour every ``IIGObservationType`` combination.

OpenSpiel's convention (its own Python games, kuhn_poker first): ``private_info`` NONE shows
no hidden card, SINGLE_PLAYER the observer's own, ALL_PLAYERS everyone's; ``public_info=False``
leaves the public table out; ``perfect_recall`` remembers the whole history. The same checks
run on OpenSpiel's python_kuhn_poker, to show they are the convention and not ours.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

from bestiary.adapters import openspiel_critters  # noqa: E402

Private = pyspiel.PrivateInfoType
COMBINATIONS = list(
    itertools.product(
        [Private.NONE, Private.SINGLE_PLAYER, Private.ALL_PLAYERS], [False, True], [False, True]
    )
)


def _kind(private: Any, public: bool, recall: bool) -> Any:
    return pyspiel.IIGObservationType(
        public_info=public, perfect_recall=recall, private_info=private
    )


def _shows(private: Any, seat: int, player: int) -> bool:
    """Whether an observer of ``player`` with this private info shows ``seat``'s hand."""
    return private == Private.ALL_PLAYERS or (private == Private.SINGLE_PLAYER and seat == player)


def _seen(game: Any, kind: Any, state: Any, player: int) -> tuple[list[float], str]:
    observer = make_observation(game, kind)
    observer.set_from(state, player)
    return list(observer.tensor), observer.string_from(state, player)


def _critters_midgame(seed: int) -> Any:
    game = pyspiel.load_game(openspiel_critters.SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal() and moves < 14:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    assert not state.is_terminal()
    return game, state


@pytest.mark.parametrize(("private", "public", "recall"), COMBINATIONS)
def test_critters_observer_follows_the_observation_type(
    private: Any, public: bool, recall: bool
) -> None:
    kind = _kind(private, public, recall)
    game, state = _critters_midgame(seed=3)
    observer = make_observation(game, kind)
    expected = {"player"}
    expected |= {Private.SINGLE_PLAYER: {"private_hand"}, Private.ALL_PLAYERS: {"hands"}}.get(
        private, set()
    )
    if public:
        expected.add("history" if recall else "public")
    assert set(observer.dict) == expected
    for player in (0, 1):
        mine, text = _seen(game, kind, state, player)
        changed = False
        # Re-deal what `other` cannot see: the observer's own hand too when other != player.
        for other in (0, 1):
            for seed in range(4):
                redealt = state.resample(other, random.Random(seed))
                seen = _seen(game, kind, redealt, player)
                changed |= seen != (mine, text)
                if private == Private.NONE or (
                    private == Private.SINGLE_PLAYER and other == player
                ):
                    assert seen == (mine, text)
        # Showing hands is seen to show them: some re-deal of a hand the type shows changes it.
        assert changed == (private != Private.NONE)
        if private == Private.NONE and not public:
            assert mine == [float(i == player) for i in range(2)]


@pytest.mark.parametrize(("private", "public", "recall"), COMBINATIONS)
def test_critters_private_info_shows_exactly_the_hands_it_names(
    private: Any, public: bool, recall: bool
) -> None:
    kind = _kind(private, public, recall)
    game, state = _critters_midgame(seed=8)
    observer = make_observation(game, kind)
    enc = openspiel_critters.table_for(game.get_parameters()).encoding
    for player in (0, 1):
        observer.set_from(state, player)
        hands = [
            np.bincount([enc.card_index[c] for c in state.engine.hand(p)], minlength=len(enc.cards))
            for p in ("player_0", "player_1")
        ]
        if private == Private.SINGLE_PLAYER:
            assert observer.dict["private_hand"].tolist() == hands[player].tolist()
        if private == Private.ALL_PLAYERS:
            rows = observer.dict["hands"]
            assert rows[0].tolist() == hands[player].tolist()
            assert rows[1].tolist() == hands[1 - player].tolist()
        text = observer.string_from(state, player)
        for seat in (0, 1):
            shown = f"hand{seat} " in text
            assert shown == (
                private == Private.ALL_PLAYERS
                or (private == Private.SINGLE_PLAYER and seat == player)
            )


def test_perfect_recall_tensor_remembers_every_entry_in_order() -> None:
    game, state = _critters_midgame(seed=3)
    kind = _kind(Private.SINGLE_PLAYER, True, True)
    observer = make_observation(game, kind)
    observer.set_from(state, 0)
    rows = observer.dict["history"]
    history = state.history()
    assert rows.shape[0] == game.max_game_length()
    assert not rows[len(history) :].any()
    moves = [(t, r) for t, r in enumerate(rows[: len(history)]) if r[0] > 0]
    assert [int(r[1]) - 1 for _, r in moves] == [history[t] for t, _ in moves]
    # Its own cards, as dealt and drawn, add up to every card it ever held.
    gained = rows[: len(history), 2:].sum(axis=0)
    assert gained.sum() >= len(state.engine.hand("player_0"))
    # The default information state is this perfect-recall tensor.
    assert state.information_state_tensor(0) == list(observer.tensor)


@pytest.mark.parametrize(("private", "public", "recall"), COMBINATIONS)
def test_openspiel_own_games_follow_the_same_convention(
    private: Any, public: bool, recall: bool
) -> None:
    # OpenSpiel's Python kuhn_poker for NONE and SINGLE_PLAYER; it has no ALL_PLAYERS view,
    # so the C++ leduc_poker (which has) stands in for that one.
    import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)

    name, cards = ("leduc_poker", 6) if private == Private.ALL_PLAYERS else ("python_kuhn_poker", 3)
    game = pyspiel.load_game(name)
    kind = _kind(private, public, recall)
    seen = {}
    for deal in itertools.permutations(range(cards), 2):
        state = game.new_initial_state()
        for card in deal:
            state.apply_action(card)
        seen[deal] = _seen(game, kind, state, 0)
    if private == Private.NONE:  # the cards change nothing
        assert len({repr(v) for v in seen.values()}) == 1
    if private == Private.SINGLE_PLAYER:  # only the observer's own card matters
        for a, b in itertools.combinations(seen, 2):
            assert (seen[a] == seen[b]) == (a[0] == b[0])
    if private == Private.ALL_PLAYERS:  # every card matters
        assert len({repr(v) for v in seen.values()}) == len(seen)


# ---------------------------------------------------------------------------- wild

WILD_GAMES = [
    {"players": 2, "quiet_ticks": 8},
    {"players": 3, "objectives": True, "quiet_ticks": 8},
]


def _wild_state(params: dict[str, Any], packs: list[list[int]], objectives: list[int]) -> Any:
    """A wild game dealt ``packs`` (creature indices) whose public record is the same for
    every deal: each seat calls its lowest card as megalotaur, discards its lowest card, draws.
    """
    from bestiary.adapters import openspiel_wild

    game = pyspiel.load_game(openspiel_wild.SHORT_NAME, params)
    state = game.new_initial_state()
    for pack in packs:
        for card in pack:
            state.apply_action(card)
    for objective in objectives if params.get("objectives") else []:
        state.apply_action(objective)
    n = params["players"]
    for step in ("call", "discard", "draw"):
        hands = [state.table.state.hand(f"player_{i}") for i in range(n)]
        lowest = [min((CREATURE_IDS[c] for c in hand), default=0) for hand in hands]
        # Call the lowest card as megalotaur, discard the lowest card, draw.
        actions = [{"call": 9 + 5 * c, "discard": 4 + c, "draw": 1}[step] for c in lowest]
        for i, a in enumerate(actions):
            assert a in state.legal_actions(i)
        state.apply_actions(actions)
        if state.is_chance_node():
            state.apply_action(0)  # the same order every time
    assert not state.is_terminal()
    return game, state


def _pack(rng: random.Random) -> list[int]:
    cards = [c for c in range(5) for _ in range(2)]
    rng.shuffle(cards)
    return cards


CREATURE_IDS = {
    c: i for i, c in enumerate(("megalotaur", "snerlep", "fizzalisk", "wiffaloon", "skeevil"))
}


@pytest.mark.parametrize("params", WILD_GAMES)
@pytest.mark.parametrize(("private", "public", "recall"), COMBINATIONS)
def test_wild_observer_follows_the_observation_type(
    params: dict[str, Any], private: Any, public: bool, recall: bool
) -> None:
    n = params["players"]
    kind = _kind(private, public, recall)
    rng = random.Random(5)
    packs = [_pack(rng) for _ in range(n)]
    objectives = list(range(n))
    game, state = _wild_state(params, packs, objectives)
    observer = make_observation(game, kind)
    expected = {"player"}
    if private == Private.SINGLE_PLAYER:
        expected |= {"private_hand", "private_offer"}
        expected |= {"private_objective"} if params.get("objectives") else set()
    if private == Private.ALL_PLAYERS:
        expected |= {"hands", "offers"} | ({"objectives"} if params.get("objectives") else set())
    if public:
        expected |= {"public", "moves"} if recall else {"public"}
    assert set(observer.dict) == expected
    for player in range(n):
        mine = _seen(game, kind, state, player)
        changed = False
        # Re-deal what `other` keeps hidden: its Pack (so its hand, offer, discard, draw)
        # and its Objective; the public record stays the same.
        for other in range(n):
            for seed in range(4):
                redealt_packs = list(packs)
                redealt_packs[other] = _pack(random.Random(100 + seed))
                redealt_objectives = list(objectives)
                redealt_objectives[other] = n + seed
                _, redealt = _wild_state(params, redealt_packs, redealt_objectives)
                seen = _seen(game, kind, redealt, player)
                changed |= seen != mine
                if private == Private.NONE or (
                    private == Private.SINGLE_PLAYER and other != player
                ):
                    assert seen == mine
        assert changed == (private != Private.NONE)
        if private == Private.NONE and not public:
            assert mine[0] == [float(i == player) for i in range(n)]


def test_wild_private_info_shows_the_face_down_offer_to_its_owner_only() -> None:
    rng = random.Random(2)
    params = {"players": 2, "quiet_ticks": 8}
    game, state = _wild_state(params, [_pack(rng), _pack(rng)], [])
    engine = state.table.state
    for player in (0, 1):
        card = engine.offer(f"player_{player}")[0]
        single = make_observation(game, _kind(Private.SINGLE_PLAYER, True, False))
        single.set_from(state, player)
        assert single.dict["private_offer"][CREATURE_IDS[card]] == 1
        text = single.string_from(state, player)
        assert f"offer {card}" in text
        everyone = make_observation(game, _kind(Private.ALL_PLAYERS, True, False))
        everyone.set_from(state, player)
        other = engine.offer(f"player_{1 - player}")[0]
        assert everyone.dict["offers"][1][CREATURE_IDS[other]] == 1
        # The default observation and information state are SINGLE_PLAYER's.
        assert state.observation_tensor(player) == list(single.tensor)


@pytest.mark.parametrize("name", ["critters", "wild"])
def test_an_unsupported_observation_is_refused(name: str) -> None:
    from bestiary.adapters import openspiel_wild

    short = openspiel_critters.SHORT_NAME if name == "critters" else openspiel_wild.SHORT_NAME
    game = pyspiel.load_game(short)
    with pytest.raises(ValueError, match="observation parameters are not supported"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False), {"shape": "flat"})
