"""critters properties: conservation, legality, determinism, records, views, determinization."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.errors import IllegalAction
from bestiary.core.game import replay
from bestiary.critters import GAME, CrittersState
from bestiary.critters.actions import (
    Allow,
    Complete,
    CrittersAction,
    Discard,
    Down,
    GameChanger,
    HopOver,
    Pass,
    PlaySet,
    Reshuffle,
    SayNo,
    SwapWild,
    UltimateCollector,
)
from bestiary.critters.cards import DEFAULT_DECK, WILD
from bestiary.critters.refusals import _normal
from bestiary.critters.state import determinize

SETTINGS = settings(max_examples=40, deadline=None)


@st.composite
def games(draw: st.DrawFn) -> tuple[CrittersState, int]:
    players = draw(st.integers(2, 8))
    variants: list[dict[str, Any]] = [{}]
    if players <= 4:
        variants += [{"set_size": 4}, {"sets_to_win": 4}]
    options = draw(st.sampled_from(variants))
    seed = draw(st.integers(0, 2**32))
    names = [f"p{i}" for i in range(players)]
    return GAME.new_game(names, options, seed=seed), seed


def everything(state: CrittersState) -> Counter[str]:
    cards: Counter[str] = Counter(state.centre_pile)
    cards.update(state.draw_pile)
    for p in state.players:
        cards.update(state.hand(p))
        for s in state.tableau(p):
            cards.update(s["cards"])
    return cards


def snapshot(state: CrittersState) -> Any:
    return state.summary(), state.draw_pile, state.events(), state.chance_due


def random_action(rng: random.Random, state: CrittersState) -> CrittersAction:
    """Any action at all, mostly plausible-looking, often illegal."""
    names = [*state.players, "nobody"]
    cards = [*state.kinds, WILD, "no", "hop_over", "dragon"]
    by = rng.choice(names)
    kind, kind2 = rng.choice(cards), rng.choice(cards)
    card = rng.choice(cards)
    size = state.set_size + rng.choice((-1, 0, 0, 1))
    some = tuple(rng.choice((kind, WILD)) for _ in range(max(0, size)))
    candidates: list[CrittersAction] = [
        Down(by, card, rng.choice((None, kind))),
        PlaySet(by, kind, some),
        Complete(by, kind, some[: rng.randint(0, len(some))]),
        HopOver(by, rng.choice(names), kind, rng.choice((kind, WILD))),
        GameChanger(by, rng.choice(names), kind, rng.choice((kind, WILD)), kind2, kind2),
        UltimateCollector(by, rng.choice(names), kind),
        SwapWild(by, kind, kind2),
        SayNo(by),
        Allow(by),
        Pass(by),
        Discard(by, card),
        Reshuffle(tuple(state.centre_pile[::-1]) if rng.random() < 0.5 else (card,)),
    ]
    return rng.choice(candidates)


@SETTINGS
@given(games(), st.integers(0, 2**32))
def test_play_conserves_cards_and_apply_matches_legal_actions(
    game: tuple[CrittersState, int], salt: int
) -> None:
    state, _ = game
    rng = random.Random(salt)
    deck: Counter[str] = Counter(state.header()["deck"])
    for _ in range(250):
        if state.is_over:
            break
        assert everything(state) == deck
        actor = state.to_act
        legal_by_player = {p: state.legal_actions(p) for p in state.players}
        if state.chance_due:
            assert not any(legal_by_player.values())
            state.apply(state.chance_outcome(rng))
            continue
        assert actor is not None
        legal = legal_by_player[actor]
        assert legal and len(set(legal)) == len(legal)
        assert all(not acts for p, acts in legal_by_player.items() if p != actor)
        for action in rng.sample(legal, min(3, len(legal))):
            trial = state.clone()
            trial.apply(action)
        for _ in range(4):
            action = random_action(rng, state)
            by = getattr(action, "by", None)
            if by in legal_by_player and _normal(action) in legal_by_player[by]:
                continue
            before = snapshot(state)
            try:
                state.apply(action)
            except IllegalAction as err:
                assert str(err) and "\n" not in str(err)
            else:
                raise AssertionError(f"{action!r} was accepted but is not in legal_actions")
            assert snapshot(state) == before
        state.apply(rng.choice(legal))


@settings(max_examples=40, deadline=None)
@given(games(), st.integers(0, 2**32))
def test_random_legal_play_always_ends(game: tuple[CrittersState, int], salt: int) -> None:
    state, _ = game
    steps = GAME.random_playout(state, random.Random(salt), 100_000)
    assert state.is_over and steps < 100_000
    assert state.winners() and state.turn is None
    assert all(state.legal_actions(p) == [] for p in state.players)


@SETTINGS
@given(games(), st.integers(0, 2**32))
def test_the_fast_playout_is_the_stdlibs_random_play(
    game: tuple[CrittersState, int], salt: int
) -> None:
    """``random_playout`` (compiled draws, no re-checking) plays, move for move, the game that
    the public API and the stdlib's ``random.Random`` play from the same deal and seed."""
    state, seed = game
    dealt = DEFAULT_DECK.cards()  # no variant of games() changes the deck
    random.Random(seed).shuffle(dealt)
    assert state.header()["deck"] == dealt
    reference = state.clone()
    GAME.random_playout(state, random.Random(salt), 100_000)
    rng = random.Random(salt)
    while not reference.is_over:
        if reference.chance_due:
            order = reference.centre_pile
            rng.shuffle(order)
            reference.apply(Reshuffle(tuple(order)))
        else:
            player = reference.to_act
            assert player is not None
            reference.apply(rng.choice(reference.legal_actions(player)))
    assert reference.events() == state.events()


@SETTINGS
@given(games(), st.integers(0, 2**32))
def test_same_seed_same_game(game: tuple[CrittersState, int], salt: int) -> None:
    state, seed = game
    again = GAME.new_game(state.players, state.header()["options"], seed=seed)
    assert again.header() == state.header()
    GAME.random_playout(state, random.Random(salt), 100_000)
    GAME.random_playout(again, random.Random(salt), 100_000)
    assert again.events() == state.events()
    assert again.summary() == state.summary()


@SETTINGS
@given(games(), st.integers(0, 2**32), st.integers(0, 400))
def test_record_round_trip(game: tuple[CrittersState, int], salt: int, steps: int) -> None:
    state, _ = game
    GAME.random_playout(state, random.Random(salt), steps)
    rebuilt = GAME.from_header(state.header())
    for event in state.events():
        rebuilt.apply(GAME.action_from_event(event))
    assert rebuilt.summary() == state.summary()
    assert rebuilt.draw_pile == state.draw_pile
    assert rebuilt.events() == state.events()


@SETTINGS
@given(games(), st.integers(0, 2**32), st.integers(0, 400))
def test_a_seed_only_record_takes_its_reshuffles_from_the_seed(
    game: tuple[CrittersState, int], salt: int, steps: int
) -> None:
    state, _ = game
    rng = random.Random(salt)
    for _ in range(steps):  # every reshuffle the one the seed gives
        if state.is_over:
            break
        if state.chance_due:
            state.apply(state.chance_outcome(None))
        else:
            state.apply(rng.choice(state.legal_actions(state.actors[0])))
    header = state.header()
    del header["deck"]
    lines = [(n + 2, e) for n, e in enumerate(state.events()) if e["do"] != "reshuffle"]
    lazy = replay(header, lines)
    if state.events() and state.events()[-1]["do"] == "reshuffle":
        assert lazy.chance_due  # replay shuffles only when the next event comes
    else:
        assert lazy.summary() == state.summary()


@SETTINGS
@given(games(), st.integers(0, 2**32), st.integers(0, 300))
def test_re_dealing_hidden_cards_leaves_a_view_unchanged(
    game: tuple[CrittersState, int], salt: int, steps: int
) -> None:
    state, _ = game
    rng = random.Random(salt)
    GAME.random_playout(state, rng, steps)
    viewer = rng.choice(state.players)
    others = [i for i, p in enumerate(state.players) if p != viewer]
    hidden = [card for i in others for card in state._hands[i]] + state._draw
    rng.shuffle(hidden)
    redealt = state.clone()
    for i in others:
        size = len(state._hands[i])
        redealt._hands[i], hidden = hidden[:size], hidden[size:]
    redealt._draw = hidden
    assert redealt.view(viewer) == state.view(viewer)
    assert redealt.view(None) == state.view(None)


@SETTINGS
@given(games(), st.integers(0, 2**32), st.integers(0, 300))
def test_views_ignore_hidden_cards_and_determinize_matches_them(
    game: tuple[CrittersState, int], salt: int, steps: int
) -> None:
    state, _ = game
    rng = random.Random(salt)
    GAME.random_playout(state, rng, steps)
    for player in state.players:
        view = state.view(player)
        assert "hand" in view and view["hand"] == state.hand(player)
        for source in (state, view):
            guess = determinize(source, player, rng)
            assert guess.view(player) == view
            assert guess.view(None) == state.view(None)
            assert everything(guess) == Counter(state.header()["deck"])
            assert guess.legal_actions(player) == state.legal_actions(player)
        GAME.random_playout(guess, rng, 100_000)
        assert guess.is_over
    spectator = state.view(None)
    assert "hand" not in spectator
    assert spectator["hand_sizes"] == {p: len(state.hand(p)) for p in state.players}


@SETTINGS
@given(games(), st.integers(0, 2**32))
def test_swap_wild_changes_the_oldest_full_set_of_its_kind_holding_a_wild(
    game: tuple[CrittersState, int], salt: int
) -> None:
    # docs/rulings.md: swap_wild takes the older of the full sets of its kind that hold a wild; it
    # is offered exactly when one does (and the player holds a critter of the kind).
    state, _ = game
    rng = random.Random(salt)
    size = state.set_size
    for _ in range(400):
        if state.is_over:
            break
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        actor = state.actors[0]
        legal = state.legal_actions(actor)
        row = state.tableau(actor)
        holding = [i for i, s in enumerate(row) if s["full"] and WILD in s["cards"]]
        for action in (a for a in legal if isinstance(a, SwapWild)):
            assert action.kind in state.hand(actor)
            target = next(i for i in holding if row[i]["kind"] == action.kind)
            trial = state.clone()
            trial.apply(action)
            after = trial.tableau(actor)
            assert after[target]["cards"].count(WILD) == row[target]["cards"].count(WILD) - 1
            assert after[target]["full"] and len(after[target]["cards"]) == size
            grown = next(
                (i for i, s in enumerate(row) if s["kind"] == action.to and not s["full"]), None
            )
            for i, before in enumerate(row):
                if i == grown:
                    assert after[i]["cards"] == [*before["cards"], WILD]
                elif i != target:
                    assert after[i] == before
            if grown is None:
                assert after[len(row) :] == [{"kind": action.to, "cards": [WILD], "full": False}]
        if state.awaiting is None and state.turn == actor:
            # Offered for every kind with a full set holding a wild and a critter in hand, to
            # every kind where one more wild would not make an all-wild full set.
            blocked = {s["kind"] for s in row if s["cards"] == [WILD] * (size - 1)}
            offered = {(a.kind, a.to) for a in legal if isinstance(a, SwapWild)}
            for kind in {row[i]["kind"] for i in holding} & set(state.hand(actor)):
                assert offered >= {(kind, to) for to in state.kinds if to not in blocked}
        state.apply(rng.choice(legal))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_the_trusted_apply_makes_the_same_game_for_every_seat(seed: int, players: int) -> None:
    """``play_legal`` (search's unchecked apply, reshuffles included) changes a state exactly
    as ``apply`` does, as every seat sees it (tests/test_adapters_vector.py: the public view)."""
    names = [f"p{i}" for i in range(players)]
    checked = GAME.new_game(names, seed=seed)
    trusted = checked.clone()
    rng = random.Random(seed)
    while not checked.is_over:
        if checked.chance_due:
            move: CrittersAction = checked.chance_outcome(rng)
        else:
            actor = checked.to_act
            assert actor is not None
            move = rng.choice(checked.legal_actions(actor))
        checked.apply(move)
        trusted.play_legal(move)
        assert trusted.summary() == checked.summary()
        assert all(trusted.view(p) == checked.view(p) for p in names)
    assert trusted.history == checked.history and trusted.winners() == checked.winners()
