"""wild bots: each personality on explicit deals, views moves, and strength against random."""

from __future__ import annotations

from typing import Any

import pytest

from bestiary.bots.wild_view import Unseen, eater_of, eats, payoff
from bestiary.core.agent import make_bot
from bestiary.sim.parallel import run_games
from bestiary.sim.seating import sim_specs
from bestiary.sim.summary import summarize
from bestiary.wild import GAME, Call, Draw, Meet, WildState
from bestiary.wild.analytics import intent

REST = ["megalotaur", "megalotaur", "fizzalisk", "fizzalisk", "wiffaloon", "wiffaloon", "skeevil"]


def _table(p1: list[str], p2: list[str]) -> WildState:
    def pack(top: list[str]) -> list[str]:
        rest = ["megalotaur", "snerlep", "fizzalisk", "wiffaloon", "skeevil"] * 2
        for card in top:
            rest.remove(card)
        return top + rest

    header = {
        "game": "wild",
        "version": 1,
        "players": ["p1", "p2"],
        "packs": {"p1": pack(p1), "p2": pack(p2)},
    }
    return GAME.from_header(header)


def act(name: str, state: WildState, seed: int = 1) -> Any:
    bot = make_bot("wild", name, "p1", seed)
    return bot.act(state.view("p1"), state.legal_actions("p1"))


def test_food_chain_helpers() -> None:
    assert eats("skeevil") == "megalotaur" and eater_of("megalotaur") == "skeevil"
    assert intent("snerlep", "snerlep") == "honest"
    assert intent("snerlep", "fizzalisk") == "hunt"
    assert intent("snerlep", "wiffaloon") == "double_cross"
    assert payoff("snerlep", "snerlep", "snerlep") == (1, 1)
    assert payoff("snerlep", "snerlep", "fizzalisk") == (0, 0)
    assert payoff("snerlep", "fizzalisk", "fizzalisk") == (2, 0)
    assert payoff("fizzalisk", "snerlep", "fizzalisk") == (0, 2)
    assert payoff("megalotaur", "fizzalisk", "fizzalisk") == (0, 0)


def test_honest_opens_with_a_true_call_and_answers_a_matching_call() -> None:
    state = _table(["snerlep", "skeevil"], ["snerlep", "fizzalisk"])
    opening = act("honest", state)
    assert isinstance(opening, Call) and opening.card == opening.call
    state.apply(Call("p2", "snerlep", "snerlep"))
    answer = act("honest", state)
    assert answer == Call("p1", "snerlep", "snerlep")
    state.apply(answer)
    assert act("honest", state) == Meet("p1", "p2")


def test_hunter_answers_with_the_creature_that_eats_the_call() -> None:
    state = _table(["snerlep", "skeevil"], ["snerlep", "fizzalisk"])
    opening = act("hunter", state)
    assert isinstance(opening, Call) and opening.call == eats(opening.card)
    state.apply(Call("p2", "fizzalisk", "fizzalisk"))
    assert act("hunter", state) == Call("p1", "snerlep", "fizzalisk")


def test_reader_hunts_an_honest_looking_caller() -> None:
    state = _table(["snerlep", "skeevil"], ["snerlep", "fizzalisk"])
    state.apply(Call("p2", "fizzalisk", "fizzalisk"))
    assert act("reader", state) == Call("p1", "snerlep", "fizzalisk")


def _after_p2_hunts() -> WildState:
    """p2 is caught hunting (fizzalisk calling wiffaloon) in an avoided meeting, calls again."""
    state = _table(["snerlep", "skeevil", "skeevil"], ["snerlep", "fizzalisk"])
    for action in (
        Call("p2", "fizzalisk", "wiffaloon"),
        Call("p1", "skeevil", "wiffaloon"),
        Meet("p1", "p2"),
        Meet("p2", "p1"),
        Draw("p1"),
        Call("p2", "snerlep", "snerlep"),
    ):
        state.apply(action)
    assert state.meetings[-1].outcome == "avoid"
    assert sorted(state.hand("p1")) == ["skeevil", "snerlep"]
    return state


def test_trickster_double_crosses_a_suspected_hunter() -> None:
    state = _after_p2_hunts()
    # A hunter calling snerlep would hold megalotaur; skeevil eats megalotaur.
    assert act("trickster", state) == Call("p1", "skeevil", "snerlep")


@pytest.mark.parametrize("seed", range(5))
def test_cautious_refuses_a_distrusted_player(seed: int) -> None:
    state = _after_p2_hunts()
    move = act("cautious", state, seed)
    assert not (isinstance(move, Call) and move.call == "snerlep")
    assert not isinstance(move, Meet)


def test_unseen_cards_count_down_as_cards_show() -> None:
    state = _after_p2_hunts()
    left = Unseen.from_view(state.view("p1")).left
    assert left["p2"]["fizzalisk"] == 1 and left["p2"]["snerlep"] == 2
    assert left["p1"]["skeevil"] == 1


def test_reader_beats_random() -> None:
    # Against random alone no reading helps (a random card is as likely to eat as be eaten);
    # at a table with other personalities the reader scores and random hardly does.
    specs = sim_specs("wild", ["reader", "random", "honest", "hunter"], 4, 40, seed=9)
    summary = summarize("wild", 4, run_games(specs, jobs=1))
    reader, random_ = summary.by_bot["reader"], summary.by_bot["random"]
    assert reader.interval[0] > random_.interval[1]


def test_every_wild_bot_finishes_games() -> None:
    bots = ["random", "honest", "hunter", "trickster", "reader", "cautious"]
    specs = sim_specs("wild", bots, 6, 6, seed=3)
    summary = summarize("wild", 6, run_games(specs, jobs=1))
    assert summary.games == 6 and sum(summary.outcomes.values()) > 0
    assert REST  # the rest of a Pack is any order of the remaining cards
