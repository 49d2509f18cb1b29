"""What a designer is told about small samples, many intervals and the rules every game used;
and the data a designer takes elsewhere (grid, per-move rows, changed games) round-trips."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from bestiary import lab
from bestiary.cli import app
from bestiary.core.game import replay
from bestiary.core.records import read_record
from bestiary.sim.paired import compare
from bestiary.sim.printing import print_experiment
from bestiary.sim.runner import GameResult
from bestiary.sim.settings import deck_hash
from bestiary.sim.stats import detectable_share, games_against_share, holm
from bestiary.sim.summary import summarize
from bestiary.sim.tournament import SEPARATION_RULE, Tournament

runner = CliRunner()


def _critters(games: int, *extra: str) -> Result:
    """``bestiary sim critters`` with two seats, greedy against random, in this process."""
    args = ["sim", "critters", "--players", "2", "--bots", "greedy,random", "--games", str(games)]
    return runner.invoke(app, [*args, "--jobs", "1", *extra])


def _game(index: int, bots: tuple[str, ...], winners: tuple[int, ...]) -> GameResult:
    return GameResult(
        index=index,
        seed=index,
        bots=bots,
        winners=winners,
        scores=tuple(1 if s in winners else 0 for s in range(len(bots))),
        length=10,
        ticks=0,
        outcomes={},
        ended="won",
    )


def _even_run(games: int) -> list[GameResult]:
    """Two seats that win alternately: the fair-share test finds nothing, at any size."""
    return [_game(i, ("a", "b") if i % 2 else ("b", "a"), (i % 2,)) for i in range(games)]


def test_a_small_run_says_it_cannot_tell_and_points_to_plan() -> None:
    summary = summarize("critters", 2, _even_run(40))
    assert summary.seat_test().p_value > 0.05
    (line,) = summary.small_sample()
    smallest = detectable_share(0.5, 40)
    assert line.startswith(
        f"cannot tell at n = 40: the smallest difference this run can detect is {smallest:.3f}"
    )
    assert "bestiary sim --plan --known --rate 0.500 --margin 0.05" in line
    assert summary.to_json()["small_sample"] == [line]


def test_a_large_run_does_not_say_it() -> None:
    summary = summarize("critters", 2, _even_run(2000))
    assert summary.seat_test().p_value > 0.05
    assert summary.small_sample() == []


def test_the_detectable_difference_inverts_the_plan() -> None:
    for games in (40, 200, 783, 5000):
        d = detectable_share(0.5, games)
        assert games_against_share(0.5, d).games <= games < games_against_share(0.5, d * 0.98).games


def test_holm_matches_the_step_down_by_hand() -> None:
    # sorted p: 0.001 <= 0.05/4, 0.011 <= 0.05/3 (0.0167), 0.03 > 0.05/2: stop.
    assert holm([0.03, 0.001, 0.2, 0.011]) == [False, True, False, True]
    assert holm([]) == []


def test_many_intervals_say_how_many_would_exclude_zero_by_chance() -> None:
    bots = ("a", "b", "c", "d")
    base = [_game(i, bots[i % 4 :] + bots[: i % 4], (0,)) for i in range(40)]
    # In the other arm "a" wins every game: its difference is huge; the rest move by chance.
    other = [_game(i, r.bots, (r.bots.index("a"),)) for i, r in enumerate(base)]
    comparison = compare(base, other)
    rows, facts = comparison.family()
    assert facts.size == 8  # four bots and four seats
    assert facts.by_chance == pytest.approx(0.4)
    kept = {row.label for row, k in zip(rows, facts.survivors, strict=True) if k}
    assert "a" in kept
    assert "8 intervals at 95%: about 0.4 would exclude 0 by chance alone" in facts.describe()
    console = Console(width=100, record=True)
    run = lab.experiment(
        "wild",
        ["reader", "honest", "hunter", "trickster"],
        games=12,
        seed=1,
        compare={"mating_bonus": True},
    )
    print_experiment(console, run)
    text = console.export_text()
    assert "8 intervals at 95%" in text and "Holm" in text


def test_a_bot_in_every_seat_is_not_counted_among_the_intervals() -> None:
    run = lab.experiment(
        "critters", ["greedy"], players=2, games=20, seed=1, compare={"hand_limit": 4}
    )
    assert run.paired is not None
    rows, facts = run.paired.family()
    assert [row.label for row in rows] == ["seat 1", "seat 2"] and facts.size == 2


def test_a_tournament_says_when_ranks_are_not_separated() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "critters",
            "--pool",
            "random,greedy",
            "--games",
            "4",
            "--jobs",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["not_separated"] == [["greedy", "random"]]
    printed = runner.invoke(
        app, ["tournament", "critters", "--pool", "random,greedy", "--games", "4", "--jobs", "1"]
    )
    assert "are not separated" in printed.stdout and "1=" not in printed.stdout
    assert f"separation: {SEPARATION_RULE}" in " ".join(printed.stdout.split())


def test_the_tournament_separates_by_the_interval_of_the_difference() -> None:
    """Far-apart bots are separated even when their ratings' mu ± 2 sigma would overlap; bots
    that trade wins are not; the rule is the paired difference at shared tables."""
    tournament = Tournament("critters", 3)
    for i in range(60):
        # a wins 40 of 60, b 20 of 60, c never: a and b trade places, c trails both.
        winner = 0 if i % 3 else 1
        bots = ("a", "b", "c")
        tournament.add(_game(i, bots, (winner,)))
    a_minus_b = tournament.difference("a", "b")
    assert a_minus_b.mean == pytest.approx(20 / 60) and a_minus_b.n == 60
    assert tournament.difference("b", "a").mean == pytest.approx(-a_minus_b.mean)
    assert tournament.difference("b", "a").low == pytest.approx(-a_minus_b.high)
    assert tournament.separated("a", "b") and tournament.separated("b", "c")
    even = Tournament("critters", 2)
    for i in range(40):
        even.add(_game(i, ("a", "b"), (i % 2,)))  # they win in turn
    assert not even.separated("a", "b")
    assert [{x.bot, y.bot} for x, y in even.unseparated()] == [{"a", "b"}]
    data = even.to_json()
    assert data["separation_rule"] == SEPARATION_RULE
    assert data["neighbours"][0]["n"] == 40 and data["neighbours"][0]["mean"] == 0.0


DECK = {"kinds": {"fox": 4, "owl": 4, "frog": 4}, "wild": 2, "actions": {"no": 2}}


def test_every_option_and_the_decks_hash_are_in_the_table_json_and_report(tmp_path: Path) -> None:
    table, report = tmp_path / "games.csv", tmp_path / "report.html"
    deck = tmp_path / "small.json"
    deck.write_text(json.dumps(DECK), encoding="utf-8")
    result = _critters(
        4, "--option", f"deck={deck}", "--table", str(table), "--report", str(report), "--json"
    )
    assert result.exit_code == 0, result.stderr
    rows = pd.read_csv(table)
    digest = deck_hash(DECK)
    for column, value in {
        "option_deck": "small",
        "option_deck_hash": digest,
        "option_set_size": 3,
        "option_sets_to_win": 3,
        "option_hand_limit": 5,
        "option_first": "p1",
    }.items():
        assert (rows[column] == value).all(), column
    data = json.loads(result.stdout)
    assert data["options"]["deck_hash"] == digest
    assert data["decks"] == {digest: {"name": "small", "content": DECK}}
    page = report.read_text("utf-8")
    assert digest in page and "Options every game was played with" in page
    assert json.dumps(DECK, sort_keys=True).replace('"', "&quot;") in page


def test_the_ladder_writes_in_the_working_directory_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bestiary.sim.ladder

    monkeypatch.setattr(bestiary.sim.ladder, "ladder", lambda *a, **k: "# the page\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    result = runner.invoke(app, ["ladder", "--games", "1"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "bots.md").read_text("utf-8") == "# the page\n"
    assert not any((tmp_path / "docs").iterdir())
    elsewhere = tmp_path / "out" / "page.md"
    elsewhere.parent.mkdir()
    assert runner.invoke(app, ["ladder", "--out", str(elsewhere)]).exit_code == 0
    assert elsewhere.exists()


def test_a_grid_round_trips_through_pandas(tmp_path: Path) -> None:
    run = lab.experiment(
        "critters",
        ["greedy", "random"],
        players=2,
        games=10,
        seed=1,
        grid={"set_size": [3, 4], "sets_to_win": [2, 3]},
    )
    assert run.grid is not None
    games = lab.table(run)
    games.to_parquet(tmp_path / "grid.parquet")
    back = pd.read_parquet(tmp_path / "grid.parquet")
    lengths = back.pivot_table(
        index="option_set_size", columns="option_sets_to_win", values="length", aggfunc="mean"
    )
    for (a, b), point in run.grid.cells.items():
        expected = sum(point.played.summary.lengths) / 10
        assert lengths.loc[int(a), int(b)] == pytest.approx(expected)
    assert len(back) == 4 * 10  # the baseline cell is the baseline, played once


def test_the_grid_refuses_one_key() -> None:
    result = runner.invoke(app, ["sim", "critters", "--games", "2", "--grid", "set_size=3,4"])
    assert result.exit_code == 2 and "exactly two keys" in result.stderr


def test_per_move_rows_end_where_each_game_ended(tmp_path: Path) -> None:
    turns = tmp_path / "turns.csv"
    result = _critters(5, "--turns", str(turns), "--json")
    assert result.exit_code == 0, result.stderr
    moves = pd.read_csv(turns, keep_default_na=False)
    run = lab.experiment("critters", ["greedy", "random"], players=2, games=5, seed=1)
    frame = lab.turns(run)  # the same rows from Python
    for column in ("index", "move", "by", "score_1", "score_2", "hand_sizes_1"):
        assert frame[column].tolist() == moves[column].tolist()
    for result_ in run.base.results:
        game = moves[moves["index"] == result_.index]
        last = game.iloc[-1]
        assert len(game) == result_.length
        assert [last["score_1"], last["score_2"]] == list(result_.scores)
        # critters scores its full sets
        assert [last["tableaus_full_1"], last["tableaus_full_2"]] == list(result_.scores)
        assert set(game["by"]) <= {1, 2}


def test_the_games_whose_winners_changed_open_in_a_replay(tmp_path: Path) -> None:
    args = [
        "sim",
        "wild",
        "--players",
        "4",
        "--bots",
        "reader,honest,hunter,trickster",
        "--games",
        "12",
        "--jobs",
        "1",
        "--compare",
        "mating_bonus=true",
    ]
    result = runner.invoke(app, [*args, "--changed", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.stderr
    changed = json.loads(result.stdout)["paired"]["changed_games"]
    assert changed, "these seeds change some winners"
    run = lab.experiment(
        "wild",
        ["reader", "honest", "hunter", "trickster"],
        games=12,
        seed=1,
        compare={"mating_bonus": True},
    )
    frame = lab.changed(run)
    assert list(frame["index"]) == [g["index"] for g in changed]
    assert run.other is not None
    for game in changed:
        for arm, results in (("base", run.base.results), ("compare", run.other.results)):
            header, events = read_record(tmp_path / arm / f"game-{game['index']:06d}.jsonl")
            state = replay(header, events)
            winners = sorted(header["players"].index(p) for p in state.winners())
            assert tuple(winners) == results[game["index"]].winners
            assert header["sim_seed"] == game["seed"]
    printed = runner.invoke(app, args)
    assert "games whose winners changed" in printed.stdout and "--changed DIR" in printed.stdout


def test_sweep_tables_wrap_instead_of_cutting_figures_at_80_columns() -> None:
    run = lab.experiment(
        "critters",
        ["greedy", "random"],
        players=2,
        games=10,
        seed=1,
        sweep={"hand_limit": [4, 6]},
        compare={"set_size": 4},
    )
    console = Console(width=80, record=True)
    print_experiment(console, run)
    text = console.export_text()
    assert "…" not in text
    assert "5 (baseline)" in text and "null" not in text
    sweep = text[text.index("sweep hand_limit") :]
    for row in ("seat 1", "seat 2", "greedy", "random", "length (moves)"):
        assert row in sweep
    assert "diff" in sweep


def test_the_ladder_says_when_its_games_do_not_separate_the_strongest() -> None:
    from bestiary.sim.ladder import Cell, separation

    unclear = separation("ismcts", "greedy", Cell(6, 3.0, 0.0, 0), 0.5)
    assert "do not separate it from `greedy`" in unclear
    assert "cannot tell at n = 6" in unclear and "--plan --known --rate 0.5" in unclear
    clear = separation("ismcts", "greedy", Cell(1000, 430.0, 0.0, 0), 0.5)
    assert "measured ahead of `greedy`" in clear and "cannot tell" not in clear


def test_each_figure_of_the_report_can_be_written_as_a_png(tmp_path: Path) -> None:
    result = _critters(6, "--compare", "set_size=4", "--figures", str(tmp_path / "figs"), "--json")
    assert result.exit_code == 0, result.stderr
    names = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert "paired-differences.png" in names and "win-rate-per-seat.png" in names
    assert all((tmp_path / "figs" / n).read_bytes().startswith(b"\x89PNG") for n in names)
