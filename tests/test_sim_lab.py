"""Sweeps, honest warnings, integer bins, per-game tables and custom bots."""

from __future__ import annotations

import csv
import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bestiary import lab
from bestiary.core.game import replay
from bestiary.core.records import read_record
from bestiary.sim.plots import integer_bins
from bestiary.sim.summary import reproducible
from tests.test_sim_cli import _run


def test_the_sweeps_baseline_row_equals_a_plain_run() -> None:
    plain = lab.experiment("critters", ["greedy", "random"], players=2, games=12, seed=3)
    swept = lab.experiment(
        "critters",
        ["greedy", "random"],
        players=2,
        games=12,
        seed=3,
        sweep={"sets_to_win": [4, 3]},
    )
    (sweep,) = swept.sweeps
    assert [p.value for p in sweep.points] == ["3", "4"]  # numeric settings in order
    baseline = sweep.points[0]
    assert baseline.paired is None
    assert baseline.played.results == plain.base.results
    assert reproducible(baseline.played.summary.to_json()) == reproducible(
        plain.base.summary.to_json()
    )
    other = sweep.points[1]
    assert other.paired is not None and other.paired.games == 12
    assert all(r.options["sets_to_win"] == 4 for r in other.played.results)


def test_a_sweep_over_players_and_line_ups() -> None:
    run = lab.experiment(
        "critters",
        ["greedy"],
        players=2,
        games=6,
        sweep={"players": [3], "bots": [("greedy", "random")]},
    )
    players, bots = run.sweeps
    assert {len(r.bots) for r in players.points[1].played.results} == {3}
    assert players.points[1].paired is not None and not players.points[1].paired.same_deals
    assert set(bots.points[1].played.summary.by_bot) == {"greedy", "random"}


def test_a_stalled_line_up_is_warned_about_and_a_healthy_one_is_not() -> None:
    # A quiet clock of 2 seconds (8 ticks) stops nearly every game before anyone meets.
    stalled = lab.experiment(
        "wild", ["reader", "random"], players=2, games=40, seed=1, options={"nightfall_seconds": 2}
    )
    warnings = stalled.base.summary.warnings()
    assert any("stall" in w for w in warnings)
    assert any("nobody scoring" in w for w in warnings)
    healthy = lab.experiment(
        "wild", ["reader", "honest", "hunter", "trickster"], players=4, games=20, seed=1
    )
    assert healthy.base.summary.warnings() == []
    assert healthy.base.summary.honesty()[0].startswith("Nightfall ended")


def test_the_summary_shows_the_ending_mix_ties_and_scoreless_games() -> None:
    code, out, _ = _run(
        "sim",
        "wild",
        "--players",
        "2",
        "--bots",
        "random",
        "--games",
        "30",
        "--option",
        "nightfall_seconds=2",
        "--jobs",
        "1",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert sum(data["endings"].values()) == 30
    nightfall = data["endings"].get("nightfall", 0) / 30
    assert data["nightfall_share"] == pytest.approx(nightfall, abs=1e-6)
    assert 0 <= data["zero_zero_share"] <= data["tie_share"] <= 1  # 0-0 is a shared win
    assert data["warnings"]
    assert data["bots"]["random"]["fills_table"] is True


@given(st.integers(-50, 50), st.integers(0, 400), st.integers(1, 60))
def test_integer_bins_put_every_integer_in_exactly_one_bin(low: int, span: int, most: int) -> None:
    high = low + span
    edges = integer_bins(low, high, most)
    assert len(edges) - 1 <= most
    widths = {edges[i + 1] - edges[i] for i in range(len(edges) - 1)}
    assert len(widths) == 1 and widths.pop() == int(edges[1] - edges[0])
    for value in range(low, high + 1):
        inside = [i for i in range(len(edges) - 1) if edges[i] < value < edges[i + 1]]
        assert len(inside) == 1
    assert edges[0] < low and edges[-1] > high


def _check_rows(rows: Sequence[Mapping[str, Any]], records: Path, games: int) -> None:
    assert len(rows) == games
    for row in rows:
        header, events = read_record(records / f"game-{int(row['index']):06d}.jsonl")
        state = replay(header, events)
        assert int(row["seed"]) == header["sim_seed"]
        seats = list(header["players"])
        assert [row[f"bot_{s + 1}"] for s in range(len(seats))] == header["bots"]
        scores = state.scores()
        assert [int(row[f"score_{s + 1}"]) for s in range(len(seats))] == [scores[p] for p in seats]
        winners = ";".join(str(seats.index(p) + 1) for p in state.winners())
        assert str(row["winners"]) == winners
        assert row["ending"] == state.ending()
        meetings = state.summary()["meetings"]
        for outcome in ("mate", "eat", "avoid"):
            count = sum(1 for m in meetings if m["outcome"] == outcome)
            assert int(row[f"meetings_{outcome}"]) == count


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_the_table_has_one_row_per_game_matching_its_record(tmp_path: Path, suffix: str) -> None:
    table = tmp_path / f"games{suffix}"
    code, _, err = _run(
        "sim",
        "wild",
        "--players",
        "3",
        "--bots",
        "reader,hunter",
        "--games",
        "7",
        "--jobs",
        "1",
        "--out",
        str(tmp_path / "games"),
        "--table",
        str(table),
        "--json",
    )
    assert code == 0, err
    if suffix == ".csv":
        with table.open(newline="") as handle:
            rows: list[dict[str, Any]] = list(csv.DictReader(handle))
    else:
        import pandas as pd

        rows = pd.read_parquet(table).to_dict("records")
    _check_rows(rows, tmp_path / "games", 7)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--compare", "mating_bonus=true", "--compare", "mating_bonus=false"], "twice"),
        (["--sweep", "players=2,3", "--sweep", "players=4"], "twice"),
        (["--sweep", "players=2,9"], "not 9"),
        (["--sweep", "mating_bonus"], "KEY=V1,V2"),
        (["--table", "games.xlsx"], ".csv or .parquet"),
        (["--bots", "nowhere_at_all:Bot"], "cannot import 'nowhere_at_all'"),
        (["--seeds", "1,x"], "--seeds"),
    ],
)
def test_bad_lab_input_is_one_sentence(args: list[str], message: str) -> None:
    code, out, err = _run("sim", "wild", "--games", "2", "--jobs", "1", *args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err + out


class FirstLegal:
    """A designer's bot: always the first legal action it is offered (never waits)."""

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        return legal[0] if legal else None


def test_a_custom_bot_by_module_and_factory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_bots.py").write_text(
        "from tests.test_sim_lab import FirstLegal\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(Path(__file__).parent.parent)
    frame = lab.play("critters", ["my_bots:FirstLegal", "greedy"], players=2, games=4, seed=2)
    assert len(frame) == 4
    assert set(frame["bot_1"]) | set(frame["bot_2"]) == {"my_bots:FirstLegal", "greedy"}
    sys.modules.pop("my_bots", None)


def test_paired_frame_and_one_sample_plan() -> None:
    run = lab.experiment(
        "wild", ["reader", "hunter"], players=2, games=10, compare={"mating_bonus": True}
    )
    frame = lab.paired(run)
    assert set(frame["what"]) == {"win_rate", "score", "seat_win_rate", "metric"}
    assert (frame["low"] <= frame["difference"]).all()
    code, out, _ = _run("sim", "--plan", "--known", "--rate", "0.5", "--margin", "0.05")
    assert code == 0 and "783 games" in out


def test_pooled_seeds_are_the_runs_of_each_seed_end_to_end() -> None:
    pooled = lab.experiment("critters", ["greedy", "random"], players=2, games=5, seed=[4, 9])
    one = lab.experiment("critters", ["greedy", "random"], players=2, games=5, seed=4)
    two = lab.experiment("critters", ["greedy", "random"], players=2, games=5, seed=9)
    seeds = [r.seed for r in pooled.base.results]
    assert seeds == [r.seed for r in one.base.results + two.base.results]
    assert [s for s, _ in pooled.base.by_seed] == [4, 9]
    assert pooled.base.summary.games == 10
    by_seed = dict(pooled.base.by_seed)
    assert reproducible(by_seed[9].to_json()) == reproducible(two.base.summary.to_json())


def test_a_bot_added_with_bot_joins_the_line_up() -> None:
    code, out, err = _run(
        "sim",
        "critters",
        "--players",
        "2",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--games",
        "4",
        "--jobs",
        "1",
        "--json",
    )
    assert code == 0, err
    assert set(json.loads(out)["bots"]) == {"greedy", "random"}
