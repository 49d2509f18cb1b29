"""critters scenarios from explicit deals: every move, action card and special situation."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.core.errors import IllegalAction
from bestiary.critters import GAME, CrittersState, kept
from bestiary.critters.actions import (
    Allow,
    Complete,
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
from bestiary.critters.kept import interned_like

FILLER = ["turtle"] * 12


def table(hands: dict[str, list[str]], draw: list[str], **options: Any) -> CrittersState:
    """A game whose deal gives exactly ``hands`` (dealt one at a time) and then ``draw``."""
    players = list(hands)
    first = options.pop("first", players[0])
    start = players.index(first)
    order = players[start:] + players[:start]
    size = len(hands[first])
    assert all(len(h) == size for h in hands.values())
    deck = [hands[p][i] for i in range(size) for p in order] + draw
    header = {
        "game": "critters",
        "version": 1,
        "players": players,
        "options": {"hand_limit": size, **options},
        "deck": deck,
        "first": first,
    }
    return GAME.from_header(header)


def play(state: CrittersState, *actions: Any) -> None:
    for action in actions:
        state.apply(action)


def sets(state: CrittersState, player: str) -> list[tuple[str, list[str], bool]]:
    return [(s["kind"], s["cards"], s["full"]) for s in state.tableau(player)]


def refused(state: CrittersState, action: Any, reason: str) -> None:
    before = (state.summary(), state.draw_pile, state.events())
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert (state.summary(), state.draw_pile, state.events()) == before


# ------------------------------------------------------------------ deal, turns, basic moves
def test_deal_is_one_card_at_a_time_from_first_and_the_turn_draws() -> None:
    state = table(
        {"ann": ["fox", "owl", "frog", "no", "wild"], "bo": ["otter"] * 5},
        ["rabbit", "fox"],
        first="bo",
    )
    assert state.turn == "bo"
    assert state.hand("bo") == ["otter"] * 5 + ["rabbit"]
    assert state.hand("ann") == ["fox", "owl", "frog", "no", "wild"]
    assert state.header()["deck"][:2] == ["otter", "fox"]
    assert state.summary()["draw_pile"] == 1
    assert state.legal_actions("ann") == []
    play(state, Down("bo", "otter"))
    assert state.turn == "ann" and state.hand("ann")[-1] == "fox"
    assert state.summary()["draw_pile"] == 0


def test_down_joins_the_incomplete_set_and_can_fill_it() -> None:
    state = table({"ann": ["fox", "fox", "wild", "owl", "owl"], "bo": ["frog"] * 5}, FILLER)
    play(state, Down("ann", "fox"), Down("bo", "frog"), Down("ann", "wild", "fox"))
    assert sets(state, "ann") == [("fox", ["fox", "wild"], False)]
    play(state, Down("bo", "frog"), Down("ann", "owl"), Down("bo", "frog"), Down("ann", "fox"))
    assert sets(state, "ann") == [("fox", ["fox", "wild", "fox"], True), ("owl", ["owl"], False)]
    assert sets(state, "bo") == [("frog", ["frog", "frog", "frog"], True)]
    assert state.scores() == {"ann": 1, "bo": 1}
    assert state.turn == "bo"


def test_down_refusals() -> None:
    state = table({"ann": ["fox", "no", "wild", "owl", "owl"], "bo": ["frog"] * 5}, FILLER)
    refused(state, Down("ann", "frog"), "does not hold a frog")
    refused(state, Down("ann", "no"), "not a critter kind")
    refused(state, Down("ann", "wild"), "declared as a kind")
    refused(state, Down("ann", "wild", "dragon"), "not a critter kind")
    refused(state, Down("bo", "frog"), "it is ann's turn")
    refused(state, Down("cy", "frog"), "not playing")


def test_play_set_from_hand_with_a_wild() -> None:
    state = table({"ann": ["fox", "wild", "fox", "wild", "wild"], "bo": ["frog"] * 5}, FILLER)
    refused(state, PlaySet("ann", "fox", ("fox", "fox")), "exactly 3 cards")
    refused(state, PlaySet("ann", "fox", ("wild", "wild", "wild")), "at least one critter")
    refused(state, PlaySet("ann", "fox", ("fox", "fox", "fox")), "does not hold 3 × fox")
    refused(state, PlaySet("ann", "fox", ("fox", "frog", "wild")), "not frog")
    assert PlaySet("ann", "fox", ("fox", "wild", "wild")) in state.legal_actions("ann")
    play(state, PlaySet("ann", "fox", ("wild", "fox", "fox")))
    assert sets(state, "ann") == [("fox", ["wild", "fox", "fox"], True)]
    assert sorted(state.hand("ann")) == ["turtle", "wild", "wild"]


def test_a_move_made_apart_is_matched_to_the_listed_one_it_equals() -> None:
    """A client's move arrives as a new object (parsed from its message): it is legal when it
    equals a listed action, found by its fields among the interned ones (or by the scan of
    the list when it is not interned: the cache emptied), and refused when it equals none."""
    state = table({"ann": ["fox", "wild", "fox", "wild", "wild"], "bo": ["frog"] * 5}, FILLER)
    listed = state.legal_actions("ann")
    for action in listed:
        sent = GAME.action_from_event(action.to_event())
        assert sent == action
        assert interned_like(sent) is action
    assert interned_like(PlaySet("ann", "fox", ("fox", "fox", "frog"))) is None
    refused(state, PlaySet("ann", "frog", ("frog", "wild", "wild")), "does not hold")
    kept._CACHE.clear()  # nothing interned now: only the scan can find the move
    sent = GAME.action_from_event(PlaySet("ann", "fox", ("fox", "fox", "wild")).to_event())
    assert interned_like(sent) is None
    play(state, sent)
    assert sets(state, "ann") == [("fox", ["fox", "fox", "wild"], True)]


def test_complete_puts_one_or_two_cards_on_an_incomplete_set() -> None:
    state = table({"ann": ["owl", "fox", "wild", "fox", "owl"], "bo": ["frog"] * 5}, FILLER)
    refused(state, Complete("ann", "fox", ("fox", "wild")), "no incomplete fox set")
    play(state, Down("ann", "fox"), Down("bo", "frog"))
    refused(state, Complete("ann", "fox", ("fox",)), "exactly 2 more")
    assert Complete("ann", "fox", ("fox", "wild")) in state.legal_actions("ann")
    play(state, Complete("ann", "fox", ("wild", "fox")))
    assert sets(state, "ann") == [("fox", ["fox", "wild", "fox"], True)]
    assert sorted(state.hand("ann")) == ["owl", "owl", "turtle", "turtle"]


def test_pass_is_refused_above_the_hand_limit() -> None:
    state = table({"ann": ["fox", "owl", "frog", "otter", "rabbit"], "bo": ["frog"] * 5}, ["fox"])
    assert len(state.hand("ann")) == 6
    refused(state, Pass("ann"), "above the hand limit of 5")
    assert Pass("ann") not in state.legal_actions("ann")
    play(state, Down("ann", "fox"))
    assert Pass("bo") in state.legal_actions("bo")


def test_forced_discard_when_nothing_else_is_legal() -> None:
    hand = ["no", "no", "hop_over", "game_changer", "ultimate_collector"]
    state = table({"ann": hand, "bo": ["frog"] * 5}, ["no", *FILLER])
    legal = state.legal_actions("ann")
    assert legal == [
        Discard("ann", c) for c in ("no", "hop_over", "game_changer", "ultimate_collector")
    ]
    refused(state, Pass("ann"), "above the hand limit")
    play(state, Discard("ann", "hop_over"))
    assert state.centre_pile == ["hop_over"]
    assert state.turn == "bo"
    refused(state, Discard("bo", "frog"), "only forced when no other move is legal")


def test_discard_is_refused_while_another_move_is_legal() -> None:
    state = table({"ann": ["fox", "no", "no", "no", "no"], "bo": ["frog"] * 5}, ["no", *FILLER])
    refused(state, Discard("ann", "no"), "only forced when no other move is legal")


# ------------------------------------------------------------------ sets: limits and wilds
def test_fourth_animal_starts_a_new_set_with_wilds() -> None:
    state = table(
        {"ann": ["fox", "fox", "fox", "fox", "wild"], "bo": ["frog"] * 5}, ["wild", *FILLER]
    )
    play(state, PlaySet("ann", "fox", ("fox", "fox", "fox")), Down("bo", "frog"))
    assert Complete("ann", "fox", ("wild",)) not in state.legal_actions("ann")
    play(state, Down("ann", "fox"), Down("bo", "frog"), Down("ann", "wild", "fox"))
    play(state, Down("bo", "frog"))
    play(state, Down("ann", "wild", "fox"))
    assert sets(state, "ann") == [
        ("fox", ["fox", "fox", "fox"], True),
        ("fox", ["fox", "wild", "wild"], True),
    ]
    assert state.scores()["ann"] == 1  # two full fox sets count once


def test_no_all_wild_full_set() -> None:
    state = table({"ann": ["wild", "wild", "wild", "fox", "owl"], "bo": ["frog"] * 5}, FILLER)
    play(state, Down("ann", "wild", "fox"), Down("bo", "frog"), Down("ann", "wild", "fox"))
    play(state, Down("bo", "frog"))
    assert sets(state, "ann") == [("fox", ["wild", "wild"], False)]
    refused(state, Down("ann", "wild", "fox"), "full fox set made only of wilds")
    refused(state, Complete("ann", "fox", ("wild",)), "at least one critter")
    legal = state.legal_actions("ann")
    assert Down("ann", "wild", "fox") not in legal
    assert Down("ann", "wild", "owl") in legal
    assert Complete("ann", "fox", ("fox",)) in legal


# ------------------------------------------------------------------ action cards
def test_hop_over_takes_a_wild_from_a_partial_set_and_it_keeps_its_kind() -> None:
    state = table(
        {
            "ann": ["hop_over", "owl", "owl", "owl", "owl"],
            "bo": ["wild", "fox", "frog", "frog", "frog"],
        },
        FILLER,
    )
    play(state, Down("ann", "owl"), Down("bo", "wild", "fox"), Down("ann", "owl"))
    play(state, Down("bo", "fox"))
    legal = state.legal_actions("ann")
    assert HopOver("ann", "bo", "fox", "wild") in legal
    assert HopOver("ann", "bo", "fox", "fox") in legal
    play(state, HopOver("ann", "bo", "fox", "wild"))
    assert state.awaiting == "bo" and state.turn == "ann"
    assert state.centre_pile == ["hop_over"]
    assert state.legal_actions("bo") == [Allow("bo")]
    assert state.legal_actions("ann") == []
    refused(state, Pass("ann"), "must first answer the hop_over")
    refused(state, SayNo("bo"), "holds no 'no' card")
    play(state, Allow("bo"))
    assert sets(state, "bo") == [("fox", ["fox"], False)]
    assert sets(state, "ann") == [("owl", ["owl", "owl"], False), ("fox", ["wild"], False)]
    assert state.turn == "bo" and state.awaiting is None


def test_hop_over_cannot_take_from_a_full_set() -> None:
    state = table(
        {
            "ann": ["hop_over", "owl", "owl", "owl", "owl"],
            "bo": ["fox", "fox", "fox", "frog", "frog"],
        },
        FILLER,
    )
    play(state, Down("ann", "owl"), PlaySet("bo", "fox", ("fox", "fox", "fox")))
    refused(state, HopOver("ann", "bo", "fox", "fox"), "cards in full sets cannot be taken")
    assert not any(isinstance(a, HopOver) for a in state.legal_actions("ann"))
    refused(state, HopOver("ann", "ann", "owl", "owl"), "another player")


def test_hop_over_a_wild_refused_when_it_would_make_an_all_wild_set() -> None:
    state = table(
        {
            "ann": ["hop_over", "wild", "wild", "owl", "owl"],
            "bo": ["wild", "frog", "frog", "frog", "fox"],
        },
        FILLER,
    )
    play(state, Down("ann", "wild", "fox"), Down("bo", "wild", "fox"), Down("ann", "wild", "fox"))
    play(state, Down("bo", "frog"))
    refused(state, HopOver("ann", "bo", "fox", "wild"), "made only of wilds")


def _two_downs() -> CrittersState:
    """ann: owl [owl], turtle [wild]; bo: fox [fox], a full frog set; ann holds the actions."""
    state = table(
        {
            "ann": ["hop_over", "game_changer", "ultimate_collector", "owl", "wild"],
            "bo": ["fox", "frog", "frog", "frog", "no"],
        },
        FILLER,
    )
    play(state, Down("ann", "owl"), Down("bo", "fox"), Down("ann", "wild", "turtle"))
    play(state, PlaySet("bo", "frog", ("frog", "frog", "frog")))
    return state


@pytest.mark.parametrize(
    "action",
    [
        HopOver("ann", "bo", "fox", "fox"),
        GameChanger("ann", "bo", "owl", "owl", "fox", "fox"),
        UltimateCollector("ann", "bo", "frog"),
    ],
)
def test_no_cancels_each_action_card(action: Any) -> None:
    state = _two_downs()
    tableaus = state.summary()["tableaus"]
    assert action in state.legal_actions("ann")
    play(state, action)
    assert state.legal_actions("bo") == [SayNo("bo"), Allow("bo")]
    play(state, SayNo("bo"))
    card = {HopOver: "hop_over", GameChanger: "game_changer"}.get(
        type(action), "ultimate_collector"
    )
    assert state.centre_pile == [card, "no"]
    assert state.summary()["tableaus"] == tableaus
    assert "no" not in state.hand("bo")
    assert state.turn == "bo" and state.awaiting is None and state.pending is None
    assert [e["do"] for e in state.events()[-2:]] == [action.to_event()["do"], "no"]


def test_no_cannot_be_played_on_your_own_turn_or_answered() -> None:
    state = _two_downs()
    play(state, HopOver("ann", "bo", "fox", "fox"), SayNo("bo"))
    refused(state, SayNo("ann"), "no action card to answer")
    refused(state, Allow("bo"), "no action card to answer")


def test_game_changer_swaps_down_cards_between_incomplete_sets() -> None:
    state = _two_downs()
    play(state, GameChanger("ann", "bo", "owl", "owl", "fox", "fox"), Allow("bo"))
    assert sets(state, "ann") == [("turtle", ["wild"], False), ("fox", ["fox"], False)]
    assert sets(state, "bo") == [("frog", ["frog", "frog", "frog"], True), ("owl", ["owl"], False)]
    assert state.centre_pile == ["game_changer"]


def test_game_changer_refused_when_the_target_would_get_an_all_wild_set() -> None:
    state = table(
        {
            "ann": ["game_changer", "wild", "frog", "frog", "turtle"],
            "bo": ["wild", "wild", "fox", "turtle", "owl"],
        },
        FILLER,
    )
    play(state, Down("ann", "wild", "owl"), Down("bo", "wild", "owl"), Down("ann", "frog"))
    play(state, Down("bo", "wild", "owl"), Down("ann", "frog"), Down("bo", "fox"))
    assert sets(state, "bo") == [("owl", ["wild", "wild"], False), ("fox", ["fox"], False)]
    gives_wild = GameChanger("ann", "bo", "owl", "wild", "fox", "fox")
    refused(state, gives_wild, "give bo a full owl set made only of wilds")
    legal = state.legal_actions("ann")
    assert gives_wild not in legal
    assert GameChanger("ann", "bo", "frog", "frog", "fox", "fox") in legal
    assert GameChanger("ann", "bo", "owl", "wild", "owl", "wild") in legal  # same kind: sizes kept


def test_view_shows_the_pending_action_and_hides_other_hands() -> None:
    state = _two_downs()
    action = HopOver("ann", "bo", "fox", "fox")
    play(state, action)
    view = state.view("bo")
    assert view["pending"] == action.to_event() and view["awaiting"] == "bo"
    assert view["hand"] == state.hand("bo") and view["hand_sizes"]["ann"] == len(state.hand("ann"))
    assert view["centre_pile"] == ["hop_over"] and view["draw_pile"] == len(state.draw_pile)
    spectator = state.view(None)
    assert "hand" not in spectator and spectator["tableaus"] == view["tableaus"]


def test_game_changer_cannot_touch_full_sets() -> None:
    state = _two_downs()
    refused(
        state, GameChanger("ann", "bo", "owl", "owl", "frog", "frog"), "no frog in an incomplete"
    )


def test_action_cards_need_a_legal_target() -> None:
    state = table(
        {
            "ann": ["hop_over", "game_changer", "ultimate_collector", "owl", "owl"],
            "bo": ["fox"] * 5,
        },
        FILLER,
    )
    legal = state.legal_actions("ann")
    assert not any(isinstance(a, HopOver | GameChanger | UltimateCollector) for a in legal)
    refused(state, UltimateCollector("ann", "bo", "fox"), "bo has no full fox set")


def test_ultimate_collector_steal_makes_the_stealer_win() -> None:
    state = table(
        {
            "ann": ["fox", "fox", "fox", "owl", "owl", "owl", "ultimate_collector"],
            "bo": ["frog", "frog", "frog", "wild", "otter", "otter", "otter"],
        },
        FILLER,
    )
    play(state, PlaySet("ann", "fox", ("fox", "fox", "fox")))
    play(state, PlaySet("bo", "frog", ("frog", "frog", "wild")))
    play(state, PlaySet("ann", "owl", ("owl", "owl", "owl")), Pass("bo"))
    play(state, UltimateCollector("ann", "bo", "frog"), Allow("bo"))
    assert state.is_over and state.winners() == ["ann"]
    assert sets(state, "ann")[-1] == ("frog", ["frog", "frog", "wild"], True)
    assert sets(state, "bo") == []
    assert state.scores() == {"ann": 3, "bo": 0}
    summary = state.summary()
    assert summary["turn"] is None and summary["awaiting"] is None and summary["over"]
    assert state.legal_actions("bo") == []
    refused(state, Pass("bo"), "the game is over")


def test_stolen_set_with_a_wild_then_swap_wild_next_turn() -> None:
    state = table(
        {
            "ann": ["ultimate_collector", "owl", "fox", "fox", "fox"],
            "bo": ["owl", "owl", "wild", "frog", "frog"],
        },
        FILLER,
    )
    play(state, Down("ann", "fox"), PlaySet("bo", "owl", ("owl", "owl", "wild")))
    play(state, UltimateCollector("ann", "bo", "owl"), Allow("bo"))
    assert sets(state, "ann") == [("fox", ["fox"], False), ("owl", ["owl", "owl", "wild"], True)]
    assert state.turn == "bo" and "owl" in state.hand("ann")
    play(state, Pass("bo"))
    assert SwapWild("ann", "owl", "fox") in state.legal_actions("ann")
    play(state, SwapWild("ann", "owl", "fox"))
    assert sets(state, "ann") == [("fox", ["fox", "wild"], False), ("owl", ["owl"] * 3, True)]
    assert state.turn == "bo"


def test_swap_wild_to_the_same_kind_and_into_an_incomplete_set() -> None:
    state = table(
        {"ann": ["fox", "fox", "wild", "fox", "owl"], "bo": ["frog"] * 5}, ["owl", *FILLER]
    )
    play(state, PlaySet("ann", "fox", ("fox", "fox", "wild")), Down("bo", "frog"))
    play(state, Down("ann", "owl"), Down("bo", "frog"))
    refused(state, SwapWild("ann", "owl", "fox"), "no full owl set holding a wild")
    play(state, SwapWild("ann", "fox", "owl"))
    assert sets(state, "ann") == [
        ("fox", ["fox", "fox", "fox"], True),
        ("owl", ["owl", "wild"], False),
    ]
    refused(state, SwapWild("bo", "frog", "fox"), "no full frog set")


def test_swap_wild_takes_the_newer_full_set_when_only_it_holds_a_wild() -> None:
    # docs/rulings.md: with two full sets of a kind, swap_wild takes the older of those that hold
    # a wild; the older fox set here has none, so the newer one is swapped.
    state = table(
        {
            "ann": ["fox", "fox", "fox", "wild", "frog", "fox"],
            "bo": ["owl", "owl", "owl", "owl", "owl", "owl"],
        },
        ["fox", "turtle", "fox", *FILLER],
    )
    play(state, PlaySet("ann", "fox", ("fox", "fox", "fox")), Down("bo", "owl"))
    play(state, PlaySet("ann", "fox", ("fox", "wild", "fox")), Down("bo", "owl"))
    assert SwapWild("ann", "fox", "frog") in state.legal_actions("ann")
    play(state, SwapWild("ann", "fox", "frog"))
    assert sets(state, "ann") == [
        ("fox", ["fox", "fox", "fox"], True),
        ("fox", ["fox", "fox", "fox"], True),
        ("frog", ["wild"], False),
    ]
    assert state.hand("ann") == ["frog", "turtle"]


def test_swap_wild_takes_the_older_of_two_full_sets_holding_a_wild() -> None:
    state = table(
        {
            "ann": ["fox", "wild", "fox", "wild", "fox", "fox", "owl"],
            "bo": ["owl"] * 7,
        },
        ["frog", "turtle", "fox", *FILLER],
    )
    play(state, PlaySet("ann", "fox", ("fox", "fox", "wild")), Down("bo", "owl"))
    play(state, PlaySet("ann", "fox", ("fox", "fox", "wild")), Down("bo", "owl"))
    play(state, SwapWild("ann", "fox", "owl"))
    assert sets(state, "ann") == [
        ("fox", ["fox", "fox", "fox"], True),
        ("fox", ["fox", "fox", "wild"], True),
        ("owl", ["wild"], False),
    ]


def test_swap_wild_is_refused_when_no_full_set_of_the_kind_holds_a_wild() -> None:
    state = table(
        {"ann": ["fox"] * 6 + ["frog"], "bo": ["owl"] * 7},
        ["fox", "turtle", "fox", *FILLER],
    )
    play(state, PlaySet("ann", "fox", ("fox",) * 3), Down("bo", "owl"))
    play(state, PlaySet("ann", "fox", ("fox",) * 3), Down("bo", "owl"))
    assert not any(isinstance(a, SwapWild) for a in state.legal_actions("ann"))
    refused(state, SwapWild("ann", "fox", "frog"), "ann has no full fox set holding a wild")


def test_game_changer_completing_both_sets_makes_two_winners() -> None:
    filler = ["turtle"] * 20
    state = table(
        {
            "ann": ["fox"] * 3 + ["owl"] * 3 + ["frog", "frog", "hedgehog", "game_changer"],
            "bo": ["otter"] * 3 + ["rabbit"] * 3 + ["hedgehog", "hedgehog", "frog", "raccoon"],
        },
        filler,
    )
    play(
        state,
        PlaySet("ann", "fox", ("fox",) * 3),
        PlaySet("bo", "otter", ("otter",) * 3),
        PlaySet("ann", "owl", ("owl",) * 3),
        PlaySet("bo", "rabbit", ("rabbit",) * 3),
        Down("ann", "frog"),
        Down("bo", "hedgehog"),
        Down("ann", "frog"),
        Down("bo", "hedgehog"),
        Down("ann", "hedgehog"),
        Down("bo", "frog"),
    )
    play(state, GameChanger("ann", "bo", "hedgehog", "hedgehog", "frog", "frog"), Allow("bo"))
    assert state.is_over and state.winners() == ["ann", "bo"]
    assert sets(state, "ann")[2] == ("frog", ["frog", "frog", "frog"], True)
    assert sets(state, "bo")[2] == ("hedgehog", ["hedgehog", "hedgehog", "hedgehog"], True)


# ------------------------------------------------------------------ variants
def test_set_of_four_with_set_size_4() -> None:
    state = table(
        {"ann": ["fox", "fox", "fox", "wild", "owl"], "bo": ["frog"] * 5}, FILLER, set_size=4
    )
    assert state.set_size == 4
    refused(state, PlaySet("ann", "fox", ("fox", "fox", "fox")), "exactly 4 cards")
    play(state, PlaySet("ann", "fox", ("fox", "fox", "fox", "wild")))
    assert sets(state, "ann") == [("fox", ["fox", "fox", "fox", "wild"], True)]


def test_sets_to_win_4() -> None:
    hands = {
        "ann": ["fox"] * 3 + ["owl"] * 3 + ["frog"] * 3 + ["otter"] * 3,
        "bo": ["rabbit"] * 12,
    }
    state = table(hands, FILLER, sets_to_win=4)
    for kind in ("fox", "owl", "frog"):
        play(state, PlaySet("ann", kind, (kind,) * 3), Down("bo", "rabbit"))
    assert not state.is_over and state.scores()["ann"] == 3
    play(state, PlaySet("ann", "otter", ("otter",) * 3))
    assert state.winners() == ["ann"]


def test_six_players_hold_four_cards() -> None:
    names = ["a", "b", "c", "d", "e", "f"]
    hands = {name: ["fox", "owl", "frog", "otter"] for name in names}
    state = table(hands, FILLER)
    assert state.hand_limit == 4
    assert [len(state.hand(n)) for n in names] == [5, 4, 4, 4, 4, 4]
    refused(state, Pass("a"), "above the hand limit of 4")
    seeded = GAME.new_game(names, seed=3)
    assert seeded.hand_limit == 4 and len(seeded.hand("b")) == 4


# ------------------------------------------------------------------ chance and endings
def _reshuffle_due() -> CrittersState:
    state = table(
        {"ann": ["fox", "owl", "owl", "owl", "frog"], "bo": ["hop_over", "no", "no", "no", "no"]},
        ["fox"],
    )
    refused(state, Reshuffle(()), "no reshuffle is due")
    play(state, Down("ann", "fox"), HopOver("bo", "ann", "fox", "fox"), Allow("ann"))
    return state


def test_reshuffle_from_the_record() -> None:
    state = _reshuffle_due()
    assert state.chance_due and state.turn == "ann"
    assert state.legal_actions("ann") == [] and state.legal_actions("bo") == []
    refused(state, Pass("ann"), "a reshuffle event is due here")
    refused(state, Reshuffle(("fox",)), "exactly the centre pile's cards")
    refused(state, Reshuffle(("hop_over", "hop_over")), "exactly the centre pile's cards")
    play(state, Reshuffle(("hop_over",)))
    assert not state.chance_due
    assert state.hand("ann")[-1] == "hop_over" and state.centre_pile == []
    assert state.events()[-1] == {"do": "reshuffle", "order": ["hop_over"]}


def test_exhausted_ending_shared_win() -> None:
    state = table({"ann": ["fox"] * 5, "bo": ["owl"] * 5}, [])
    assert state.began_with_empty_draw_pile
    play(state, Pass("ann"))
    assert not state.is_over and state.quiet_turns == 1
    play(state, Pass("bo"))
    assert state.is_over and state.winners() == ["ann", "bo"]


def test_exhausted_ending_most_down_cards_then_most_kinds() -> None:
    state = table({"ann": ["fox"] * 5, "bo": ["owl"] * 5}, [])
    play(state, Down("ann", "fox"), Pass("bo"))
    assert not state.is_over and state.quiet_turns == 1
    play(state, Pass("ann"))
    assert state.winners() == ["ann"]
    state = table(
        {"ann": ["fox", "fox", "fox", "no", "no"], "bo": ["owl", "owl", "frog", "frog", "otter"]},
        [],
    )
    play(state, PlaySet("ann", "fox", ("fox",) * 3))
    for kind in ("owl", "owl", "frog", "frog"):
        play(state, Down("bo", kind), Pass("ann"))
    play(state, Pass("bo"))
    assert state.is_over and state.winners() == ["ann"]
    assert state.scores() == {"ann": 1, "bo": 0} and state.down_cards("bo") == 4


def test_a_short_default_deck_still_knows_all_nine_kinds() -> None:
    # A record's short deck of default critters: a wild may still be declared as a turtle.
    state = table({"ann": ["wild", "fox", "fox", "owl", "owl"], "bo": ["owl"] * 5}, ["fox"] * 4)
    assert len(state.kinds) == 9
    play(state, Down("ann", "wild", "turtle"))
    assert sets(state, "ann") == [("turtle", ["wild"], False)]


def test_a_deck_of_its_own_kinds_knows_only_those() -> None:
    state = table({"ann": ["wild", "dodo", "dodo"], "bo": ["moa"] * 3}, ["dodo"] * 4)
    assert state.kinds == ("dodo", "moa")
    refused(state, Down("ann", "wild", "fox"), "not a critter kind")
