"""Action cards as data (bestiary.critters.effects, docs/cards.md): each effect of the
vocabulary from explicit deals, the refusal of bad definitions, and properties of decks with
random new cards."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.errors import BadOption, IllegalAction, RecordError
from bestiary.core.game import replay
from bestiary.critters import GAME, CrittersState
from bestiary.critters.actions import (
    Allow,
    Down,
    GameChanger,
    HopOver,
    PlayCard,
    Protect,
    RandomCard,
    Reshuffle,
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
    "pickpocket": {
        "description": "Take a card at random from an opponent's hand.",
        "effects": ["choose_target", "take_random", "answerable_by_no"],
    },
    "grab": {
        "description": "Take a card at random from an opponent's hand, then draw a card.",
        "effects": ["choose_target", "take_random", "draw 1"],
    },
    "shield": {
        "description": "Protect one of your sets until your next turn.",
        "effects": ["protect_set"],
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


def test_take_random_is_a_chance_event_only_the_taker_and_the_victim_see() -> None:
    state = table(
        {
            "ann": ["pickpocket", "owl", "owl"],
            "bo": ["fox", "otter", "frog"],
            "cy": ["rabbit", "turtle", "no"],
        },
        ["hedgehog", "fox", "fox", "fox"],
    )
    picks = [a for a in state.legal_actions("ann") if isinstance(a, PlayCard)]
    assert picks == [PlayCard("ann", "pickpocket", "bo"), PlayCard("ann", "pickpocket", "cy")]
    state.apply(PlayCard("ann", "pickpocket", "bo"))
    assert state.awaiting == "bo"
    state.apply(Allow("bo"))
    # chance picks the card: nobody acts, nothing else is legal, the card played is pending
    assert state.chance_due and state.random_card_due and state.to_act is None
    assert state.legal_actions("bo") == [] and state.view("cy")["pending"]["do"] == "pickpocket"
    for wrong, reason in [
        (RandomCard("bo", "ann", "no"), "bo holds no no"),
        (RandomCard("cy", "ann", "rabbit"), "takes a card of bo's hand into ann's"),
        (Reshuffle(("fox",)), "a random_card event is due here, not a reshuffle"),
        (Down("bo", "fox"), "a card of bo's hand must first be picked at random"),
    ]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(wrong)
    seen_by_cy = state.view("cy")
    assert state.chance_outcome(random.Random(3)) in [
        RandomCard("bo", "ann", c) for c in ["fox", "otter", "frog"]
    ]
    state.apply(RandomCard("bo", "ann", "otter"))
    assert state.hand("ann") == ["owl", "owl", "hedgehog", "otter"]
    assert state.turn == "bo" and state.hand("bo") == ["fox", "frog", "fox"]  # drew a fox
    event = state.events()[-1]
    assert event == {"do": "random_card", "from": "bo", "to": "ann", "card": "otter"}
    assert state.redact(event, "ann") == event and state.redact(event, "bo") == event
    assert state.redact(event, "cy") == {"do": "random_card", "from": "bo", "to": "ann"}
    assert state.redact(event, None) == {"do": "random_card", "from": "bo", "to": "ann"}
    assert state.view("cy")["hand_sizes"] == {
        "ann": seen_by_cy["hand_sizes"]["ann"] + 1,
        "bo": seen_by_cy["hand_sizes"]["bo"],  # lost the otter, drew a fox
        "cy": 3,
    }
    replays(state)


def test_take_random_replays_from_its_event_and_goes_on_with_the_effects_after_it() -> None:
    state = table(
        {"ann": ["grab", "owl", "owl"], "bo": ["fox", "otter", "frog"]},
        ["hedgehog", "turtle", "rabbit", "fox"],
    )
    state.apply(PlayCard("ann", "grab", "bo"))  # not answerable: chance picks at once
    assert state.random_card_due
    # an explicit deal carries its chance events: without a seed there is no pick to make
    with pytest.raises(IllegalAction, match="a random_card event is due here"):
        state.chance_outcome(None)
    state.apply(RandomCard("bo", "ann", "frog"))
    assert state.hand("ann") == ["owl", "owl", "hedgehog", "frog", "turtle"]  # then drew
    assert state.hand("bo") == ["fox", "otter", "rabbit"]
    state.apply(Down("bo", "fox"))
    replays(state)
    events = [(i + 2, e) for i, e in enumerate(state.events()) if e["do"] != "random_card"]
    with pytest.raises(RecordError, match=r"line 4: .*a random_card event is due here"):
        replay(state.header(), events)


def test_take_random_from_a_seed_picks_the_same_card_on_every_machine() -> None:
    deck = str(EXAMPLES / "pickpocket.toml")
    picks = []
    for _ in range(2):
        state = GAME.new_game(["ann", "bo"], {"deck": deck}, seed=4)
        rng = random.Random(4)
        while not state.random_card_due:
            if state.chance_due:
                state.apply(state.chance_outcome(None))
            else:
                legal = state.legal_actions(str(state.to_act))
                grabs = [a for a in legal if isinstance(a, PlayCard)]
                state.apply(grabs[0] if grabs else rng.choice(legal))
        picks.append(state.chance_outcome(None))
    assert picks[0] == picks[1] and isinstance(picks[0], RandomCard)


def test_take_random_needs_a_target_holding_a_card() -> None:
    state = table({"ann": ["grab", "owl"], "bo": ["fox", "otter"]}, ["hedgehog"])
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))  # bo drew nothing: the pile is empty; bo holds the otter
    state.apply(Down("ann", "hedgehog"))
    state.apply(Down("bo", "otter"))  # bo's hand is empty now
    assert [a for a in state.legal_actions("ann") if isinstance(a, PlayCard)] == []
    with pytest.raises(IllegalAction, match="bo holds no card for grab to take at random"):
        state.apply(PlayCard("ann", "grab", "bo"))


def test_protect_set_shields_a_set_until_its_owners_turn_comes_round() -> None:
    state = table(
        {
            "ann": ["owl", "shield", "owl"],
            "bo": ["hop_over", "fox", "game_changer"],
            "cy": ["ultimate_collector", "frog", "rabbit"],
        },
        ["fox", "otter", "frog", "turtle", "rabbit", "fox", "owl", "otter", "otter", "otter"],
    )
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    state.apply(Down("cy", "frog"))
    shields = [a for a in state.legal_actions("ann") if isinstance(a, Protect)]
    assert shields == [Protect("ann", "shield", "owl", False)]
    state.apply(shields[0])
    assert state.events()[-1] == {"by": "ann", "do": "shield", "kind": "owl", "full": False}
    assert state.view("bo")["protected"] == [["ann", {"kind": "owl", "full": False}]]
    legal = state.legal_actions("bo")
    assert HopOver("bo", "ann", "owl", "owl") not in legal
    assert not [a for a in legal if isinstance(a, GameChanger) and a.target == "ann"]
    with pytest.raises(IllegalAction, match="ann's incomplete owl set is protected until ann's"):
        state.apply(HopOver("bo", "ann", "owl", "owl"))
    with pytest.raises(IllegalAction, match="ann's incomplete owl set is protected"):
        state.apply(GameChanger("bo", "ann", "fox", "fox", "owl", "owl"))
    state.apply(Down("bo", "rabbit"))
    assert HopOver("cy", "ann", "owl", "owl") not in state.legal_actions("cy")
    state.apply(Down("cy", "rabbit"))
    assert state.turn == "ann" and state.view("ann")["protected"] == []  # over at ann's turn
    state.apply(Down("ann", "owl"))
    assert HopOver("bo", "ann", "owl", "owl") in state.legal_actions("bo")
    replays(state)
    assert determinize(state, "bo", random.Random(2)).view("bo") == state.view("bo")


def test_a_protected_full_set_cannot_be_stolen() -> None:
    state = table(
        {
            "ann": ["owl", "owl", "owl", "shield"],
            "bo": ["ultimate_collector", "fox", "fox", "fox"],
        },
        ["frog", "otter", "rabbit", "turtle", "frog", "otter", "rabbit", "turtle", "fox"],
    )
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    state.apply(Down("ann", "owl"))
    state.apply(Down("bo", "fox"))
    state.apply(Down("ann", "owl"))  # a full owl set
    state.apply(Down("bo", "fox"))
    assert Protect("ann", "shield", "owl", True) in state.legal_actions("ann")
    state.apply(Protect("ann", "shield", "owl", True))
    assert UltimateCollector("bo", "ann", "owl") not in state.legal_actions("bo")
    with pytest.raises(IllegalAction, match="ann's full owl set is protected"):
        state.apply(UltimateCollector("bo", "ann", "owl"))
    state.apply(Down("bo", "otter"))
    state.apply(Down("ann", "frog"))  # ann's turn came round: the mark is gone
    state.apply(Reshuffle(tuple(state.centre_pile)))  # bo's turn begins with an empty pile
    assert UltimateCollector("bo", "ann", "owl") in state.legal_actions("bo")


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
        ({"description": "x", "effects": ["take_random"]}, "takes from a target's hand, so it"),
        (
            {"description": "x", "effects": ["choose_target", "take_random", "take_random"]},
            "names take_random twice",
        ),
        (
            {"description": "x", "effects": ["choose_target", "protect_set", "take_down"]},
            "two choices",
        ),
        ({"description": "x", "effects": ["protect_set", "answerable_by_no"]}, "no target"),
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
    ["choose_target", "take_random", "answerable_by_no"],
    ["choose_target", "take_random", "draw 1"],
    ["choose_target", "steal_set", "take_random"],
    ["protect_set"],
    ["choose_target", "protect_set", "skip_turn", "answerable_by_no"],
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
        if state.random_card_due:
            hidden_card_stays_hidden(state, rng)
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
            continue
        player = str(state.to_act)
        if step % 17 == 0:  # what a seat sees does not depend on the hidden cards' deal
            view = state.view(player)
            assert determinize(state, player, rng).view(player) == view
        if step % 23 == 0:  # a copy and a pickle take every field: the same game, apart
            same_game_apart(state, player)
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


def same_game_apart(state: CrittersState, player: str) -> None:
    """A clone and a pickled copy of ``state`` are the same game (record, views, legal
    actions, the marks and skips of the deck's cards), and moving one moves neither other."""
    before = (state.summary(), state.events(), state.view(player), state.view(None))
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert (copy.summary(), copy.events(), copy.view(player), copy.view(None)) == before
        assert copy.legal_actions(player) == state.legal_actions(player)
        assert (copy.protected, copy.skip_next) == (state.protected, state.skip_next)
        copy.apply(copy.legal_actions(player)[0])
        assert (state.summary(), state.events(), state.view(player), state.view(None)) == before


def hidden_card_stays_hidden(state: CrittersState, rng: random.Random) -> None:
    """Whichever card chance picks from the target's hand, every other seat sees the same
    view and the same event (only the taker's and the victim's views differ)."""
    picked = state.chance_outcome(rng)
    assert isinstance(picked, RandomCard)
    others = [p for p in state.players if p not in (picked.from_, picked.to)]
    seen = []
    for card in sorted(set(state.hand(picked.from_))):
        after = state.clone()
        events = after.apply(RandomCard(picked.from_, picked.to, card))
        seen.append([(after.view(p), [after.redact(e, p) for e in events]) for p in others])
        assert card in after.hand(picked.to)
    assert all(s == seen[0] for s in seen)


# ------------------------------------------------------------------ RL encodings
@pytest.mark.parametrize("deck", ["sneaky.toml", "windfall.toml", "pickpocket.toml"])
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


def test_the_openspiel_game_refuses_a_take_random_deck_in_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("pyspiel")
    from bestiary.adapters import variants
    from bestiary.adapters.openspiel_critters import Table

    deck = str((EXAMPLES / "pickpocket.toml").resolve())
    monkeypatch.setitem(variants.VARIANTS, "pockets", {"deck": deck})
    with pytest.raises(BadOption, match="cannot model the take_random card 'pickpocket'"):
        Table({"variant": "pockets"})


@pytest.mark.parametrize("bot", ["greedy", "ismcts"])
def test_greedy_and_the_search_play_the_new_cards(bot: str) -> None:
    from bestiary.core.agent import make_bot

    played: Counter[str] = Counter()
    for seed in range(6 if bot == "greedy" else 2):
        state = GAME.new_game(
            ["ann", "bo", "cy"], {"deck": str(EXAMPLES / "pickpocket.toml")}, seed
        )
        rng = random.Random(seed)
        bots = {p: make_bot("critters", bot, p, seed + i) for i, p in enumerate(state.players)}
        for _ in range(400 if bot == "greedy" else 120):
            if state.is_over:
                break
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
                continue
            player = str(state.to_act)
            legal = state.legal_actions(player)
            move = bots[player].act(state.view(player), legal)
            assert move in legal
            played[move.to_event()["do"]] += 1
            state.apply(move)
    assert played["pickpocket"] and played["shield"], played
