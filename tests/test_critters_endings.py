"""Every critters game ends: a deck that can never give a win is refused, and a game that
goes round without a new full set ends stalled, ranked as the exhausted ending ranks
(docs/rulings.md, "Every game ends")."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.agent import make_bot
from bestiary.core.driver import Match
from bestiary.core.errors import BadOption
from bestiary.core.game import replay
from bestiary.critters.cards import make_deck
from bestiary.critters.game import GAME
from bestiary.critters.info import MAX_EVENTS
from bestiary.critters.state import CrittersState

# The freeze request of issue 22: 150 kinds of 2 cards; no set can ever be full.
NEVER = {"kinds": {f"k{i:03d}": 2 for i in range(150)}, "wild": 0, "actions": {"hop_over": 20}}
# Three wilds make a win possible in principle; greedy bots never find it.
STUCK = {**NEVER, "wild": 3}
# Random play on this deck goes round for ever (its hop_over and no cards keep the centre pile
# turning while sets of its many kinds are almost never filled): unbounded, two seeds went past
# 200,000 events with stall_reshuffles 1000.
ENDLESS = {
    "kinds": {"a": 3, "b": 3, "c": 2, **{f"k{i:02d}": 2 for i in range(40)}},
    "wild": 1,
    "actions": {"hop_over": 100, "no": 50},
}


def test_a_deck_that_can_never_give_a_win_is_refused_in_one_sentence() -> None:
    with pytest.raises(BadOption) as info:
        GAME.new_game(["ann", "bo"], {"deck": NEVER}, seed=1)
    assert str(info.value) == (
        "this deck can never produce a winner: a win needs full sets of 3 different kinds "
        "(3 cards each, wilds filling in), and its cards make full sets of at most 0 "
        "different kinds"
    )
    GAME.new_game(["ann", "bo"], {"deck": STUCK}, seed=1)  # possible, if unlikely: taken


@pytest.mark.parametrize(
    ("kinds", "wild", "size", "most"),
    [
        ({"fox": 3, "owl": 3, "frog": 3}, 0, 3, 3),
        ({"fox": 2, "owl": 2, "frog": 2}, 2, 3, 2),  # two wilds fill two sets
        ({"fox": 1, "owl": 6}, 3, 4, 2),
        ({"fox": 0, "owl": 3}, 6, 3, 1),  # a set needs a critter of its kind
        ({"fox": 8}, 0, 3, 1),  # two fox sets are one kind
    ],
)
def test_most_full_kinds(kinds: dict[str, int], wild: int, size: int, most: int) -> None:
    assert make_deck(kinds, wild, {}).most_full_kinds(size) == most


def _play(options: dict[str, object], seats: int, seed: int) -> CrittersState:
    state = GAME.new_game([f"p{i}" for i in range(seats)], options, seed)
    bots = {
        p: make_bot("critters", "greedy", p, seed=seed + i) for i, p in enumerate(state.players)
    }
    Match(GAME, state, bots, seed=seed).play()
    return state


def test_a_game_that_goes_round_without_new_sets_ends_stalled() -> None:
    state = _play({"deck": STUCK, "stall_reshuffles": 5}, 2, 3)
    assert state.is_over and state.ending() == "stalled"
    events = state.events()
    assert sum(e["do"] == "reshuffle" for e in events) == 5
    assert events[-1]["ending"] == "stalled"  # the record says why
    assert all("ending" not in e for e in events[:-1])
    # ranked: most different full-set kinds (none here), then most Down Cards, then shared
    downs = {p: state.down_cards(p) for p in state.players}
    assert state.winners() == [p for p in state.players if downs[p] == max(downs.values())]
    # the record replays to the same end (the key is only the reason; the rules end it)
    again = replay(state.header(), list(enumerate(events, 2)))
    assert again.is_over and again.ending() == "stalled" and again.winners() == state.winners()


def test_a_new_full_set_starts_the_count_again() -> None:
    """Step by step through random games: the count is the reshuffles since the table's number
    of full sets last grew."""
    for seed in range(20):
        rng = random.Random(seed)
        state = GAME.new_game([f"p{i}" for i in range(5)], {"stall_reshuffles": 1000}, seed)
        full, since = 0, 0
        while not state.is_over:
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
                since += 1
            else:
                player = state.to_act
                assert player is not None
                state.apply(rng.choice(state.legal_actions(player)))
            now = sum(sum(1 for s in state.tableau(p) if s["full"]) for p in state.players)
            if now > full:
                full, since = now, 0
            assert state.stale_reshuffles == since
            # a clone (search, the adapters) and a pickled copy keep the count
            assert state.clone().stale_reshuffles == since
            assert pickle.loads(pickle.dumps(state)).stale_reshuffles == since


@settings(max_examples=25, deadline=None)
@given(
    st.integers(2, 8),
    st.integers(0, 10_000),
    st.integers(1, 3),
    st.sampled_from([NEVER | {"wild": 3}, None]),
)
def test_every_game_ends(seats: int, seed: int, stall: int, deck: object) -> None:
    """Whatever the deck the lobby takes, greedy bots reach an end within the driver's caps."""
    options: dict[str, object] = {"stall_reshuffles": stall}
    if deck is not None:
        options["deck"] = deck
    if seats > 5:
        options["hand_limit"] = 4
    state = _play(options, seats, seed)
    assert state.is_over
    assert state.ending() in GAME.info.endings


def test_the_game_says_how_it_can_end() -> None:
    endings = GAME.info.as_json()["endings"]
    assert set(endings) == {"won", "exhausted", "stalled"}
    assert "stall_reshuffles" in endings["stalled"]
    spec = GAME.info.option("stall_reshuffles")
    assert spec.default == 30 and spec.minimum == 1


@pytest.mark.parametrize("seed", [0, 1])
def test_however_long_the_options_let_a_game_go_it_ends_stalled_after_its_bound(
    seed: int,
) -> None:
    """The record's bound (docs/rulings.md): once a turn is due after MAX_EVENTS events the
    game ends as stalled, ranked as the exhausted ending ranks, whatever the options."""
    players = [f"p{i}" for i in range(8)]
    options = {"deck": ENDLESS, "stall_reshuffles": 1000, "hand_limit": 4}
    state = GAME.new_game(players, options, seed)
    GAME.random_playout(state, random.Random(seed), 3 * MAX_EVENTS)
    assert state.is_over and state.ending() == "stalled"
    events = state.events()
    assert MAX_EVENTS <= len(events) < MAX_EVENTS + 100  # at the end of that turn
    assert state.stale_reshuffles < 1000  # not the reshuffles' count: the bound ended it
    assert events[-1]["ending"] == "stalled"
    ranks = {
        p: (len({s["kind"] for s in state.tableau(p) if s["full"]}), state.down_cards(p))
        for p in players
    }
    assert state.winners() == [p for p in players if ranks[p] == max(ranks.values())]
    again = replay(state.header(), list(enumerate(events, 2)))
    assert again.is_over and again.ending() == "stalled" and again.winners() == state.winners()


def test_the_bound_is_said_where_the_options_are() -> None:
    info = GAME.info.as_json()
    assert f"{MAX_EVENTS:,} events" in info["endings"]["stalled"]
    stall = next(o for o in info["options"] if o["name"] == "stall_reshuffles")
    assert f"{MAX_EVENTS:,} events" in stall["description"]
