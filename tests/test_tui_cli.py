"""``bestiary play``: bad input is one sentence and exit 2; a whole wild game with the brief's
bots reaches its end screen while the human sits still."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from typer.testing import CliRunner

from bestiary.cli import app as cli_app
from bestiary.core.game import get_game
from bestiary.tui.run import new_table
from bestiary.tui.screens import EndScreen
from bestiary.tui.wild_app import WildApp


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "wild", "--bots", "nosuch"], "no bot called 'nosuch' for wild"),
        (["play", "wild", "--players", "4", "--bots", "honest,hunter"], "need 3 bots"),
        (["play", "wild", "--players", "9"], "wild"),
        (["play", "critters", "-o", "set_size=5"], "set_size"),
        (["play", "critters", "-o", "colour"], "key=value"),
        (["play", "wild", "--name", " "], "--name must not be empty"),
        (["play", "wild", "--players", "1"], "at least 2 players"),
        (["play", "wild", "--tick", "0"], "a tick must last a positive number of seconds"),
    ],
)
def test_bad_play_input_is_one_sentence(args: list[str], says: str) -> None:
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 2, result.output
    assert says in result.stderr
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_wild_with_reader_hunter_trickster_reaches_the_end_screen() -> None:
    table = new_table("wild", 4, "reader,hunter,trickster", {}, 12, "ann")
    assert table.state.players == ("ann", "reader", "hunter", "trickster")

    async def play() -> None:
        app = WildApp(table, realtime=False)
        async with app.run_test(size=(160, 50)) as pilot:
            for _ in range(400):
                app.advance(5)
                await pilot.pause()
                if table.state.is_over:
                    break
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)

    asyncio.run(play())
    assert table.state.is_over
    assert table.state.winners()
    assert table.log[-1].text.startswith(("Nightfall", "reader", "hunter", "trickster"))
    # Every event in the record carries its time, and time only moves forward.
    times = [event["t"] for event in table.record_events()]
    assert len(times) == len(table.state.events())
    assert times == sorted(times)


def test_every_default_player_count_follows_the_games_declared_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game that seats only 2 (duel (tests/toygame) narrowed to 2 here, as kuhn is): with no
    --players, play, bench and sim seat 2, not 4."""
    duel = get_game("duel")
    monkeypatch.setattr(duel, "info", dataclasses.replace(duel.info, max_players=2))
    runner = CliRunner()
    # play: the default table is 2 seats, so three bots are two too many (refused before the app)
    result = runner.invoke(cli_app, ["play", "duel", "--bots", "random,random,random"])
    assert result.exit_code == 2, result.output
    assert "need 1 bot" in result.stderr, result.stderr
    assert "takes 2 to 2 players" not in result.stderr
    bench = runner.invoke(cli_app, ["bench", "duel", "--games", "3"])
    assert bench.exit_code == 0, bench.output
    planned = runner.invoke(cli_app, ["sim", "duel", "--plan", "--margin", "0.1"])
    halves = runner.invoke(cli_app, ["sim", "--plan", "--margin", "0.1", "--rate", "0.5"])
    assert planned.exit_code == 0, planned.output
    assert planned.output == halves.output  # 1/2, two seats
