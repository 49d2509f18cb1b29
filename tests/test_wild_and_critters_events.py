"""Both engines parse events one way: any JSON at all is an action or a MalformedEvent.

An event line that is not an action never reaches the rules and never escapes as another error
(KeyError, TypeError...); what the rules then refuse is IllegalAction, with the state unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.errors import IllegalAction, MalformedEvent
from bestiary.core.game import get_game

DOS = {
    "wild": ["draw", "call", "withdraw", "discard", "meet", "reveal_own", "nightfall"],
    "critters": [
        "down", "set", "complete", "hop_over", "game_changer", "ultimate_collector", "no",
        "allow", "swap_wild", "pass", "discard", "reshuffle",
    ],
}  # fmt: skip
KEYS = [
    "by",
    "card",
    "call",
    "with",
    "as",
    "kind",
    "cards",
    "order",
    "target",
    "give",
    "take",
    "to",
]
WORDS = ["ann", "bo", "zed", "fox", "owl", "wild", "no", "snerlep", "skeevil", "dragon", ""]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner),
    max_leaves=8,
)


words = st.sampled_from(WORDS)
# Values of the right shape, mostly: so that many events parse and reach the rules.
plausible = (
    words
    | st.lists(words, max_size=3)
    | st.fixed_dictionaries({"kind": words, "card": words})
    | json_values
)


def events(game: str) -> st.SearchStrategy[Any]:
    do = st.sampled_from(DOS[game])
    near = st.fixed_dictionaries(
        {"do": do, "by": st.sampled_from(["ann", "bo", "zed"])},
        optional={k: plausible for k in KEYS if k != "by"},
    )
    anything = st.fixed_dictionaries(
        {"do": do | st.text(max_size=4) | json_values}, optional={k: json_values for k in KEYS}
    )
    return st.one_of(near, near, anything, json_values)


@pytest.mark.parametrize("name", sorted(DOS))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_json_is_an_action_or_a_malformed_event(name: str, data: st.DataObject) -> None:
    game = get_game(name)
    event = data.draw(events(name))
    try:
        action = game.action_from_event(event)
    except MalformedEvent as err:
        assert str(err) and "\n" not in str(err)
        return
    assert action.to_event()["do"] == event["do"]
    state = game.new_game(["ann", "bo"], seed=1)
    before = (state.summary(), state.events())
    try:
        state.apply(action)
    except IllegalAction as err:
        assert str(err) and "\n" not in str(err)
        assert (state.summary(), state.events()) == before
