"""No client ever sees an event the store has not committed (docs/reliability.md, "Durability").

Each test runs the real server in its own process on a real database, plays a wild game of
one connected player and three bots, breaks the store mid-game (an exclusive SQLite lock held
10 s, an immutable database, a full disk, ``kill -9``, PostgreSQL connections terminated),
and then compares every event every client saw with what the store holds: the same events,
in the same order, with no hole. While the store is down the table says so to every seat and
refuses actions; afterwards it plays on with nothing lost.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bestiary.core.game import get_game
from bestiary.server.store import DAMAGED, Store
from tests.live import TableSocket
from tests.pg import Cluster, throwaway_cluster
from tests.serverproc import ServerProcess

Message = dict[str, Any]
BOTS = ["random", "honest", "hunter"]
TOKENS: dict[str, str] = {}


def start_game(server: ServerProcess) -> tuple[str, TableSocket, TableSocket]:
    """ann and three bots, started; ann's socket and a spectator's (ann's token is kept in
    ``TOKENS``, by table, to come back after a restart)."""
    with server.http() as http:
        made = http.post(
            "/api/tables",
            json={
                "game": "wild",
                "seats": 4,
                "name": "ann",
                "options": {"nightfall_seconds": 30},
                "bots": [{"bot": b} for b in BOTS],
                "start": True,
            },
        )
        assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]
    TOKENS[code] = token
    live = server.live()
    return code, TableSocket(live, code, token, timeout=30), TableSocket(live, code, timeout=30)


def seen_events(sock: TableSocket) -> dict[int, Message]:
    """Every event the socket was sent, by seq (a state message ends at its ``seq``)."""
    seen: dict[int, Message] = {}
    for message in sock.received:
        if message["type"] != "state":
            continue
        first = message["seq"] - len(message["events"]) + 1
        for offset, event in enumerate(message["events"]):
            seen[first + offset] = event
    return seen


def compare_with_store(db: str, code: str, clients: list[tuple[TableSocket, str | None]]) -> int:
    """Zero difference, zero holes: from the view it was first sent on, each client saw every
    event of the record up to its last, as its viewer may see it, in order, and none that the
    store does not hold. Returns how many events the store holds."""
    store = Store(db)
    stored = store.get(code)
    store.close()
    assert stored is not None and stored.header is not None
    assert stored.status != DAMAGED
    state = get_game(stored.game).from_header(stored.header)
    record = [{k: v for k, v in e.items() if k != "t"} for e in stored.events]
    for sock, viewer in clients:
        seen = seen_events(sock)
        assert seen, "the client saw no event at all"
        states = [m for m in sock.received if m["type"] == "state"]
        base = states[0]["seq"] - len(states[0]["events"])  # its first view came at ``base``
        last = states[-1]["seq"]
        assert sorted(seen) == list(range(base + 1, last + 1)), "a client missed an event"
        assert max(seen) <= len(record), "a client saw an event the store does not hold"
        for seq, event in seen.items():
            assert event == state.redact(record[seq - 1], viewer), f"event {seq} differs"
    return len(record)


def drive(sock: TableSocket, done: Callable[[Message], bool], what: str, seed: int = 1) -> Message:
    """Read until ``done``, playing the seat meanwhile: a random legal action (a meeting when
    one is open) whenever a new state allows one and no action is in flight."""
    rng = random.Random(seed)
    waiting: str | None = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = sock.recv()
        if done(message):
            return message
        if waiting is not None and message.get("ref") == waiting:
            waiting = None
            if message["type"] == "error":
                continue  # refused (the store is down, or the move went stale): wait
        if message["type"] == "state" and waiting is None and message["legal"]:
            meets = [a for a in message["legal"] if a["do"] == "meet"]
            waiting = f"m{message['seq']}-{rng.random()}"
            sock.act(rng.choice(meets or message["legal"]), ref=waiting)
    raise TimeoutError(f"waited 60 s for {what}")


def is_storage_error(message: Message) -> bool:
    return bool(message["type"] == "error" and message["code"] == "storage")


def outage(
    tmp_path: Path,
    db: str,
    break_store: Callable[[], None],
    mend_store: Callable[[], None],
    hold: float = 3.0,
) -> str:
    """Play, break the store mid-game, check the pause, mend it, play to the end, compare."""
    log = tmp_path / "server.log"
    with ServerProcess(db, log) as server:
        code, ann, watcher = start_game(server)
        drive(ann, lambda m: m.get("seq", 0) >= 10, "ten events")
        break_store()
        try:
            paused = drive(ann, is_storage_error, "the storage-unavailable message")
            assert "storage unavailable" in paused["message"]
            watcher.wait(is_storage_error, "the message, to the spectator too")
            latest = ann.latest
            assert latest is not None
            legal = latest["legal"]
            if legal:  # an action while paused is refused, with the same sentence
                ann.act(legal[0], ref="during")
                refused = ann.wait(lambda m: m.get("ref") == "during", "the refusal")
                assert is_storage_error(refused)
            time.sleep(hold)
        finally:
            mend_store()
        drive(ann, lambda m: m.get("code") == "storage_back", "storage is back")
        drive(ann, lambda m: m["type"] == "state" and m["over"], "the end of the game")
        watcher.wait_state(lambda m: m["over"], "the end, for the spectator")
        server.stop()
    total = compare_with_store(db, code, [(ann, "ann"), (watcher, None)])
    assert max(seen_events(ann)) == total  # the whole game reached every client
    text = log.read_text()
    assert "store: commit of" in text and "retrying" in text
    assert "commits work again" in text
    return text


def test_a_ten_second_sqlite_lock_pauses_the_game_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite"
    locker: list[sqlite3.Connection] = []

    def lock() -> None:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        locker.append(conn)

    def unlock() -> None:
        for conn in locker:
            conn.rollback()
            conn.close()

    text = outage(tmp_path, f"sqlite:///{path}", lock, unlock, hold=10.0)
    assert "database is locked" in text


def test_an_immutable_database_pauses_the_game_and_loses_nothing(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("chattr +i needs root")
    path = tmp_path / "frozen.sqlite"
    # the database and its write-ahead log (the -shm index is memory-mapped: SQLite's own
    # process gets SIGBUS if that one cannot be written, which no server can catch)
    files = [str(path), f"{path}-wal"]

    def freeze() -> None:
        subprocess.run(["chattr", "+i", *files], check=True)

    def thaw() -> None:
        subprocess.run(["chattr", "-i", *files], check=True)

    outage(tmp_path, f"sqlite:///{path}", freeze, thaw)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs (root only; skipped with the kernel's reason if it refuses).

    8 MiB, not less: SQLite's write-ahead log grows to about 4 MiB (1,000 pages) before it is
    checkpointed, so on a smaller disk the log itself fills it for good, with no filler.
    """
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_pauses_the_game_and_loses_nothing(tmp_path: Path, small_disk: Path) -> None:
    filler = small_disk / "filler"

    def fill() -> None:
        with contextlib.suppress(OSError), filler.open("wb", buffering=0) as out:
            while True:  # until the disk is full (ENOSPC)
                out.write(b"\0" * 4096)

    text = outage(tmp_path, f"sqlite:///{small_disk / 'full.sqlite'}", fill, filler.unlink)
    assert "full" in text


def test_kill_minus_nine_mid_game_then_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'killed.sqlite'}"
    log = tmp_path / "server.log"
    with ServerProcess(db, log) as server:
        code, ann, watcher = start_game(server)
        drive(ann, lambda m: m.get("seq", 0) >= 30, "thirty events")
        server.kill()
    for sock in (ann, watcher):
        with contextlib.suppress(Exception):
            while True:
                sock.recv()  # whatever was already in flight before the kill
    stored_before = compare_with_store(db, code, [(ann, "ann"), (watcher, None)])
    assert stored_before >= 30
    with ServerProcess(db, log) as again, again.http() as http:
        playing = {t["code"]: t for t in http.get("/api/tables").json()["playing"]}
        assert playing[code]["seq"] >= stored_before  # back in play (its bots play on at once)
        ann_again = TableSocket(again.live(), code, TOKENS[code], timeout=30)
        spectator = TableSocket(again.live(), code, timeout=30)
        first = spectator.wait_state(lambda m: True)
        assert first["seq"] >= stored_before
        drive(ann_again, lambda m: m["type"] == "state" and m["over"], "the end, restored")
        spectator.wait_state(lambda m: m["over"], "the end of the restored game")
        again.stop()
    total = compare_with_store(db, code, [(ann_again, "ann"), (spectator, None)])
    assert total > stored_before


def test_a_record_with_a_hole_is_refused_not_served(tmp_path: Path) -> None:
    path = tmp_path / "holed.sqlite"
    db = f"sqlite:///{path}"
    log = tmp_path / "server.log"
    with ServerProcess(db, log) as server:
        playing, ann, _ = start_game(server)
        drive(ann, lambda m: m.get("seq", 0) >= 10, "ten events")
        finished, ann2, _ = start_game(server)
        drive(ann2, lambda m: m["type"] == "state" and m["over"], "a finished game")
        server.kill()
    with sqlite3.connect(path) as conn:
        for code in (playing, finished):
            conn.execute("DELETE FROM events WHERE code = ? AND seq = 5", (code,))
    with ServerProcess(db, log) as again, again.http() as http:
        listing = http.get("/api/tables").json()
        assert playing not in [t["code"] for t in listing["playing"]]
        for code in (playing, finished):
            for path_ in (f"/api/tables/{code}/record", f"/api/tables/{code}/replay"):
                answer = http.get(path_)
                assert answer.status_code == 404, (path_, answer.status_code, answer.text)
        again.stop()
    text = log.read_text()
    for code in (playing, finished):
        assert f"table {code}: its record has a hole at seq 5" in text
    store = Store(db)
    for code in (playing, finished):
        found = store.get(code)
        assert found is not None and found.status == DAMAGED
    store.close()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


def test_postgres_connections_killed_mid_game(tmp_path: Path, cluster: Cluster) -> None:
    import psycopg

    db = cluster.database("durability")
    admin = f"host=127.0.0.1 port={cluster.port} user=bestiary dbname=postgres"
    log = tmp_path / "server.log"
    killed = 0
    with ServerProcess(db, log) as server:
        code, ann, watcher = start_game(server)
        drive(ann, lambda m: m.get("seq", 0) >= 10, "ten events")
        with psycopg.connect(admin, autocommit=True) as conn:
            for _ in range(5):  # again and again, while the bots play
                rows = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = 'durability' AND pid <> pg_backend_pid()"
                ).fetchall()
                killed += sum(1 for (ok,) in rows if ok)
                drive(ann, lambda m: m["type"] == "state", "a move")
        drive(ann, lambda m: m["type"] == "state" and m["over"], "the end of the game")
        watcher.wait_state(lambda m: m["over"], "the end, for the spectator")
        server.stop()
    assert killed > 0
    total = compare_with_store(db, code, [(ann, "ann"), (watcher, None)])
    assert max(seen_events(ann)) == total


def test_a_table_and_a_seat_are_stored_before_they_are_answered(tmp_path: Path) -> None:
    # docs/reliability.md, "Durability": durable before visible holds for the lobby's changes too
    path = tmp_path / "lobby.sqlite"
    db, log = f"sqlite:///{path}", tmp_path / "server.log"
    answers: dict[str, httpx.Response] = {}

    def ask(what: str, route: str, body: dict[str, Any]) -> None:
        answers[what] = httpx.post(f"{server.url}{route}", json=body, timeout=30)

    with ServerProcess(db, log) as server:
        for what, route, body in [
            ("create", "/api/tables", {"game": "critters", "seats": 3, "name": "ann"}),
            ("join", "/api/tables/{code}/join", {"name": "bo"}),
        ]:
            if "{code}" in route:
                route = route.format(code=answers["create"].json()["code"])
            locker = sqlite3.connect(path, timeout=30, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
            asking = threading.Thread(target=ask, args=(what, route, body))
            asking.start()
            asking.join(timeout=2)
            assert asking.is_alive(), f"the {what} was answered before it was stored"
            locker.rollback()
            locker.close()
            asking.join(timeout=20)
            assert answers[what].status_code in (200, 201), answers[what].text
        server.kill()  # at once after the answers: what they said must be stored
    code = answers["create"].json()["code"]
    with ServerProcess(db, log) as again, again.http() as http:
        table = http.get(f"/api/tables/{code}").json()
        assert [seat["name"] for seat in table["seats"]][:2] == ["ann", "bo"]
        token = answers["join"].json()["token"]
        left = http.post(f"/api/tables/{code}/leave", json={"token": token})
        assert left.status_code == 200, left.text  # the token given is the stored one


def test_a_table_or_seat_the_store_cannot_take_in_time_is_a_503_that_keeps_nothing(
    tmp_path: Path,
) -> None:
    """Behind nginx a request not answered in time is sent to the next worker: so a create or a
    join the store has not committed within 4 s is answered 503 and undone, never stored later
    with a token nobody was given (docs/reliability.md, "Durability")."""
    path = tmp_path / "lobby.sqlite"
    db, log = f"sqlite:///{path}", tmp_path / "server.log"
    with ServerProcess(db, log) as server, server.http() as http:
        made = http.post("/api/tables", json={"game": "critters", "seats": 3, "name": "ann"})
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        for route, body in [
            ("/api/tables", {"game": "critters", "seats": 3, "name": "cy"}),
            (f"/api/tables/{code}/join", {"name": "bo"}),
        ]:
            locker = sqlite3.connect(path, timeout=30, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")  # another process holds the write lock for 7 s
            try:
                start = time.monotonic()
                answer = http.post(route, json=body, timeout=30)
                took = time.monotonic() - start
                assert answer.status_code == 503, answer.text
                assert answer.json()["detail"] == (
                    "the database did not store this within 4 s, so nothing of it was kept; "
                    "try again shortly."
                )
                assert answer.headers["retry-after"] == "1"
                assert took < 6, took
                time.sleep(max(0.0, 7 - took))
            finally:
                locker.rollback()
                locker.close()
        time.sleep(0.5)  # the store commits what waited, then its undoing
        listing = http.get("/api/tables").json()
        assert [t["code"] for t in listing["open"]] == [code]  # cy's table is gone
        table = http.get(f"/api/tables/{code}").json()
        assert [seat["name"] for seat in table["seats"]][:2] == ["ann", None]
        again = http.post(f"/api/tables/{code}/join", json={"name": "bo"})
        assert again.status_code == 200, again.text  # the name and the seat are free
        server.kill()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT code, status FROM tables ORDER BY created").fetchall()
    assert rows[0] == (code, "open") and [status for _, status in rows[1:]] == ["expired"]
