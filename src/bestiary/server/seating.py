"""A table's seats in the lobby: joining, leaving, bots and the host's removals.

Each name is checked against the others (normalized, not confusable) and each seat holds
the hash of its token, never the token.
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import Any

from bestiary.core.agent import bot_entries, default_bot
from bestiary.server.names import BadName, confusable, normalize_name
from bestiary.server.protocol import error_message
from bestiary.server.seats import Seat, hash_token
from bestiary.server.table_core import TableCore, TableError


def check_bot(game: str, bot: str) -> None:
    """TableError unless ``game`` has a bot called ``bot``."""
    known = [e.name for e in bot_entries(game)]
    if bot not in known:
        raise TableError(f"no bot called {bot!r} for {game} (known: {', '.join(known) or 'none'}).")


class Seating(TableCore):
    """A table's seats in the lobby: joining, leaving, bots and the host's removals."""

    def _seat_json(self, seat: Seat) -> dict[str, Any]:
        shown = seat.as_json()
        if seat.grace is not None:  # a client shows the countdown to the stand-in
            shown["grace_seconds"] = round(max(0.0, seat.grace_due - self.clock.now()), 1)
        return shown

    def join(self, name: str, seat: int | None, address: str | None = None) -> tuple[int, str]:
        """Seat a human called ``name`` (from client ``address``); returns (seat, token)."""
        self._require_open()
        name = self._check_name(name)
        chosen = self._open_seat(seat)
        token = secrets.token_urlsafe(24)
        self._unseat_sockets(chosen, "this seat has a new player.")
        chosen.name, chosen.bot, chosen.token_hash = name, None, hash_token(token)
        chosen.address = address
        self._lobby_changed()
        return chosen.index, token

    def seats_of(self, address: str) -> int:
        """Seats a person from client ``address`` holds here (an open table or a game in play)."""
        return self.seated_addresses().count(address)

    def seated_addresses(self) -> list[str]:
        """The client address of each seat a person holds here (an open table or a game in play:
        a finished game holds no seat)."""
        if self.status not in ("open", "playing"):
            return []
        return [s.address for s in self.seats if s.address is not None and s.bot is None]

    def remove(self, token: str, seat: int) -> None:
        """The host takes a seat back: before the start, any other seat is opened again; after
        it, a player who stays away (no socket) loses the seat to a bot for the rest of the game.
        The removed player's token is refused from then on."""
        if self._seat_of(token).index != 0:
            raise TableError("only the host (the first seat) can remove a player.")
        if not 0 < seat < len(self.seats):
            raise TableError(f"there is no other seat {seat} at this table.")
        chosen = self.seats[seat]
        if chosen.is_open:
            raise TableError(f"seat {seat} is empty.")
        if self.status == "open":
            self._unseat_sockets(chosen, "the host gave your seat to someone else.")
            chosen.name = chosen.bot = chosen.token_hash = chosen.address = None
            self._lobby_changed()
            return
        if self.status != "playing":
            raise TableError("the game is over.")
        if chosen.bot is not None:
            raise TableError(f"seat {seat} is played by a bot already.")
        if chosen.connections:
            raise TableError(
                f"{chosen.name} is at the table; only a player who stays away can be replaced."
            )
        if self._hold(partial(self._replace, chosen)):
            return
        self._replace(chosen)

    def _replace(self, seat: Seat) -> None:
        """An absent player's seat becomes a bot's for good (the stand-in the table would use)."""
        if seat.grace:
            seat.grace.cancel()
            seat.grace = None
        try:
            name = seat.agent_name or self.settings.stand_in
            name = name or default_bot(self.game_name, self._budget())
        except ValueError:
            raise TableError("this game has no bot to take the seat.") from None
        if seat.agent is None:
            self._seat_agent(seat, name)
        seat.bot, seat.token_hash, seat.address = name, None, None
        self._lobby_changed()

    def add_bot(self, token: str, bot: str, seat: int | None, name: str | None) -> int:
        """Put bot ``bot`` in an open seat (any seated player may)."""
        self._require_open()
        self._seat_of(token)
        check_bot(self.game_name, bot)
        chosen = self._open_seat(seat)
        name = self._check_name(name or f"{bot}-{chosen.index + 1}")
        chosen.name, chosen.bot = name, bot
        self._lobby_changed()
        return chosen.index

    def leave(self, token: str) -> None:
        """Give up a seat before the game starts."""
        self._require_open()
        seat = self._seat_of(token)
        if seat.index == 0:
            raise TableError("the host cannot leave the table before it starts.")
        seat.name = seat.token_hash = seat.bot = seat.address = None
        self._unseat_sockets(seat, "you left this seat.")
        self._lobby_changed()

    def _unseat_sockets(self, seat: Seat, why: str) -> None:
        """The seat's token is no longer valid: every socket that holds it is closed."""
        for conn in seat.connections:
            conn.seat = None
            conn.send(error_message("unseated", why))
            conn.close()
        seat.connections.clear()

    def _require_open(self) -> None:
        if self.status != "open":
            raise TableError(f"table {self.code} has already started.")

    def _check_name(self, name: str) -> str:
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

    def _open_seat(self, seat: int | None) -> Seat:
        if seat is None:
            for candidate in self.seats:
                if candidate.is_open:
                    return candidate
            raise TableError(f"table {self.code} is full.")
        if not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {seat} at this table.")
        if not self.seats[seat].is_open:
            raise TableError(f"seat {seat} is taken.")
        return self.seats[seat]

    def _seat_of(self, token: str | None) -> Seat:
        if token:
            digest = hash_token(token)
            for seat in self.seats:
                if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                    return seat
        raise TableError("that seat token does not belong to this table.")
