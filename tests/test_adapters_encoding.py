"""Encodings shared by every adapter: action ids round-trip, observations hide hidden cards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.adapters.critters_encoding import CrittersEncoding
from bestiary.adapters.wild_encoding import WAIT, WildEncoding
from bestiary.critters import GAME as CRITTERS
from bestiary.critters import CrittersState
from bestiary.critters.state import determinize
from bestiary.wild import GAME as WILD
from bestiary.wild import Call, Discard, Meet, WildState

FEW = settings(max_examples=25, deadline=None)


def _names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def _critters_after(players: int, seed: int, steps: int) -> CrittersState:
    state = CRITTERS.new_game(_names(players), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        player = state.to_act
        assert player is not None
        state.apply(rng.choice(state.legal_actions(player)))
    return state


# ------------------------------------------------------------------ action ids round-trip


@pytest.mark.parametrize(("players", "set_size"), [(2, 3), (4, 3), (3, 4), (8, 3)])
def test_every_critters_id_decodes_to_an_action_that_encodes_back(
    players: int, set_size: int
) -> None:
    state = CRITTERS.new_game(_names(players), {"set_size": set_size}, seed=1)
    enc = CrittersEncoding(state.players, state.kinds, state.set_size)
    for seat, name in enumerate(state.players):
        for action_id in range(0, enc.size, 1 if seat == 0 else 7):
            assert enc.action_id(enc.action(name, action_id)) == action_id


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_wild_id_decodes_to_an_action_that_encodes_back(players: int) -> None:
    enc = WildEncoding(_names(players))
    for name in enc.players:
        for action_id in range(enc.size):
            assert enc.action_id(enc.action(name, action_id)) == action_id
    assert enc.action("p0", WAIT) is None


@FEW
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 150))
def test_legal_critters_actions_have_distinct_ids_that_decode_to_them(
    players: int, seed: int, steps: int
) -> None:
    state = _critters_after(players, seed, steps)
    enc = CrittersEncoding(state.players, state.kinds, state.set_size)
    for name in state.players:
        legal = state.legal_actions(name)
        ids = [enc.action_id(a) for a in legal]
        assert len(set(ids)) == len(ids)
        assert [enc.action(name, i) for i in ids] == legal
        assert set(np.flatnonzero(enc.mask(legal))) == set(ids)


@FEW
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_legal_wild_actions_have_distinct_ids_that_decode_to_them(
    players: int, seed: int, steps: int
) -> None:
    state = WILD.new_game(_names(players), seed=seed)
    rng = random.Random(seed)
    enc = WildEncoding(state.players)
    for _ in range(steps):
        if state.is_over:
            break
        for name in state.players:
            legal = state.legal_actions(name)
            ids = [enc.action_id(a) for a in legal]
            assert WAIT not in ids and len(set(ids)) == len(ids)
            assert [enc.action(name, i) for i in ids] == legal
        actions = state.legal_actions(rng.choice(state.players))
        if actions:
            state.apply(rng.choice(actions))


@pytest.mark.parametrize("bad", [-1, 10_000])
def test_ids_outside_the_space_are_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="outside"):
        WildEncoding(_names(2)).action("p0", bad)
    with pytest.raises(ValueError, match="outside"):
        CrittersEncoding(_names(2), ("fox",)).action("p0", bad)


# ------------------------------------------------------ observations hide what is hidden


@FEW
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_critters_observation_unchanged_when_hidden_cards_are_redealt(
    players: int, seed: int, steps: int
) -> None:
    state = _critters_after(players, seed, steps)
    enc = CrittersEncoding(state.players, state.kinds, state.set_size)
    for name in state.players:
        redealt = determinize(state.view(name), name, random.Random(seed + 1))
        assert np.array_equal(enc.observe(state.view(name)), enc.observe(redealt.view(name)))
        assert _from_state(enc, state, name) == _from_state(enc, redealt, name)  # vector envs'
        assert np.array_equal(
            enc.mask(state.legal_actions(name)), enc.mask(redealt.legal_actions(name))
        )


def _from_state(enc: Any, state: Any, name: str, *quiet: float) -> list[float]:
    """The vector envs' observation, read straight from the state (``observe_state``)."""
    out = [0.0] * enc.obs_size
    enc.observe_state(state, name, *quiet, out)
    return out


def test_critters_observation_unchanged_by_an_independent_redeal_of_the_deck() -> None:
    # Built from headers, not from determinize: swap cards between p1's hand and the Draw Pile.
    first = CRITTERS.new_game(_names(3), seed=4)
    header = first.header()
    deck = list(header["deck"])
    hand_positions = [j for j in range(15) if j % 3 == 1]
    pile = list(range(16, len(deck)))  # position 15 is p0's first draw
    changed = False
    for a, b in zip(hand_positions, pile, strict=False):
        changed |= deck[a] != deck[b]
        deck[a], deck[b] = deck[b], deck[a]
    assert changed
    rng = random.Random(4)
    rest = deck[16:]  # the first turn's draw (position 15) is p0's: it stays
    rng.shuffle(rest)
    deck[16:] = rest
    second = CRITTERS.from_header({**header, "deck": deck})
    enc = CrittersEncoding(first.players, first.kinds, first.set_size)
    assert second.hand("p1") != first.hand("p1")
    assert np.array_equal(enc.observe(first.view("p0")), enc.observe(second.view("p0")))


def _wild_pair(players: int, seed: int, me: str, own_pack: bool) -> tuple[WildState, WildState]:
    """The same table twice; cards ``me`` cannot see are dealt anew in the second.

    Other seats' Packs are shuffled whole; ``me``'s own Pack (below the hand) only if
    ``own_pack``, since a card ``me`` draws is seen.
    """
    first = WILD.new_game(_names(players), seed=seed)
    header = first.header()
    rng = random.Random(seed + 1)
    packs: dict[str, Any] = {}
    for name, pack in header["packs"].items():
        pack = list(pack)
        keep = (first.limit if own_pack else len(pack)) if name == me else 0
        rest = pack[keep:]
        rng.shuffle(rest)
        packs[name] = pack[:keep] + rest
    return first, WILD.from_header({**header, "packs": packs})


def _same_shape(action: Any, other: WildState, rng: random.Random) -> Any:
    """``action`` as the second table would see it: a hidden card swapped for one held there."""
    if isinstance(action, (Call, Discard)):
        hand = other.hand(action.by)
        offer = other.offer(action.by)
        cards = hand + ([offer[0]] if offer and isinstance(action, Call) else [])
        card = rng.choice(cards)
        return (
            Call(action.by, card, action.call)
            if isinstance(action, Call)
            else Discard(action.by, card)
        )
    return action


@FEW
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_wild_observation_unchanged_when_hidden_cards_are_redealt(
    players: int, seed: int, steps: int
) -> None:
    me = "p0"
    first, second = _wild_pair(players, seed, me, own_pack=False)
    enc = WildEncoding(first.players)
    rng = random.Random(seed)
    for _ in range(steps):
        if first.is_over or first.meetings:
            break  # a meeting shows its cards: from then on the tables may rightly differ
        assert np.array_equal(enc.observe(first.view(me)), enc.observe(second.view(me)))
        assert _from_state(enc, first, me, 0.5) == _from_state(enc, second, me, 0.5)
        assert np.array_equal(enc.mask(first.legal_actions(me)), enc.mask(second.legal_actions(me)))
        name = rng.choice(first.players)
        legal = [a for a in first.legal_actions(name) if not isinstance(a, Meet)]
        if not legal:
            continue
        action = rng.choice(legal)
        first.apply(action)
        second.apply(action if name == me else _same_shape(action, second, rng))


@FEW
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_wild_first_observation_unchanged_when_every_unseen_card_is_redealt(
    players: int, seed: int
) -> None:
    first, second = _wild_pair(players, seed, "p1", own_pack=True)
    enc = WildEncoding(first.players)
    assert np.array_equal(enc.observe(first.view("p1")), enc.observe(second.view("p1")))
    assert first.header()["packs"] != second.header()["packs"]
