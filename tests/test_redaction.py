"""``redact`` is the one filter on events: what each viewer may see, for whole seeded games.

For every event of whole seeded games of both games and every viewer (each player and a
spectator): the viewer sees a sub-record of the event, the actor sees it whole, and changing
what the viewer cannot see (the card under a Call or a discard, the order of a reshuffle)
leaves what the viewer receives unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.agent import make_bot
from bestiary.core.driver import Match
from bestiary.core.game import State, get_game
from bestiary.wild.cards import CREATURES

SHORT_DECK = ["fox", "owl", "frog", "hedgehog", "otter", "rabbit", "raccoon", "squirrel"] * 2
SHORT_DECK += ["turtle", "wild", "no", "hop_over", "game_changer", "ultimate_collector"]


def _played(game: str, seed: int, players: int) -> State:
    rules = get_game(game)
    names = [f"p{i}" for i in range(players)]
    if game == "critters" and seed % 2:  # a short deck, so that reshuffles happen
        rng = random.Random(seed)
        deck = SHORT_DECK[:]
        rng.shuffle(deck)
        state = rules.from_header({"game": game, "players": names, "deck": deck})
    else:
        state = rules.new_game(names, seed=seed)
    bot = {"wild": "reader", "critters": "random"}[game]
    agents = {p: make_bot(game, bot, p, seed + i) for i, p in enumerate(names)}
    Match(rules, state, agents, seed=seed).play()
    return state


def _variants(event: dict[str, Any]) -> list[dict[str, Any]]:
    """The same event with what only its actor (or nobody) knows changed every way it can."""
    if event.get("do") in ("call", "discard") and "card" in event:
        return [{**event, "card": c} for c in CREATURES]
    if event.get("do") == "reshuffle":
        order = list(event["order"])
        return [{**event, "order": order[::-1]}, {**event, "order": order[1:] + order[:1]}]
    return [event]


@settings(max_examples=12, deadline=None)
@given(
    game=st.sampled_from(["wild", "critters"]),
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
)
def test_every_viewer_gets_only_what_redact_allows(game: str, seed: int, players: int) -> None:
    state = _played(game, seed, players)
    viewers: list[str | None] = [*state.players, None]
    for event in state.events():
        for viewer in viewers:
            shown = state.redact(event, viewer)
            assert shown.items() <= event.items()  # a sub-record, never anything new
            if viewer is not None and event.get("by") == viewer:
                assert shown == event  # the actor sees its own event whole
            if viewer is None or event.get("by") != viewer:
                for variant in _variants(event):
                    assert state.redact(variant, viewer) == shown


def test_a_call_card_and_a_reshuffle_order_are_never_shown_to_others() -> None:
    wild = get_game("wild").new_game(["ann", "bo"], seed=1)
    call = {"by": "ann", "do": "call", "card": "snerlep", "call": "skeevil"}
    assert "card" not in wild.redact(call, "bo") and "card" not in wild.redact(call, None)
    critters = get_game("critters").new_game(["ann", "bo"], seed=1)
    shuffle = {"do": "reshuffle", "order": ["fox", "owl"]}
    assert all("order" not in critters.redact(shuffle, v) for v in ("ann", "bo", None))
