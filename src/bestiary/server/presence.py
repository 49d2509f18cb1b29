"""Who is at a table: the sockets of each seat, the watchers, and each absent seat's grace.

A seat whose last socket left gets a grace period (``start_grace``); when it ends, the table
decides what happens (a stand-in). Every message to all sockets goes out through ``send``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bestiary.server.connection import Connection
from bestiary.server.seats import Seat
from bestiary.server.table_settings import TableClock

Post = Callable[[Callable[[], None]], None]  # runs a job inside the table's actor


class Presence:
    """The sockets at a table of ``seats``, and the grace timers of absent seats."""

    def __init__(
        self, seats: list[Seat], clock: TableClock, post: Post, max_spectators: int = 200
    ) -> None:
        self.seats = seats
        self.clock = clock
        self.post = post
        self.spectators: set[Connection] = set()
        self.max_spectators = max_spectators

    def room_to_watch(self) -> bool:
        return len(self.spectators) < self.max_spectators

    def add(self, conn: Connection, seat: Seat | None) -> bool:
        """``conn`` sits at ``seat`` (None: watches); True when it is that seat's first."""
        if seat is None:
            self.spectators.add(conn)
            return False
        conn.seat = seat.index
        seat.connections.add(conn)
        return len(seat.connections) == 1

    def remove(self, conn: Connection) -> Seat | None:
        """``conn`` has gone; the seat it leaves empty, if it does."""
        self.spectators.discard(conn)
        if conn.seat is None:
            return None
        seat = self.seats[conn.seat]
        seat.connections.discard(conn)
        return None if seat.connections else seat

    def connections(self) -> list[Connection]:
        conns = list(self.spectators)
        for seat in self.seats:
            conns.extend(seat.connections)
        return conns

    def send(self, text: bytes) -> None:
        for conn in self.connections():
            conn.send_text(text)

    def close_all(self) -> None:
        for conn in self.connections():
            conn.close()

    def start_grace(self, seat: Seat, seconds: float, over: Callable[[Seat], None]) -> None:
        """``seat``'s player has ``seconds`` to come back; then ``over(seat)`` runs (unless a
        grace already runs for it)."""
        if seat.grace is not None:
            return

        def ended() -> None:
            seat.grace = None
            over(seat)

        seat.grace = self.clock.later(seconds, partial(self.post, ended))
        seat.grace_due = self.clock.now() + seconds

    @staticmethod
    def end_grace(seat: Seat) -> None:
        if seat.grace:
            seat.grace.cancel()
        seat.grace = None

    def end_graces(self) -> None:
        for seat in self.seats:
            self.end_grace(seat)
