"""The live table behind both apps: bots on the tick model, records that replay exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.errors import BadOption
from bestiary.core.game import replay
from bestiary.core.records import read_record
from bestiary.critters import GAME as CRITTERS
from bestiary.tui.live import LiveTable, WallClock
from bestiary.tui.run import new_table
from bestiary.wild import GAME


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    bots=st.sampled_from(["random", "honest,hunter", "cautious,reader", "trickster"]),
)
def test_wild_bots_finish_and_the_record_replays(
    tmp_path_factory: pytest.TempPathFactory, seed: int, bots: str
) -> None:
    players = 3 if "," in bots else 2
    table = new_table("wild", players, bots, {"nightfall_seconds": 30}, seed, "ann")
    for _ in range(5_000):
        if table.state.is_over:
            break
        table.advance(table.tick + 1)
    assert table.state.is_over  # Sundown, or Nightfall once the table goes quiet
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    table.save(path)
    header, events = read_record(path)
    assert replay(header, events).summary() == table.state.summary()
    times = [event["t"] for _, event in events]
    assert times == sorted(times) and times[-1] == table.seconds()


def test_critters_bots_take_their_turns_until_the_human_is_due() -> None:
    table = new_table("critters", 3, "greedy,random", {}, 4, "ann")
    table.play(table.state.legal_actions("ann")[0])
    table.run_bots()
    assert table.state.actors == ("ann",) or table.state.is_over
    assert table.run_bots() is False  # nothing moves until ann does


def test_refused_human_action_is_one_sentence_and_changes_nothing() -> None:
    table = new_table("wild", 2, "honest", {}, 1, "ann")
    before = table.state.summary()
    error = table.play_event({"do": "meet", "with": "honest"})
    assert error is not None and "\n" not in error
    error = table.play_event({"do": "call", "card": "dragon", "call": "skeevil"})
    assert error is not None and "dragon" in error
    assert table.state.summary() == before and table.log == []


def test_a_human_needs_a_seat(tmp_path: Path) -> None:
    state = GAME.new_game(["ann", "bo"], seed=1)
    with pytest.raises(BadOption, match="'cy' has no seat"):
        LiveTable(GAME, state, "cy", {})


def test_narration_is_what_the_human_seat_may_see() -> None:
    table = new_table("wild", 3, "reader,trickster", {"nightfall_seconds": 20}, 5, "ann")
    table.play_event({"do": "call", "card": table.view()["hand"][0], "call": "skeevil"})
    while not table.state.is_over and table.tick < 5_000:
        table.advance(table.tick + 3)
    events = table.state.events()
    assert [told.event for told in table.told] == [table.state.redact(e, "ann") for e in events]
    hidden = [t.event for t in table.told if t.event.get("do") in ("call", "discard")]
    assert all(("card" in e) == (e["by"] == "ann") for e in hidden)
    assert any(e["by"] != "ann" for e in hidden)
    assert all("with their" not in line.text for line in table.log)  # no card ever named


class Slow:
    """A critters bot that takes ``seconds`` of (fake) wall time to choose its first move."""

    def __init__(self, player: str, clock: list[float], seconds: float) -> None:
        self.player, self.clock, self.seconds = player, clock, seconds

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any:
        self.clock[0] += self.seconds
        return legal[0]


def test_wall_clock_stands_still_while_a_bot_thinks() -> None:
    now = [100.0]
    state = CRITTERS.new_game(["ann", "bo", "cy"], seed=2)
    table = LiveTable(CRITTERS, state, None, {p: Slow(p, now, 2.0) for p in state.players})
    clock = WallClock(table, now=lambda: now[0])
    pause = table.pace.turn_pause_ticks
    seconds = table.pace.seconds(pause)
    now[0] += seconds
    assert clock() and table.tick == pause and len(table.told) == 1  # ann moved, thinking 2 s
    now[0] += seconds - table.pace.tick_seconds
    assert not clock() and len(table.told) == 1  # bo's pause is not over: the 2 s did not count
    now[0] += table.pace.tick_seconds
    assert clock() and table.tick == 2 * pause and len(table.told) == 2
