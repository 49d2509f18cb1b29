"""The narrated demo (``make run``): it plays a legal game to its end and tells it."""

from __future__ import annotations

import io
import random

from rich.console import Console
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.core.game import replay
from bestiary.demo import narrate, run_demo
from bestiary.wild import GAME, SOUNDS


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
        state = GAME.new_game(["a", "b", "c", "d", "e", "f"][:players], seed=11)
        lines = list(narrate(state, random.Random(11)))
        assert state.is_over
        assert state.meetings
        again = GAME.new_game(["a", "b", "c", "d", "e", "f"][:players], seed=11)
        assert list(narrate(again, random.Random(11))) == lines
        events = list(enumerate(state.events(), start=2))
        assert replay(state.header(), events).summary() == state.summary()


def test_demo_usually_reaches_sundown() -> None:
    ended = 0
    for seed in range(10):
        state = GAME.new_game(["a", "b", "c", "d"], seed=seed)
        for _ in narrate(state, random.Random(seed)):
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
