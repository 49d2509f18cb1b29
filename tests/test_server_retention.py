"""The store keeps the newest ``--keep-finished`` finished games, none older than
``--keep-days`` (docs/reliability.md, "Disk"): the sweep deletes exactly the finished games past
that, events and all, and never an open table, a game in play or a game just finished."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import httpx
from sqlalchemy import func, select

from bestiary.server.retention import Retention, sweep
from bestiary.server.store import Store, events_table, tables_table
from tests.serverproc import ServerProcess
from tests.test_server_replays import STUCK, bots_table

NOW = 200_000.0  # wall-clock seconds, as tables.finished


def _row(code: str, status: str, created: float, finished: float | None) -> dict[str, object]:
    return {
        "code": code,
        "game": "critters",
        "options": {},
        "seats": [{"name": "ann"}, {"name": "bob", "bot": "random"}],
        "status": status,
        "header": None if status in ("open", "expired") else {"game": "critters"},
        "winners": ["ann"] if finished is not None else None,
        "created": created,
        "started": None if status in ("open", "expired") else created + 1,
        "finished": finished,
    }


def _stored(store: Store) -> dict[str, tuple[str, int]]:
    """Each stored table's status and how many events it holds."""
    t, e = tables_table.c, events_table.c
    with store.engine.connect() as conn:
        counts: dict[str, int] = dict(
            conn.execute(select(e.code, func.count()).group_by(e.code)).all()
        )
        rows = conn.execute(select(t.code, t.status)).all()
    assert set(counts) <= {code for code, _ in rows}, "no event outlives its table"
    return {code: (status, counts.get(code, 0)) for code, status in rows}


def sweep_keeps_the_newest_and_the_live(db: str) -> None:
    store = Store(db)
    try:
        games = {f"F{i}": 1000.0 + i for i in range(6)}  # finished long ago, oldest first
        games |= {"R1": NOW - 10, "R2": NOW - 20}  # just finished
        for code, finished in games.items():
            store.save_table(_row(code, "finished", finished - 50, finished))
        store.save_table(_row("PLAY", "playing", 10.0, None))
        store.save_table(_row("OPEN", "open", 10.0, None))
        store.save_table(_row("OLDX", "expired", 10.0, None))
        store.save_table(_row("NEWX", "expired", NOW - 100, None))
        # more events than one deleting step takes, for a game that goes and one in play
        for code, count in {"F0": 1201, "F4": 3, "F5": 7, "R2": 5, "PLAY": 1201}.items():
            for seq in range(1, count + 1):
                store.append_event(code, seq, {"type": "draw", "seq": seq})
        store.flush()
        before = _stored(store)

        kept = Retention(keep_finished=3, keep_days=365, protect_seconds=60)
        assert sweep(store.engine, kept, now=NOW) == ["F0", "F1", "F2", "F3", "F4", "OLDX"]
        gone = {"F0", "F1", "F2", "F3", "F4", "OLDX"}
        assert _stored(store) == {k: v for k, v in before.items() if k not in gone}
        assert store.finished_table("F0") is None
        assert [game.code for game in store.finished(limit=10)] == ["R1", "R2", "F5"]

        # by age (F5 is older than a day) and by count (only R1 is the newest one), but R2
        # finished 20 s ago, within the protected minute: it stays
        short = Retention(keep_finished=1, keep_days=1, protect_seconds=60)
        assert sweep(store.engine, short, now=NOW) == ["F5"]
        assert sorted(_stored(store)) == ["NEWX", "OPEN", "PLAY", "R1", "R2"]
        assert _stored(store)["PLAY"] == ("playing", 1201)
        assert _stored(store)["R2"] == ("finished", 5)
        assert sweep(store.engine, short, now=NOW) == []  # a second sweep finds nothing
        assert sweep(store.engine, short, now=NOW + 60) == ["R2"]  # once it is a minute old
    finally:
        store.close()


def test_a_sweep_deletes_exactly_the_finished_games_past_the_retention(tmp_path: Path) -> None:
    sweep_keeps_the_newest_and_the_live(f"sqlite:///{tmp_path / 'db.sqlite'}")


def test_a_sweep_cut_short_is_finished_by_the_next(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite'}")
    try:
        store.save_table(_row("HALF", "deleting", 1.0, 2.0))  # marked, some events deleted
        store.save_table(_row("KEPT", "finished", 1.0, 2.0))
        for seq in range(600, 700):
            store.append_event("HALF", seq, {"type": "draw"})
        store.flush()
        kept = Retention(keep_finished=10, keep_days=365, protect_seconds=60)
        assert sweep(store.engine, kept, now=NOW) == ["HALF"]
        assert _stored(store) == {"KEPT": ("finished", 0)}
    finally:
        store.close()


def test_a_sweep_waits_for_the_write_lock_rather_than_give_up(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    store = Store(f"sqlite:///{path}")
    try:
        store.save_table(_row("OLD1", "finished", 1.0, 2.0))
        store.save_table(_row("NEW1", "finished", 1.0, 3.0))
        store.flush()
        holder = sqlite3.connect(path, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock for 0.5 s
        releaser = threading.Timer(0.5, holder.commit)
        releaser.start()
        kept = Retention(keep_finished=1, keep_days=365, protect_seconds=60)
        assert sweep(store.engine, kept, now=NOW) == ["OLD1"]
        releaser.join()
        holder.close()
        assert sorted(_stored(store)) == ["NEW1"]
    finally:
        store.close()


QUICK = {
    "game": "critters",
    "seats": 2,
    "name": "ann",
    "bots": [{"bot": "greedy"}],
    "start": True,
    "tick_seconds": 0.001,
    "bot_pause": 0,
    "grace_seconds": 0,
}


def _finished_game(http: httpx.Client) -> str:
    made = http.post("/api/tables", json=QUICK)
    assert made.status_code == 201, made.text
    code = str(made.json()["code"])
    deadline = time.monotonic() + 120
    while http.get(f"/api/tables/{code}").json().get("status") != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.05)
    return code


def test_a_served_game_past_the_retention_is_gone_while_a_live_table_plays(
    tmp_path: Path,
) -> None:
    """``bestiary serve`` keeping one finished game, sweeping twice a second: the older games'
    replays (one of them cached) and records answer 404, the newest one's 200, and a game in
    play goes on."""
    limits = (
        "keep_finished=1, sweep_seconds=0.3, finished_table_seconds=0.5,"
        " tables_per_minute=1000, seats_per_address=1000"
    )
    db = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with ServerProcess(db, tmp_path / "log", server=limits) as server, server.http() as http:
        live = bots_table(http, STUCK, bot_pause=0.05, bot="greedy")
        first = _finished_game(http)
        assert http.get(f"/api/tables/{first}/replay").status_code == 200  # now cached
        older, newest = _finished_game(http), _finished_game(http)
        deadline = time.monotonic() + 30
        while http.get(f"/api/tables/{older}/record").status_code != 404:
            assert time.monotonic() < deadline, "the older games were never deleted"
            time.sleep(0.1)
        time.sleep(0.5)  # the sweep that deleted them has told the lobby
        for code in (first, older):
            assert http.get(f"/api/tables/{code}/replay").status_code == 404
            assert http.get(f"/api/tables/{code}/record").status_code == 404
        assert http.get(f"/api/tables/{newest}/replay").status_code == 200
        listed = http.get("/api/tables").json()["finished"]
        assert [game["code"] for game in listed] == [newest]
        seq = http.get(f"/api/tables/{live}").json()["seq"]
        time.sleep(1)
        table = http.get(f"/api/tables/{live}").json()
        assert table["status"] == "playing"
        assert table["seq"] > seq, "the live table plays on"
    said = (tmp_path / "log").read_text()
    assert "deleted" in said
    assert "commit of" not in said, "the sweep never held the store's writer up"


def two_sweeps_at_once_delete_each_game_once(db: str) -> None:
    """Two workers' sweeps at once: every game past the retention goes, events and all, and
    nothing else (each step names its rows by status, so neither trips on the other)."""
    store = Store(db)
    try:
        for i in range(120):
            store.save_table(_row(f"G{i:03d}", "finished", 1.0, 1000.0 + i))
            for seq in range(1, 4):
                store.append_event(f"G{i:03d}", seq, {"type": "draw"})
        store.flush()
        kept = Retention(keep_finished=10, keep_days=365, protect_seconds=60)
        found: list[list[str]] = []
        errors: list[Exception] = []

        def run() -> None:
            try:
                found.append(sweep(store.engine, kept, now=NOW))
            except Exception as exc:
                errors.append(exc)

        workers = [threading.Thread(target=run) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        assert errors == []
        assert set(found[0]) | set(found[1]) == {f"G{i:03d}" for i in range(110)}
        assert _stored(store) == {f"G{i:03d}": ("finished", 3) for i in range(110, 120)}
    finally:
        store.close()


def test_two_sweeps_at_once_delete_each_game_once(tmp_path: Path) -> None:
    two_sweeps_at_once_delete_each_game_once(f"sqlite:///{tmp_path / 'db.sqlite'}")
