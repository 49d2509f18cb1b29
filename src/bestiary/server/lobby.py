"""The lobby: every live table by its code, new tables, restore after a restart, replays."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from typing import Any

from bestiary.core.errors import RecordError
from bestiary.core.game import game_names, get_game, replay
from bestiary.server.protocol import public_event
from bestiary.server.store import Store
from bestiary.server.table import Table, TableError, TableSettings

log = logging.getLogger("bestiary.server")

# Codes people read aloud and type: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class Lobby:
    """Live tables (open or in play) in memory; finished ones are read from the store."""

    def __init__(self, store: Store, settings: TableSettings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self._replays: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._expiring: set[str] = set()
        self.keep_finished = 300.0

    def restore(self) -> int:
        """Bring back every open table and game in play from the store; returns how many."""
        count = 0
        for stored in self.store.load(["open", "playing"]):
            try:
                table = Table.restore(stored, self.store)
            except (RecordError, ValueError, KeyError) as err:
                log.error("table %s cannot be restored: %s", stored.code, err)
                continue
            self._add(table)
            table.post(table.resume)
            count += 1
        return count

    def _add(self, table: Table) -> None:
        self.tables[table.code] = table
        table.on_change = self._changed
        table.start_actor()

    def _changed(self, table: Table) -> None:
        # A finished table stays in memory a while for its sockets, then lives in the store.
        if table.status == "finished" and table.code not in self._expiring:
            self._expiring.add(table.code)
            asyncio.get_running_loop().call_later(
                self.keep_finished, lambda: asyncio.ensure_future(self._forget(table))
            )

    async def _forget(self, table: Table) -> None:
        self._expiring.discard(table.code)
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        await table.stop()

    def create(
        self,
        game: str,
        seats: int,
        options: dict[str, Any],
        settings: TableSettings | None = None,
    ) -> Table:
        """A new open table; the options are checked by dealing a trial game."""
        if game not in game_names():
            raise TableError(f"unknown game {game!r}; choose one of {', '.join(game_names())}.")
        rules = get_game(game)
        try:
            rules.info.check_player_count(seats)
        except ValueError as err:
            raise TableError(f"{err}.") from None
        try:
            rules.new_game([f"seat{i}" for i in range(seats)], options, 0)
        except (ValueError, TypeError) as err:
            raise TableError(f"bad options: {str(err).rstrip('.')}.") from None
        code = self._new_code()
        table = Table(code, game, options, seats, self.store, settings or self.settings)
        self._add(table)
        return table

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables and not self.store.exists(code):
                return code

    def get(self, code: str) -> Table:
        """The table called ``code``; a finished one is brought back from the store."""
        code = code.upper()
        table = self.tables.get(code)
        if table is not None:
            return table
        stored = self.store.get(code)
        if stored is None or stored.status != "finished":
            raise KeyError(code)
        table = Table.restore(stored, self.store)
        self._add(table)
        self._changed(table)
        return table

    def listing(self) -> dict[str, list[dict[str, Any]]]:
        """Open tables, games in play, and recent finished games (for the lobby page)."""
        live = [t.info() for t in self.tables.values() if t.status != "finished"]
        finished = [
            {
                "code": s.code,
                "game": s.game,
                "status": s.status,
                "players": [seat["name"] for seat in s.seats],
                "winners": s.winners or [],
                "finished": s.finished,
            }
            for s in self.store.finished()
        ]
        return {
            "open": [t for t in live if t["status"] == "open"],
            "playing": [t for t in live if t["status"] == "playing"],
            "finished": finished,
        }

    def record(self, code: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A finished game's record (header, events); KeyError if there is none to show."""
        stored = self.store.get(code.upper())
        if stored is None or stored.status != "finished" or stored.header is None:
            raise KeyError(code)
        return stored.header, stored.events

    def replay_frames(self, code: str) -> dict[str, Any]:
        """A finished game step by step: the public view after each event, then everything."""
        code = code.upper()
        if code in self._replays:
            self._replays.move_to_end(code)
            return self._replays[code]
        header, events = self.record(code)
        game = str(header["game"])
        rules = get_game(game)
        state = replay(header, [])
        frames = [{"event": None, "view": state.view(None)}]
        for event in events:
            state.apply(rules.action_from_event(event))
            frames.append({"event": public_event(game, event), "view": state.view(None)})
        result = {
            "code": code,
            "game": game,
            "players": header.get("players", []),
            "frames": frames,
            "summary": state.summary(),
            "header": header,
            "events": events,
        }
        self._replays[code] = result
        while len(self._replays) > 8:
            self._replays.popitem(last=False)
        return result

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.store.close()
