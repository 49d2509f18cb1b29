"""Tables shared by several server processes on one PostgreSQL database: who owns which.

Each process is **worker** ``k`` of ``n`` and holds a lease, a row of ``workers`` with an expiry
(the database's clock) that it renews every ``lease / 5`` seconds. Each live table has a row of
``owners`` naming the worker and incarnation (one start of the process) that owns it. A table is
owned by one incarnation at a time because the row is the only truth and every write is fenced:

- a worker's commits first lock its tables' ``owners`` rows (``FOR SHARE``) and find them its
  own (``Store.owners.check``), or nothing of those tables is committed and they are dropped;
- a takeover is an ``UPDATE`` of the row that names the dead owner, in the same transaction as
  the check that its lease has expired, so it waits for a commit in flight and wins only once;
- a worker creates only codes of its own shard (``shards``) and claims them in the commit that
  first stores them.

Every tick (in a thread: the database answers over a socket) a worker renews its lease, claims
the tables of expired workers that it is the first living worker for (the shard's order, the
order nginx tries them in), and reads which tables are its own; the lobby then restores those it
does not hold, hands those whose first choice is alive again back to it, and drops those it has
lost. Lobby changes travel by ``LISTEN/NOTIFY`` (``notices``), sent inside the commit that
stores them, so every process hears of a change exactly when it is durable.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from bestiary.server.shards import first_living
from bestiary.server.store import NotOwner, Store, Write

log = logging.getLogger("bestiary.server")

# a table's lobby info changed (created, joined, started...): each worker sends on a channel of
# its own and listens on the others', so that no worker wakes to hear of its own changes
LOBBY_CHANNEL = "bestiary_lobby_{}"
OWNERS_CHANNEL = "bestiary_owners"  # a worker joined or a table was handed over: look now
# PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: a bigger info is read from the row
PAYLOAD_LIMIT = 7000
LIVE = ("open", "playing")

SCHEMA = [
    "SELECT pg_advisory_xact_lock(2702700)",  # two workers creating the schema at once
    """CREATE TABLE IF NOT EXISTS workers (
        idx integer PRIMARY KEY,
        incarnation text NOT NULL,
        address text NOT NULL,
        expires timestamptz NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS owners (
        code varchar(16) PRIMARY KEY,
        worker integer NOT NULL,
        incarnation text NOT NULL,
        since timestamptz NOT NULL DEFAULT now(),
        lobby jsonb)""",
    "CREATE INDEX IF NOT EXISTS owners_worker ON owners (worker, incarnation)",
]

JOIN = text(
    """INSERT INTO workers (idx, incarnation, address, expires)
    VALUES (:me, :inc, :address, now() + make_interval(secs => :lease))
    ON CONFLICT (idx) DO UPDATE SET incarnation = EXCLUDED.incarnation,
        address = EXCLUDED.address, expires = EXCLUDED.expires
    WHERE workers.expires < now() OR workers.incarnation = EXCLUDED.incarnation
    RETURNING idx"""
)
LIVING = text("SELECT idx, incarnation FROM workers WHERE expires > now()")
ORPHANS = text(
    """SELECT o.code, o.worker, o.incarnation FROM owners o
    WHERE NOT EXISTS (SELECT 1 FROM workers w WHERE w.idx = o.worker
        AND w.incarnation = o.incarnation AND w.expires > now())
    ORDER BY o.code"""
)
UNOWNED = text(
    """SELECT t.code FROM tables t WHERE t.status IN ('open', 'playing')
    AND NOT EXISTS (SELECT 1 FROM owners o WHERE o.code = t.code) ORDER BY t.code"""
)
TAKE = text(
    """UPDATE owners SET worker = :me, incarnation = :inc, since = now()
    WHERE code = :code AND worker = :worker AND incarnation = :old"""
)
ADOPT = text(
    """INSERT INTO owners (code, worker, incarnation) VALUES (:code, :me, :inc)
    ON CONFLICT (code) DO NOTHING"""
)
MINE = text("SELECT code FROM owners WHERE worker = :me AND incarnation = :inc")
CHECK = text(
    """SELECT code, worker, incarnation FROM owners WHERE code = ANY(:codes)
    ORDER BY code FOR SHARE"""
)
OWN = text(
    """INSERT INTO owners (code, worker, incarnation, lobby)
    VALUES (:code, :me, :inc, CAST(:lobby AS jsonb))
    ON CONFLICT (code) DO UPDATE SET lobby = EXCLUDED.lobby
    WHERE owners.worker = :me AND owners.incarnation = :inc
    RETURNING code"""
)
# A group of moves: the fence and the insert in one statement (its own transaction, so one
# round trip). The owners rows are locked (FOR SHARE) until it commits, as CHECK locks them.
# The events come as one JSON array of [code, seq, line] (made by orjson, in C): arrays of
# text were dumped by psycopg in Python, element by element, a regular expression on each line.
FENCED_EVENTS = """WITH v AS (
    SELECT e->>0 AS code, (e->>1)::int AS seq, e->>2 AS line
    FROM json_array_elements(%s::json) AS e),
mine AS (
    SELECT code FROM owners
    WHERE code IN (SELECT code FROM v) AND worker = %s AND incarnation = %s
    FOR SHARE)
INSERT INTO events (code, seq, line)
SELECT v.code, v.seq, v.line FROM v JOIN mine ON mine.code = v.code"""
OWNED = "SELECT code FROM owners WHERE code = ANY(%s) AND worker = %s AND incarnation = %s"
RELEASE = text("DELETE FROM owners WHERE code = :code AND worker = :me AND incarnation = :inc")
HAND = text(
    """UPDATE owners SET worker = :to, incarnation = :to_inc, since = now()
    WHERE code = :code AND worker = :me AND incarnation = :inc RETURNING code"""
)
LEAVE = text("DELETE FROM workers WHERE idx = :me AND incarnation = :inc")
NOTIFY = text("SELECT pg_notify(:channel, :payload)")
OWNER_OF = text("SELECT worker FROM owners WHERE code = :code")
REMOTE = text("SELECT code, lobby FROM owners WHERE lobby IS NOT NULL AND worker <> :me")


class LeaseTaken(RuntimeError):
    """Another living process is this worker already; the message is one sentence."""


@dataclass
class Tick:
    """What one tick found: the tables this incarnation owns, and where to hand some over."""

    mine: set[str]
    started: float = 0.0  # time.monotonic() when the tick began: what it says held then
    hand: dict[str, tuple[int, str]] = field(default_factory=dict)  # code: (worker, incarnation)
    claimed: list[str] = field(default_factory=list)
    # the lease had run out before this tick (the process was stopped, or could not reach the
    # database): every table held here may have been taken and played on meanwhile
    lapsed: bool = False


class Cluster:
    """This process as worker ``index`` of ``count``: its lease, its fence, its ticks."""

    def __init__(
        self, store: Store, index: int, count: int, address: str, lease: float = 2.5
    ) -> None:
        if store.engine.dialect.name != "postgresql":
            raise ValueError("several workers share a PostgreSQL database, not " + store.url)
        if not 0 <= index < count:
            raise ValueError(f"worker {index} is not one of 0 to {count - 1}")
        self.store, self.index, self.count = store, index, count
        self.address, self.lease = address, lease
        self.incarnation = uuid.uuid4().hex[:12]
        self.engine: Engine = create_engine(store.url, pool_size=2, pool_pre_ping=True)
        self.valid_until = 0.0  # wall clock: this lease holds at least until then
        # Set when a tick finds the lease had run out, before it is renewed; cleared once the
        # lobby has dropped every table it held (Keeper.on_tick). Meanwhile nothing of any table
        # is committed: a copy held across a lapse is never written, nor shown, again.
        self.resetting = False
        self.on_tick: Callable[[Tick], None] | None = None  # run on the loop
        self.on_lost: Callable[[set[str]], None] | None = None  # run on the loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- joining ----------------------------------------------------------------------------

    def join(self, wait: float | None = None) -> Tick:
        """Create the tables, take this worker's lease (waiting out an earlier incarnation's,
        e.g. after a kill -9), claim what is ours: returns the first tick."""
        self.create_schema()
        deadline = time.monotonic() + (2 * self.lease + 1 if wait is None else wait)
        while True:
            with self.engine.begin() as conn:
                started = time.time()
                taken = conn.execute(JOIN, self._me(address=self.address, lease=self.lease))
                if taken.first() is not None:
                    self.valid_until = started + self.lease * 0.8
                    conn.execute(NOTIFY, {"channel": OWNERS_CHANNEL, "payload": "joined"})
                    break
            if time.monotonic() > deadline:
                raise LeaseTaken(
                    f"worker {self.index} is already running (its lease is being renewed); "
                    "stop it or choose another --worker"
                )
            time.sleep(self.lease / 5)
        log.info("worker %d of %d (%s) holds its lease", self.index, self.count, self.incarnation)
        self.store.owners = self
        return self.tick()

    def create_schema(self) -> None:
        with self.engine.begin() as conn:
            for statement in SCHEMA:
                conn.execute(text(statement))

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Tick in a thread from now on; what each tick finds goes to ``on_tick`` on ``loop``."""
        self._loop = loop
        self._thread = threading.Thread(target=self._ticking, name="lease", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Tick now (another worker joined, or handed a table over)."""
        self._wake.set()

    def stop_ticking(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def leave(self) -> None:
        """Stop ticking and give the lease up: the others take our tables at their next tick."""
        self.stop_ticking()
        try:
            with self.engine.begin() as conn:
                conn.execute(LEAVE, self._me())
                conn.execute(NOTIFY, {"channel": OWNERS_CHANNEL, "payload": "left"})
        except SQLAlchemyError as exc:
            log.warning("worker %d: could not give its lease up: %s", self.index, exc)
        self.engine.dispose()

    def _me(self, **more: Any) -> dict[str, Any]:
        return {"me": self.index, "inc": self.incarnation, **more}

    # -- ticks ------------------------------------------------------------------------------

    def _ticking(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.lease / 5)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                found = self.tick()
            except SQLAlchemyError as exc:  # the commits say loudly when the database is down
                log.warning("worker %d: lease tick failed: %s", self.index, exc)
                continue
            loop = self._loop
            if loop is not None and self.on_tick is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self.on_tick, found)

    def tick(self) -> Tick:
        """Renew the lease, claim orphaned tables that are ours to take, say what is ours."""
        began = time.monotonic()
        lapsed = self.lapsed()
        if lapsed:
            self.resetting = True  # before the renewal: no stale copy slips a commit in after it
        with self.engine.begin() as conn:
            started = time.time()
            renewed = conn.execute(JOIN, self._me(address=self.address, lease=self.lease))
            if renewed.first() is None:  # a newer incarnation is this worker: we own nothing
                log.critical("worker %d: another process took over this worker", self.index)
                return Tick(mine=set(), started=began)
            self.valid_until = started + self.lease * 0.8
            living = {row.idx: row.incarnation for row in conn.execute(LIVING)}
            claimed = []
            for row in conn.execute(ORPHANS).all():
                if first_living(row.code, self.count, living) == self.index:
                    took = conn.execute(
                        TAKE, self._me(code=row.code, worker=row.worker, old=row.incarnation)
                    )
                    if took.rowcount:
                        claimed.append(row.code)
            for row in conn.execute(UNOWNED).all():  # e.g. stored by a single process before
                ours = first_living(row.code, self.count, living) == self.index
                if ours and conn.execute(ADOPT, self._me(code=row.code)).rowcount:
                    claimed.append(row.code)
            mine = {row.code for row in conn.execute(MINE, self._me())}
        hand = {}
        for code in mine:
            best = first_living(code, self.count, living)
            if best is not None and best != self.index:
                hand[code] = (best, living[best])
        if claimed:
            log.warning("worker %d took over tables %s", self.index, ", ".join(claimed))
        return Tick(mine=mine, started=began, hand=hand, claimed=claimed, lapsed=lapsed)

    def lapsed(self) -> bool:
        """Whether the tables held here may be stale: the lease ran out, or a tick found it had
        and the lobby has not yet dropped them."""
        return self.resetting or time.time() > self.valid_until

    def reset_done(self) -> None:
        """The lobby dropped every table it held across the lapse: commits are fenced as usual."""
        self.resetting = False

    # -- the store's fence (Store.owners) ---------------------------------------------------

    def check(self, conn: Any, batch: Sequence[Write]) -> set[str]:
        codes = {row["code"] for kind, row in batch if kind in ("event", "table")}
        if self.resetting:
            return codes | {row["code"] for _, row in batch if "code" in row}
        if not codes:
            return set()
        created = {row["code"] for kind, row in batch if kind == "own" and row.get("new")}
        found = {row.code: row for row in conn.execute(CHECK, {"codes": sorted(codes)})}
        lost = set()
        for code in codes:
            row = found.get(code)
            if row is None:
                if code not in created:
                    lost.add(code)
            elif (row.worker, row.incarnation) != (self.index, self.incarnation):
                lost.add(code)
        return lost

    def write(self, conn: Any, kind: str, row: dict[str, Any]) -> None:
        code = row["code"]
        if self.resetting:
            raise NotOwner({code})
        if kind == "own":  # claim at creation, and every lobby change of a live table
            lobby = orjson.dumps(row["lobby"]).decode()
            if conn.execute(OWN, self._me(code=code, lobby=lobby)).first() is None:
                raise NotOwner({code})
            self._notify(conn, code, row["lobby"])
        elif kind == "release":  # finished or expired: nobody owns it any more
            conn.execute(RELEASE, self._me(code=code))
            self._notify(conn, code, row["lobby"])
        elif kind == "hand":
            to, to_inc = row["to"]
            if conn.execute(HAND, self._me(code=code, to=to, to_inc=to_inc)).first() is None:
                raise NotOwner({code})
            conn.execute(NOTIFY, {"channel": OWNERS_CHANNEL, "payload": f"hand {code} {to}"})
        else:
            raise ValueError(f"the store has no write of kind {kind!r}")

    def insert_events(self, cursor: Any, events: list[tuple[str, int, str]]) -> set[str]:
        if self.resetting:
            return {code for code, _, _ in events}
        me = (self.index, self.incarnation)
        cursor.execute(FENCED_EVENTS, (orjson.dumps(events).decode(), *me))
        if cursor.rowcount == len(events):
            return set()
        codes = sorted({code for code, _, _ in events})
        cursor.execute(OWNED, (codes, *me))
        return set(codes) - {row[0] for row in cursor.fetchall()}

    def _notify(self, conn: Any, code: str, lobby: dict[str, Any]) -> None:
        payload = orjson.dumps({"code": code, "info": lobby}).decode()
        if len(payload) > PAYLOAD_LIMIT:  # the listeners read it from the row
            payload = orjson.dumps({"code": code}).decode()
        conn.execute(NOTIFY, {"channel": LOBBY_CHANNEL.format(self.index), "payload": payload})

    def lost(self, codes: set[str]) -> None:
        log.error("worker %d lost tables %s to another", self.index, ", ".join(sorted(codes)))
        loop, lost = self._loop, self.on_lost
        if loop is not None and lost is not None and not loop.is_closed():
            loop.call_soon_threadsafe(lost, codes)

    # -- reads for the lobby ----------------------------------------------------------------

    def owner_of(self, code: str) -> int | None:
        """The worker that owns live table ``code`` now (None: no live table of that code)."""
        with self.engine.connect() as conn:
            row = conn.execute(OWNER_OF, {"code": code}).first()
        return None if row is None else int(row.worker)

    def others(self) -> dict[str, dict[str, Any]]:
        """Every other worker's live tables' lobby info, as last stored."""
        with self.engine.connect() as conn:
            rows = conn.execute(REMOTE, {"me": self.index}).all()
        return {row.code: row.lobby for row in rows if row.lobby.get("status") in LIVE}

    def lobby_of(self, code: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                text("SELECT lobby FROM owners WHERE code = :code"), {"code": code}
            ).first()
        return None if row is None else row.lobby
