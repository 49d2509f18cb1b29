"""``bestiary sim`` and ``bestiary tournament`` end to end through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.core.game import replay
from bestiary.core.records import read_record
from bestiary.sim.summary import reproducible

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_sim_wild_json_summary() -> None:
    code, out, _ = _run(
        "sim",
        "wild",
        "--players",
        "4",
        "--bots",
        "reader,honest,hunter,trickster",
        "--games",
        "8",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 8
    assert set(data["bots"]) == {"reader", "honest", "hunter", "trickster"}
    assert sum(row["wins"] for row in data["bots"].values()) == pytest.approx(8)
    assert set(data["seats"]) == {"seat 1", "seat 2", "seat 3", "seat 4"}
    assert set(data["meeting_mix"]) == {"mate", "eat", "avoid"}
    low, high = data["bots"]["reader"]["ci95"]
    assert low <= data["bots"]["reader"]["win_rate"] <= high


def test_sim_same_summary_whatever_the_jobs() -> None:
    args = [
        "sim",
        "critters",
        "--players",
        "2",
        "--bots",
        "greedy,random",
        "--games",
        "10",
        "--json",
        "--option",
        "set_size=4",
    ]
    one = _run(*args, "--jobs", "1")
    two = _run(*args, "--jobs", "2")
    assert one[0] == two[0] == 0
    assert reproducible(json.loads(one[1])) == reproducible(json.loads(two[1]))


def test_sim_table_report_compare_and_records(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    code, out, _ = _run(
        "sim",
        "wild",
        "--players",
        "2",
        "--bots",
        "reader,random",
        "--games",
        "4",
        "--jobs",
        "1",
        "--report",
        str(report),
        "--compare",
        "mating_bonus=true",
        "--out",
        str(tmp_path / "games"),
    )
    assert code == 0, out
    assert "win rate per bot" in out and "win rate per seat" in out and "meetings:" in out
    assert "compare (mating_bonus=true)" in out
    assert report.read_text().count("data:image/png;base64,") == 8
    records = sorted((tmp_path / "games" / "compare").glob("*.jsonl"))
    assert len(records) == 4
    header, events = read_record(records[0])
    assert header["options"]["mating_bonus"] is True
    assert replay(header, events).is_over


def test_plan_prints_games_needed() -> None:
    code, out, _ = _run("sim", "--plan", "--rate", "0.25", "--margin", "0.05")
    assert code == 0
    assert "1,251 games per bot" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sim", "wild", "--bots", "nobody"], "no bot called 'nobody' for wild"),
        (["sim", "chess"], "unknown game 'chess'"),
        (["sim"], "name a game"),
        (["sim", "wild", "--players", "9"], "wild takes 2 to 6 players, not 9"),
        (["sim", "critters", "--option", "set_size=7"], "set_size"),
        (["sim", "wild", "--bots", "a,b,c", "--players", "2"], "no bot called"),
        (["sim", "wild", "--games", "0"], "--games must be at least 1"),
        (["sim", "wild", "--backend", "spark", "--games", "1"], "unknown backend"),
        (["sim", "--plan", "--margin", "0"], "margin"),
        (["tournament", "critters", "--pool", "random"], "cannot fill a table of 2"),
        (["tournament", "critters", "--pool", "random,greedy", "--pairing", "swiss"], "pairing"),
    ],
)
def test_user_errors_are_one_sentence(args: list[str], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out
    assert len(err.strip().splitlines()) == 1


def test_tournament_leaderboard_json() -> None:
    code, out, _ = _run(
        "tournament",
        "critters",
        "--pool",
        "random,greedy",
        "--players",
        "2",
        "--games",
        "6",
        "--jobs",
        "1",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 6
    board = data["leaderboard"]
    assert {row["bot"] for row in board} == {"random", "greedy"}
    assert all(row["sigma"] > 0 and row["ordinal"] < row["mu"] for row in board)
    assert data["head_to_head"]["greedy vs random"]["games"] == 6


def test_tournament_table_and_random_pairings() -> None:
    code, out, _ = _run(
        "tournament",
        "wild",
        "--pool",
        "reader,honest,hunter",
        "--players",
        "2",
        "--pairing",
        "random",
        "--games",
        "6",
        "--jobs",
        "1",
    )
    assert code == 0
    assert "leaderboard" in out and "head to head" in out
