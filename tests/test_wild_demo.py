"""The narrated demo (``make run``): it plays a legal game to its end and tells it."""

from __future__ import annotations

import io
import json
from dataclasses import replace

from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.core.game import replay
from bestiary.core.records import dumps
from bestiary.demo import demo_spec, demo_table, narrate, run_demo, wild_state
from bestiary.sim.runner import play_game
from bestiary.wild import SOUNDS


def test_demo_narrates_a_whole_game() -> None:
    out = io.StringIO()
    run_demo(players=4, seed=3, delay=0, console=Console(file=out, width=200))
    text = out.getvalue()
    assert "seed 3" in text
    assert f"calls {SOUNDS['megalotaur']!r} with a face-down card" in text
    assert "meet" in text and ("Sundown!" in text or "Nightfall." in text)
    assert "The Dens at the end" in text
    assert "wins!" in text or "share the win!" in text


def test_demo_is_repeatable_and_its_game_replays() -> None:
    for players in (2, 3, 6):
        table = demo_table(players, 11)
        state = wild_state(table)
        lines = list(narrate(table))
        assert state.is_over
        assert state.meetings
        assert list(narrate(demo_table(players, 11))) == lines
        events = list(enumerate(state.events(), start=2))
        assert replay(state.header(), events).summary() == state.summary()


def test_demo_usually_reaches_sundown() -> None:
    ended = 0
    for seed in range(10):
        table = demo_table(4, seed)
        state = wild_state(table)
        for _ in narrate(table):
            pass
        ended += bool(state.ended_by)
    assert ended >= 7


def test_demo_command() -> None:
    args = ["demo", "wild", "--players", "2", "--seed", "5", "--delay", "0"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Call of the Wild" in result.output


def test_demo_refuses_a_bad_table_size() -> None:
    out = io.StringIO()
    run_demo(players=7, seed=1, delay=0, console=Console(file=out))
    assert "2 to 6 players" in out.getvalue()


def test_demo_is_the_simulators_game() -> None:
    # The demo's table, driven one due tick after another while it is told, plays exactly the
    # game that `bestiary sim` plays for the same seeded line-up: same events, same end tick.
    for players, seed in ((2, 4), (4, 3), (5, 21)):
        spec = replace(demo_spec(players, seed), keep_record=True)
        result = play_game(spec)
        assert result.record is not None
        table = demo_table(players, seed)
        for _ in narrate(table):
            pass
        assert [dumps(event) for event in table.state.events()] == list(result.record[1:])
        header = json.loads(result.record[0])
        assert header.pop("bots") == list(spec.bots) and header.pop("sim_seed") == spec.seed
        assert header == json.loads(dumps(table.state.header()))
        assert table.tick == result.ticks
        # Told through the spectator's redaction: no face-down card is ever named.
        calls = [told.event for told in table.told if told.event.get("do") in ("call", "discard")]
        assert calls and all("card" not in event for event in calls)
