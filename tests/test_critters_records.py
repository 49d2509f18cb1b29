"""critters options, deck files, record headers and events, and ``bestiary replay`` end to end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bestiary.core.errors import BadOption, IllegalAction, MalformedEvent, RecordError
from bestiary.core.game import Game, State, get_game, replay
from bestiary.core.records import read_record, write_record
from bestiary.critters import GAME
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
from bestiary.critters.cards import DEFAULT_DECK

NAMES = ["ann", "bo", "cy", "dee"]
BESTIARY = Path(sys.executable).with_name("bestiary")


def test_registered_game_and_default_deck() -> None:
    game: Game = GAME  # mypy checks the Game and State protocols here
    state: State = GAME.new_game(["ann", "bo"], seed=1)
    assert get_game("critters") is game and state.players == ("ann", "bo")
    assert (GAME.info.name, GAME.info.min_players, GAME.info.max_players) == ("critters", 2, 8)
    counts = DEFAULT_DECK.count_of()
    assert DEFAULT_DECK.kinds == (
        "fox", "owl", "frog", "hedgehog", "otter", "rabbit", "raccoon", "squirrel", "turtle",
    )  # fmt: skip
    assert all(counts[k] == 6 for k in DEFAULT_DECK.kinds)
    assert (counts["wild"], counts["ultimate_collector"], counts["no"]) == (6, 3, 6)
    assert (counts["hop_over"], counts["game_changer"]) == (5, 5)
    assert DEFAULT_DECK.size == 79


def test_new_game_header_carries_the_explicit_deal() -> None:
    state = GAME.new_game(NAMES, {"first": "cy"}, seed=11)
    header = state.header()
    assert header["game"] == "critters" and header["version"] == 1
    assert header["players"] == NAMES and header["seed"] == 11 and header["first"] == "cy"
    assert header["options"] == {
        "set_size": 3,
        "sets_to_win": 3,
        "hand_limit": 5,
        "stall_reshuffles": 30,
    }
    assert sorted(header["deck"]) == sorted(DEFAULT_DECK.cards())
    assert state.turn == "cy" and state.hand("cy")[0] == header["deck"][0]
    assert state.hand("dee")[0] == header["deck"][1]
    unseeded = GAME.new_game(NAMES)
    assert isinstance(unseeded.header()["seed"], int)


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (NAMES, {"colour": "red"}, "unknown critters option 'colour'"),
        (NAMES, {"set_size": 5}, "option set_size must be one of 2, 3, 4, not 5"),
        (NAMES, {"sets_to_win": "3"}, "option sets_to_win must be one of 1, 2, 3, 4, not '3'"),
        (NAMES, {"hand_limit": 0}, "hand_limit must be a whole number"),
        (NAMES, {"set_size": 4, "sets_to_win": 4}, "not both"),
        ([*NAMES, "eve"], {"set_size": 4}, "for 2 to 4 players"),
        ([*NAMES, "eve"], {"sets_to_win": 4}, "for 2 to 4 players"),
        (["ann"], {}, "2 to 8 players, not 1"),
        ([f"p{i}" for i in range(9)], {}, "2 to 8 players, not 9"),
        (["ann", "ann"], {}, "unique"),
        (NAMES, {"first": "zed"}, "first must name one of the players"),
        (NAMES, {"deck": 3}, "option deck must be a deck name or a deck's content"),
        ([f"p{i}" for i in range(8)], {"hand_limit": 10}, "too few to deal 10 to each of 8"),
    ],
)
def test_bad_options_are_refused_in_one_sentence(
    players: list[str], options: dict[str, Any], reason: str
) -> None:
    with pytest.raises(BadOption, match=reason) as info:
        GAME.new_game(players, options, seed=1)
    assert "\n" not in str(info.value)


def test_six_or_more_players_default_to_four_cards() -> None:
    assert GAME.new_game([f"p{i}" for i in range(6)], seed=1).hand_limit == 4
    assert GAME.new_game([f"p{i}" for i in range(5)], seed=1).hand_limit == 5


@pytest.mark.parametrize(
    "content",
    [
        {"kinds": {"otter": 3, "frog": 3}, "wild": 4, "actions": {"game_changer": 2}},
        {"otter": 3, "frog": 3, "wild": 4, "game_changer": 2},
        ["otter"] * 3 + ["frog"] * 3 + ["wild"] * 4 + ["game_changer"] * 2,
    ],
)
def test_deck_option_may_give_the_deck_inline(content: Any) -> None:
    # two kinds: a win needs two of them (three kinds would be refused: no winner possible)
    state = GAME.new_game(["ann", "bo"], {"deck": content, "sets_to_win": 2}, seed=3)
    assert sorted(state.header()["deck"]) == sorted(
        ["otter"] * 3 + ["frog"] * 3 + ["wild"] * 4 + ["game_changer"] * 2
    )
    assert set(state.kinds) >= {"otter", "frog"}


def test_inline_deck_content_is_checked_like_a_deck_file() -> None:
    with pytest.raises(BadOption, match="option deck has a bad critter kind name 'Fox!'"):
        GAME.new_game(["ann", "bo"], {"deck": {"Fox!": 20}}, seed=3)


def test_deck_files_toml_and_json(tmp_path: Path) -> None:
    toml = tmp_path / "small.toml"
    toml.write_text(
        "wild = 2\n[kinds]\nfox = 4\nowl = 4\n[actions]\nno = 1\nhop_over = 1\n", "utf-8"
    )
    state = GAME.new_game(["ann", "bo"], {"deck": str(toml), "sets_to_win": 2}, seed=3)
    assert state.kinds == ("fox", "owl")
    assert sorted(state.header()["deck"]) == sorted(
        ["fox"] * 4 + ["owl"] * 4 + ["wild"] * 2 + ["no", "hop_over"]
    )
    assert "deck" not in state.header()["options"]
    spec = {"kinds": {"otter": 3, "frog": 3}, "wild": 4, "actions": {"game_changer": 2}}
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(spec), "utf-8")
    state = GAME.new_game(["ann", "bo"], {"deck": str(path), "sets_to_win": 2}, seed=3)
    assert state.kinds == ("otter", "frog") and len(state.header()["deck"]) == 12


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"kinds": {"fox": 2}, "wild": 1}', "too few to deal 5 to each of 2"),
        ('{"kinds": {"Fox!": 20}}', "bad critter kind name"),
        ('{"kinds": {"wild": 20}}', "bad critter kind name"),
        ('{"kinds": {"fox": -1}}', "whole number from 0 to 1000"),
        ('{"kinds": {"fox": 20}, "actions": {"steal": 1}}', "unknown action card 'steal'"),
        ('{"kinds": {"fox": 20}, "jokers": 1}', "unknown keys: jokers"),
        ('{"wild": 20}', "needs a 'kinds' table"),
        ("[1, 2]", "must hold an object"),
        ("{oops", "not valid TOML/JSON"),
    ],
)
def test_bad_deck_files_are_refused(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "deck.json"
    path.write_text(text, "utf-8")
    with pytest.raises(BadOption, match=reason):
        GAME.new_game(["ann", "bo"], {"deck": str(path)}, seed=1)


def test_missing_deck_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadOption, match="cannot read deck file"):
        GAME.new_game(["ann", "bo"], {"deck": str(tmp_path / "none.toml")}, seed=1)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"deck": None, "seed": None}, "needs an explicit 'deck' list or a 'seed'"),
        ({"deck": ["fox"] * 9}, "too few to deal"),
        ({"deck": ["fox", 3] * 9}, "list of card names"),
        ({"players": "ann"}, "'players' as a list"),
        ({"first": "zed"}, "first must name one of the players"),
    ],
)
def test_bad_headers_are_refused(change: dict[str, Any], reason: str) -> None:
    header = GAME.new_game(["ann", "bo"], seed=2).header()
    header.update(change)
    with pytest.raises(BadOption, match=reason):
        GAME.from_header(header)


def test_events_are_exactly_the_record_lines() -> None:
    assert Down("a", "fox").to_event() == {"by": "a", "do": "down", "card": "fox"}
    assert PlaySet("a", "fox", ("fox", "fox", "wild")).to_event() == {
        "by": "a", "do": "set", "kind": "fox", "cards": ["fox", "fox", "wild"],
    }  # fmt: skip
    assert Complete("a", "owl", ("owl",)).to_event() == {
        "by": "a", "do": "complete", "kind": "owl", "cards": ["owl"],
    }  # fmt: skip
    assert HopOver("a", "b", "fox", "wild").to_event() == {
        "by": "a", "do": "hop_over", "target": "b", "kind": "fox", "card": "wild",
    }  # fmt: skip
    assert GameChanger("a", "b", "fox", "fox", "owl", "wild").to_event() == {
        "by": "a", "do": "game_changer", "target": "b",
        "give": {"kind": "fox", "card": "fox"}, "take": {"kind": "owl", "card": "wild"},
    }  # fmt: skip
    assert UltimateCollector("a", "b", "fox").to_event() == {
        "by": "a", "do": "ultimate_collector", "target": "b", "kind": "fox",
    }  # fmt: skip
    assert SayNo("b").to_event() == {"by": "b", "do": "no"}
    assert Allow("b").to_event() == {"by": "b", "do": "allow"}
    assert SwapWild("a", "fox", "owl").to_event() == {
        "by": "a", "do": "swap_wild", "kind": "fox", "to": "owl",
    }  # fmt: skip
    assert Pass("a").to_event() == {"by": "a", "do": "pass"}
    assert Discard("a", "no").to_event() == {"by": "a", "do": "discard", "card": "no"}
    assert Reshuffle(("no", "fox")).to_event() == {"do": "reshuffle", "order": ["no", "fox"]}
    for action in (
        Down("a", "wild", "fox"),
        PlaySet("a", "fox", ("fox", "fox", "wild")),
        GameChanger("a", "b", "fox", "fox", "owl", "wild"),
        Reshuffle(("no",)),
        SwapWild("a", "fox", "owl"),
    ):
        assert GAME.action_from_event(action.to_event()) == action
        assert eval(repr(action)) == action  # the repr pastes back


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        ({"do": "down", "card": "fox"}, "needs a text 'by'"),
        ({"by": "a", "do": "Fly!"}, "'Fly!' is not a critters action"),
        ({"by": "a", "do": "set", "kind": "fox", "cards": "fox"}, "'cards' as a list"),
        ({"by": "a", "do": "game_changer", "target": "b", "give": 1}, "'give' as an object"),
        ({"by": "a", "do": "down", "card": "fox", "as": 3}, "'as' as text or null"),
        ({"by": "a", "do": "down", "card": "wild"}, "needs a text 'as'"),
        ({"do": "reshuffle"}, "'order' as a list"),
        ({"by": "a"}, "needs 'do'"),
        (["down"], "must be a JSON object"),
    ],
)
def test_malformed_events_are_refused(event: Any, reason: str) -> None:
    with pytest.raises(MalformedEvent, match=reason):
        GAME.action_from_event(event)


def test_a_well_formed_action_the_rules_refuse_is_illegal_not_malformed() -> None:
    # Parsing checks the shape; a critter card declared "as" a kind is the rules' to refuse.
    event = {"by": "ann", "do": "down", "card": "fox", "as": "owl"}
    action = GAME.action_from_event(event)
    assert action == Down("ann", "fox", "owl")
    state = GAME.new_game(["ann", "bo"], seed=3)
    with pytest.raises(IllegalAction, match="only a wild is declared 'as' a kind"):
        state.apply(action)
    # An event named like a card reads as a deck's own card; this deck has no such card.
    with pytest.raises(IllegalAction, match="'fly' is not an action card of this deck"):
        state.apply(GAME.action_from_event({"by": "ann", "do": "fly"}))


def _reshuffling_game(tmp_path: Path) -> Any:
    """A random game on a small deck, long enough to reshuffle the centre pile."""
    path = tmp_path / "tiny.toml"
    path.write_text(
        "wild = 2\n[kinds]\nfox = 4\nowl = 4\nfrog = 4\n"
        "[actions]\nno = 2\nhop_over = 3\ngame_changer = 3\n",
        "utf-8",
    )
    for seed in range(200):
        state = GAME.new_game(["ann", "bo", "cy"], {"deck": str(path)}, seed=seed)
        GAME.random_playout(state, random.Random(seed), 10_000)
        if any(e["do"] == "reshuffle" for e in state.events()):
            return state
    raise AssertionError("no seed reshuffled")


def test_new_game_reshuffles_itself_and_the_record_replays(tmp_path: Path) -> None:
    state = _reshuffling_game(tmp_path)
    events = state.events()
    at = next(i for i, e in enumerate(events) if e["do"] == "reshuffle")
    rebuilt = replay(state.header(), list(enumerate(events, start=2)))
    assert rebuilt.summary() == state.summary()
    # Without the reshuffle line an explicit deck cannot go on.
    broken = events[:at] + events[at + 1 :]
    with pytest.raises(RecordError, match=f"line {at + 2}: .*a reshuffle event is due here"):
        replay(state.header(), list(enumerate(broken, start=2)))
    # A reshuffle anywhere else is refused.
    moved = [*events[:1], events[at], *events[1:]]
    with pytest.raises(RecordError, match=r"line 3: .*no reshuffle is due"):
        replay(state.header(), list(enumerate(moved, start=2)))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BESTIARY), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_replay_command_prints_the_summary(tmp_path: Path) -> None:
    state = GAME.new_game(NAMES, seed=21)
    GAME.random_playout(state, random.Random(21), 100_000)
    path = tmp_path / "game.jsonl"
    write_record(path, state.header(), state.events())
    done = _run("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == state.summary()
    header, events = read_record(path)
    assert replay(header, events).summary() == state.summary()


def test_replay_command_names_the_bad_line(tmp_path: Path) -> None:
    state = GAME.new_game(["ann", "bo"], seed=5)
    GAME.random_playout(state, random.Random(5), 6)
    events = state.events()
    events[2] = {"by": "ann", "do": "ultimate_collector", "target": "ann", "kind": "fox"}
    path = tmp_path / "bad.jsonl"
    write_record(path, state.header(), events)
    done = _run("replay", str(path), "--json")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "line 4" in lines[0] and "refused" in lines[0]


def test_unknown_options_are_ignored_in_records_but_refused_for_new_games() -> None:
    # docs/records.md: unknown keys are ignored; a person typing an option is told of the typo.
    header = GAME.new_game(["ann", "bo"], {"set_size": 4}, seed=5).header()
    header["options"] = {**header["options"], "colour": "red", "deck": "gone.toml"}
    state = GAME.from_header(header)
    assert state.set_size == 4 and state.header()["options"] == {
        "set_size": 4,
        "sets_to_win": 3,
        "hand_limit": 5,
        "stall_reshuffles": 30,
    }
    with pytest.raises(BadOption, match="unknown critters option 'colour'"):
        GAME.new_game(["ann", "bo"], {"colour": "red"}, seed=5)
    header["options"]["set_size"] = 5  # a known option is still checked in a record
    with pytest.raises(BadOption, match="option set_size must be one of 2, 3, 4, not 5"):
        GAME.from_header(header)
