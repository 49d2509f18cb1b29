"""A worker's lobby kept in line with what it owns (``ownership``) and hears (``notices``).

After each lease tick, on the event loop: tables this worker owns but does not hold are restored
from the store (a takeover after another worker's lease expired), tables whose first choice is
alive again are handed over to it (after everything they queued is committed), and tables it has
lost are dropped. A table that moves away tells each of its sockets ``moving`` and closes them;
the client reconnects (the web client does after a second), and nginx takes it to the owner.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from bestiary.server.ownership import LIVE, Cluster, Tick
from bestiary.server.shards import new_code
from bestiary.server.store import StoredTable

if TYPE_CHECKING:
    from bestiary.server.lobby import Lobby
    from bestiary.server.notices import Notices
    from bestiary.server.settings import ServerSettings
    from bestiary.server.table import Table

log = logging.getLogger("bestiary.server")

MOVING = "this table is moving to another server; reconnect in a moment."


class Moving(KeyError):
    """A live table another worker owns (or is about to): try again, through the proxy."""

    def __str__(self) -> str:
        return f"table {self.args[0]} is served by another worker right now; try again."


class Keeper:
    """The lobby side of ownership, for one worker (all of it runs on the event loop)."""

    def __init__(self, lobby: Lobby, cluster: Cluster, notices: Notices) -> None:
        self.lobby, self.cluster, self.notices = lobby, cluster, notices
        self.confirmed: set[str] = set()  # held tables a tick has found ours in the database
        self.handing: set[str] = set()
        self.loading: set[str] = set()
        self.gone: dict[str, float] = {}  # code: when it left us (older ticks do not bring it back)
        self.made: set[str] = set()  # tables made here whose first write is not yet queued
        self.since: dict[str, int] = {}  # code: which holding of it this is (for reports)
        self._holdings = 0
        self._jobs: set[asyncio.Future[None]] = set()
        self.restored = 0
        # who holds seats at each of our tables, so that the workers' shared per-address counts
        # hear of every change (quotas.AddressLimits.seats_changed)
        self.seated: dict[str, set[str]] = {}
        self.on_seats: Callable[[set[str]], None] | None = None
        cluster.on_tick = self.on_tick
        cluster.on_lost = self.on_lost

    def quiet(self) -> None:
        """Shutting down: no more ticks or notices (nothing is restored or dropped from now)."""
        self.cluster.on_tick = self.cluster.on_lost = None
        self.notices.stop()
        self.cluster.stop_ticking()

    def leave(self) -> None:
        """After the store is flushed: give the lease up, so the others take our tables now."""
        self.cluster.leave()

    # -- hooks of the lobby -----------------------------------------------------------------

    def new_code(self) -> str:
        """A code of this worker's own shard: nginx routes it here, and it is ours at once."""
        return new_code(self.cluster.index, self.cluster.count)

    def opening(self, code: str) -> None:
        """A table made here is about to be stored: that commit claims it."""
        self.made.add(code)

    def changed(self, table: Table) -> None:
        """A lobby change of one of our tables: stored and told to every worker, in one commit."""
        if table.code in self.handing:
            return
        self._seats_of(table.code, table)
        row: dict[str, Any] = {"code": table.code, "lobby": table.info()}
        if table.status in LIVE:
            if table.code in self.made:
                self.made.discard(table.code)
                row["new"] = True
                self._held(table.code)
            self.lobby.store.write("own", row)
        else:
            self.lobby.store.write("release", row)

    async def where(self, code: str) -> None:
        """A request for a table we do not hold: raise Moving if it is live somewhere (the
        owners' table is read beside the loop: StoreSlow if the database does not answer)."""
        if code in self.handing or code in self.loading:
            raise Moving(code)
        if await self.lobby.store.read(self.cluster.owner_of, code) is not None:
            raise Moving(code)

    def others(self) -> list[dict[str, Any]]:
        """Other workers' live tables for the lobby's listing."""
        held = self.lobby.tables
        return [info for code, info in self.notices.others.items() if code not in held]

    def report(self) -> dict[str, Any]:
        """What this worker believes it owns, and until when (wall clock) its lease holds."""
        held = [
            code
            for code, table in self.lobby.tables.items()
            if table.status in LIVE and code not in self.handing
        ]
        return {
            "worker": self.cluster.index,
            "incarnation": self.cluster.incarnation,
            "valid_until": self.cluster.valid_until,
            "now": time.time(),
            # a holding's name: the same name on two reports means held all the time between
            "tables": {code: f"{self.cluster.incarnation}.{self.since.get(code)}" for code in held},
        }

    # -- ticks ------------------------------------------------------------------------------

    def first(self, tick: Tick) -> int:
        """At start-up (before serving): restore every table the first tick found ours."""
        count = 0
        for code in sorted(tick.mine):
            stored = self.lobby.store.get(code)
            if stored is not None and self._adopt(stored):
                count += 1
        return count

    def on_tick(self, tick: Tick) -> None:
        if tick.lapsed:
            self.lapse()
            self.cluster.reset_done()
        held = {code for code, t in self.lobby.tables.items() if t.status in LIVE}
        self.confirmed |= held & tick.mine
        for code in held - tick.mine:
            if code in self.confirmed and code not in self.handing:
                self._drop(code)
        # a table held here in any status (a game just over, its release not yet committed) is
        # not read back from the store: it could not be adopted anyway
        for code in tick.mine - self.lobby.tables.keys() - self.loading - self.handing:
            if self.gone.get(code, -1.0) < tick.started:
                self._spawn(self._load(code, tick.started))
        for code, to in tick.hand.items():
            if code in held and code not in self.handing:
                self._spawn(self._hand(code, to))

    def lapse(self) -> None:
        """Our lease ran out (the process was stopped, or lost the database): every live table
        held here may have been taken over and played on. Drop them all, now, before anything
        of them is shown or committed; those still ours are read back from the store."""
        live = [code for code, t in self.lobby.tables.items() if t.status in LIVE]
        if live:
            log.warning(
                "worker %d: its lease ran out; dropped %d tables, to be read back from the store",
                self.cluster.index,
                len(live),
            )
        for code in live:
            self._drop(code)

    def check_lease(self, code: str) -> None:
        """Before a table held here is shown: Moving (all of them dropped) if the lease ran out."""
        if self.cluster.lapsed():
            self.lapse()
            raise Moving(code)

    def on_lost(self, codes: set[str]) -> None:
        for code in codes:
            self._drop(code)

    def _seats_of(self, code: str, table: Table | None) -> None:
        """Table ``code``'s seated addresses changed (None: it is no longer ours)."""
        now = set()
        if table is not None and table.status in LIVE:
            now = {s.address for s in table.seats if s.address is not None and s.bot is None}
        before = self.seated.pop(code, set())
        if now:
            self.seated[code] = now
        if (before or now) and self.on_seats is not None:
            self.on_seats(before | now)

    def _spawn(self, job: Any) -> None:
        task = asyncio.ensure_future(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def _held(self, code: str) -> None:
        self._holdings += 1
        self.since[code] = self._holdings

    def _adopt(self, stored: StoredTable, restored: Table | None = None) -> bool:
        if stored.status not in LIVE or stored.code in self.lobby.tables:
            return False
        table = self.lobby.adopt(stored, restored)
        if table is None:
            return False
        self._held(table.code)
        self.confirmed.add(table.code)
        self._seats_of(table.code, table)
        self.lobby.store.write("own", {"code": table.code, "lobby": table.info()})
        return True

    async def _load(self, code: str, started: float) -> None:
        self.loading.add(code)
        try:  # read, and replayed from its record (the long part), beside the loop
            stored, restored = await asyncio.get_running_loop().run_in_executor(
                None, self.lobby.read_back, code
            )
        finally:
            self.loading.discard(code)
        if stored is None or restored is None:
            return
        if self.gone.get(code, -1.0) < started and self._adopt(stored, restored):
            log.warning("worker %d restored table %s", self.cluster.index, code)

    async def _hand(self, code: str, to: tuple[int, str]) -> None:
        """Give ``code`` to worker ``to``: after everything it queued is committed."""
        table = self.lobby.tables.get(code)
        if table is None:
            return
        self.handing.add(code)
        try:
            table.paused = MOVING  # no more moves here; what is in flight is committed first
            table.store.write("hand", {"code": code, "to": list(to)})
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            table.store.commit(partial(_settle, done))
            await done
            log.info("worker %d handed table %s to worker %d", self.cluster.index, code, to[0])
            self._drop(code)
            self.cluster.wake()
        finally:
            self.handing.discard(code)

    def _drop(self, code: str) -> None:
        table = self.lobby.tables.pop(code, None)
        self.gone[code] = time.monotonic()
        self.confirmed.discard(code)
        self.since.pop(code, None)
        self._seats_of(code, None)
        if table is not None:
            table.move_out(MOVING)
            self._spawn(table.stop())


def _settle(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


def join(lobby: Lobby, limits: ServerSettings) -> Keeper:
    """Make this process worker ``limits.worker`` of ``limits.workers`` (blocking: start-up,
    before serving): its lease taken, its tables restored, notices heard and ticks running."""
    from bestiary.server.notices import Notices

    assert limits.worker is not None
    loop = asyncio.get_running_loop()
    cluster = Cluster(
        lobby.store, limits.worker, limits.workers, limits.address, limits.lease_seconds
    )
    notices = Notices(cluster, loop)
    keeper = Keeper(lobby, cluster, notices)
    lobby.keeper = keeper
    cluster.create_schema()
    notices.start()  # listening before anything is restored: no change falls between
    keeper.restored = keeper.first(cluster.join())
    cluster.start(loop)
    return keeper
