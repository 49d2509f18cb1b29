"""Durable before visible: a table's outbox of messages waiting for their events' commit, and its
line of jobs waiting their turn.

``Outbox``: the messages made from each group of new events wait there while the store commits
the events; the store says when everything queued so far is committed, in the order asked, and
only then are the oldest group's messages sent. ``Line``: jobs that would touch the game while
bots think or events are being committed wait, in order, and run once they may.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from bestiary.server.connection import Connection
from bestiary.server.metrics import COMMITS

log = logging.getLogger("bestiary.server")

Sends = list[tuple[list[Connection], bytes]]  # each message, with the sockets it goes to


class Outbox:
    """Messages waiting for the commit of the events they show, oldest first. The table asks the
    store to commit (``Store.commit``), which calls back in the order it was asked, and sends
    the oldest group then."""

    def __init__(self) -> None:
        self._groups: deque[tuple[Sends, int, float]] = deque()  # messages, events, since

    @property
    def unsent(self) -> int:
        """Groups of events made but not yet committed (so not yet sent)."""
        return len(self._groups)

    def add(self, sends: Sends, events: int) -> None:
        self._groups.append((sends, events, time.perf_counter()))

    def send_oldest(self) -> None:
        """The oldest group's events are committed: its messages go out."""
        sends, events, since = self._groups.popleft()
        COMMITS.committed(events, time.perf_counter() - since)
        for conns, text in sends:
            for conn in conns:
                conn.send_text(text)


class Line:
    """Jobs waiting their turn, in order (of table ``name``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._held: deque[tuple[Callable[[], None], bool]] = deque()
        self._running = False

    def __bool__(self) -> bool:
        return bool(self._held)

    def waiting(self) -> bool:
        """Jobs wait, and none of them is running now (a job that runs may itself go on)."""
        return bool(self._held) and not self._running

    def keep(self, job: Callable[[], None], reveals: bool = False) -> None:
        if self._running:
            self._held.appendleft((job, reveals))  # it was first in line: it stays first
        else:
            self._held.append((job, reveals))

    def run(self, may_go: Callable[[bool], bool]) -> bool:
        """Run the jobs that may run now, in order: ``may_go(reveals)`` says whether the first
        may (``reveals``: the job shows the state, so it waits for every commit). False when
        already running (a waiting job's own events: the loop running it goes on)."""
        if self._running:
            return False
        self._running = True
        try:
            while self._held:
                job, reveals = self._held[0]
                if not may_go(reveals):
                    break
                self._held.popleft()
                try:
                    job()
                except Exception:
                    log.exception("table %s: job failed", self.name)
        finally:
            self._running = False
        return True
