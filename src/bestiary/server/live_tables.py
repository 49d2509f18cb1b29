"""The lobby's live tables by code, which also count the seats each client address holds at them.

Every seat taken through the lobby asks how many its address already holds. Counting them by a
scan of every live table made each join O(tables), and the load of ``bestiary bench server``
comes from one address, so every join scanned them all. Here each table's share is noted when
the table changes (every change of a seat or of the status is saved, and the lobby hears of it)
and dropped when the table leaves the mapping, however it leaves (expired, forgotten, handed to
another worker), so the count is always what that scan would find.
"""

from __future__ import annotations

from collections import Counter, UserDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bestiary.server.table import Table


class LiveTables(UserDict[str, "Table"]):
    """Live tables by code, and the seats each client address holds at them."""

    def __init__(self) -> None:
        super().__init__()
        self._held: Counter[str] = Counter()
        self._shares: dict[str, Counter[str]] = {}  # code: that table's seats by address

    def __setitem__(self, code: str, table: Table) -> None:
        super().__setitem__(code, table)
        self.recount(table)

    def __delitem__(self, code: str) -> None:
        super().__delitem__(code)
        self._take_share(code)

    def held(self, address: str) -> int:
        """Seats a person from client ``address`` holds at these tables."""
        return self._held.get(address, 0)

    def recount(self, table: Table) -> None:
        """``table``'s seats changed (or its status): its share is counted again."""
        if self.data.get(table.code) is not table:
            return  # not (or no longer) one of these tables
        self._take_share(table.code)
        share = Counter(table.seated_addresses())
        if share:
            self._shares[table.code] = share
            self._held.update(share)

    def _take_share(self, code: str) -> None:
        held = self._held
        for address, seats in self._shares.pop(code, Counter()).items():
            held[address] -= seats
            if held[address] <= 0:
                del held[address]
