"""``bestiary export trajectories``: records (lab runs, record files, the server's store) as
(observation, action, reward, done, mask) steps, each seat's from its own view; the loader;
and the round trip records -> trajectories -> replayed actions -> the same record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("gymnasium")

from bestiary.adapters import trajectories as tj
from bestiary.cli import app
from bestiary.core.errors import BadOption
from bestiary.core.game import replay
from bestiary.core.records import parse_lines, write_record
from bestiary.sim.runner import GameSpec, play_game


def _records(game: str, bots: tuple[str, ...], seeds: range) -> list[tj.Record]:
    out = []
    for seed in seeds:
        result = play_game(GameSpec(seed, game, bots, seed=seed, keep_record=True))
        assert result.record is not None
        header, events = parse_lines(result.record)
        out.append((dict(header), [dict(e) for _, e in events]))
    return out


def _same_record(data: tj.Trajectories, records: list[tj.Record]) -> None:
    for g, (header, events) in enumerate(records):
        original = replay(header, list(enumerate(events, 2)))
        rebuilt = tj.replay_record(data, g)
        assert rebuilt.events() == original.events()
        assert rebuilt.winners() == original.winners()


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_records_round_trip_through_trajectories_files(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    # Six critters players reshuffle the centre pile (table events kept beside the steps).
    critters = _records("critters", ("greedy", "random") * 3, range(4))
    assert any(e.get("do") == "reshuffle" for _, events in critters for e in events)
    wild = _records("wild", ("reader", "random", "honest", "random"), range(3))
    for records in (critters, wild):
        data = tj.trajectories(records)
        path = tmp_path / f"steps{suffix}"
        tj.save(data, path)
        loaded = tj.load(path)
        for name in ("observation", "action", "reward", "done", "mask", "game", "seat", "event"):
            np.testing.assert_array_equal(getattr(loaded, name), getattr(data, name))
        assert loaded.headers == data.headers and loaded.table_events == data.table_events
        _same_record(loaded, records)
        # Every step's action was legal by its mask; every finished game ends each seat once.
        assert loaded.mask[np.arange(len(loaded)), loaded.action].all()
        for g in range(len(records)):
            for seat in set(loaded.seat[loaded.game == g].tolist()):
                rows = loaded.seat_steps(g, seat)
                assert loaded.done[rows].tolist() == [False] * (len(rows) - 1) + [True]


def test_wild_rewards_add_up_to_each_seats_final_score() -> None:
    records = _records("wild", ("reader", "hunter", "honest"), range(4))
    data = tj.trajectories(records)
    for g, (header, events) in enumerate(records):
        scores = replay(header, list(enumerate(events, 2))).scores()
        for seat, player in enumerate(header["players"]):
            rows = data.seat_steps(g, seat)
            assert float(data.reward[rows].sum()) == pytest.approx(scores[player])


def test_a_seats_steps_are_what_the_gym_env_showed_that_seat() -> None:
    """The exported observation of a seat is the one the learner's env gave it (its own view)."""
    from bestiary.adapters.gym_envs import CrittersEnv

    env = CrittersEnv(players=3, opponents="greedy", seat=1)
    observation, _ = env.reset(seed=7)
    rng = np.random.default_rng(7)
    seen, chosen = [], []
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        seen.append(observation)
        chosen.append(action)
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    state = env.game_state
    data = tj.trajectories([(state.header(), [dict(e) for e in state.events()])])
    rows = data.seat_steps(0, 1)
    assert data.action[rows].tolist() == chosen
    for row, shown in zip(rows, seen, strict=True):
        np.testing.assert_array_equal(data.observation[row], shown["observation"])
        np.testing.assert_array_equal(data.mask[row], shown["action_mask"])


def _store_game(url: str, code: str, record: tj.Record, finished: float) -> None:
    from bestiary.server.store import Store

    header, events = record
    store = Store(url)
    store.save_table(
        {
            "code": code,
            "game": header["game"],
            "options": {},
            "seats": [],
            "status": "finished",
            "header": header,
            "winners": [],
            "created": finished - 60,
            "started": finished - 50,
            "finished": finished,
        }
    )
    for seq, event in enumerate(events, 1):
        store.append_event(code, seq, event)
    store.close()


def test_the_command_exports_a_lab_folder_and_a_servers_stored_games(tmp_path: Path) -> None:
    records = _records("critters", ("greedy", "random"), range(3))
    folder = tmp_path / "run"
    folder.mkdir()
    for i, (header, events) in enumerate(records):
        write_record(folder / f"game-{i:06d}.jsonl", header, events)
    url = f"sqlite:///{tmp_path / 'bestiary.db'}"
    _store_game(url, "ABCDE", records[1], 2000.0)
    _store_game(url, "QRSTU", records[0], 1000.0)  # finished first: exported first
    runner = CliRunner()
    out = tmp_path / "lab.npz"
    result = runner.invoke(app, ["export", "trajectories", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    lab = tj.load(out)
    assert len(lab.headers) == 3
    _same_record(lab, records)
    served = tmp_path / "served.npz"
    result = runner.invoke(app, ["export", "trajectories", "--db", url, "--out", str(served)])
    assert result.exit_code == 0, result.output
    stored = tj.load(served)
    _same_record(stored, [records[0], records[1]])
    first_two = tj.trajectories(records[:2])
    np.testing.assert_array_equal(stored.observation, first_two.observation)


def test_bad_input_is_refused_in_one_sentence(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["export", "trajectories", str(tmp_path)])
    assert result.exit_code == 2 and "no records (.jsonl)" in result.stderr
    result = runner.invoke(app, ["export", "trajectories", "x.jsonl", "--out", "t.csv"])
    assert result.exit_code == 2 and "a .npz or .parquet file" in result.stderr
    mixed: list[Any] = _records("critters", ("random", "random"), range(1))
    mixed += _records("critters", ("random", "random", "random"), range(1))
    with pytest.raises(BadOption, match="one game at one table size"):
        tj.trajectories(mixed)
