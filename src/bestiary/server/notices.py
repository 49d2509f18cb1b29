"""Lobby changes from the other workers, heard through PostgreSQL's LISTEN/NOTIFY.

A worker sends each lobby change of its tables (``ownership.Cluster.write``) with ``pg_notify``
inside the commit that stores it; PostgreSQL delivers a notification only once its transaction
commits, so no process lists a table that is not durable. This listener keeps the other
workers' live tables (``Notices.others``) for the lobby's listing, and wakes the lease tick when
a worker joins or a table is handed over. It listens on the other workers' lobby channels only
(a worker's own changes are in its lobby already), and hands what one wake-up heard to the loop
in one call. A connection that breaks is opened again and the list
read afresh from the ``owners`` rows (notifications sent meanwhile are not queued for us).
The thread sleeps until its connection or its stop pipe has something to read: an idle worker
does not wake to look for nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import select
import threading
from typing import Any

import orjson
from sqlalchemy.engine import make_url

from bestiary.server.ownership import LIVE, LOBBY_CHANNEL, OWNERS_CHANNEL, Cluster

log = logging.getLogger("bestiary.server")


def libpq_url(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://...``) as the driver's own connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Notices:
    """Listens on its own connection in a thread; ``others`` is changed on the loop only."""

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        self.cluster, self.loop = cluster, loop
        self.others: dict[str, dict[str, Any]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listening, name="notices", daemon=True)
        self._ready = threading.Event()
        self._woken, self._wake = os.pipe()  # a byte on it: stop listening

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(10)  # listening before the lobby serves: no change falls between

    def stop(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        os.write(self._wake, b"!")
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            os.close(self._wake)
            os.close(self._woken)

    def _listening(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(libpq_url(self.cluster.store.url), autocommit=True) as conn:
                    for k in range(self.cluster.count):
                        if k != self.cluster.index:
                            conn.execute(f"LISTEN {LOBBY_CHANNEL.format(k)}")
                    conn.execute(f"LISTEN {OWNERS_CHANNEL}")
                    self._post(self._replace, self.cluster.others())
                    self._ready.set()
                    while not self._stop.is_set():
                        changes = [
                            change
                            for heard in conn.notifies(timeout=0)  # what has come, no waiting
                            if (change := self._heard(heard.channel, heard.payload))
                        ]
                        if changes:
                            self._post(self._changed, changes)
                        select.select([conn.fileno(), self._woken], [], [])
            except Exception as exc:  # the database went away: listen again when it is back
                self._ready.set()
                if not self._stop.is_set():
                    log.warning("lobby notices: %s; listening again in 1 s", exc)
                    self._stop.wait(1.0)

    def _heard(self, channel: str, payload: str) -> tuple[str, dict[str, Any]] | None:
        """A lobby change another worker sent (code, info); None: the owners' news."""
        if channel == OWNERS_CHANNEL:
            self.cluster.wake()
            return None
        news = orjson.loads(payload)
        info = news.get("info")
        if info is None:  # too big for a notification: read from its row
            info = self.cluster.lobby_of(news["code"]) or {"status": "gone"}
        return news["code"], info

    def _post(self, job: Any, *args: Any) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(job, *args)

    def _replace(self, others: dict[str, dict[str, Any]]) -> None:
        self.others = others

    def _changed(self, changes: list[tuple[str, dict[str, Any]]]) -> None:
        for code, info in changes:
            if info.get("status") in LIVE:
                self.others[code] = info
            else:
                self.others.pop(code, None)
