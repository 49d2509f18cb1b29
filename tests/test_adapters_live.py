"""A wrapped policy plays a whole game at a live server table (real WebSockets, 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bestiary.adapters.policies import policy_factory
from bestiary.core import agent as agent_module
from bestiary.core.agent import register_bot
from bestiary.core.game import replay
from bestiary.core.records import parse_lines
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    db = tmp_path / "live.sqlite"
    settings = TableSettings(tick_seconds=0.002, grace_seconds=0.05, answer_seconds=0.05)
    with LiveServer(f"sqlite:///{db}", settings) as live:
        yield live


def test_a_wrapped_policy_plays_a_whole_live_critters_game(server: LiveServer) -> None:
    chosen: list[int] = []

    def last_legal(observation: dict[str, np.ndarray]) -> int:
        choice = int(np.flatnonzero(observation["action_mask"])[-1])
        chosen.append(choice)
        return choice

    agent_module.bot_entries("critters")
    register_bot("critters", "test-live-policy", "a wrapped policy (test)", rank=-1)(
        policy_factory(last_legal, "critters")
    )
    try:
        with server.http() as http:
            body = {"game": "critters", "seats": 2, "name": "ann"}
            body["bots"] = [{"bot": "test-live-policy"}]
            created = http.post("/api/tables", json=body)
            assert created.status_code == 201, created.text
            code, token = created.json()["code"], created.json()["token"]
            started = http.post(f"/api/tables/{code}/start", json={"token": token})
            assert started.status_code == 200, started.text
            # ann never connects: past the grace period the default bot stands in for her.
            watcher = TableSocket(server, code, timeout=60.0)
            end = watcher.wait_state(lambda m: bool(m["over"]), "the end of the game")
            watcher.close()
            record = http.get(f"/api/tables/{code}/record")
        assert record.status_code == 200
        header, events = parse_lines(record.text.splitlines())
        seats = header["players"]
        policy_seat = seats[1]
        assert any(e.get("by") == policy_seat for _, e in events)
        assert chosen  # the policy chose the seat's moves
        assert replay(header, events).summary() == end["summary"]
    finally:
        agent_module._BOTS.pop(("critters", "test-live-policy"), None)


def test_the_server_lists_the_registered_policy_bot(server: LiveServer) -> None:
    register_bot("critters", "test-listed-policy", "a wrapped policy (test)", rank=-1)(
        policy_factory(lambda observation: 0, "critters")
    )
    try:
        with server.http() as http:
            games = http.get("/api/games").json()
        names = {b["name"] for g in games if g["name"] == "critters" for b in g["bots"]}
        assert "test-listed-policy" in names
    finally:
        agent_module._BOTS.pop(("critters", "test-listed-policy"), None)
