"""What one client address may do: new tables and joins a minute, seats held, table sockets.

One process counts in memory. Behind several workers one client's requests land on many of
them (new tables on any worker, joins and sockets on each table's owner), and each worker
counting alone would give a client N times every limit. So a worker also counts in PostgreSQL,
the one thing every worker shares (:class:`SharedCounts`):

- rates (new tables, joins) are token buckets, one row per limit and address, spent by one
  atomic ``INSERT ... ON CONFLICT DO UPDATE`` on the database's clock;
- holdings (seats held, open table sockets) are counts each worker publishes for its own
  incarnation; the total is the sum over the workers whose lease holds, so a worker killed with
  ``-9`` stops counting when its lease runs out, and its tables' seats count again at whoever
  restores them. A new holding is claimed in one call that takes the address's lock, raises
  this worker's count and reads the total, and is given back when the total is over the limit:
  two workers racing for an address's last place never both accept.

The local counts are kept too, and hold alone while the database cannot be reached (logged).
It costs a round trip per rate, claim or changed count (a lobby request, a socket opened or
closed), none per move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

from bestiary.server.buckets import PerAddress
from bestiary.server.notices import libpq_url
from bestiary.server.settings import ServerSettings

if TYPE_CHECKING:
    import psycopg  # the postgres extra: imported when a worker starts counting

    from bestiary.server.ownership import Cluster

log = logging.getLogger("bestiary.server")

SCHEMA = [
    "SELECT pg_advisory_xact_lock(2702701)",  # two workers creating the schema at once
    """CREATE TABLE IF NOT EXISTS address_buckets (
        kind varchar(16), address text, tokens double precision NOT NULL,
        spent boolean NOT NULL, checked timestamptz NOT NULL, full_at timestamptz NOT NULL,
        PRIMARY KEY (kind, address))""",
    """CREATE TABLE IF NOT EXISTS address_holdings (
        kind varchar(16), address text, worker integer, incarnation text NOT NULL,
        held integer NOT NULL, PRIMARY KEY (kind, address, worker))""",
    # A claim in one round trip: the address's lock (held to the commit) makes the claims of
    # one address take turns, and the sum, read after it, sees every earlier claim committed.
    """CREATE OR REPLACE FUNCTION bestiary_claim(k text, a text, me integer, inc text,
        n integer) RETURNS bigint AS $$
    BEGIN
        PERFORM pg_advisory_xact_lock(hashtext(k || ' ' || a));
        INSERT INTO address_holdings (kind, address, worker, incarnation, held)
        VALUES (k, a, me, inc, n) ON CONFLICT (kind, address, worker)
        DO UPDATE SET incarnation = EXCLUDED.incarnation, held = EXCLUDED.held;
        RETURN (SELECT COALESCE(SUM(h.held), 0) FROM address_holdings h JOIN workers w
            ON w.idx = h.worker AND w.incarnation = h.incarnation AND w.expires > now()
            WHERE h.kind = k AND h.address = a);
    END $$ LANGUAGE plpgsql""",
]

# the bucket's tokens now: refilled since it was last checked, at most the burst
_REFILLED = (
    "LEAST(%(burst)s, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM now() - b.checked)) * %(rate)s)"
)
_LEFT = f"({_REFILLED} - CASE WHEN {_REFILLED} >= 1 THEN 1 ELSE 0 END)"
SPEND = f"""INSERT INTO address_buckets AS b (kind, address, tokens, spent, checked, full_at)
    VALUES (%(kind)s, %(address)s, %(burst)s - 1, true, now(),
        now() + make_interval(secs => 1 / %(rate)s))
    ON CONFLICT (kind, address) DO UPDATE SET
        tokens = {_LEFT},
        spent = {_REFILLED} >= 1,
        checked = GREATEST(b.checked, now()),
        full_at = GREATEST(b.checked, now())
            + make_interval(secs => (%(burst)s - {_LEFT}) / %(rate)s)
    RETURNING spent, tokens"""
CLAIM = "SELECT bestiary_claim(%(kind)s, %(address)s, %(me)s, %(inc)s, %(held)s)"
PUBLISH = """INSERT INTO address_holdings (kind, address, worker, incarnation, held)
    VALUES (%(kind)s, %(address)s, %(me)s, %(inc)s, %(held)s)
    ON CONFLICT (kind, address, worker) DO UPDATE
    SET incarnation = EXCLUDED.incarnation, held = EXCLUDED.held"""
FORGET = """DELETE FROM address_holdings
    WHERE kind = %(kind)s AND address = %(address)s AND worker = %(me)s"""
SWEEP = [
    "DELETE FROM address_buckets WHERE full_at < now()",
    """DELETE FROM address_holdings h WHERE NOT EXISTS (SELECT 1 FROM workers w
    WHERE w.idx = h.worker AND w.incarnation = h.incarnation AND w.expires > now())""",
]
SWEEP_SECONDS = 60.0  # full buckets and dead workers' counts are deleted this often, at most


class Refused(Exception):
    """A per-address limit said no: one sentence, and when to try again (None: not a rate)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SharedCounts:
    """This worker's side of the counts in PostgreSQL: one connection (autocommit: each
    statement its own transaction, one round trip) used by one thread, in the order asked (a
    later count of an address always lands after an earlier one)."""

    def __init__(self, cluster: Cluster) -> None:
        self.url = libpq_url(cluster.store.url)
        self.me = {"me": cluster.index, "inc": cluster.incarnation}
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quotas")
        self._conn: psycopg.Connection[Any] | None = None
        self._published: dict[tuple[str, str], int] = {}  # as last told to the database
        self._swept = time.monotonic()
        self._warned = 0.0
        self._jobs: set[asyncio.Future[Any]] = set()
        with self._connection().transaction():  # at start-up, before serving
            for statement in SCHEMA:
                self._connection().execute(statement)

    def _connection(self) -> psycopg.Connection[Any]:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self.url, autocommit=True)
        return self._conn

    async def _run(self, job: Callable[[psycopg.Connection[Any]], Any], fallback: Any) -> Any:
        """``job(connection)`` in the thread; ``fallback`` if the database fails."""
        import psycopg

        def work() -> Any:
            try:
                return job(self._connection())
            except psycopg.Error:
                if self._conn is not None:
                    self._conn.close()  # opened afresh next time
                raise

        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, work)
        except psycopg.Error as exc:
            if time.monotonic() > self._warned + 10:
                self._warned = time.monotonic()
                log.warning("per-address limits: counted by this worker alone for now: %s", exc)
            return fallback

    async def spend(self, kind: str, address: str, rate: float, burst: float) -> float | None:
        """Spend a token of ``address``'s bucket: None, else the seconds to wait for one."""
        asked = {"kind": kind, "address": address, "rate": rate, "burst": burst}

        def job(conn: psycopg.Connection[Any]) -> float | None:
            row = conn.execute(SPEND, asked).fetchone()
            assert row is not None
            spent, tokens = row
            return None if spent else max(0.0, (1.0 - tokens) / rate)

        wait: float | None = await self._run(job, None)
        return wait

    async def claim(self, kind: str, address: str, held: int) -> int:
        """Publish that this worker holds ``held`` of ``address``'s (a new one included), and
        read every worker's together (``held`` alone when the database is down); over the
        limit, the caller gives the new one back (:meth:`publish`)."""
        asked = {"kind": kind, "address": address, "held": held, **self.me}

        def job(conn: psycopg.Connection[Any]) -> int:
            row = conn.execute(CLAIM, asked).fetchone()
            assert row is not None
            self._published[kind, address] = held
            return int(row[0])

        total: int = await self._run(job, held)
        return total

    def publish(self, kind: str, address: str, held: int) -> None:
        """This worker holds ``held`` of ``address``'s (in the thread, in order; not awaited)."""
        task = asyncio.ensure_future(self._run(partial(self._publish, kind, address, held), None))
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def _publish(self, kind: str, address: str, held: int, conn: psycopg.Connection[Any]) -> None:
        key = (kind, address)
        if self._published.get(key, 0) != held:  # nothing to tell when it has not changed
            conn.execute(
                PUBLISH if held > 0 else FORGET,
                {"kind": kind, "address": address, "held": held, **self.me},
            )
            if held > 0:
                self._published[key] = held
            else:
                self._published.pop(key, None)
        if time.monotonic() > self._swept + SWEEP_SECONDS:
            self._swept = time.monotonic()
            for statement in SWEEP:
                conn.execute(statement)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        if self._conn is not None:
            self._conn.close()


class AddressLimits:
    """Every per-address limit of this process and, once :attr:`shared` is set (a worker), of
    every worker together. Runs on the event loop."""

    def __init__(self, limits: ServerSettings, held_here: Callable[[str], int]) -> None:
        self.limits = limits
        self.held_here = held_here  # seats an address holds at this process's tables
        per_minute = limits.tables_per_minute
        self.creations = PerAddress(per_minute / 60.0, max(1.0, per_minute))
        per_minute = limits.joins_per_minute
        self.joins = PerAddress(per_minute / 60.0, max(1.0, per_minute))
        self.sockets: Counter[str] = Counter()  # open table sockets per client address
        self.taking: Counter[str] = Counter()  # seats being taken right now (in flight)
        self.shared: SharedCounts | None = None

    async def new_table(self, address: str) -> None:
        """Refused unless ``address`` may open one more table now (refused ones count)."""
        await self._rate(self.creations, "tables", address, "new tables")

    async def take_seat(self, address: str, joining: bool) -> None:
        """Hold a place for one more seat of ``address``, or Refused; the caller then takes the
        seat (or not) and calls :meth:`seated` either way. Joins are rate-limited too."""
        if joining:
            await self._rate(self.joins, "joins", address, "seats taken")
        most = self.limits.seats_per_address
        held = self._seats(address)
        if held >= most:
            raise Refused(_too_many_seats(held))
        self.taking[address] += 1
        if self.shared is not None:
            total = await self.shared.claim("seats", address, self._seats(address))
            if total > most:
                self.seated(address)
                # (over the limit by more than one: others being given back right now)
                raise Refused(_too_many_seats(min(total - 1, most)))

    def seated(self, address: str) -> None:
        """The seat held for by :meth:`take_seat` is taken, or was refused."""
        self.taking[address] -= 1
        if not self.taking[address]:
            del self.taking[address]
        self.seats_changed({address})

    def seats_changed(self, addresses: set[str]) -> None:
        """Seats of these addresses were taken or given up at this process's tables."""
        if self.shared is not None:
            for address in addresses:
                self.shared.publish("seats", address, self._seats(address))

    def _seats(self, address: str) -> int:
        return self.held_here(address) + self.taking[address]

    async def open_socket(self, address: str) -> bool:
        """Count a new table socket of ``address`` in, or say no (too many)."""
        most = self.limits.max_per_address
        if self.sockets[address] >= most:
            return False
        self.sockets[address] += 1
        shared = self.shared
        if (
            shared is not None
            and await shared.claim("sockets", address, self.sockets[address]) > most
        ):
            self.close_socket(address)
            return False
        return True

    def close_socket(self, address: str) -> None:
        self.sockets[address] -= 1
        held = self.sockets[address]
        if not held:
            del self.sockets[address]
        if self.shared is not None:
            self.shared.publish("sockets", address, held)

    async def _rate(self, bucket: PerAddress, kind: str, address: str, what: str) -> None:
        wait = bucket.take(address)  # this process's own bucket holds when the database is down
        if wait is None and self.shared is not None:
            wait = await self.shared.spend(kind, address, bucket.rate, bucket.burst)
        if wait is not None:
            raise Refused(f"too many {what} from your address; try again in a minute.", wait)


def _too_many_seats(held: int) -> str:
    return (
        f"your address already holds {held} seats at open tables and games in play; "
        "leave one or finish a game first."
    )
