"""A table's seats: who sits where, under which name, holding which token.

Each name is checked against the others (normalized, not confusable) and each seat holds the
hash of its token, never the token. What may happen when (the table open, the host's say) is
the table's to decide; this part only keeps the seats consistent.
"""

from __future__ import annotations

import secrets
from typing import Any

from bestiary.core.agent import bot_entries
from bestiary.server.names import BadName, confusable, normalize_name
from bestiary.server.protocol import error_message
from bestiary.server.seats import Seat, hash_token


class TableError(ValueError):
    """A lobby request the table refuses; the message is one readable sentence."""


def sentence(err: BaseException) -> str:
    """An error's first argument as one sentence, ending with a full stop."""
    text = str(err.args[0]) if err.args else type(err).__name__
    text = text.strip().rstrip(".")
    return text + "."


def check_bot(game: str, bot: str) -> None:
    """TableError unless ``game`` has a bot called ``bot``."""
    known = [e.name for e in bot_entries(game)]
    if bot not in known:
        raise TableError(f"no bot called {bot!r} for {game} (known: {', '.join(known) or 'none'}).")


class Seating:
    """The seats of table ``code`` (a game of ``game``)."""

    def __init__(self, code: str, game: str, count: int) -> None:
        self.code = code
        self.game = game
        self.seats = [Seat(i) for i in range(count)]

    def join(self, name: str, seat: int | None, address: str | None) -> tuple[Seat, str]:
        """Seat a person called ``name`` (from client ``address``); returns the seat and its
        token (sockets holding the seat's former token are closed)."""
        name = self.check_name(name)
        chosen = self.open_seat(seat)
        token = secrets.token_urlsafe(24)
        self.unseat_sockets(chosen, "this seat has a new player.")
        chosen.name, chosen.bot, chosen.token_hash = name, None, hash_token(token)
        chosen.address = address
        return chosen, token

    def add_bot(self, bot: str, seat: int | None, name: str | None) -> Seat:
        check_bot(self.game, bot)
        chosen = self.open_seat(seat)
        chosen.name, chosen.bot = self.check_name(name or f"{bot}-{chosen.index + 1}"), bot
        return chosen

    def empty(self, seat: Seat, why: str) -> None:
        """``seat`` is open again (before the start); its sockets are told ``why`` and closed."""
        self.unseat_sockets(seat, why)
        seat.name = seat.bot = seat.token_hash = seat.address = None

    def other(self, seat: int) -> Seat:
        """Another seat than the host's, taken by someone."""
        if not 0 < seat < len(self.seats):
            raise TableError(f"there is no other seat {seat} at this table.")
        chosen = self.seats[seat]
        if chosen.is_open:
            raise TableError(f"seat {seat} is empty.")
        return chosen

    def seat_of(self, token: str | None) -> Seat:
        if token:
            digest = hash_token(token)
            for seat in self.seats:
                if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                    return seat
        raise TableError("that seat token does not belong to this table.")

    def host(self, token: str, doing: str) -> None:
        """TableError unless ``token`` is the host's (the first seat's)."""
        if self.seat_of(token).index != 0:
            raise TableError(f"only the host (the first seat) can {doing}.")

    def full(self) -> bool:
        return not any(seat.is_open for seat in self.seats)

    def addresses(self) -> list[str]:
        """The client address of each seat a person holds."""
        return [s.address for s in self.seats if s.address is not None and s.bot is None]

    def shown(self, seat: Seat, now: float) -> dict[str, Any]:
        shown = seat.as_json()
        if seat.grace is not None:  # a client shows the countdown to the stand-in
            shown["grace_seconds"] = round(max(0.0, seat.grace_due - now), 1)
        return shown

    def restore(self, stored: list[dict[str, Any]]) -> None:
        for seat, saved in zip(self.seats, stored, strict=True):
            seat.name, seat.bot, seat.token_hash = saved["name"], saved["bot"], saved["token_hash"]
            seat.address = saved.get("address")

    @staticmethod
    def unseat_sockets(seat: Seat, why: str) -> None:
        """The seat's token is no longer valid: every socket that holds it is closed."""
        for conn in seat.connections:
            conn.seat = None
            conn.send(error_message("unseated", why))
            conn.close()
        seat.connections.clear()

    def check_name(self, name: str) -> str:
        """The name as it will be shown (NFKC, visible), unless one like it is already here."""
        try:
            name = normalize_name(name)
        except BadName as err:
            raise TableError(str(err)) from None
        taken = confusable(name, [s.name for s in self.seats if s.name is not None])
        if taken == name:
            raise TableError(f"the name {name!r} is already taken at this table.")
        if taken is not None:
            raise TableError(f"the name {name!r} looks too much like {taken!r}, already here.")
        return name

    def open_seat(self, seat: int | None) -> Seat:
        if seat is None:
            for candidate in self.seats:
                if candidate.is_open:
                    return candidate
            taken = f"every seat at table {self.code} is taken"
            raise TableError(f"{taken}; the host can free one, or you can watch.")
        if not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {seat} at this table.")
        if not self.seats[seat].is_open:
            raise TableError(f"seat {seat} is taken.")
        return self.seats[seat]
