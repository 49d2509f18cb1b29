"""Where a live move's time goes: many tables in one process, without sockets, under cProfile.

    python scripts/profile_tables.py critters 50 8            # moves/s and moves per CPU-second
    python scripts/profile_tables.py critters 50 8 tottime    # and the profile, by own time

Each of T tables (4 seats, a real SQLite store in a temp dir, the real table actor and its
commit-before-send) is played by in-process clients that act on each new state of their own,
one action in flight, a meeting when one is open (as `bestiary bench server`'s clients do), for
S seconds; a finished game is replaced. The clients' own decoding is in the profile too.
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import random
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from bestiary.core.game import get_game
from bestiary.server.connection import Connection
from bestiary.server.store import Store
from bestiary.server.table import Table, TableSettings, hash_token


class Player(Connection):
    """A seat's client in the same process."""

    def __init__(self, table: Table, rng: random.Random, run: Run) -> None:
        super().__init__(None)
        self.table, self.rng, self.run = table, rng, run
        self.waiting = False

    def send_text(self, text: bytes) -> None:
        message = orjson.loads(text)
        if self.waiting and message.get("ref") == 1:
            self.waiting = False
            if message["type"] == "state":
                self.run.moves += 1
        if message["type"] != "state" or self.waiting or not message["legal"]:
            return
        if time.perf_counter() >= self.run.stop:
            return
        legal: list[dict[str, Any]] = message["legal"]
        meets = [a for a in legal if a["do"] == "meet"]
        action = self.rng.choice(meets or legal)
        self.waiting = True
        # sent as a real client would: after this message has arrived, not inside its sending
        asyncio.get_running_loop().call_soon(
            self.table.post, partial(self.table.act, self, action, 1)
        )


class Run:
    def __init__(self, game: str, seconds: float) -> None:
        self.game = game
        self.stop = time.perf_counter() + seconds
        self.moves = 0


async def play_tables(store: Store, run: Run, rng: random.Random) -> None:
    quiet = get_game(run.game).info.quiet_option
    options = {quiet: 5} if quiet else {}
    while time.perf_counter() < run.stop:
        code = f"P{rng.randrange(36**5):05d}"
        table = Table(code, run.game, options, 4, store, TableSettings(grace_seconds=3600))
        for i, seat in enumerate(table.seats):
            seat.name, seat.token_hash = f"p{i + 1}", hash_token(f"token{i}")
        table.start_actor()
        await table.ask(partial(table.begin, rng.randrange(2**32)))
        for i in range(4):
            player = Player(table, random.Random(rng.random()), run)
            await table.ask(partial(table.attach, player, f"token{i}", 1))
        while table.status == "playing" and time.perf_counter() < run.stop:
            await asyncio.sleep(0.05)
        await table.stop()


async def main(game: str, tables: int, seconds: float) -> None:
    store = Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'profile.sqlite'}")
    writer = asyncio.get_running_loop().create_task(store.run_writer())
    run = Run(game, seconds)
    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(play_tables(store, run, random.Random(i)) for i in range(tables)))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"{run.moves} moves in {wall:.1f} s: {run.moves / wall:,.0f}/s, "
        f"{run.moves / cpu:,.0f} per CPU-second (clients included)"
    )
    writer.cancel()


if __name__ == "__main__":
    game, tables, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    if len(sys.argv) > 4:
        profile = cProfile.Profile()
        profile.runcall(asyncio.run, main(game, tables, seconds))
        stats = pstats.Stats(profile).sort_stats(sys.argv[4])
        stats.print_stats(30)
        if sys.argv[5:]:  # what the named functions spend their time on
            stats.print_callees(*sys.argv[5:])
    else:
        asyncio.run(main(game, tables, seconds))
