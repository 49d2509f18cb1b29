"""``GET /healthz`` and ``GET /metrics`` against a real ``bestiary serve`` (its own process).

/healthz answers 200 while the store commits a test write, 503 with the reason while it cannot
(another process holds SQLite's write lock), and 200 again once it can; /metrics is Prometheus'
text format, parsed here by prometheus-client's own parser, and counts what the server did.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from bestiary.cli import app
from tests.live import TableSocket
from tests.serverproc import ServerProcess


def scrape(http: httpx.Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = http.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def wait_for(check: object, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise TimeoutError(f"waited {seconds:g} s for {what}")


def test_healthz_fails_while_the_store_cannot_commit_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / "health.sqlite"
    with ServerProcess(f"sqlite:///{path}", tmp_path / "server.log") as server:
        with server.http() as http:
            ok = http.get("/healthz")
            assert (ok.status_code, ok.text) == (200, "ok\n")
            locker = sqlite3.connect(path, timeout=30, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
            try:
                time.sleep(1.1)  # past the kept answer
                down = http.get("/healthz")
                assert down.status_code == 503
                assert down.text.startswith("unhealthy: ")
                assert "locked" in down.text
                assert down.headers["retry-after"] == "1"
            finally:
                locker.rollback()
                locker.close()
            wait_for(lambda: http.get("/healthz").status_code == 200, "healthy again")
        # the probe's write is real: its row is in the database, with a recent time
        with sqlite3.connect(path) as db:
            ((name, at),) = db.execute("SELECT probe, at FROM health").fetchall()
        assert name == "server" and time.time() - at < 60


def test_healthz_fails_when_the_database_refuses_the_write(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite"
    with (
        ServerProcess(f"sqlite:///{path}", tmp_path / "server.log") as server,
        server.http() as http,
    ):
        assert http.get("/healthz").status_code == 200
        time.sleep(1.1)
        with sqlite3.connect(path) as db:  # the health table exists: make writes fail
            db.execute(
                "CREATE TRIGGER no_health BEFORE INSERT ON health "
                "BEGIN SELECT RAISE(ABORT, 'disk refused the write'); END"
            )
        down = http.get("/healthz")
        assert down.status_code == 503
        assert "disk refused the write" in down.text


def test_metrics_count_tables_sockets_moves_commits_and_refusals(tmp_path: Path) -> None:
    with (
        ServerProcess(f"sqlite:///{tmp_path / 'm.sqlite'}", tmp_path / "server.log") as server,
        server.http() as http,
    ):
        before = scrape(http)
        assert before[("bestiary_tables", (("status", "open"),))] == 0
        assert before[("bestiary_tables", (("status", "playing"),))] == 0
        assert before[("bestiary_sockets", ())] == 0
        made = http.post(
            "/api/tables",
            json={
                "game": "wild",
                "seats": 4,
                "name": "ann",
                "bots": [{"bot": "random"}] * 3,
                "start": True,
            },
        )
        assert made.status_code == 201
        code, token = made.json()["code"], made.json()["token"]
        waiting = http.post(
            "/api/tables", json={"game": "critters", "seats": 2, "name": "bo"}
        ).json()["code"]
        assert http.get("/api/tables/ZZZZZZ").status_code == 404
        assert http.post(f"/api/tables/{waiting}/join", json={"name": ""}).status_code == 400
        sock = TableSocket(server.live(), code, token, timeout=30)
        watcher = TableSocket(server.live(), code, timeout=30)
        sock.wait_state(lambda m: m["seq"] >= 5, "five events")
        sock.act({"do": "no such action"}, ref="bad")
        sock.wait(lambda m: m.get("ref") == "bad", "the refusal")
        after = scrape(http)
        assert after[("bestiary_tables", (("status", "open"),))] == 1
        assert after[("bestiary_tables", (("status", "playing"),))] == 1
        assert after[("bestiary_sockets", ())] == 2
        moves = after[("bestiary_moves_committed_total", ())]
        assert moves >= 5  # every event it was sent was committed first
        groups = after[("bestiary_commit_seconds_count", ())]
        assert groups >= 1  # (a group may hold no event: the deal, shown as play begins)
        assert after[("bestiary_commit_seconds_bucket", (("le", "+Inf"),))] == groups
        refusals = {
            dict(labels)["reason"]: value
            for (name, labels), value in after.items()
            if name == "bestiary_refusals_total"
        }
        assert refusals.get("http_404", 0) >= 1
        assert refusals.get("http_400", 0) >= 1
        assert refusals.get("bad_action", 0) >= 1
        assert after[("process_resident_memory_bytes", ())] > 0
        sock.close()
        watcher.close()
        wait_for(lambda: scrape(http)[("bestiary_sockets", ())] == 0, "sockets closed")


def test_every_serve_flag_is_in_the_operating_guide() -> None:
    """docs/operating.md's tables name each flag ``bestiary serve --help`` lists."""
    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    flags = set(re.findall(r"--[a-z][a-z0-9-]+", shown.output)) - {"--help"}
    assert {"--keep-finished", "--keep-days", "--wal-limit"} <= flags
    guide = (Path(__file__).parent.parent / "docs" / "operating.md").read_text()
    assert sorted(flag for flag in flags if f"`{flag}" not in guide) == []
