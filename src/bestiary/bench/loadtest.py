"""``bestiary bench server``: closed-loop load over real WebSockets on 127.0.0.1.

The server runs in its own process pinned to core 0; this load generator pins itself to core 1.
For each table count T, T tables of 4 clients are created and joined through the lobby (HTTP),
and every client acts as soon as it may (one action in flight per client), picking a random
legal action from its latest view (a `meet` when one is open, as players would). A finished game
is replaced by a new table. Each level runs for a bounded time; latency is measured from a
client sending an action to receiving its own updated view (the state message echoing its ref).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import msgspec
import orjson

from bestiary.bench.leanhttp import LeanHTTP, LobbyError
from bestiary.bench.leansocket import LeanSocket, lean_connect
from bestiary.core.agent import bot_entries
from bestiary.core.game import game_names, get_game
from bestiary.server.run import settle_heap

SEATS = 4


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Level:
    """What one table count measured."""

    game: str
    tables: int
    seconds: float = 0.0
    moves: int = 0
    refused: int = 0
    errors: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    probe: list[float] = field(default_factory=list)  # pings of an idle table, meanwhile
    rss_mb: float = 0.0
    server_cpu: float = 0.0  # CPU seconds the server used during the level
    client_cpu: float = 0.0  # CPU seconds this load generator used during the level
    stuck: list[Any] = field(default_factory=list)

    def percentile(self, p: float, of: list[float] | None = None) -> float:
        """The ``p`` quantile of the move latencies (or of ``of``), in milliseconds."""
        values = self.latencies if of is None else of
        if not values:
            return float("nan")
        ordered = sorted(values)
        return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    def row(self) -> str:
        rate = self.moves / self.seconds if self.seconds else 0.0
        cpu_rate = self.moves / self.server_cpu if self.server_cpu else 0.0
        return (
            f"{self.game:9} {self.tables:6} {rate:10,.0f} {self.percentile(0.50):8.1f} "
            f"{self.percentile(0.95):8.1f} {self.percentile(0.99):8.1f} {self.rss_mb:8.0f} "
            f"{self.errors:6} {self.refused:8} {self.games:6} {cpu_rate:12,.0f} "
            f"{self.busy(self.server_cpu):7.0f}% {self.busy(self.client_cpu):7.0f}% "
            f"{self.percentile(0.50, self.probe):8.1f} {self.percentile(0.99, self.probe):8.1f}"
        )

    def busy(self, cpu_seconds: float) -> float:
        """How busy a process kept its core during the level, in percent."""
        return 100 * cpu_seconds / self.seconds if self.seconds else 0.0


HEADER = (
    f"{'game':9} {'tables':>6} {'moves/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
    f"{'RSS MB':>8} {'errors':>6} {'refused':>8} {'games':>6} {'moves/cpu-s':>12} "
    f"{'server':>8} {'clients':>8} {'probe50':>8} {'probe99':>8}"
)


def _pin(core: int) -> None:
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {core % (os.cpu_count() or 1)})


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (robust to other jobs sharing the core)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def _rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Heard(msgspec.Struct):
    """What a client reads of a server message to act on it: the whole message is parsed (and
    must be JSON), but the view and the events, which a random player does not look at, are not
    made into objects (they were most of the generator's decoding, and their garbage); the legal
    actions are made into objects only when the client is about to act on them."""

    type: str
    ref: int | str | None = None  # an answer to the client's action with this ref
    legal: msgspec.Raw = msgspec.Raw(b"")  # a state's legal actions, as JSON (empty: none sent)
    over: bool | None = None  # a state's: the game is over


HEARD = msgspec.json.Decoder(Heard)
LEGAL = msgspec.json.Decoder(list[dict[str, Any]])
NOTHING = msgspec.Raw(b"[]")


class Turns:
    """A table's actions in flight (``--movers``): at most ``movers`` at once; a client that may
    act when all are taken waits for one, in the order they asked (as ``asyncio.Semaphore``)."""

    def __init__(self, movers: int) -> None:
        self.free = movers
        self.waiting: deque[Client] = deque()

    def take(self, client: Client) -> bool:
        """True: ``client`` has a turn now; False: it is given one when one is free."""
        if self.free and not self.waiting:
            self.free -= 1
            return True
        self.waiting.append(client)
        return False

    def give_back(self) -> None:
        """A turn is free: the first waiting client that acts with it keeps it."""
        while self.waiting:
            if self.waiting.popleft().turn_given():
                return
        self.free += 1


class Client:
    """One seat's client: reads every message in its socket's callback, acts on its latest
    state, one action in flight. ``done`` is set when its game is over, when its socket ends, or
    when it stops at the end of the clock (with no action in flight)."""

    def __init__(
        self,
        level: Level,
        rng: random.Random,
        stop_at: float,
        turns: Turns | None = None,
    ) -> None:
        self.level = level
        self.rng = rng
        self.stop_at = stop_at
        self.turns = turns  # the table's actions in flight (--movers; None: no limit)
        self.ref = 0
        self.sent_at: float | None = None
        self.legal = NOTHING  # what its latest state lets it do, as JSON
        self.choices: list[dict[str, Any]] | None = None  # the same, once decoded
        self.over = False
        self.queued = False  # waiting for one of the table's turns
        self.ws: LeanSocket | None = None
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Set when the table's clock is over; the clock alone would not do: uvloop's timers fire
        # up to a millisecond early, so an answer arriving in that gap found the clock still
        # running, left this client waiting for a turn that its (already stopped) peers never
        # made, and counted a false 10 s error.
        self.stopping = False

    def start(self, ws: LeanSocket, token: str) -> None:
        """Say hello on ``ws``; from then on every message it receives is read at once."""
        self.ws = ws
        ws.send_now(orjson.dumps({"type": "hello", "v": 1, "token": token}))
        ws.listen(self.hear)

    async def play(self, ws: LeanSocket, token: str) -> None:
        """``start``, then wait until ``done``."""
        self.start(ws, token)
        await self.done

    def hear(self, raw: bytes | None) -> None:
        """One message (None: the socket has ended), and the action it allows."""
        if self.done.done():
            return  # done: the socket closes with its table's
        try:
            if raw is None or self._read(raw):
                self._finish()  # its socket ended, or its game is over
            elif self.sent_at is None and not self.queued:
                self._next()
        except Exception as err:  # a message it could not read: the table's error
            self.done.set_exception(err)

    def _next(self) -> None:
        if self.stopping or time.monotonic() >= self.stop_at:
            self._finish()
        elif self.turns is None or not self._choices():
            self._act()
        elif self.turns.take(self):
            if not self._act():
                self.turns.give_back()
        else:
            self.queued = True

    def turn_given(self) -> bool:
        """One of the table's turns is this client's: True if it acted with it."""
        self.queued = False
        if self.done.done() or self.stopping:
            return False
        return self._act()

    def _finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def _read(self, raw: bytes) -> bool:
        """Take in one message; True when the game is over."""
        message = HEARD.decode(raw)
        kind = message.type
        answered = False
        if kind == "state":
            if not message.legal or message.over is None:
                raise ValueError("a state message without its legal actions or over")
            if self.sent_at is not None and message.ref == self.ref:
                self.level.latencies.append(time.perf_counter() - self.sent_at)
                self.level.moves += 1
                self.sent_at, answered = None, True
            self.legal, self.choices = message.legal, None
            self.over = message.over
        elif kind == "error":
            if message.ref == self.ref and self.sent_at is not None:
                self.level.refused += 1
                self.sent_at, answered = None, True
            else:
                self.level.errors += 1
        if answered and self.turns is not None:
            self.turns.give_back()  # its action in flight held one of the table's turns
        return kind == "state" and self.over

    def _choices(self) -> list[dict[str, Any]]:
        if self.choices is None:
            self.choices = LEGAL.decode(self.legal)
        return self.choices

    def _act(self) -> bool:
        """Send a random legal action (a meeting when one is open); False if there is none."""
        legal = self._choices()
        if not legal or self.ws is None:
            return False
        meets = [a for a in legal if a["do"] == "meet"]
        action = self.rng.choice(meets or legal)
        self.ref += 1
        self.sent_at = time.perf_counter()
        self.ws.send_now(orjson.dumps({"type": "action", "action": action, "ref": self.ref}))
        return True


async def _open_table(http: LeanHTTP, ws_base: str, game: str) -> Table:
    """Create a table, join its other seats and start it, all through the lobby."""
    # a short quiet clock (wild's Nightfall) so that stalled games end within a level
    quiet = get_game(game).info.quiet_option
    options = {quiet: 5} if quiet else {}
    made = await _lobby(
        http, "/api/tables", {"game": game, "seats": SEATS, "name": "p1", "options": options}
    )
    code, tokens = made["code"], [made["token"]]
    for i in range(2, SEATS + 1):
        joined = await _lobby(http, f"/api/tables/{code}/join", {"name": f"p{i}"})
        tokens.append(joined["token"])
    await _lobby(http, f"/api/tables/{code}/start", {"token": tokens[0]})
    sockets = [await lean_connect(f"{ws_base}/ws/{code}") for _ in tokens]
    return sockets, tokens


Table = tuple[list[LeanSocket], list[str]]


async def _lobby(http: LeanHTTP, path: str, body: dict[str, Any]) -> Any:
    """A lobby POST that must succeed (a refusal is the server's error, counted as one)."""
    status, answer = await http.post(path, body)
    if status >= 400:
        raise LobbyError(f"POST {path} answered {status}: {answer}")
    return answer


async def _table_loop(
    http: LeanHTTP,
    ws_base: str,
    game: str,
    level: Level,
    rng: random.Random,
    first: Table,
    go: asyncio.Event,
    clock: list[float],
    movers: int = 0,
) -> None:
    """Play tables one after another (a finished game is replaced through the lobby); at most
    ``movers`` actions of a table in flight at once (0: each client has its own one)."""
    await go.wait()
    table: Table | None = first
    while time.monotonic() < clock[0]:
        try:
            sockets, tokens = table or await _open_table(http, ws_base, game)
        except (OSError, KeyError):  # LobbyError is a ConnectionError
            level.errors += 1
            table = None
            continue
        table = None
        turns = Turns(movers) if movers else None
        clients = [Client(level, random.Random(rng.random()), clock[0], turns) for _ in tokens]
        for client, sock, token in zip(clients, sockets, tokens, strict=True):
            client.start(sock, token)
        try:
            await _finish_plays(level, clients, clock[0])
        finally:
            for sock in sockets:
                await sock.close()
        if any(c.over for c in clients):
            level.games += 1


async def _finish_plays(level: Level, clients: list[Client], stop_at: float) -> None:
    """Wait for a table's clients until the game ends or the clock does, then for answers.

    At the end of the clock a client with no action in flight is done: waiting on it would wait
    for a move nobody makes any more (the players who could move have stopped). A client with
    an action in flight gets its answer, within 10 s, or the table counts as an error.
    """
    plays = [client.done for client in clients]
    await asyncio.wait(plays, timeout=max(0.0, stop_at - time.monotonic()))
    waiting = []
    for client, play in zip(clients, plays, strict=True):
        client.stopping = True  # from now on its next answer is its last message
        if play.done():
            continue
        if client.sent_at is None:
            play.cancel()  # idle: its socket closes with the table's
        else:
            waiting.append(play)
    pending: set[asyncio.Future[None]] = set()
    if waiting:
        _, pending = await asyncio.wait(waiting, timeout=10)
    for play in pending:
        play.cancel()
    failed = [p for p in plays if p.done() and not p.cancelled() and p.exception() is not None]
    if pending or failed:
        level.errors += 1
        level.stuck.append((clients, [repr(p.exception()) for p in failed]))


async def _probe(
    sockets: list[LeanSocket], token: str, level: Level, go: asyncio.Event, clock: list[float]
) -> None:
    """An idle table's player pings every 20 ms: how long the server's loop keeps it waiting."""
    ws = sockets[0]
    try:
        await ws.send(orjson.dumps({"type": "hello", "v": 1, "token": token}).decode())
        await go.wait()
        ref = 0
        while time.monotonic() < clock[0]:
            ref += 1
            sent = time.perf_counter()
            await ws.send(orjson.dumps({"type": "ping", "ref": ref}).decode())
            async for raw in ws:
                message = orjson.loads(raw)
                if message["type"] == "pong" and message.get("ref") == ref:
                    level.probe.append(time.perf_counter() - sent)
                    break
            await asyncio.sleep(0.02)
    finally:
        for sock in sockets:
            await sock.close()


async def _thinking_table(
    http: LeanHTTP,
    ws_base: str,
    rng: random.Random,
    go: asyncio.Event,
    clock: list[float],
) -> None:
    """Games of one random player and as many bots as the table seats of the registered bot
    that thinks longest (today critters' ``ismcts``: seven of them), one after another: the
    bots think hard, and the probe shows whether other tables wait for them."""
    slowest = max((e for name in game_names() for e in bot_entries(name)), key=lambda e: e.seconds)
    seats = get_game(slowest.game).info.max_players
    await go.wait()
    sink = Level("thinking", 0)  # its moves are not the level's
    while time.monotonic() < clock[0]:
        made = await _lobby(
            http,
            "/api/tables",
            {
                "game": slowest.game,
                "seats": seats,
                "name": "p1",
                "start": True,
                "bots": [{"bot": slowest.name}] * (seats - 1),
            },
        )
        async with await lean_connect(f"{ws_base}/ws/{made['code']}") as ws:
            client = Client(sink, random.Random(rng.random()), clock[0])
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(
                    client.play(ws, made["token"]), max(0.1, clock[0] - time.monotonic())
                )


async def _run_level(
    base: str,
    game: str,
    tables: int,
    seconds: float,
    pids: list[int],
    thinkers: int = 0,
    movers: int = 0,
    probe: bool = True,
) -> Level:
    """Open T tables (not timed), then play for ``seconds`` and count what the clients saw.

    Meanwhile an idle probe table pings the server (its loop latency; ``probe`` False: it only
    sits there, as a count of instructions per move wants: its pings come as fast as the server
    answers, so their cost per move follows the server's speed), and ``thinkers`` tables of
    searching bots play, off the count. ``movers``: see ``run_server_bench``.
    """
    level = Level(game, tables)
    rng = random.Random(tables)
    ws_base = base.replace("http://", "ws://")
    # keep-alive, as a browser does; an idle connection is dropped well before the server's own
    # 5 s keep-alive timeout would close it under a request
    host, _, port = base.removeprefix("http://").partition(":")
    async with LeanHTTP(host, int(port), keepalive=1.0, timeout=60) as http:
        tried = await asyncio.gather(
            *(_open_table(http, ws_base, game) for _ in range(tables + 1)), return_exceptions=True
        )
        opened = [t for t in tried if not isinstance(t, BaseException)]
        level.errors += len(tried) - len(opened)
        go = asyncio.Event()
        clock = [0.0]
        # No collections during the level: the clients' garbage is freed by reference counting
        # (cycles wait for the collection after it), and the young collections, which walked
        # the clients' decoded messages, were a tenth to a fifth of the generator's time.
        gc.collect()
        gc.disable()
        probe_sockets, probe_tokens = opened.pop()
        loops = [
            asyncio.ensure_future(
                _table_loop(http, ws_base, game, level, rng, t, go, clock, movers)
            )
            for t in opened
        ]
        if probe:
            loops.append(
                asyncio.ensure_future(_probe(probe_sockets, probe_tokens[0], level, go, clock))
            )
        loops += [
            asyncio.ensure_future(_thinking_table(http, ws_base, rng, go, clock))
            for _ in range(thinkers)
        ]
        cpu_before = sum(_cpu_seconds(pid) for pid in pids)
        own_before = time.process_time()
        start = time.monotonic()
        clock[0] = start + seconds
        go.set()
        try:
            await asyncio.gather(*loops)
        finally:
            gc.enable()
        if not probe:
            for sock in probe_sockets:
                await sock.close()
    level.seconds = time.monotonic() - start
    level.server_cpu = sum(_cpu_seconds(pid) for pid in pids) - cpu_before
    level.client_cpu = time.process_time() - own_before
    level.rss_mb = sum(_rss_mb(pid) for pid in pids)
    return level


def run_server_bench(
    games: list[str],
    table_counts: list[int],
    seconds: float,
    echo: Any = print,
    thinkers: int = 0,
    movers: int = 0,
    prelude: str = "",
    workers: int = 0,
    db: str | None = None,
) -> list[Level]:
    """Start a server on core 0, load it from core 1, print and return one row per level.

    ``thinkers``: that many extra tables of seven ``ismcts`` bots play during every level.
    ``movers``: at most that many of a table's clients have an action in flight at once (0:
    every client acts as soon as it may; 1: as in a turn-based game, whatever the game).
    ``prelude``: Python the server's process runs before it serves (a measuring script's
    instruments); the server is stopped with SIGTERM.
    ``workers``: that many worker processes behind nginx on PostgreSQL ``db`` instead (0: one
    process on a SQLite file, as ``bestiary serve`` runs by default).
    """
    load = partial(
        _levels, games=games, table_counts=table_counts, seconds=seconds, echo=echo,
        thinkers=thinkers, movers=movers,
    )  # fmt: skip
    if workers:
        if db is None or not db.startswith("postgresql"):
            raise ValueError("--workers needs a PostgreSQL --db (postgresql+psycopg://...)")
        return _bench_workers(load, echo, workers, db)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        server = subprocess.Popen(server_command(port, db, prelude), preexec_fn=lambda: _pin(0))
        _pin(1)
        settle_heap()
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_up(base, server)
            return load(base, [server.pid])
        finally:
            server.terminate()
            server.wait(timeout=30)


def server_command(port: int, db: str, prelude: str = "", seeded: bool = False) -> list[str]:
    """The one-process server the bench loads (``serve`` on ``db``, the lobby's limits lifted:
    every client of the load comes from 127.0.0.1), after ``prelude``. ``seeded``: as
    ``SEEDED_FLAGS`` (scripts/seeded_tables.py) make a served one, clients may choose each
    deal's seed and no clock moves a game on (so a counted run plays the same moves)."""
    table, lobby = ("turn_seconds=None, answer_seconds=36000.0,", "allow_seeds=True,")
    code = prelude + (
        "from bestiary.server.run import serve\n"
        "from bestiary.server.settings import ServerSettings\n"
        "from bestiary.server.table import TableSettings\n"
        f"serve(port={port}, db={db!r}, quiet=True, rate=5000.0,"
        f" settings=TableSettings({table if seeded else ''} grace_seconds=3600),"
        f" server=ServerSettings({lobby if seeded else ''} max_connections=5000,"
        " max_per_address=5000, tables_per_minute=1e6, joins_per_minute=1e6,"
        " seats_per_address=10**6))\n"
    )
    return [sys.executable, "-c", code]


# the lobby's limits lifted for a load from one address (as the one-process bench does)
BENCH_FLAGS = [
    "--max-connections", "5000", "--max-per-address", "5000", "--tables-per-minute", "1000000",
    "--joins-per-minute", "1000000", "--seats-per-address", "1000000", "--grace", "3600",
]  # fmt: skip


def _bench_workers(
    load: Callable[[str, list[int]], list[Level]], echo: Any, workers: int, db: str
) -> list[Level]:
    """The same load through nginx to ``workers`` worker processes on PostgreSQL ``db`` (worker
    ``k`` pinned to core ``k``, the load to the last core); the server's CPU is every worker's,
    nginx's is printed beside it (the routing's own cost)."""
    from bestiary.server.workers import Workers

    ports = [free_port() for _ in range(workers)]
    with Workers(
        db, workers, free_port(), ports=ports, serve_args=BENCH_FLAGS, pin=True
    ) as cluster:
        _pin((os.cpu_count() or 1) - 1)
        settle_heap()
        pids = [proc.pid for proc in cluster.procs if proc is not None]
        nginx = _family(cluster.nginx.pid) if cluster.nginx else []
        before = sum(_cpu_seconds(pid) for pid in nginx)
        levels = load(cluster.url, pids)
        routing = sum(_cpu_seconds(pid) for pid in nginx) - before
        moves = sum(level.moves for level in levels)
        echo(
            f"nginx (the routing) used {routing:.1f} CPU-s over these levels: "
            f"{moves / routing if routing else 0:,.0f} moves per routing CPU-s"
        )
        return levels


def _family(pid: int) -> list[int]:
    """A process and its children (nginx's master and its worker)."""
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return [pid, *(int(child) for child in children)]
    return [pid]


def _levels(
    base: str,
    pids: list[int],
    games: list[str],
    table_counts: list[int],
    seconds: float,
    echo: Any,
    thinkers: int,
    movers: int,
    probe: bool = True,
) -> list[Level]:
    echo(HEADER)
    levels = []
    for game in games:
        for tables in table_counts:
            level = _run(_run_level(base, game, tables, seconds, pids, thinkers, movers, probe))
            echo(level.row())
            levels.append(level)
    return levels


def _run(coro: Any) -> Level:
    try:
        import uvloop

        result: Level = uvloop.run(coro)
        return result
    except ImportError:
        return asyncio.run(coro)  # type: ignore[no-any-return]


def _wait_up(base: str, server: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server exited before it was up")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not come up within {seconds:g} s")
