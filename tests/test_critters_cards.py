"""Action cards as data (bestiary.critters.effects, docs/cards.md): each effect of the
vocabulary from explicit deals, the refusal of bad definitions, and properties of decks with
random new cards."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.errors import BadOption, IllegalAction
from bestiary.critters import GAME, CrittersState
from bestiary.critters.actions import (
    Allow,
    Down,
    GameChanger,
    HopOver,
    PlayCard,
    SayNo,
    UltimateCollector,
)
from bestiary.critters.cards import DEFAULT_DECK, deck_from_option, load_deck_file
from bestiary.critters.decks import DECKS, deck_content
from bestiary.critters.effects import SHEET_CARDS, card_from_spec
from bestiary.critters.state import determinize

EXAMPLES = Path(__file__).parent.parent / "examples" / "decks"

CARDS = {
    "sneak": {
        "title": "Sneak",
        "description": "Take a Down Card from an opponent's incomplete set, then draw a card.",
        "effects": ["choose_target", "take_down", "draw 1", "answerable_by_no"],
    },
    "switch": {
        "description": "Swap Down Cards with an opponent; it cannot be answered.",
        "effects": ["choose_target", "swap_down"],
    },
    "raid": {
        "description": "Steal an opponent's full set; it cannot be answered.",
        "effects": ["choose_target", "steal_set"],
    },
    "windfall": {"description": "Draw two cards.", "effects": ["draw 2"]},
    "nap": {
        "description": "An opponent skips their next turn.",
        "effects": ["choose_target", "skip_turn", "answerable_by_no"],
    },
}


def table(hands: dict[str, list[str]], draw: list[str], **options: Any) -> CrittersState:
    """A game dealt exactly ``hands`` (one card at a time, the first player first) then
    ``draw``, with the deck's own cards of ``CARDS``; the first turn's draw is made."""
    players = list(hands)
    size = len(hands[players[0]])
    deck = [hands[p][i] for i in range(size) for p in players] + draw
    header = {
        "game": "critters",
        "version": 1,
        "players": players,
        "options": {"hand_limit": size, **options},
        "deck": deck,
        "first": players[0],
        "cards": CARDS,
    }
    return GAME.from_header(json.loads(json.dumps(header)))


def sets(state: CrittersState, player: str) -> list[tuple[str, list[str]]]:
    return [(s["kind"], s["cards"]) for s in state.tableau(player)]


def replays(state: CrittersState) -> None:
    """The record replays to the same position (its header carries the card definitions)."""
    again = GAME.from_header(json.loads(json.dumps(state.header())))
    for event in state.events():
        again.apply(GAME.action_from_event(json.loads(json.dumps(event))))
    assert again.summary() == state.summary()


# ------------------------------------------------------------------ each effect
def test_take_down_then_draw_answerable_by_no_allowed() -> None:
    state = table(
        {"ann": ["sneak", "owl", "owl", "frog"], "bo": ["fox", "otter", "otter", "frog"]},
        ["rabbit", "fox", "hedgehog", "turtle"],
    )
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    # ann drew hedgehog; her sneak may take bo's fox, as hop_over would
    legal = state.legal_actions("ann")
    sneak = HopOver("ann", "bo", "fox", "fox", "sneak")
    assert sneak in legal
    assert sneak.to_event() == {
        "by": "ann", "do": "sneak", "target": "bo", "kind": "fox", "card": "fox",
    }  # fmt: skip
    state.apply(sneak)
    assert state.awaiting == "bo" and state.centre_pile == ["sneak"]
    assert state.legal_actions("bo") == [Allow("bo")]  # bo holds no NO!
    state.apply(Allow("bo"))
    assert sets(state, "ann") == [("owl", ["owl"]), ("fox", ["fox"])]
    assert sets(state, "bo") == []
    assert state.hand("ann") == ["owl", "frog", "rabbit", "hedgehog", "turtle"]  # drew turtle
    replays(state)


def test_no_cancels_the_whole_card() -> None:
    state = table(
        {"ann": ["sneak", "owl", "owl", "frog"], "bo": ["fox", "no", "otter", "frog"]},
        ["rabbit", "fox", "hedgehog", "turtle"],
    )
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    state.apply(HopOver("ann", "bo", "fox", "fox", "sneak"))
    assert state.legal_actions("bo") == [SayNo("bo"), Allow("bo")]
    state.apply(SayNo("bo"))
    assert sets(state, "bo") == [("fox", ["fox"])]
    assert state.centre_pile == ["sneak", "no"]
    assert "turtle" not in state.hand("ann")  # no draw either
    assert state.turn == "bo"


def test_swap_down_not_answerable_takes_effect_at_once() -> None:
    state = table(
        {"ann": ["switch", "owl", "owl", "frog"], "bo": ["fox", "otter", "otter", "frog"]},
        ["rabbit", "fox", "hedgehog", "turtle"],
    )
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    swap = GameChanger("ann", "bo", "owl", "owl", "fox", "fox", "switch")
    assert swap in state.legal_actions("ann")
    state.apply(swap)
    assert state.awaiting is None and state.turn == "bo"
    assert sets(state, "ann") == [("fox", ["fox"])]
    assert sets(state, "bo") == [("owl", ["owl"])]
    assert state.events()[-1]["do"] == "switch"
    replays(state)


def test_steal_set_not_answerable_and_the_steal_can_win() -> None:
    state = table(
        {
            "ann": ["raid", "fox", "fox", "fox", "owl", "owl", "owl"],
            "bo": ["frog", "frog", "frog", "otter", "otter", "otter", "no"],
        },
        ["rabbit", "turtle", "turtle", "turtle"],
        sets_to_win=2,
    )
    state.apply(Down("ann", "fox"))  # a start: ann will need one more full set
    state.apply(Down("bo", "frog"))
    assert state.legal_actions("ann").count(UltimateCollector("ann", "bo", "frog", "raid")) == 0
    state.apply(Down("ann", "fox"))
    state.apply(Down("bo", "frog"))
    state.apply(Down("ann", "fox"))  # ann's full fox set
    state.apply(Down("bo", "frog"))  # bo's full frog set
    raid = UltimateCollector("ann", "bo", "frog", "raid")
    assert raid in state.legal_actions("ann")
    state.apply(raid)
    assert state.is_over and state.winners() == ["ann"]  # no chance to answer it
    assert sets(state, "bo") == []
    replays(state)


def test_draw_with_no_target_draws_what_the_pile_holds() -> None:
    state = table(
        {"ann": ["windfall", "owl", "owl", "frog"], "bo": ["fox", "otter", "otter", "frog"]},
        ["rabbit"],
    )
    # ann drew rabbit: the Draw Pile is empty, so windfall draws nothing, but may be played
    assert PlayCard("ann", "windfall") in state.legal_actions("ann")
    state.apply(PlayCard("ann", "windfall"))
    assert state.events()[-1] == {"by": "ann", "do": "windfall"}
    assert sorted(state.hand("ann")) == ["frog", "owl", "owl", "rabbit"]
    state2 = table(
        {"ann": ["windfall", "owl", "owl", "frog"], "bo": ["fox", "otter", "otter", "frog"]},
        ["rabbit", "turtle", "fox", "hedgehog"],
    )
    state2.apply(PlayCard("ann", "windfall"))
    assert state2.hand("ann")[-2:] == ["turtle", "fox"]
    assert state2.turn == "bo" and state2.hand("bo")[-1] == "hedgehog"
    replays(state2)


def test_skip_turn_skips_the_target_once() -> None:
    state = table(
        {
            "ann": ["nap", "owl", "owl"],
            "bo": ["fox", "otter", "otter"],
            "cy": ["frog", "rabbit", "rabbit"],
        },
        ["turtle"] * 8,
    )
    naps = [a for a in state.legal_actions("ann") if isinstance(a, PlayCard)]
    assert naps == [PlayCard("ann", "nap", "bo"), PlayCard("ann", "nap", "cy")]
    state.apply(PlayCard("ann", "nap", "cy"))
    state.apply(Allow("cy"))
    assert state.view("bo")["skip_next"] == ["cy"]
    state.apply(Down("bo", "fox"))
    assert state.turn == "ann"  # cy's turn was skipped
    assert state.view("ann")["skip_next"] == []
    state.apply(Down("ann", "owl"))
    assert state.turn == "bo"
    state.apply(Down("bo", "otter"))
    assert state.turn == "cy"  # only once
    replays(state)


def test_a_card_is_played_by_its_definition_not_by_its_name() -> None:
    state = table(
        {"ann": ["nap", "sneak", "owl", "owl"], "bo": ["fox", "otter", "otter", "frog"]},
        ["rabbit", "fox", "hedgehog", "turtle"],
    )
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    for action, reason in [
        (HopOver("ann", "bo", "fox", "fox", "nap"), "nap makes no choice on cards, not take_down"),
        (PlayCard("ann", "sneak", "bo"), "sneak makes take_down, not no choice on cards"),
        (PlayCard("ann", "nap"), "nap needs a target"),
        (PlayCard("ann", "windfall"), "ann does not hold a windfall card"),
        (HopOver("ann", "bo", "fox", "fox"), "ann does not hold a hop_over card"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)


def test_a_view_shows_the_decks_own_cards_and_a_determinization_keeps_them() -> None:
    state = table(
        {"ann": ["nap", "sneak", "owl", "owl"], "bo": ["fox", "otter", "otter", "frog"]},
        ["rabbit", "fox", "hedgehog", "turtle"],
    )
    view = state.view("ann")
    assert view["cards"]["sneak"]["title"] == "Sneak"
    assert view["cards"]["windfall"]["description"] == "Draw two cards."
    again = determinize(state, "ann", random.Random(1))
    assert again.view("ann") == view
    assert again.legal_actions("ann") == state.legal_actions("ann")


# ------------------------------------------------------------------ the sheet's cards
def test_the_sheets_cards_are_declared_in_the_vocabulary() -> None:
    assert [(c.name, c.choice, c.targeted, c.answerable) for c in SHEET_CARDS] == [
        ("hop_over", "take_down", True, True),
        ("game_changer", "swap_down", True, True),
        ("ultimate_collector", "steal_set", True, True),
    ]
    assert DEFAULT_DECK.own_cards == ()
    assert "cards" not in DECKS.default()
    assert "cards" not in GAME.new_game(["a", "b"], seed=1).header()
    assert "cards" not in GAME.new_game(["a", "b"], seed=1).view("a")


# ------------------------------------------------------------------ refusals of definitions
@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ({"description": "x", "effects": ["teleport"]}, "unknown effect 'teleport'"),
        (
            {"description": "x", "effects": ["choose_target", "take_down", "steal_set"]},
            "two choices",
        ),
        ({"description": "x", "effects": ["choose_target"]}, "does nothing, so it could never"),
        ({"description": "x", "effects": ["answerable_by_no"]}, "does nothing"),
        ({"description": "x", "effects": ["take_down"]}, "takes from a target, so it needs"),
        ({"description": "x", "effects": ["skip_turn"]}, "skips a target's turn, so it needs"),
        ({"description": "x", "effects": ["draw 1", "answerable_by_no"]}, "no target to answer"),
        ({"description": "x", "effects": ["draw 0"]}, "write draw and a number 1 to 5"),
        ({"description": "x", "effects": ["draw two"]}, "write draw and a number 1 to 5"),
        ({"description": "x", "effects": ["draw 1", "draw 2"]}, "names draw twice"),
        ({"effects": ["draw 1"]}, "needs a description sentence"),
        ({"description": "x", "effects": "draw 1"}, "effects as a list of words"),
        ({"description": "x", "effects": ["draw 1"], "cost": 2}, "unknown keys: cost"),
    ],
)
def test_bad_definitions_are_refused_in_one_sentence(spec: Any, reason: str) -> None:
    with pytest.raises(BadOption, match=reason) as err:
        card_from_spec("odd", spec, "deck file d.toml line 7")
    message = str(err.value)
    assert message.startswith("deck file d.toml line 7: card 'odd'")
    assert message.count(". ") == 0 and "\n" not in message


def test_a_deck_file_names_the_line_of_a_bad_card(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(
        "kinds = { fox = 6, owl = 6, frog = 6 }\nwild = 6\nactions = { no = 3, odd = 2 }\n\n"
        '[cards.odd]\ndescription = "Steal and take."\n'
        'effects = ["choose_target", "steal_set", "take_down"]\n'
    )
    with pytest.raises(BadOption, match=r"deck file .*odd.toml line 5: card 'odd' makes two"):
        load_deck_file(path)


@pytest.mark.parametrize(
    ("deck", "reason"),
    [
        ({"kinds": {"fox": 6}, "actions": {"zap": 2}}, "unknown action card 'zap'"),
        (
            {"kinds": {"fox": 6}, "actions": {}, "cards": {"zap": CARDS["windfall"]}},
            "defines card 'zap' but gives it no count",
        ),
        (
            {"kinds": {"fox": 6}, "actions": {"pass": 1}, "cards": {"pass": CARDS["windfall"]}},
            "cannot name a card 'pass'",
        ),
        (
            {"kinds": {"fox": 6}, "actions": {"fox": 1}, "cards": {"fox": CARDS["windfall"]}},
            "cannot name a card 'fox'",
        ),
    ],
)
def test_bad_decks_of_own_cards_are_refused(deck: Any, reason: str) -> None:
    with pytest.raises(BadOption, match=reason):
        deck_from_option(deck)


def test_the_example_decks_load_and_round_trip() -> None:
    for path in sorted(EXAMPLES.glob("*.toml")):
        deck = load_deck_file(path)
        assert deck.own_cards, path
        assert deck_from_option(deck_content(deck)) == deck


# ------------------------------------------------------------------ properties
EFFECT_SETS = [
    ["choose_target", "take_down", "answerable_by_no"],
    ["choose_target", "take_down", "draw 1"],
    ["choose_target", "swap_down", "skip_turn"],
    ["choose_target", "steal_set", "answerable_by_no", "draw 2"],
    ["draw 3"],
    ["choose_target", "skip_turn"],
    ["choose_target", "skip_turn", "draw 1", "answerable_by_no"],
]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(EFFECT_SETS), st.integers(1, 4)), min_size=1, max_size=4),
    st.integers(2, 5),
    st.integers(0, 2**32),
)
def test_decks_with_random_new_cards(cards: list[Any], n: int, seed: int) -> None:
    own = {f"card{i}": {"description": "A card.", "effects": e} for i, (e, _) in enumerate(cards)}
    content = DECKS.default()
    content["actions"] |= {f"card{i}": count for i, (_, count) in enumerate(cards)}
    content["cards"] = own
    deck = deck_from_option(content)
    state = GAME.new_game(["a", "b", "c", "d", "e"][:n], {"deck": content}, seed=seed)
    rng = random.Random(seed)
    for step in range(3000):
        if state.is_over:
            break
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        player = str(state.to_act)
        if step % 17 == 0:  # what a seat sees does not depend on the hidden cards' deal
            view = state.view(player)
            assert determinize(state, player, rng).view(player) == view
        state.apply(rng.choice(state.legal_actions(player)))
        # every card in exactly one place
        places: Counter[str] = Counter(state.draw_pile + state.centre_pile)
        for p in state.players:
            places.update(state.hand(p))
            for s in state.tableau(p):
                places.update(s["cards"])
        assert places == Counter(deck.cards())
    assert state.is_over
    replays(state)


# ------------------------------------------------------------------ RL encodings
@pytest.mark.parametrize("deck", ["sneaky.toml", "windfall.toml"])
def test_the_rl_encoding_covers_a_decks_own_cards(deck: str) -> None:
    from bestiary.adapters.critters_encoding import from_view

    seen: set[str] = set()
    for seed in range(30):
        state = GAME.new_game(["ann", "bo", "cy"], {"deck": str(EXAMPLES / deck)}, seed=seed)
        rng = random.Random(seed)
        enc = from_view(state.view("ann"))
        assert enc.size > from_view(GAME.new_game(["ann", "bo", "cy"], seed=1).view("ann")).size
        while not state.is_over:
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
                continue
            player = str(state.to_act)
            legal = state.legal_actions(player)
            ids = [enc.action_id(a) for a in legal]
            assert len(set(ids)) == len(ids)  # one id per action
            assert [enc.action(player, i) for i in ids] == legal  # and back
            assert enc.mask(legal).sum() == len(legal)
            view = state.view(player)
            assert enc.observe(view).tolist() == [float(x) for x in enc.counts(state, player)]
            action = rng.choice(legal)
            seen.add(action.to_event()["do"])
            state.apply(action)
    own = {card.name for card in load_deck_file(EXAMPLES / deck).own_cards}
    assert own <= seen, own - seen
