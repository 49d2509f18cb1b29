"""The ladder's matchups: seats rotate, both sides of a game add up, times are counted."""

from __future__ import annotations

from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.sim.ladder import Cell, matchup


def test_a_matchup_times_every_seat_and_rotates_the_bot() -> None:
    times: dict[str, list[float]] = {}
    cell = matchup("critters", "greedy", "random", 2, 6, 3, times)
    assert cell.games == 6 and 0 <= cell.wins <= 6
    assert times["greedy"][1] == cell.decisions > 0 and times["random"][1] > 0


def test_a_wild_matchup_seats_the_bot_once_among_copies() -> None:
    cell = matchup("wild", "reader", "honest", 4, 4, 1)
    assert cell.games == 4 and 0 <= cell.wins <= 4 and cell.decisions > 0


def test_the_ladder_refuses_an_empty_run() -> None:
    result = CliRunner().invoke(app, ["ladder", "--search-games", "0"])
    assert result.exit_code != 0
    assert "--search-games must be at least 1" in result.output


def test_a_matchup_is_the_same_in_two_processes_as_in_one() -> None:
    one = matchup("critters", "greedy", "random", 2, 8, 5)
    two = matchup("critters", "greedy", "random", 2, 8, 5, jobs=2)
    assert (two.games, two.wins, two.decisions) == (one.games, one.wins, one.decisions)


def test_a_wild_cell_warns_when_the_table_stalled() -> None:
    assert "Nightfall" in Cell(10, 2.5, 0.0, 0, nightfalls=2).text()
    assert "Nightfall" not in Cell(10, 2.5, 0.0, 0, nightfalls=1).text()
