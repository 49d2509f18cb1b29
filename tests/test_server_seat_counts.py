"""The lobby keeps a count of each address's seats (each join asks, and scanning every live table
made a join O(tables)); it must be the one a scan of every table gives, whatever joins, leaves,
starts, expiries and tables forgotten or handed away came before."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.server.lobby import Lobby
from bestiary.server.store import Store
from bestiary.server.table import Table, TableError, TableSettings

ADDRESSES = ("192.0.2.1", "192.0.2.2", "198.51.100.9")

# (what, which table, which address)
Step = tuple[str, int, int]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["open", "join", "leave", "start", "expire", "forget"]),
        st.integers(0, 5),
        st.integers(0, len(ADDRESSES) - 1),
    ),
    max_size=40,
)


def _scanned(lobby: Lobby, address: str) -> int:
    return sum(t.seats_of(address) for t in lobby.tables.values())


async def _play(steps: list[Step], folder: Path) -> None:
    store = Store(f"sqlite:///{folder / 'seats.sqlite'}")
    lobby = Lobby(store, TableSettings(grace_seconds=3600))
    tables: list[Table] = []
    tokens: dict[str, list[str]] = {}  # table code: tokens of its seats taken by people
    for what, which, who in steps:
        address = ADDRESSES[who]
        table = tables[which % len(tables)] if tables else None
        try:
            if what == "open" or table is None:
                table = await lobby.create("critters", 3, {})
                _, token = table.join("host", 0, address)
                lobby.open(table)
                tables.append(table)
                tokens[table.code] = [token]
            elif what == "join":
                tokens[table.code].append(
                    table.join(f"p{len(tokens[table.code])}", None, address)[1]
                )
            elif what == "leave" and len(tokens[table.code]) > 1:
                table.leave(tokens[table.code].pop())
            elif what == "start":
                for seat in table.seats[1:]:
                    if seat.is_open:
                        table.add_bot(tokens[table.code][0], "random", seat.index, None)
                table.start(tokens[table.code][0])
            elif what == "expire":
                table.expire()
            elif what == "forget" and table.code in lobby.tables:
                if who:  # as the lobby forgets a finished or expired table
                    del lobby.tables[table.code]
                else:  # as a worker hands a table in play to another (keeper)
                    lobby.tables.pop(table.code, None)
                await table.stop()
        except TableError:
            pass  # refused as the rules say (a full table, a game already started...)
        for address in ADDRESSES:
            assert lobby.tables.held(address) == _scanned(lobby, address), (what, address)
    for table in tables:
        await table.stop()
    store.close()


@settings(max_examples=60, deadline=None)
@given(STEPS)
def test_an_address_seats_are_counted_as_a_scan_of_every_table_counts_them(
    steps: list[Step],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_play(steps, Path(folder)))
