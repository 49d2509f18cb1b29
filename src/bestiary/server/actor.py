"""A table's actor: the one task that runs every job touching the table, one at a time.

Everything that touches a table goes through :meth:`Actor.post` (or :meth:`Actor.ask`, which
waits for the job's result). A job posted while the actor is idle runs at once (the loop runs one
callback at a time, so nothing else is inside it meanwhile: this saves a task switch per move);
otherwise it is queued after what is waiting. One failing job is logged and the actor goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TypeVar

log = logging.getLogger("bestiary.server")

T = TypeVar("T")


class Actor:
    """An inbox of jobs, run in order by one task (``start``) until ``stop``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._inbox: asyncio.Queue[Callable[[], None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._running = False  # a job is running (a job it posts waits its turn)

    @property
    def started(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def idle(self) -> bool:
        """Nothing queued (a job may be running: the one asking)."""
        return self._inbox.empty()

    async def _run(self) -> None:
        while True:
            self.run(await self._inbox.get())

    def run(self, job: Callable[[], None]) -> None:
        """Run ``job`` now, as a job of this actor (a callback the loop runs while the actor is
        idle, such as the store's word that a commit is done)."""
        self._running = True
        try:
            job()
        except Exception:  # one bad job must not stop the table
            log.exception("table %s: job failed", self.name)
        finally:
            self._running = False

    def post(self, job: Callable[[], None]) -> None:
        """Run ``job`` inside the actor: at once when it is idle, else after what waits."""
        if self._running or self._task is None or not self._inbox.empty():
            self._inbox.put_nowait(job)
        else:
            self.run(job)

    async def ask(self, job: Callable[[], T]) -> T:
        """Run ``job`` inside the actor and return its result (or raise its error)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def run() -> None:
            try:
                result = job()
            except Exception as err:
                future.set_exception(err)
            else:
                future.set_result(result)

        self.post(run)
        return await future
