"""Wild records: header checks, event parsing, refused actions, and ``bestiary replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.core.errors import BadOption, IllegalAction, MalformedEvent, RecordError
from bestiary.core.game import get_game, replay
from bestiary.core.records import write_record
from bestiary.wild import (
    CREATURES,
    GAME,
    Call,
    Discard,
    Draw,
    Meet,
    Nightfall,
    RevealOwn,
    WildState,
    Withdraw,
    action_from_event,
)

M, S, F, W, K = CREATURES
PACK = [M, M, S, S, F, F, W, W, K, K]


def header(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "wild",
        "version": 1,
        "players": ["ann", "bob"],
        "packs": {"ann": PACK, "bob": PACK[::-1]},
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def test_registered_under_its_name() -> None:
    game = get_game("wild")
    assert game is GAME
    assert (game.info.name, game.info.min_players, game.info.max_players) == ("wild", 2, 6)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": ["ann"], "packs": {"ann": PACK}}, "2 to 6 players"),
        ({"players": ["ann", "ann"]}, "unique"),
        ({"players": ["ann", ""]}, "non-empty"),
        ({"players": "ann,bob"}, "list of names"),
        ({"players": [f"p{i}" for i in range(7)], "packs": None, "seed": 1}, "not 7"),
        ({"packs": {"ann": PACK}}, "one Pack for each player"),
        ({"packs": {"ann": PACK, "bob": PACK[:9]}}, "exactly 10"),
        ({"packs": {"ann": PACK, "bob": [M] * 10}}, "two of each"),
        ({"packs": {"ann": PACK, "bob": [*PACK[:9], "dragon"]}}, "'dragon', which is not"),
        ({"packs": None}, "either 'packs'"),
        ({"packs": None, "seed": "7"}, "seed must be an integer"),
        ({"options": {"mating_bonus": 1}}, "true or false"),
        ({"options": {"nightfall_seconds": 0}}, "nightfall_seconds must be a number from 1"),
        ({"options": {"nightfall_seconds": True}}, "nightfall_seconds must be a number from 1"),
        ({"options": {"nightfall_seconds": float("inf")}}, "must be a number from 1 to 3600"),
        ({"options": []}, "options must be an object"),
        ({"options": {"objectives": True}}, "no seed"),
        ({"options": {"objectives": True}, "objectives": {"ann": "eat_skeevil"}}, "each player"),
        (
            {"options": {"objectives": True}, "objectives": {"ann": "fly", "bob": "eat_skeevil"}},
            "not in the Objective deck",
        ),
        (
            {
                "options": {"objectives": True},
                "objectives": {"ann": "eat_skeevil", "bob": "eat_skeevil"},
            },
            "different Objective",
        ),
    ],
)
def test_bad_headers_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOption, match=message):
        GAME.from_header(header(**changes))


def test_header_round_trip_and_defaults() -> None:
    state = GAME.from_header(header())
    written = state.header()
    assert written["options"] == {
        "mating_bonus": False,
        "objectives": False,
        "nightfall_seconds": 120,
    }
    assert written["packs"] == {"ann": PACK, "bob": PACK[::-1]}
    assert "seed" not in written and "objectives" not in written
    assert GAME.from_header(written).summary() == state.summary()


def test_packs_win_over_seed_and_objectives_dealt_from_seed() -> None:
    state = GAME.from_header(header(seed=5, options={"objectives": True}))
    assert state.header()["packs"]["ann"] == PACK
    seeded = GAME.new_game(["ann", "bob"], {"objectives": True}, seed=5)
    assert state.header()["objectives"] == seeded.header()["objectives"]
    assert set(state.header()["objectives"]) == {"ann", "bob"}


def test_seeded_deal_is_fixed_by_python_random() -> None:
    rng = random.Random(42)
    expected = {}
    for p in ("ann", "bob", "carl"):
        pack = list(CREATURES + CREATURES)
        rng.shuffle(pack)
        expected[p] = pack
    state = GAME.new_game(["ann", "bob", "carl"], seed=42)
    assert state.header()["packs"] == expected
    assert state.header()["seed"] == 42


def test_new_game_without_seed_records_one() -> None:
    state = GAME.new_game(["ann", "bob"])
    seed = state.header()["seed"]
    assert isinstance(seed, int)
    assert GAME.new_game(["ann", "bob"], seed=seed).header() == state.header()


def test_new_game_refuses_bad_players_and_options() -> None:
    with pytest.raises(BadOption):
        GAME.new_game(["ann"])
    with pytest.raises(BadOption, match="unknown"):
        GAME.new_game(["ann", "bob"], {"objective": True})


@pytest.mark.parametrize(
    ("event", "action"),
    [
        ({"by": "ann", "do": "draw"}, Draw("ann")),
        ({"by": "ann", "do": "call", "card": K, "call": M}, Call("ann", K, M)),
        ({"by": "ann", "do": "withdraw"}, Withdraw("ann")),
        ({"by": "ann", "do": "discard", "card": F}, Discard("ann", F)),
        ({"by": "ann", "do": "meet", "with": "bob"}, Meet("ann", "bob")),
        ({"by": "ann", "do": "reveal_own"}, RevealOwn("ann")),
        ({"do": "nightfall", "t": 12.5}, Nightfall()),
    ],
)
def test_events_parse_and_print_back(event: dict[str, Any], action: Any) -> None:
    assert GAME.action_from_event(event) == action
    assert action.to_event() == {k: v for k, v in event.items() if k != "t"}


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"by": "ann", "do": "fly"}, "'fly' is not a wild action"),
        ({"by": "ann"}, "needs 'do'"),
        ({"do": "draw"}, "needs 'by'"),
        ({"by": 3, "do": "draw"}, "needs 'by'"),
        ({"by": "ann", "do": "call", "card": K}, "needs 'call'"),
        ({"by": "ann", "do": "call", "card": "dragon", "call": M}, "'dragon' is not a creature"),
        ({"by": "ann", "do": "discard"}, "needs 'card'"),
        ({"by": "ann", "do": "meet"}, "needs 'with'"),
        ({"by": "ann", "do": "meet", "with": ["bob"]}, "needs 'with'"),
        ("draw", "must be a JSON object"),
    ],
)
def test_malformed_events_are_refused(event: Any, message: str) -> None:
    with pytest.raises(MalformedEvent, match=message):
        action_from_event(event)


def test_a_well_formed_action_the_rules_refuse_is_illegal_not_malformed() -> None:
    action = GAME.action_from_event({"by": "zed", "do": "meet", "with": "ann"})
    with pytest.raises(IllegalAction, match="'zed' is not playing at this table"):
        GAME.from_header(header()).apply(action)


def snapshot(state: WildState) -> tuple[Any, ...]:
    views = tuple(json.dumps(state.view(p)) for p in (*state.players, None))
    return json.dumps(state.summary()), views, json.dumps(state.events())


@pytest.mark.parametrize(
    "action",
    [
        Draw("ann"),
        Draw("zed"),
        Call("ann", K, K),
        Call("ann", M, "dragon"),
        Call("ann", "dragon", M),
        Withdraw("bob"),
        Discard("ann", K),
        Discard("bob", M),
        Meet("ann", "ann"),
        Meet("ann", "bob"),
        Meet("bob", "ann"),
        Meet("ann", "zed"),
        RevealOwn("bob"),
        "draw",
    ],
)
def test_illegal_actions_leave_the_state_unchanged(action: Any) -> None:
    state = GAME.from_header(header())  # ann holds M M, bob K K
    state.apply(Call("ann", M, S))
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    reason = str(info.value)
    assert reason and "\n" not in reason
    assert snapshot(state) == before
    assert action not in state.legal_actions("ann") + state.legal_actions("bob")


def test_refused_asks_leave_the_state_unchanged() -> None:
    state = GAME.from_header(header())
    state.apply(Call("ann", M, S))
    state.apply(Call("bob", K, M))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="only the same Calls meet"):
        state.apply(Meet("bob", "ann"))
    assert snapshot(state) == before
    state.apply(Call("bob", K, S))
    state.apply(Meet("bob", "ann"))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="already asked"):
        state.apply(Meet("bob", "ann"))
    assert snapshot(state) == before


def test_nothing_is_legal_once_over() -> None:
    state = GAME.from_header(header())
    state.apply(Nightfall())
    before = snapshot(state)
    for action in (Draw("ann"), Nightfall(), Call("ann", M, M)):
        with pytest.raises(IllegalAction, match="over"):
            state.apply(action)
    assert snapshot(state) == before
    assert state.legal_actions("ann") == state.legal_actions("bob") == []


def test_legal_actions_are_all_legal_and_interned() -> None:
    state = GAME.new_game(["ann", "bob", "carl"], seed=3)
    first = state.legal_actions("ann")
    assert state.legal_actions("ann")[0] is first[0]
    assert state.legal_actions("zed") == []
    for action in first:
        state.clone().apply(action)


# -------------------------------------------------------------------------- the CLI


def played(seed: int) -> WildState:
    state = GAME.new_game(["ann", "bob", "carl"], {"mating_bonus": True}, seed=seed)
    GAME.random_playout(state, random.Random(seed), max_steps=500)
    return state


def test_replay_json_prints_the_summary(tmp_path: Path) -> None:
    state = played(9)
    path = tmp_path / "game.jsonl"
    write_record(path, state.header(), state.events())
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == state.summary()


def test_replay_names_the_bad_line(tmp_path: Path) -> None:
    state = GAME.from_header(header())
    events = [{"by": "ann", "do": "draw"}]  # over the hand limit
    path = tmp_path / "bad.jsonl"
    write_record(path, state.header(), [{"by": "ann", "do": "discard", "card": M}, *events])
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0
    write_record(path, state.header(), [*events, {"by": "ann", "do": "draw"}])
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert "line 2" in result.stderr
    assert "hand limit" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_replay_refuses_a_bad_header(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    write_record(path, header(options={"mating_bonus": "yes"}), [])
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2
    assert "line 1" in result.stderr and "mating_bonus" in result.stderr


def test_core_replay_stops_at_the_first_bad_event() -> None:
    with pytest.raises(RecordError) as info:
        replay(header(), [(2, {"by": "ann", "do": "call", "card": M, "call": M}), (3, {"do": 1})])
    assert info.value.line == 3


def test_unknown_options_are_ignored_in_records_but_refused_for_new_games() -> None:
    # docs/records.md: unknown keys are ignored; a person typing an option is told of the typo.
    state = GAME.from_header(header(options={"speed": 2, "mating_bonus": True}))
    assert state.header()["options"]["mating_bonus"] is True
    assert "speed" not in state.header()["options"]
    with pytest.raises(BadOption, match="unknown wild option 'speed'"):
        GAME.new_game(["ann", "bob"], {"speed": 2}, seed=1)
