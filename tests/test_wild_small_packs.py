"""Smaller Packs (options ``pack_creatures``, ``pack_copies``) and the ``small`` variant, from
explicit deals: the sheet's rules on fewer cards, the sheet's game and its records unchanged."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bestiary.bots.wild_view import Unseen
from bestiary.core.errors import BadOption
from bestiary.wild import CREATURES, GAME, Call, Draw, Meet, WildState
from bestiary.wild.cards import FRESH_PACK
from bestiary.wild.info import VARIANTS

M, S, F, W, K = CREATURES  # megalotaur, snerlep, fizzalisk, wiffaloon, skeevil
SMALL = VARIANTS["small"]


def table(options: dict[str, Any], **packs: list[str]) -> WildState:
    header = {"game": "wild", "version": 1, "players": list(packs), "packs": packs}
    return GAME.from_header({**header, "options": options})


def offer_and_meet(state: WildState, ann: tuple[str, str], bob: tuple[str, str]) -> None:
    state.apply(Call("ann", *ann))
    state.apply(Call("bob", *bob))
    state.apply(Meet("ann", "bob"))
    state.apply(Meet("bob", "ann"))


def test_a_seeded_small_deal_gives_each_a_pack_of_the_top_three_creatures() -> None:
    state = GAME.new_game(["ann", "bob"], SMALL, seed=11)
    for player in state.players:
        dealt = [*state.hand(player), *state.pack(player)]
        assert sorted(dealt) == sorted([M, S, F])
        assert state.hand_size(player) == 2 and state.pack_size(player) == 1
    header = state.header()
    assert header["options"] == {
        "mating_bonus": False,
        "objectives": False,
        "nightfall_seconds": 30,
        "pack_creatures": 3,
        "pack_copies": 1,
    }
    assert GAME.from_header(header).summary() == state.summary()


def test_the_sheets_deal_from_a_seed_is_as_before_and_its_record_names_no_pack_option() -> None:
    state = GAME.new_game(["ann", "bob"], {}, seed=11)
    rng = random.Random(11)  # the deal as it was made before the Pack options existed
    for player in state.players:
        pack = list(FRESH_PACK)
        rng.shuffle(pack)
        assert state.header()["packs"][player] == pack
    assert set(state.header()["options"]) == {"mating_bonus", "objectives", "nightfall_seconds"}
    assert state.deal.options["pack_creatures"] == 5 and state.deal.options["pack_copies"] == 2


@pytest.mark.parametrize(
    ("options", "packs", "message"),
    [
        ({}, {"ann": [M, S, F], "bob": [M, S, F]}, "exactly 10 creatures"),
        (SMALL, {"ann": [*CREATURES, *CREATURES], "bob": [M, S, F]}, "exactly 3 creatures"),
        (SMALL, {"ann": [M, M, F], "bob": [M, S, F]}, "one of each of megalotaur, snerlep, fizz"),
        (SMALL, {"ann": [M, S, W], "bob": [M, S, F]}, "it has 0 fizzalisk"),
        ({"pack_creatures": 2}, {"ann": [M, S], "bob": [M, S]}, "pack_creatures must be a whole"),
        ({"pack_copies": 3}, {"ann": [M], "bob": [M]}, "pack_copies must be a whole number from 1"),
    ],
)
def test_packs_and_pack_options_are_checked(
    options: dict[str, Any], packs: dict[str, list[str]], message: str
) -> None:
    with pytest.raises(BadOption, match=message):
        table(options, **packs)


def test_a_whole_small_game_eat_avoid_eat_and_sundown_with_the_last_card() -> None:
    state = table(SMALL, ann=[M, S, F], bob=[S, F, M])
    assert state.hand("ann") == [M, S] and state.hand("bob") == [S, F]
    offer_and_meet(state, (M, M), (S, M))  # Megalotaur tramples Snerlep
    assert state.den("ann") == [(M, "ann"), (S, "bob")]
    state.apply(Draw("ann"))
    state.apply(Draw("bob"))
    assert state.legal_actions("ann").count(Draw("ann")) == 0  # both Packs are empty now
    offer_and_meet(state, (F, F), (M, F))  # two steps apart on the chain: they avoid
    assert state.watering_hole() == [(F, "ann", True), (M, "bob", True)]
    assert not state.is_over
    offer_and_meet(state, (S, S), (F, S))  # each meets with their last card: Sundown
    assert state.is_over and state.ending() == "sundown"
    assert state.ended_by == ["ann", "bob"]
    assert state.scores() == {"ann": 4, "bob": 0} and state.winners() == ["ann"]


def test_with_two_copies_the_hand_refills_from_a_six_card_pack() -> None:
    options = {"pack_creatures": 3, "pack_copies": 2}
    state = table(options, ann=[M, M, S, S, F, F], bob=[F, F, S, S, M, M])
    offer_and_meet(state, (M, M), (F, M))  # Megalotaur and Fizzalisk are apart
    assert state.tallies()["avoid"] == 1
    state.apply(Draw("ann"))
    assert state.hand("ann") == [M, S] and state.pack_size("ann") == 3


def test_the_bots_count_what_is_left_of_the_pack_the_options_deal() -> None:
    state = table(SMALL, ann=[M, S, F], bob=[S, F, M])
    view = state.view("ann")
    assert Unseen.from_view(view).left == {p: Counter([M, S, F]) for p in ("ann", "bob")}
    offer_and_meet(state, (M, M), (S, M))
    left = Unseen.from_view(state.view("ann")).left
    assert left["bob"] == Counter([F, M]) and left["ann"] == Counter([S, F])
    sheet = GAME.new_game(["ann", "bob"], {}, seed=2).view("ann")
    assert Unseen.from_view(sheet).left["bob"] == Counter(CREATURES * 2)
