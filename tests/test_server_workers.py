"""Several server processes on one PostgreSQL database behind nginx (docs/operating.md, "More than
one process"): real ``bestiary serve --worker K`` processes, a throwaway cluster (tests/pg.py),
and nginx with the routes of ``bestiary.server.shards``.

Tables made through either lobby are listed by both; sockets reach the owner; after ``kill -9``
of a worker every table plays on through the other, and every event each client saw is the
store's; over random kills and restarts no table is held by two workers at once.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner
from websockets.sync.client import ClientConnection, connect

from bestiary.bench.loadtest import free_port
from bestiary.cli import app
from bestiary.core.game import replay
from bestiary.server.shards import (
    CODE_ALPHABET,
    answer_seconds,
    first_living,
    new_code,
    nginx_routes,
    nginx_site,
    order,
    shard_of,
)
from bestiary.server.store import Store
from bestiary.server.workers import Workers
from tests.pg import Cluster, throwaway_cluster

Message = dict[str, Any]
LEASE = 2.0
# one test client makes every table: the per-address limits (shared by the workers) are lifted
SERVE = [
    "--allow-seeds", "--tables-per-minute", "600", "--seats-per-address", "1000",
    "--joins-per-minute", "6000", "--grace", "600", "--pace", "fast",
]  # fmt: skip


# -- the shard function and the routes, on their own ------------------------------------------


@given(st.integers(1, 31), st.data())
def test_a_worker_makes_codes_of_its_own_shard_and_owns_them_while_alive(
    count: int, data: st.DataObject
) -> None:
    shard = data.draw(st.integers(0, count - 1))
    code = new_code(shard, count)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert shard_of(code, count) == shard == shard_of(code.lower(), count)
    living = data.draw(st.sets(st.integers(0, count - 1)))
    chosen = first_living(code, count, living | {shard})
    assert chosen == shard  # its maker, while it lives
    others = first_living(code, count, living - {shard})
    assert others is None or others in living
    assert sorted(order(shard, count)) == list(range(count))


def test_the_routes_try_a_shard_s_own_worker_first_and_every_other_after() -> None:
    routes = nginx_routes(["10.0.0.1:8001", "10.0.0.2:8001", "10.0.0.3:8001"])
    shard1 = routes[routes.index("upstream bestiary_shard1") :].split("}")[0]
    servers = [line.split()[1] for line in shard1.splitlines() if "server " in line]
    assert servers == ["10.0.0.2:8001", "10.0.0.3:8001", "10.0.0.1:8001"]
    assert "backup" not in shard1.splitlines()[1] and shard1.count("backup") == 2
    letters = "".join(c for i, c in enumerate(CODE_ALPHABET) if i % 3 == 1)
    assert f"~*^/(ws|api/tables)/[{letters}] bestiary_shard1;" in routes
    with pytest.raises(ValueError):
        nginx_routes([])


def test_the_documented_configuration_is_the_one_serve_workers_runs() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "operating.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", doc, re.S)
    site = nginx_site(["127.0.0.1:8001", "127.0.0.1:8002"], "127.0.0.1:8000")
    assert site in blocks
    printed = CliRunner().invoke(
        app, ["routes", "127.0.0.1:8001", "127.0.0.1:8002", "--listen", "127.0.0.1:8000"]
    )
    assert printed.exit_code == 0 and printed.output == site


def test_several_workers_need_postgresql_and_say_so(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'one.sqlite'}"
    for flags in (["--workers", "2"], ["--worker", "0", "--workers", "2"]):
        served = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--db", db, *flags])
        assert served.exit_code != 0
        assert served.output.strip() == (
            "error: several workers share a PostgreSQL database: give --db postgresql+psycopg://..."
        )
    wrong = CliRunner().invoke(app, ["serve", "--worker", "2", "--workers", "2", "--db", db])
    assert wrong.output.strip() == "error: --worker must be one of 0 to 1"


# -- real processes ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with throwaway_cluster() as running:
        yield running


def workers_on(cluster: Cluster, name: str, count: int = 2) -> Workers:
    db = cluster.database(name)
    Store(db).close()  # the schema, once, before the workers race to make it
    ports = [free_port() for _ in range(count)]
    return Workers(db, count, free_port(), ports=ports, serve_args=SERVE, lease=LEASE)


def wait_for(what: str, done: Callable[[], bool], seconds: float = 20.0) -> float:
    """Seconds until ``done()``; fails naming ``what`` after ``seconds``."""
    start = time.monotonic()
    while not done():
        if time.monotonic() - start > seconds:
            pytest.fail(f"waited {seconds:g} s for {what}")
        time.sleep(0.05)
    return time.monotonic() - start


def direct(workers: Workers, k: int) -> httpx.Client:
    return httpx.Client(base_url=f"http://127.0.0.1:{workers.ports[k]}", timeout=10)


def proxied(workers: Workers) -> httpx.Client:
    return httpx.Client(base_url=f"http://127.0.0.1:{workers.port}", timeout=10)


def report(workers: Workers, k: int) -> Message:
    answer: Message = direct(workers, k).get("/api/worker").json()
    return answer


def listed(client: httpx.Client) -> set[str]:
    page = client.get("/api/tables").json()
    return {t["code"] for t in page["open"] + page["playing"]}


def lists_all(client: httpx.Client, codes: set[str]) -> bool:
    return listed(client) >= codes


def all_joined(client: httpx.Client) -> bool:
    tables = client.get("/api/tables").json()["open"]
    return all(len([s for s in t["seats"] if s.get("name")]) == 2 for t in tables)


def test_tables_made_through_either_lobby_are_listed_by_both_and_sockets_reach_the_owner(
    cluster: Cluster,
) -> None:
    with workers_on(cluster, "either") as workers:
        made = {}
        for k in (0, 1, 0, 1):
            answer = direct(workers, k).post(
                "/api/tables", json={"game": "wild", "seats": 2, "name": "ann"}
            )
            assert answer.status_code == 201
            made[answer.json()["code"]] = (k, answer.json()["token"])
        lobbies = [direct(workers, 0), direct(workers, 1)]
        for k, lobby in enumerate(lobbies):  # each lists every table, the other's too (NOTIFY)
            wait_for(f"worker {k} to list all", partial(lists_all, lobby, set(made)))
        for code, (k, token) in made.items():
            assert code in report(workers, k)["tables"]  # its maker owns it
            assert code not in report(workers, 1 - k)["tables"]
            # the other worker sends a request for it elsewhere: 503, which nginx moves past
            refused = direct(workers, 1 - k).post(f"/api/tables/{code}/join", json={"name": "x"})
            assert refused.status_code == 503
            # through nginx: the join and the socket reach the owner
            joined = proxied(workers).post(f"/api/tables/{code}/join", json={"name": "bob"})
            assert joined.status_code == 200, joined.text
            with connect(f"ws://127.0.0.1:{workers.port}/ws/{code}", open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
                welcome = json.loads(ws.recv(timeout=10))
                assert welcome["type"] == "welcome" and welcome["seat"] == 0
        for k, lobby in enumerate(lobbies):  # the joins are lobby changes: both show 2 players
            wait_for(f"worker {k} to hear of the joins", partial(all_joined, lobby))


class Player:
    """One seat's client through nginx: reconnects when its socket goes, plays ``legal[0]``
    whenever it may, and keeps every event it was shown by ``seq``."""

    def __init__(self, workers: Workers, code: str, token: str | None) -> None:
        self.workers, self.code, self.token = workers, code, token
        self.seen: dict[int, Message] = {}
        self.latest = 0
        self.ws: ClientConnection | None = None
        self.viewer: str | None = None
        self.acted = 0
        self.over = False
        self.stop_at: int | None = None  # past this seq it waits (its turn holds the game)
        self.pending: Message | None = None  # the move it would make now, while it waits

    def connect(self, seconds: float = 20.0) -> float:
        """Seconds until a socket is welcomed with the table's state."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            try:
                url = f"ws://127.0.0.1:{self.workers.port}/ws/{self.code}"
                ws = connect(url, open_timeout=5).__enter__()
                ws.send(json.dumps({"type": "hello", "v": 1, "token": self.token}))
                welcome = json.loads(ws.recv(timeout=5))
            except (OSError, TimeoutError, Exception):  # refused, closed, not yet restored
                time.sleep(0.1)
                continue
            if welcome["type"] == "welcome":
                self.viewer, self.ws = welcome["player"], ws
                return time.monotonic() - start
            assert welcome.get("code") == "moving", welcome
            ws.close()
            time.sleep(0.1)
        pytest.fail(f"no welcome at {self.code} within {seconds:g} s")

    def pump(self, seconds: float) -> None:
        """Read (and play) for ``seconds``; a socket that closes is reconnected."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.ws is None:
                self.connect()
            assert self.ws is not None
            try:
                message = json.loads(self.ws.recv(timeout=0.05))
            except TimeoutError:
                continue
            except Exception:  # the worker went (kill -9) or moved the table
                self.ws = None
                continue
            self.read(message)

    def read(self, message: Message) -> None:
        if message["type"] != "state":
            return
        first = message["seq"] - len(message["events"]) + 1
        for seq, event in enumerate(message["events"], start=first):
            self.seen[seq] = event
        self.latest = max(self.latest, message["seq"])
        self.over = self.over or message["over"]
        waits = self.stop_at is not None and message["seq"] >= self.stop_at
        self.pending = message["legal"][0] if message["legal"] else None
        if message["legal"] and self.ws is not None and not message["over"] and not waits:
            self.ws.send(json.dumps({"type": "action", "action": message["legal"][0]}))
            self.acted += 1

    def matches(self, store: Store) -> int:
        """Every event this client saw is the store's (as this viewer is shown it)."""
        stored = store.get(self.code)
        assert stored is not None and stored.header is not None
        state = replay(stored.header, [])
        for seq, event in self.seen.items():
            line = {k: v for k, v in stored.events[seq - 1].items() if k != "t"}
            assert state.redact(line, self.viewer) == event, (self.code, seq)
        return len(self.seen)


def to_her_turn(clients: list[Player], players: list[Player]) -> None:
    """Connect everyone; each person plays a few moves, then waits at her turn (so every game
    stays in play, held by her), and the bots' moves up to it are read."""
    for client in clients:
        client.connect()
    for client in players:
        client.stop_at = 3
    deadline = time.monotonic() + 30
    while min(c.latest for c in clients) < 3 and time.monotonic() < deadline:
        for client in clients:
            client.pump(0.05)
    for client in clients:
        client.pump(0.5)


def start_table(client: httpx.Client) -> tuple[str, str]:
    made = client.post(
        "/api/tables",
        json={
            "game": "critters", "seats": 3, "name": "ann", "bot_pause": 0.1,
            "bots": [{"bot": "random"}, {"bot": "random"}], "start": True,
        },
    )  # fmt: skip
    assert made.status_code == 201, made.text
    return made.json()["code"], made.json()["token"]


def test_kill_9_of_a_worker_loses_no_table_and_no_event(cluster: Cluster) -> None:
    with workers_on(cluster, "killed") as workers:
        tables = [start_table(direct(workers, k)) for k in (0, 1, 0, 1, 0, 1)]
        players = [Player(workers, code, token) for code, token in tables]
        watchers = [Player(workers, code, None) for code, _ in tables]
        clients = players + watchers
        to_her_turn(clients, players)
        before = {id(c): c.latest for c in clients}
        waiting = [c for c in players if not c.over]
        on_worker_0 = [c for c in waiting if c.code in report(workers, 0)["tables"]]
        assert len(on_worker_0) >= 2, "games in play at the worker that is killed"
        workers.kill(0)
        killed = time.monotonic()
        for client in clients:
            client.ws = None  # gone with worker 0, or the next read finds out
            client.connect(seconds=30)
        for client in clients:  # nothing seen before is missing from the new owner's state
            assert client.latest >= before[id(client)]
        for client in players:  # now she plays: every game must go on
            client.stop_at = None
        deadline = time.monotonic() + 20
        while any(c.latest <= before[id(c)] for c in waiting) and time.monotonic() < deadline:
            for client in clients:
                client.pump(0.05)
        resumed = time.monotonic() - killed
        for client in waiting:  # (a game over before the kill has nothing to play on)
            assert client.latest > before[id(client)], f"{client.code} did not play on"
        assert not set(report(workers, 1)["tables"]) & {c.code for c in clients if c.over}
        store = Store(workers.db)
        try:
            shown = sum(client.matches(store) for client in clients)
        finally:
            store.close()
        print(
            f"\nkill -9 of worker 0 ({len(on_worker_0)} games in play there): every game "
            f"played on within {resumed:.2f} s; {shown} events seen, all the store's"
        )


# -- no table held by two workers at once, over random kills and restarts --------------------


def reports(workers: Workers) -> list[Message]:
    """Each living worker's report, twice round, in the order they were asked."""
    out = []
    for _ in range(2):
        for k, proc in enumerate(workers.procs):
            if proc is not None:
                with contextlib.suppress(httpx.HTTPError):  # starting, or just killed
                    out.append(report(workers, k))
    return out


def held_twice(seen: list[Message]) -> list[str]:
    """Tables two workers held at one moment: held by A (one holding: the same name) at two
    reports, and by B at a report between them. Only reports within their lease count."""
    found = []
    valid = [r for r in seen if r["now"] < r["valid_until"]]
    for i, first in enumerate(valid):
        for k in range(i + 2, len(valid)):
            last = valid[k]
            if last["incarnation"] != first["incarnation"]:
                continue
            for code, holding in first["tables"].items():
                if last["tables"].get(code) != holding:
                    continue
                for middle in valid[i + 1 : k]:
                    if middle["incarnation"] != first["incarnation"] and code in middle["tables"]:
                        found.append(code)
    return found


STEPS = st.lists(
    st.tuples(st.sampled_from(["kill", "restart", "create"]), st.integers(0, 2)),
    min_size=3,
    max_size=6,
)


def settle(workers: Workers, store: Store, seen: list[Message]) -> None:
    """Wait until every live table is held by exactly one living worker, asking all the time
    (the reports are checked for tables held twice)."""

    def each_once() -> bool:
        live = {t.code for t in store.load(["open", "playing"])}
        now = reports(workers)
        seen.extend(now)
        latest = {r["worker"]: r for r in now}  # each worker's last word
        held = [code for r in latest.values() for code in r["tables"]]
        alive = sum(proc is not None for proc in workers.procs)
        return len(latest) == alive and len(held) == len(set(held)) and set(held) >= live

    wait_for("every live table held by exactly one worker", each_once, seconds=30)


@pytest.fixture(scope="module")
def three(cluster: Cluster) -> Iterator[Workers]:
    with workers_on(cluster, "property", count=3) as workers:
        yield workers


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
def test_no_table_is_held_by_two_workers_over_kills_and_restarts(
    three: Workers, steps: list[tuple[str, int]]
) -> None:
    workers = three
    seen: list[Message] = []
    store = Store(workers.db)
    try:
        for k, proc in enumerate(workers.procs):
            if proc is None:
                workers.start_worker(k)
            start_table(direct(workers, k))  # each has a game in play to lose or take over
        for action, k in steps:
            alive = [j for j, proc in enumerate(workers.procs) if proc is not None]
            if action == "kill" and len(alive) > 1 and k in alive:
                workers.kill(k)  # its tables go to the next living worker after its lease
            elif action == "restart" and k not in alive:
                workers.start_worker(k)  # and its own shard's tables come back to it
            elif action == "create" and k in alive:
                start_table(direct(workers, k))
            settle(workers, store, seen)
            assert not held_twice(seen), held_twice(seen)
    finally:
        store.close()


def test_a_worker_paused_past_its_lease_commits_nothing_of_the_tables_it_lost(
    cluster: Cluster,
) -> None:
    """SIGSTOP, not kill: the worker wakes up believing it owns its tables, and reads a move
    that waited in its socket meanwhile; the fence refuses that commit (another worker owns the
    table now), so the move is neither stored nor shown, and the tables come back to it whole."""
    with workers_on(cluster, "paused") as workers:
        tables = [start_table(direct(workers, 0)) for _ in range(3)]
        players = [Player(workers, code, token) for code, token in tables]
        clients = players + [Player(workers, code, None) for code, _ in tables]
        to_her_turn(clients, players)
        codes = {code for code, _ in tables}
        stored = Store(workers.db)
        try:
            counts = {code: len(stored.get(code).events) for code in codes}  # type: ignore[union-attr]
            proc = workers.procs[0]
            assert proc is not None
            proc.send_signal(signal.SIGSTOP)
            try:
                for client in players:  # her move waits in the stopped worker's socket
                    assert client.ws is not None and client.pending is not None
                    client.ws.send(json.dumps({"type": "action", "action": client.pending}))
                wait_for(
                    "worker 1 to take the tables over",
                    lambda: codes <= set(report(workers, 1)["tables"]),
                )
            finally:
                proc.send_signal(signal.SIGCONT)
            time.sleep(1.0)  # it reads her move and tries to commit it
            assert {code: len(stored.get(code).events) for code in codes} == counts  # type: ignore[union-attr]
            wait_for(
                "its shard's tables to come back to worker 0",
                lambda: codes <= set(report(workers, 0)["tables"]),
                seconds=30,
            )
            for client in players:  # now she plays on, through nginx, at worker 0
                client.stop_at = None
            deadline = time.monotonic() + 20
            while any(c.latest <= counts[c.code] for c in players) and time.monotonic() < deadline:
                for client in clients:
                    client.pump(0.05)
            for client in players:
                assert client.latest > counts[client.code], f"{client.code} did not play on"
            assert sum(client.matches(stored) for client in clients) > 0
        finally:
            stored.close()


def test_a_frozen_worker_comes_back_to_the_store_s_game_and_nginx_skips_it(
    cluster: Cluster,
) -> None:
    """Worker 0 is frozen (SIGSTOP) while its table is taken over and played on at worker 1:
    through nginx a request is answered by worker 1 within ``answer_seconds`` (not when the
    freeze ends); once worker 0 wakes it drops its stale copy before showing or storing
    anything, takes the table back from the store only, and every table of it stores moves."""
    with workers_on(cluster, "frozen") as workers:
        stored = Store(workers.db)
        try:
            code, token = start_table(direct(workers, 0))
            proc = workers.procs[0]
            assert proc is not None
            proc.send_signal(signal.SIGSTOP)  # at once: no tick of worker 0 has seen the table yet
            try:
                start = time.monotonic()
                answer = proxied(workers).get(f"/api/tables/{code}", timeout=30)
                took = time.monotonic() - start
                assert answer.status_code == 200, answer.text
                assert took < answer_seconds(LEASE) + 2, f"nginx waited {took:.1f} s"
                # ann, at worker 1 itself, plays on there: the store moves past worker 0's copy
                worker_1 = cast(Workers, SimpleNamespace(port=workers.ports[1]))
                at_worker_1 = Player(worker_1, code, token)
                deadline = time.monotonic() + 20
                while len(stored.get(code).events) < 6:  # type: ignore[union-attr]
                    assert time.monotonic() < deadline, "no moves at worker 1"
                    at_worker_1.pump(0.1)
                assert at_worker_1.ws is not None
                at_worker_1.ws.close()
            finally:
                proc.send_signal(signal.SIGCONT)
            count = len(stored.get(code).events)  # type: ignore[union-attr]
            ann = Player(workers, code, token)  # through nginx: worker 0 is tried first
            shown: list[int] = []
            ann.read = lambda message: shown.append(message.get("seq", count))  # type: ignore[method-assign]
            ann.pump(3.0)
            assert shown and min(shown) >= count, f"stale views after waking: {shown} < {count}"
            fresh, fresh_token = start_table(direct(workers, 0))  # 201: stored (item 6)
            other = Player(workers, fresh, fresh_token)
            to_her_turn([other], [other])  # her moves and the bots' are stored at worker 0
            assert len(stored.get(fresh).events) >= 3  # type: ignore[union-attr]
            wait_for(
                "the table to come back to worker 0",
                lambda: code in report(workers, 0)["tables"],
                seconds=30,
            )
            again = Player(workers, code, token)
            deadline = time.monotonic() + 20
            count = len(stored.get(code).events)  # type: ignore[union-attr]
            while again.latest <= count and time.monotonic() < deadline:
                again.pump(0.1)
            assert again.latest > count, "she did not play on at worker 0"
            assert again.matches(stored) > 0
        finally:
            stored.close()
