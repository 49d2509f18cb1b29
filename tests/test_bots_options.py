"""Every option a game declares changes how some built-in bot plays.

The measure is the lab's (sim/paired.py): two games on the same seed, one at the option's
default and one at another value, and some move differs between them (a game that only ended
sooner played no move differently). A declared option that no bot reacts to fails here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bestiary.bots.wild_view import Unseen
from bestiary.core.agent import make_bot
from bestiary.core.game import get_game
from bestiary.core.info import OptionSpec
from bestiary.sim.paired import moves_differ
from bestiary.sim.runner import GameSpec, play_game
from bestiary.wild import CREATURES, GAME, Call

# The built-in bots that play to win (the exploiters are yardsticks), at a full table.
LINE_UPS = {
    "wild": ("reader", "cautious", "hunter", "trickster"),
    "critters": ("greedy", "greedy", "greedy", "random"),
}
SEEDS = range(6)


def other_value(game: str, option: OptionSpec) -> Any:
    """A value of ``option`` other than its default (the far end of its range)."""
    if option.kind == "bool":
        return not option.default
    if option.kind == "choice":
        return next(c for c in option.choices if c != option.default)
    if option.kind in ("int", "number"):
        assert option.minimum is not None and option.maximum is not None
        if option.default is None:
            return option.minimum + 2
        half = max(option.minimum, option.default // 2)
        return half if half != option.default else option.maximum
    if option.kind == "player":
        return "p2"
    if option.kind == "deck":
        deck = get_game(game).info.decks.default()  # type: ignore[union-attr]
        return {**deck, "actions": {**deck["actions"], "ultimate_collector": 0}}
    raise AssertionError(f"no other value known for a {option.kind} option")


def _played(game: str, seed: int, options: dict[str, Any]) -> Any:
    return play_game(GameSpec(0, game, LINE_UPS[game], seed, options))


CASES = [(game, o) for game in LINE_UPS for o in get_game(game).info.options]


def _stall_changes_greedy() -> bool:
    """critters' stalled ending: seeded games hardly ever reach it (a new full set resets its
    count), so the scenario is a seeded game of greedy bots in which, at each decision, the
    same view is shown as on the last Draw Pile before the stalled ending or as not."""
    rules = get_game("critters")
    for seed in range(4):
        state = rules.new_game(("p1", "p2", "p3"), {}, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_over:
                break
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
                continue
            actor = state.actors[0]
            view, legal = state.view(actor), state.legal_actions(actor)
            moves = []
            for stall in (1, 30):
                seen = dict(view, stale_reshuffles=1)
                seen["options"] = {**view["options"], "stall_reshuffles": stall}
                moves.append(make_bot("critters", "greedy", actor, seed).act(seen, legal))
            if moves[0] != moves[1]:
                return True
            state.apply(make_bot("critters", "greedy", actor, seed).act(view, legal))
    return False


# Options whose effect needs a position seeded games do not reach: a seeded scenario instead.
SCENARIOS = {("critters", "stall_reshuffles"): _stall_changes_greedy}


@pytest.mark.parametrize(("game", "option"), CASES, ids=[f"{g}-{o.name}" for g, o in CASES])
def test_every_declared_option_changes_some_bots_move(game: str, option: OptionSpec) -> None:
    scenario = SCENARIOS.get((game, option.name))
    if scenario is not None:
        assert scenario(), f"{game}'s option {option.name} changed no bot's move"
        return
    value = other_value(game, option)
    changed = [
        seed
        for seed in SEEDS
        if moves_differ(_played(game, seed, {}), _played(game, seed, {option.name: value}))
    ]
    assert changed, f"{game}'s option {option.name}={value!r} changed no bot's move"


def test_the_measure_ignores_a_game_that_only_ended_sooner() -> None:
    long = _played("wild", 1, {})
    short = _played("wild", 1, {"nightfall_seconds": 120})
    cut = type(long)(**{**long.__dict__, "moves": long.moves[: len(long.moves) // 2]})
    assert not moves_differ(long, short)
    assert not moves_differ(long, cut)
    assert moves_differ(long, type(long)(**{**long.__dict__, "moves": (0, *long.moves[1:])}))


# ------------------------------------------------------------------ each reaction on its own


def _wild(p1: list[str], p2: list[str], **header: Any) -> Any:
    def pack(top: list[str]) -> list[str]:
        rest = list(CREATURES) * 2
        for card in top:
            rest.remove(card)
        return top + rest

    return GAME.from_header(
        {
            "game": "wild",
            "version": 1,
            "players": ["p1", "p2"],
            "packs": {"p1": pack(p1), "p2": pack(p2)},
            **header,
        }
    )


def _act(name: str, state: Any, seed: int = 1) -> Any:
    return make_bot("wild", name, "p1", seed).act(state.view("p1"), state.legal_actions("p1"))


@pytest.mark.parametrize("bonus", [False, True])
def test_the_hunter_mates_a_call_it_cannot_hunt_only_under_the_mating_bonus(bonus: bool) -> None:
    # p1 holds snerlep and skeevil; p2 calls snerlep. Megalotaur would hunt it: p1 has none.
    state = _wild(["snerlep", "skeevil"], ["snerlep", "fizzalisk"], options={"mating_bonus": bonus})
    state.apply(Call("p2", "snerlep", "snerlep"))
    move = _act("hunter", state)
    assert (move == Call("p1", "snerlep", "snerlep")) is bonus


def test_the_trickster_trusts_further_under_the_mating_bonus() -> None:
    bot = make_bot("wild", "trickster", "p1", 1)
    plain = _wild(["snerlep"], ["snerlep"]).view("p1")
    bonus = _wild(["snerlep"], ["snerlep"], options={"mating_bonus": True}).view("p1")
    assert bot.bar(plain) == pytest.approx(0.4)  # type: ignore[attr-defined]
    assert bot.bar(bonus) == pytest.approx(0.4 * 1.2)  # type: ignore[attr-defined]


def _hunter_openings(objectives: bool) -> set[Any]:
    header: dict[str, Any] = {"options": {"objectives": objectives}}
    if objectives:
        header["objectives"] = {"p1": "eat_megalotaur", "p2": "mate_twice"}
    openings = set()
    for seed in range(12):
        state = _wild(["skeevil", "snerlep"], ["fizzalisk"], **header)
        assert sorted(state.hand("p1")) == ["skeevil", "snerlep"]
        openings.add(_act("hunter", state, seed))
    return openings


def test_the_hunter_lures_towards_its_objective() -> None:
    # "Eat a megalotaur": skeevil eats megalotaur, so it calls megalotaur with skeevil.
    assert _hunter_openings(True) == {Call("p1", "skeevil", "megalotaur")}
    assert len(_hunter_openings(False)) == 2


def test_the_reader_values_a_meeting_by_its_objective() -> None:
    header: dict[str, Any] = {
        "options": {"objectives": True},
        "objectives": {"p1": "eat_megalotaur", "p2": "mate_twice"},
    }
    aimed = _wild(["skeevil"], ["megalotaur"], **header)
    plain = _wild(["skeevil"], ["megalotaur"])
    bot = make_bot("wild", "reader", "p1", 1)
    values = [
        bot.value(s.view("p1"), "skeevil", "megalotaur", "p2", Unseen.from_view(s.view("p1")))  # type: ignore[attr-defined]
        for s in (plain, aimed)
    ]
    assert values[1] > values[0]
    lazy = make_bot("wild", "reader(ambition=0)", "p1", 1)
    view = aimed.view("p1")
    assert lazy.value(view, "skeevil", "megalotaur", "p2", Unseen.from_view(view)) == values[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("nightfall", "restless"), [(120, 30), (60, 15), (30, 8)])
def test_bots_grow_restless_as_soon_as_nightfall_comes(nightfall: int, restless: int) -> None:
    state = _wild([], [], options={"nightfall_seconds": nightfall})
    bot = make_bot("wild", "reader", "p1", 1)
    for _ in range(restless):
        bot.act(state.view("p1"), state.legal_actions("p1"))
    assert bot.urgency() == 1.0  # type: ignore[attr-defined]
    fresh = make_bot("wild", "reader", "p1", 1)
    for _ in range(restless - 1):
        fresh.act(state.view("p1"), state.legal_actions("p1"))
    assert fresh.urgency() < 1.0  # type: ignore[attr-defined]


def test_same_deals_only_where_the_cards_dealt_are_the_same() -> None:
    from bestiary.sim.paired import compare

    base = [_played("wild", seed, {}) for seed in range(3)]
    objectives = [_played("wild", seed, {"objectives": True}) for seed in range(3)]
    smaller = [_played("wild", seed, {"pack_creatures": 4}) for seed in range(3)]
    assert compare(base, objectives).same_deals
    assert not compare(base, smaller).same_deals
    assert not compare(base, smaller).scoring_only()
