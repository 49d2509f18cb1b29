"""A long finished game never holds the server up (docs/reliability.md, "The loop"): its replay
is worked out beside the loop and refused past its byte bound, its record and its table are
served, and the lobby answers meanwhile. Against ``bestiary serve`` in its own process."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bestiary.core.game import get_game
from bestiary.core.records import parse_lines
from bestiary.server.lobby import MAX_REPLAY_BYTES
from bestiary.server.store import Store
from tests.serverproc import ServerProcess

# 8 players on 150 kinds of 2 cards: a random game runs to about 6,000 events, whose public
# views step by step come to about 90 MB.
DECK = {"kinds": {f"k{i:03d}": 2 for i in range(150)}, "wild": 3, "actions": {"hop_over": 20}}
PLAYERS = [f"p{i}" for i in range(8)]
CODE = "LONG22"


def long_game(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game = get_game("critters")
    state = game.new_game(PLAYERS, {"deck": DECK, "stall_reshuffles": 1000}, seed)
    game.random_playout(state, random.Random(seed), 1_000_000)
    assert state.summary()["over"]
    return state.header(), list(state.events())


def store_finished(db: str, header: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The game as the server stores a finished table (its seats bots, nobody's token)."""
    store = Store(db)
    store.save_table(
        {
            "code": CODE,
            "game": "critters",
            "options": {"rules": {}, "table": {}},
            "seats": [{"name": p, "bot": "random", "token_hash": None} for p in PLAYERS],
            "status": "finished",
            "header": header,
            "winners": [],
            "created": 1e9,
            "started": 1e9,
            "finished": 1e9 + 1,
        }
    )
    for seq, event in enumerate(events, start=1):
        store.append_event(CODE, seq, event)
    store.flush()
    store.close()


def test_a_long_game_is_served_within_bounds_and_the_lobby_answers_meanwhile(
    tmp_path: Path,
) -> None:
    header, events = long_game(seed=0)
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    store_finished(db, header, events)
    with ServerProcess(db, tmp_path / "log") as server, server.http() as http:
        slowest = [0.0]
        done = threading.Event()

        def lobby() -> None:
            with httpx.Client(base_url=server.url, timeout=60) as asking:
                while not done.is_set():
                    start = time.monotonic()
                    assert asking.get("/api/games").status_code == 200
                    slowest[0] = max(slowest[0], time.monotonic() - start)
                    time.sleep(0.02)

        polling = threading.Thread(target=lobby)
        polling.start()
        try:
            for _ in range(2):  # a refusal is not cached as an answer: each is bounded anew
                replayed = http.get(f"/api/tables/{CODE}/replay", timeout=60)
                assert replayed.status_code == 413
                assert replayed.json()["detail"] == (
                    f"the replay of {CODE} would pass {MAX_REPLAY_BYTES // 2**20} MiB; its record"
                    f" is at /api/tables/{CODE}/record (bestiary replay shows it)."
                )
            record = http.get(f"/api/tables/{CODE}/record", timeout=60)
            assert record.status_code == 200
            assert parse_lines(record.text.splitlines()) == (
                header,
                [(n, e) for n, e in enumerate(events, start=2)],
            )
            table = http.get(f"/api/tables/{CODE}", timeout=60)
            assert table.status_code == 200 and table.json()["status"] == "finished"
        finally:
            done.set()
            polling.join()
    print(f"slowest lobby answer meanwhile {slowest[0]:.3f} s")
    assert slowest[0] < 1.0
