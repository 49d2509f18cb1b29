"""A third game, written only for these tests, plays everywhere with no change outside it.

``tests/toygame`` (Duel) is a distribution of its own, installed into the test environment
(``make``: ``pip install -e tests/toygame``) and found through its ``bestiary.games`` entry
point alone; the real server, ``bestiary sim`` (worker processes too), ``bestiary replay``, the
driver and the adapters' generic faces know it only through the registry and its ``GameInfo``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, SupportsFloat

import pytest
from bestiary_duel import Stand, Swap
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.core.agent import make_bot
from bestiary.core.driver import Match
from bestiary.core.game import game_names, get_game, replay
from bestiary.core.records import dumps, parse_lines
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket

runner = CliRunner()


def test_the_registry_finds_it_through_its_entry_point_only() -> None:
    points = {p.name: p.value for p in entry_points(group="bestiary.games")}
    assert points.get("duel") == "bestiary_duel:GAME", (
        "the test game is not installed: pip install -e tests/toygame (make does)"
    )
    assert "duel" in game_names()
    info = get_game("duel").info
    assert info.as_json()["options"][0]["name"] == "rounds"
    with pytest.raises(ValueError, match="rounds must be a whole number from 1 to 5"):
        get_game("duel").new_game(["a", "b"], {"rounds": 9})


def test_the_driver_plays_it_with_a_person_and_a_bot() -> None:
    game = get_game("duel")
    state = game.new_game(["ann", "bot"], seed=4)
    match = Match(game, state, {"bot": make_bot("duel", "duel-keeper", "bot", 1)})
    assert state.actors == ("ann",)
    assert match.advance(100) == []  # nobody moves for ann, and duel has no answer clock
    match.submit("ann", Stand("ann"))
    played = match.advance(match.tick + match.pace.turn_pause_ticks)
    assert [p.by for p in played] == ["bot"]  # the bot moves after the turn pause
    match.submit("ann", Swap("ann"))
    match.play()
    assert state.is_over and state.winners()
    again = replay(state.header(), [(n + 2, e) for n, e in enumerate(state.events())])
    assert again.summary() == state.summary()


@pytest.mark.parametrize("jobs", [1, 2])
def test_bestiary_sim_simulates_it_in_worker_processes_too(jobs: int) -> None:
    args = f"sim duel --players 3 --bots duel-keeper,random --games 30 --jobs {jobs} --json"
    result = runner.invoke(app, args.split())
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 30
    assert summary["endings"] == {"shown": 30}
    assert set(summary["bots"]) == {"duel-keeper", "random"}


def test_sim_without_bots_seats_the_games_declared_default_bot() -> None:
    result = runner.invoke(
        app, ["sim", "duel", "--players", "2", "--games", "4", "--jobs", "1", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    assert set(json.loads(result.stdout)["bots"]) == {"duel-keeper"}


def test_the_lab_counts_it_in_its_own_words() -> None:
    # Duel declares no analytics: its tallies keep their own names and no other game's words.
    result = runner.invoke(app, ["sim", "duel", "--players", "2", "--games", "20", "--jobs", "1"])
    assert result.exit_code == 0, result.stderr
    assert "tallies: swaps" in result.stdout and "meeting" not in result.stdout
    assert "stalled (capped): 0 of 20" in result.stdout  # duel declares no stalls of its own
    assert "Nightfall" not in result.stdout and "exhausted" not in result.stdout
    data = json.loads(
        runner.invoke(app, ["sim", "duel", "--games", "20", "--jobs", "1", "--json"]).stdout
    )
    assert "swaps" in data["tallies"] and "meetings" not in data


def test_its_bots_are_known_before_any_game_list_is_read() -> None:
    code = (
        "from bestiary.core.agent import bot_entries, make_bot;"
        "print(sorted(e.name for e in bot_entries('duel')));"
        "make_bot('duel', 'duel-keeper', 'a', 1)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['duel-keeper', 'random']"


def test_bestiary_replay_replays_it(tmp_path: Path) -> None:
    game = get_game("duel")
    state = game.new_game(["a", "b"], seed=11)
    game.random_playout(state, __import__("random").Random(2), 100)
    record = tmp_path / "duel.jsonl"
    record.write_text("\n".join(dumps(x) for x in [state.header(), *state.events()]) + "\n")
    result = runner.invoke(app, ["replay", str(record), "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == state.summary()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("duel") / "duel.sqlite"
    with LiveServer(f"sqlite:///{db}", TableSettings(tick_seconds=0.01, grace_seconds=5)) as live:
        yield live


def test_the_real_server_serves_it_to_the_end(server: LiveServer) -> None:
    with server.http() as http:
        games = {g["name"]: g for g in http.get("/api/games").json()}
        assert games["duel"]["title"] == "Duel" and games["duel"]["bots"][0]["name"]
        body = {"game": "duel", "seats": 2, "name": "ann", "bots": [{"bot": "duel-keeper"}]}
        created = http.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        code, token = created.json()["code"], created.json()["token"]
        assert http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 200
        ann = TableSocket(server, code, token)
        while True:
            state = ann.wait_state(lambda m: m["over"] or bool(m["legal"]), "ann's turn")
            if state["over"]:
                break
            ann.act({"do": "stand"}, ref=state["seq"])
            ann.wait_past(state["seq"])
        assert state["winners"]
        ann.close()
        record = http.get(f"/api/tables/{code}/record")
        assert record.status_code == 200, record.text
    header, events = parse_lines(record.text.splitlines())
    assert header["game"] == "duel"
    rebuilt = replay(header, events)
    assert rebuilt.is_over and rebuilt.winners() == state["winners"]


def test_pettingzoo_wraps_it_through_the_generic_path() -> None:
    from pettingzoo.test import api_test

    from bestiary.adapters.generic_aec import env, view_from

    api_test(env("duel", players=3, max_actions=4), num_cycles=200)
    e = env("duel", players=2, max_actions=4)
    e.reset(seed=3)
    steps = 0
    for agent in e.agent_iter():
        obs, _reward, done, cut, info = e.last()
        if done or cut:
            e.step(None)
            continue
        assert view_from(obs["observation"])["you"] == agent  # the agent's own view only
        e.step(int(obs["action_mask"].nonzero()[0][-1]))
        steps += 1
    assert steps == 4 and list(info["winners"]) in ([1, 0], [0, 1], [1, 1])


def test_gymnasium_wraps_it_through_the_generic_face() -> None:
    from gymnasium.utils.env_checker import check_env

    from bestiary.adapters.encoding import view_of
    from bestiary.adapters.generic_gym import GameEnv, vector_env

    env = GameEnv("duel", players=3)  # opponents: duel's declared default bot
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=5)
    assert view_of(obs["observation"])["you"] == "player_0"  # the learner's own view only
    assert "cards" not in view_of(obs["observation"])  # nobody else's card before the end
    done, moves = False, 0
    reward: SupportsFloat = 0.0
    while not done:
        obs, reward, done, _cut, info = env.step(int(obs["action_mask"].nonzero()[0][-1]))
        moves += 1
    assert moves == 2 and reward in (1.0, -1.0) and info["illegal_action"] == ""
    env.reset(seed=5)
    _obs, reward, done, _cut, info = env.step(40)  # not a legal id
    assert done and reward == -1.0 and "not legal" in info["illegal_action"]
    vec = vector_env("duel", 3, players=2, opponents="random")
    batch, _ = vec.reset(seed=1)
    assert batch["observation"].shape == (3, env.encoding.obs_size)


def _duel_vector_run(venv: Any, steps: int, seed: int) -> list[list[Any]]:
    """Per step, every array a learner receives over ``steps`` random-legal steps (now and
    then a masked-out id), from ``reset(seed=seed)``: observations, masks, rewards,
    terminations, truncations, then the infos' winners and flags."""
    import numpy as np

    rng = np.random.default_rng(seed)
    obs, _infos = venv.reset(seed=seed)
    seen: list[list[Any]] = [[obs["observation"], obs["action_mask"]]]
    for _ in range(steps):
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)
        if rng.random() < 0.1:
            actions[0] = 40  # never a legal id of duel's (two legal actions at most)
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        arrays = [obs["observation"], obs["action_mask"], rewards, terminated, truncated]
        seen.append([*arrays, infos.get("winners"), infos.get("illegal_action")])
    return seen


def test_its_vector_env_comes_from_what_it_declares() -> None:
    import numpy as np
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    from bestiary.adapters.generic_gym import GameEnv, vector_env
    from bestiary.adapters.generic_vector import TurnGames, make_vector

    assert get_game("duel").info.faces.vector is None  # nothing declared: the generic one
    venv = make_vector("duel", 4, players=3, opponents="random")
    assert isinstance(venv, TurnGames) and isinstance(venv, VectorEnv)
    single = GameEnv("duel", players=3, opponents="random")
    assert venv.single_observation_space == single.observation_space
    assert venv.single_action_space == single.action_space
    assert venv.observation_space == batch_space(single.observation_space, 4)
    assert venv.action_space == batch_space(single.action_space, 4)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = venv.reset(seed=3)
    assert venv.observation_space.contains(obs)
    assert obs["observation"].shape == (4, single.encoding.obs_size)
    assert obs["action_mask"].shape == (4, single.encoding.size)
    assert set(infos) == {"winners", "_winners", "illegal_action", "_illegal_action"}
    # Step for step what Gymnasium's own SyncVectorEnv over the single env returns (its
    # NEXT_STEP autoreset included), through episode ends and masked-out ids.
    sync = vector_env("duel", 4, players=3, opponents="random")
    ours, theirs = _duel_vector_run(venv, 60, 3), _duel_vector_run(sync, 60, 3)
    ends = 0
    for step, sync_step in zip(ours, theirs, strict=True):
        for a, b in zip(step[:5], sync_step[:5], strict=False):  # the infos' shapes differ
            np.testing.assert_array_equal(a, b)
        ends += int(step[3].sum()) if len(step) > 2 else 0
    assert ends >= 10  # through episode ends and autoresets
    # A seeded run twice gives the same arrays.
    again = _duel_vector_run(make_vector("duel", 4, players=3, opponents="random"), 60, 3)
    for step, step_again in zip(ours, again, strict=True):
        for a, b in zip(step, step_again, strict=True):
            np.testing.assert_array_equal(a, b)


def test_its_vector_env_resets_each_game_the_step_after_it_ends() -> None:
    import numpy as np
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from bestiary.adapters.generic_vector import make_vector

    venv = make_vector("duel", 2, players=2, opponents="duel-keeper")
    obs, _ = venv.reset(seed=1)
    # Duel for two: the learner moves twice; game 0 stands, game 1 plays an illegal id.
    obs, rewards, terminated, _, infos = venv.step(np.array([0, 40]))
    assert list(terminated) == [False, True] and rewards[1] == -1.0
    assert list(infos["illegal_action"]) == [False, True]
    assert obs["action_mask"][1].all()  # the last observation: every id accepted
    obs, rewards, terminated, _, infos = venv.step(np.array([0, 0]))
    assert terminated[0] and rewards[0] in (1.0, -1.0) and obs["action_mask"][0].all()
    assert infos["winners"][0].any()  # someone won duel's game 0
    assert not terminated[1] and rewards[1] == 0.0  # game 1 reset: its action ignored
    assert list(obs["action_mask"][1][:3]) == [1, 1, 0]  # stand, swap: a new game's first turn
    obs, rewards, terminated, _, infos = venv.step(np.array([0, 0]))
    assert not terminated[0] and rewards[0] == 0.0 and not infos["winners"].any()
    wrapped = RecordEpisodeStatistics(make_vector("duel", 3, players=2))
    wrapped.reset(seed=0)
    episodes = 0
    for _ in range(12):
        *_, infos = wrapped.step(np.zeros(3, dtype=np.int64))  # stand, always legal
        episodes += int(infos.get("_episode", np.zeros(3, bool)).sum())
    assert episodes >= 3 * 4


def test_a_real_time_game_without_a_vector_env_is_refused_in_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dataclasses import replace

    from bestiary.adapters.generic_vector import make_vector
    from bestiary.core import game as registry
    from bestiary.core.errors import BadOption

    duel = get_game("duel")  # the registry loaded: a game added to it now stays
    clocked = type(duel)()
    clocked.info = replace(duel.info, name="clocked", real_time=True)
    monkeypatch.setitem(registry._GAMES, "clocked", clocked)
    with pytest.raises(BadOption, match="real-time and declares none"):
        make_vector("clocked", 2)
    with pytest.raises(BadOption, match="no vector env for 'chess'"):
        make_vector("chess", 2)


def test_a_policy_plays_it_through_the_generic_encoding() -> None:
    from bestiary.adapters.policies import policy_factory
    from bestiary.core import agent
    from bestiary.core.agent import register_bot

    def swap_always(obs: dict[str, Any]) -> int:
        return int(obs["action_mask"].nonzero()[0][-1])  # swap while the deck lasts

    register_bot("duel", "policy-swapper", "a policy through the generic encoding")(
        policy_factory(swap_always, "duel")
    )
    try:
        args = "sim duel --players 2 --bots policy-swapper,duel-keeper --games 6 --jobs 1 --json"
        result = runner.invoke(app, args.split())
    finally:
        agent._BOTS.pop(("duel", "policy-swapper"))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 6


@pytest.mark.parametrize("serialize", [False, True])
def test_openspiel_wraps_it_through_the_generic_face(serialize: bool) -> None:
    import pyspiel

    from bestiary.adapters import generic_spiel

    game = pyspiel.load_game(
        generic_spiel.SHORT_NAME, {"game": "duel", "players": 3, "options": '{"rounds": 3}'}
    )
    pyspiel.random_sim_test(game, num_sims=3, serialize=serialize, verbose=False)
    state = game.new_initial_state()
    state.apply_action(7)  # the deal of seed 7
    engine = get_game("duel").new_game(["player_0", "player_1", "player_2"], {"rounds": 3}, 7)
    seen = json.dumps(engine.view("player_0"), sort_keys=True)
    assert state.observation_string(0) == f"p0 {seen}"
    assert state.legal_actions() == [0, 1]  # stand, swap


def test_bestiary_demo_tells_it_with_the_generic_board() -> None:
    result = runner.invoke(app, ["demo", "duel", "--players", "3", "--seed", "2", "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "`bestiary sim duel --players 3 --bots duel-keeper --games 1 --seed 2`" in " ".join(
        result.output.split()
    )
    moves = [line for line in result.output.splitlines() if line.startswith(("p1: ", "p2: "))]
    assert len(moves) == 4  # two rounds of p1 and p2 (p3's lines too, below)
    line_up = ["--players", "3", "--bots", "duel-keeper", "--games", "1", "--seed", "2"]
    sim = runner.invoke(app, ["sim", "duel", *line_up, "--jobs", "1", "--json"])
    seats = json.loads(sim.stdout)["seats"]
    winners = {f"p{label.split()[-1]}" for label, row in seats.items() if row["wins"]}
    said = result.output.strip().splitlines()[-1]  # "p3 wins." / "p1 and p2 share the win."
    assert said.endswith(("wins.", "share the win."))
    assert set(re.findall(r"p\d", said)) == winners  # the same game as bestiary sim's
