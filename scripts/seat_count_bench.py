"""CPU time of counting one address's seats when it joins, at T live tables all seated from that
address (as ``bestiary bench server``'s clients are): the scan every join made before (each live
table's ``seats_of``) against the count the lobby keeps (``LiveTables.held``).

    python scripts/seat_count_bench.py 200
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bestiary.server.lobby import Lobby
from bestiary.server.store import Store
from bestiary.server.table import TableSettings

ADDRESS = "127.0.0.1"
COUNTS = 20_000


async def main(tables: int) -> None:
    store = Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'seats.sqlite'}")
    lobby = Lobby(store, TableSettings())
    for _ in range(tables):
        table = lobby.create("critters", 4, {})
        for seat in range(4):
            table.join(f"p{seat}", seat, ADDRESS)
        lobby.open(table)
    live = list(lobby.tables.values())
    ways: list[tuple[str, Callable[[], int]]] = [
        ("scan", lambda: sum(t.seats_of(ADDRESS) for t in live)),
        ("kept", lambda: lobby.tables.held(ADDRESS)),
    ]
    for name, count in ways:
        assert count() == 4 * tables
        started = time.process_time()
        for _ in range(COUNTS):
            count()
        spent = (time.process_time() - started) / COUNTS
        print(f"{tables} tables, {name}: {spent * 1e6:8.2f} us a count")
    for table in live:
        await table.stop()
    store.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
