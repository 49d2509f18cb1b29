"""Who is at a table: sockets seated or watching, and a stand-in after a grace period.

A seat whose last socket left gets ``grace_seconds``; then a bot stands in until its player
is back. Every message to all sockets goes out through ``_tell`` or ``_announce``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bestiary.core.agent import default_bot
from bestiary.server.connection import Connection
from bestiary.server.protocol import PROTOCOL_VERSION, encode, error_message
from bestiary.server.seats import Seat
from bestiary.server.table_core import STORAGE_DOWN, TableCore, TableError


class Presence(TableCore):
    """Who is at a table: sockets seated or watching, and a stand-in after a grace period."""

    def attach(self, conn: Connection, token: str | None, version: int) -> None:
        """A socket said hello: seat it (with a valid token) or let it watch."""
        if self._hold(partial(self.attach, conn, token, version), reveals=True):
            return  # it will be sent the committed state, not one still being written
        if version != PROTOCOL_VERSION:
            conn.send(
                error_message("bad_version", f"this server speaks protocol {PROTOCOL_VERSION}.")
            )
            conn.close()
            return
        seat: Seat | None = None
        if token is not None:
            try:
                seat = self._seat_of(token)
            except TableError as err:
                conn.send(error_message("bad_token", str(err)))
                conn.close()
                return
        if seat is None and len(self.spectators) >= self.max_spectators:
            conn.send(error_message("full", "this table has as many watchers as it takes."))
            conn.close()
            return
        if seat is not None:
            self._seat_back(seat)  # before the view is made: it shows her turn with its clock
        conn.send(
            {
                "type": "welcome",
                "v": PROTOCOL_VERSION,
                "seat": seat.index if seat else None,
                "player": seat.name if seat else None,
                "table": self.info(),
            }
        )
        if self.state is not None:
            conn.send_text(self._state_message(seat.name if seat else None, [], None))
        if self.paused is not None:
            conn.send(error_message("storage", STORAGE_DOWN))
        if self.halted is not None:
            conn.send(error_message("halted", f"this game is halted: {self.halted}"))
        if seat is None:
            self.spectators.add(conn)
        else:
            conn.seat = seat.index
            seat.connections.add(conn)
            if len(seat.connections) == 1:
                self._announce()

    def detach(self, conn: Connection) -> None:
        self.spectators.discard(conn)
        if conn.seat is None:
            return
        seat = self.seats[conn.seat]
        seat.connections.discard(conn)
        if not seat.connections:
            self._seat_left(seat)
            self._announce()

    def _seat_back(self, seat: Seat) -> None:
        """A socket of ``seat``'s player came: no stand-in for it, and the one playing steps
        aside."""
        if seat.grace:
            seat.grace.cancel()
            seat.grace = None
        if seat.agent is not None and seat.bot is None:
            self._seat_agent(seat, None)

    def _seat_left(self, seat: Seat) -> None:
        if self.status != "playing" or seat.bot is not None or seat.grace is not None:
            return
        seat.grace = self._later(self.settings.grace_seconds, lambda: self._grace_over(seat))
        seat.grace_due = self.clock.now() + self.settings.grace_seconds

    def all_connections(self) -> list[Connection]:
        conns = list(self.spectators)
        for seat in self.seats:
            conns.extend(seat.connections)
        return conns

    def _grace_over(self, seat: Seat) -> None:
        seat.grace = None
        if seat.connections or self.status != "playing" or seat.name is None:
            return
        if self._hold(partial(self._grace_over, seat)):
            return
        try:
            name = self.settings.stand_in or default_bot(self.game_name, self._budget())
        except ValueError:
            return  # a game with no bot: the seat simply waits for its player
        self._seat_agent(seat, name)
        self._announce()

    def _announce(self) -> None:
        """Tell every socket at the table who sits where (seats, bots, presence, status)."""
        message = self._table_message()
        for conn in self.all_connections():
            conn.send_text(message)

    def _tell(self, message: dict[str, Any]) -> None:
        text = encode(message)
        for conn in self.all_connections():
            conn.send_text(text)
