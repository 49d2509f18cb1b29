"""The Objective deck: every check, the deal, and the rule that withholds an Objective."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.core.errors import BadOption
from bestiary.wild import (
    CREATURES,
    GAME,
    OBJECTIVES,
    Call,
    Discard,
    Draw,
    Meet,
    Nightfall,
    WildState,
)
from bestiary.wild.meetings import Meeting
from bestiary.wild.objectives import OBJECTIVE_BY_ID, Chronicle

M, S, F, W, K = CREATURES
PLAYERS = ("ann", "bob", "carl", "dee")


def mate(p: str, q: str, c: str = M) -> Meeting:
    return Meeting(p, q, c, c, c, "mate", None)


def eat(eater: str, victim: str, eater_card: str, call: str) -> Meeting:
    victim_card = CREATURES[(CREATURES.index(eater_card) + 1) % 5]
    return Meeting(victim, eater, call, victim_card, eater_card, "eat", eater)


def avoid(p: str, q: str) -> Meeting:
    return Meeting(p, q, S, M, F, "avoid", None)


def chronicle(
    meetings: list[Meeting],
    den: list[tuple[str, str]] | None = None,
    ended_by: list[str] | None = None,
    calls: list[tuple[str, str]] | None = None,
) -> Chronicle:
    return Chronicle("ann", PLAYERS, meetings, den or [], ended_by or [], calls or [])


CASES: dict[str, tuple[Chronicle, Chronicle]] = {
    "three_partners": (
        chronicle([mate("ann", "bob"), mate("carl", "ann"), mate("ann", "dee")]),
        chronicle([mate("ann", "bob"), mate("ann", "bob"), mate("carl", "dee")]),
    ),
    "eat_megalotaur": (
        chronicle([eat("ann", "bob", K, M)]),
        chronicle([eat("bob", "ann", K, M), eat("ann", "bob", M, S)]),
    ),
    "eat_skeevil": (chronicle([eat("ann", "bob", W, K)]), chronicle([eat("ann", "bob", K, M)])),
    "bring_sundown": (chronicle([], ended_by=["ann", "bob"]), chronicle([], ended_by=["bob"])),
    "full_menagerie": (
        chronicle([], den=[(c, "bob") for c in CREATURES]),
        chronicle([], den=[(c, "bob") for c in CREATURES[:4]] * 2),
    ),
    "double_cross": (
        chronicle([eat("ann", "bob", M, F)]),  # megalotaur calling fizzalisk: two steps on
        chronicle([eat("ann", "bob", M, S), eat("bob", "ann", M, F)]),
    ),
    "never_hunt": (
        chronicle([avoid("ann", "bob")], calls=[(M, M), (S, S)]),
        chronicle([avoid("ann", "bob")], calls=[(M, M), (S, F)]),
    ),
    "mate_twice": (
        chronicle([mate("ann", "bob"), mate("bob", "ann")]),
        chronicle([mate("ann", "bob"), mate("bob", "carl")]),
    ),
    "three_kills": (
        chronicle([eat("ann", "bob", M, S)] * 3),
        chronicle([eat("ann", "bob", M, S)] * 2 + [eat("bob", "ann", M, S)]),
    ),
    "big_den": (chronicle([], den=[(M, "ann")] * 6), chronicle([], den=[(M, "ann")] * 5)),
    "peacemaker": (
        chronicle([avoid("ann", "bob"), avoid("carl", "ann")]),
        chronicle([avoid("ann", "bob"), avoid("carl", "bob")]),
    ),
    "untouchable": (
        chronicle([mate("ann", "bob"), eat("ann", "carl", M, S)]),
        chronicle([mate("ann", "bob"), eat("carl", "ann", M, S)]),
    ),
    "well_travelled": (
        chronicle([mate("ann", "bob"), avoid("carl", "ann"), eat("dee", "ann", M, S)]),
        chronicle([mate("ann", "bob"), avoid("carl", "ann"), mate("bob", "dee")]),
    ),
    "last_laugh": (
        chronicle([mate("ann", "bob"), eat("ann", "bob", S, F)]),
        chronicle([eat("ann", "bob", S, F), mate("ann", "bob")]),
    ),
}


def test_the_deck_is_well_formed() -> None:
    assert len(OBJECTIVES) >= 12
    assert set(CASES) == set(OBJECTIVE_BY_ID)
    for objective in OBJECTIVES:
        assert objective.id.replace("_", "").isalpha() and objective.id.islower()
        assert 1 <= objective.points <= 3
        assert objective.title


@pytest.mark.parametrize("objective_id", sorted(CASES))
def test_each_check(objective_id: str) -> None:
    fulfilled, missed = CASES[objective_id]
    check = OBJECTIVE_BY_ID[objective_id].check
    assert check(fulfilled)
    assert not check(missed)


def test_never_hunt_needs_a_meeting() -> None:
    assert not OBJECTIVE_BY_ID["never_hunt"].check(chronicle([], calls=[(M, M)]))


def table(objectives: dict[str, str], **packs: list[str]) -> WildState:
    return GAME.from_header(
        {
            "game": "wild",
            "version": 1,
            "players": list(packs),
            "options": {"objectives": True},
            "packs": packs,
            "objectives": objectives,
        }
    )


PACK = [M, M, S, S, F, F, W, W, K, K]


def meet_with(state: WildState, card: str) -> None:
    state.apply(Call("ann", card, card))
    state.apply(Call("bob", card, card))
    state.apply(Meet("ann", "bob"))
    state.apply(Meet("bob", "ann"))


def play_to_end(discards: int) -> WildState:
    """ann and bob mate twice with their megalotaurs; ann discards ``discards`` cards between."""
    state = table({"ann": "mate_twice", "bob": "eat_skeevil"}, ann=PACK, bob=PACK)
    meet_with(state, M)
    for _ in range(discards):
        state.apply(Draw("ann"))
        state.apply(Discard("ann", next(c for c in state.hand("ann") if c != M)))
    meet_with(state, M)
    state.apply(Nightfall())
    return state


@pytest.mark.parametrize(("discards", "bonus"), [(0, 1), (2, 1), (3, 0)])
def test_objective_scores_unless_more_than_two_face_down(discards: int, bonus: int) -> None:
    state = play_to_end(discards)
    assert state.meetings[-1].outcome == "mate"
    assert state.objective_fulfilled("ann")
    assert state.face_down_count("ann") == discards
    assert state.scores()["ann"] == 2 + bonus
    assert state.scores()["bob"] == 2
    view = state.view(None)
    assert view["objectives"]["ann"]["scored"] is bool(bonus)


def test_objectives_count_only_at_the_end_and_are_private() -> None:
    state = table({"ann": "mate_twice", "bob": "eat_skeevil"}, ann=PACK, bob=PACK)
    meet_with(state, M)
    meet_with(state, M)
    assert state.objective_fulfilled("ann")
    assert state.scores() == {"ann": 2, "bob": 2}
    assert state.view("ann")["objective"] == {
        "id": "mate_twice",
        "title": "Mate at least twice",
        "points": 1,
    }
    assert "eat_skeevil" not in str(state.view("ann"))
    assert "mate_twice" not in str(state.view(None))
    assert "objectives" not in state.view("ann")


def test_objectives_dealt_distinct_from_seed() -> None:
    for seed in range(20):
        state = GAME.new_game(["a", "b", "c", "d", "e", "f"], {"objectives": True}, seed=seed)
        dealt = state.header()["objectives"]
        assert len(set(dealt.values())) == 6


def test_objectives_header_needs_the_option_on_to_matter() -> None:
    header: dict[str, Any] = {"game": "wild", "players": ["a", "b"], "seed": 1}
    assert "objectives" not in GAME.from_header(header).header()
    with pytest.raises(BadOption):
        GAME.from_header({**header, "options": {"objectives": "yes"}})
