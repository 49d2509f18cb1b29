"""The lab page's API (``bestiary lab``): a run is a ``bestiary sim`` command, and every figure,
sentence and download carries the command that makes it again, number for number."""

from __future__ import annotations

import io
import json
import shlex
import time
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.sim.lab_page import lab_app
from bestiary.sim.lab_runs import LabRequest

runner = CliRunner()
SWEEP = {
    "game": "critters",
    "players": 2,
    "bots": "greedy(leader=2),random",
    "games": 12,
    "seed": 4,
    "sweep": ["hand_limit=4,6"],
}


@pytest.fixture()
def http() -> Iterator[TestClient]:
    with TestClient(lab_app(), base_url="http://127.0.0.1") as client:
        yield client


def _finish(http: TestClient, run: int) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status: dict[str, Any] = http.get(f"/api/runs/{run}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError("the run did not finish in 120 s")


def _sim_json(command: str) -> dict[str, Any]:
    words = shlex.split(command)
    assert words[:2] == ["bestiary", "sim"]
    result = runner.invoke(app, [*words[1:], "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _without_timing(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_timing(v) for k, v in data.items() if k != "timing"}
    if isinstance(data, list):
        return [_without_timing(v) for v in data]
    return data


def test_a_run_reports_figures_sentences_and_downloads_each_with_its_command(
    http: TestClient,
) -> None:
    started = http.post("/api/runs", json=SWEEP)
    assert started.status_code == 202, started.text
    first = started.json()
    assert first["total"] == 3 * 12  # the baseline (hand limit 5) and two sweep values
    status = _finish(http, first["run"])
    assert status["state"] == "done" and status["done"] == status["total"]
    report = http.get(f"/api/runs/{first['run']}/report").json()
    command = report["command"]
    assert command == (
        "bestiary sim critters --players 2 --bots 'greedy(leader=2),random' --games 12 "
        "--seed 4 --jobs 1 --sweep hand_limit=4,6"
    )
    # The command plays the same games: the page's numbers are the command line's.
    from_page = LabRequest.from_json(SWEEP)
    assert from_page.command() == command
    cli = _sim_json(command)
    headings = [f["heading"] for f in report["figures"]]
    assert "Sweep hand_limit" in headings and "Win rate per bot" in headings
    for figure in report["figures"]:
        if "png" in figure:
            assert figure["command"] == command + " --figures figures"
            assert figure["file"].startswith("figures/") and figure["file"].endswith(".png")
    greedy = cli["base"]["bots"]["greedy(leader=2)"]["win_rate"]
    assert f"{greedy:.3f}" in report["text"]
    assert "sweep hand_limit" in report["text"]
    # Downloads: every game of every arm, the same rows as --table writes.
    downloads = {d["format"]: d for d in report["downloads"]}
    assert downloads["csv"]["command"] == command + " --table games.csv"
    csv = pd.read_csv(io.StringIO(http.get(downloads["csv"]["href"]).text))
    parquet = pd.read_parquet(io.BytesIO(http.get(downloads["parquet"]["href"]).content))
    assert len(csv) == len(parquet) == 36
    assert sorted(csv["arm"].unique()) == ["base", "hand_limit=4", "hand_limit=6"]
    base = csv[csv["arm"] == "base"]
    wins = sum(1.0 / len(str(w).split(";")) for w in base["winner_bots"] if "greedy" in str(w))
    assert wins / len(base) == pytest.approx(greedy)


def test_the_bar_counts_the_games_the_run_plays(http: TestClient) -> None:
    """hand_limit is declared "none": 5 is the baseline's own value, played once."""
    choices = {**SWEEP, "sweep": ["hand_limit=4,5,6"], "games": 5}
    started = http.post("/api/runs", json=choices).json()
    status = _finish(http, started["run"])
    assert status["state"] == "done" and status["total"] == status["done"] == 3 * 5
    report = http.get(f"/api/runs/{started['run']}/report").json()
    rows = pd.read_csv(io.StringIO(http.get(report["downloads"][0]["href"]).text))
    assert len(rows) == status["total"]


def test_the_same_choices_give_the_same_numbers_as_the_command_line(http: TestClient) -> None:
    choices = {"game": "wild", "players": 3, "bots": "reader(decay=0.5),hunter", "games": 6}
    choices["compare"] = ["mating_bonus=true"]
    run = http.post("/api/runs", json=choices).json()["run"]
    assert _finish(http, run)["state"] == "done"
    report = http.get(f"/api/runs/{run}/report").json()
    cli = _sim_json(report["command"])
    assert "compare (mating_bonus=true)" in report["text"]
    assert "Paired differences" in [f["heading"] for f in report["figures"]]
    reader = cli["base"]["bots"]["reader(decay=0.5)"]["win_rate"]
    assert f"{reader:.3f}" in report["text"]
    again = _sim_json(report["command"])
    assert _without_timing(again) == _without_timing(cli)


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        ({"bots": "readr"}, "no bot called 'readr' for critters"),
        ({"bots": "greedy(leader=99)"}, "leader=99 is outside 0 to 10"),
        ({"players": 9}, "critters takes 2 to 8 players, not 9"),
        ({"players": "two"}, "players should be a whole number, not 'two'"),
        ({"games": 0}, "--games must be at least 1"),
        ({"sweep": ["hand_limit"]}, "should look like KEY=V1,V2"),
        ({"grid": ["set_size=3,4"]}, "--grid needs exactly two keys"),
        ({"options": ["set_size=7"]}, "set_size"),
        ({"game": "chess"}, "choose a game"),
        ({"backend": "cloud"}, "backend must be local or ray"),
        ({"jobs": 0}, "jobs must be at least 1"),
    ],
)
def test_bad_choices_are_one_sentence_and_play_nothing(
    http: TestClient, change: dict[str, Any], sentence: str
) -> None:
    answer = http.post("/api/runs", json={**SWEEP, **change})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert sentence in error and "\n" not in error and "Traceback" not in error


def test_the_page_answers_only_to_this_computers_names() -> None:
    with TestClient(lab_app(), base_url="http://lab.example") as stranger:
        assert stranger.get("/api/choices").status_code == 400
    with TestClient(lab_app(), base_url="http://localhost:8765") as local:
        page = local.get("/")
        assert page.status_code == 200 and "bestiary lab" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]


def test_only_the_page_itself_starts_runs(http: TestClient) -> None:
    """A page elsewhere cannot make this computer play: no JSON, or another origin, is refused."""
    plain = http.post(
        "/api/runs", content=json.dumps(SWEEP), headers={"content-type": "text/plain"}
    )
    assert plain.status_code == 415
    elsewhere = http.post("/api/runs", json=SWEEP, headers={"origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and "own page" in elsewhere.json()["error"]
    own = http.post("/api/runs", json=SWEEP, headers={"origin": "http://127.0.0.1"})
    assert own.status_code == 202
    _finish(http, own.json()["run"])


def test_the_choices_list_every_game_its_options_and_bot_parameters(http: TestClient) -> None:
    games = {g["name"]: g for g in http.get("/api/choices").json()["games"]}
    assert {"wild", "critters"} <= set(games)
    critters = games["critters"]
    assert "hand_limit" in {o["name"] for o in critters["options"]}
    greedy = next(b for b in critters["bots"] if b["name"] == "greedy")
    assert {p["name"] for p in greedy["params"]} == {"spare_no", "leader", "wild_cost", "last_pile"}


def test_bestiary_lab_refuses_a_port_out_of_range() -> None:
    result = runner.invoke(app, ["lab", "--port", "70000"])
    assert result.exit_code == 2 and "--port must be 1 to 65535" in result.output
