"""A finished table's rematch: one press at the results, and everyone still there plays again.

The new table has the same game, options, settings and seats, each moved one seat on so that
another player starts (the old second seat is the new first). A person still at the old table
(a socket open) keeps their place under their name with a new token; a bot keeps its place; a
person who left is replaced by the bot that stood in for them (else the table's stand-in), so
the new game starts at once. Durable before visible: the new table, its seats and its deal are
committed before anyone is told; then each person's sockets at the old table are sent
``rematch`` with their new seat and token (spectators: the code alone), and the old table keeps
the new code (``next``) so that its link follows.

``Rematch`` is the old table's part (what was made, or is being made); ``planned`` says who sits
where; :func:`play_again` does it, called by any seated player (the first press makes the table,
the others are given the same one).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bestiary.server.seats import Seat

if TYPE_CHECKING:
    from bestiary.server.lobby import Lobby
    from bestiary.server.table import Table


@dataclass(frozen=True)
class Planned:
    """One seat of the new table: a person (``came_from``: their old seat) or a bot."""

    name: str
    bot: str | None
    address: str | None
    came_from: int | None


class Rematch:
    """What a finished table's rematch is: none yet, being made, or made (``next``)."""

    def __init__(self) -> None:
        self.next: str | None = None  # the new table's code (stored with the old table)
        self.making: asyncio.Future[str] | None = None
        # each person's (new seat, token) by old seat: a press after the first is answered
        # with its own (kept in memory only, as the sockets were told them)
        self.tokens: dict[int, tuple[int, str]] = {}

    def seat_for(self, old: int) -> tuple[int | None, str | None]:
        return self.tokens.get(old, (None, None))


def planned(seats: list[Seat], stand_in: Callable[[Seat], str], here: int) -> list[Planned]:
    """The new table's seats, from the old ones: each moves one seat on (the start rotates);
    the person at seat ``here`` (who asked) is there, socket or not; ``stand_in(seat)`` names the
    bot that replaces a person who left."""
    count = len(seats)
    present = {s.index for s in seats if s.connections} | {here}
    kept = {s.name.casefold() for s in seats if s.name and (s.bot or s.index in present)}
    out: list[Planned] = []
    for index in range(count):
        old = seats[(index + 1) % count]
        assert old.name is not None  # a finished game's seats are all taken
        if old.bot is not None:
            out.append(Planned(old.name, old.bot, None, None))
        elif old.index in present:
            out.append(Planned(old.name, None, old.address, old.index))
        else:
            bot = stand_in(old)
            number = index + 1
            while f"{bot}-{number}" in kept:  # a bot's name kept from the old table
                number += 1
            kept.add(f"{bot}-{number}")
            out.append(Planned(f"{bot}-{number}", bot, None, None))
    return out


async def play_again(lobby: Lobby, table: Table, token: str) -> dict[str, Any]:
    """``table``'s rematch, made now by this press if nobody made it yet: ``{code, seat,
    token}`` (seat and token: the asker's at the new table, if they are in it). The ``token``
    must hold a seat at the finished table (TableError otherwise)."""
    old, claim = await table.ask(lambda: table.rematch_claim(token))
    if isinstance(claim, list):
        code = await _make(lobby, table, claim)
    else:
        code = claim if isinstance(claim, str) else await asyncio.shield(claim)
    seat, new_token = table.rematch.seat_for(old)
    return {"code": code, "seat": seat, "token": new_token}


async def _make(lobby: Lobby, table: Table, claim: list[Planned]) -> str:
    making = table.rematch.making
    assert making is not None
    try:
        code, tokens = await _made(lobby, table, claim)
    except BaseException as err:
        table.rematch.making = None  # the next press tries again
        if isinstance(err, Exception):
            making.set_exception(err)
            making.exception()  # retrieved: nobody else may be waiting
        else:
            making.cancel()
        raise
    await table.ask(lambda: table.rematch_made(code, tokens))
    making.set_result(code)
    return code


async def _made(
    lobby: Lobby, table: Table, seats: list[Planned]
) -> tuple[str, dict[int, tuple[int, str]]]:
    """The new table, seated and dealt, committed; each person's (new seat, token) by old seat."""
    new = await lobby.create(table.game_name, len(seats), table.options, table.settings)
    tokens: dict[int, tuple[int, str]] = {}
    for index, seat in enumerate(seats):
        if seat.bot is not None:
            new.seating.add_bot(seat.bot, index, seat.name)
        else:
            _, token = new.seating.join(seat.name, index, seat.address)
            if seat.came_from is not None:
                tokens[seat.came_from] = (index, token)
    new.play()
    lobby.open(new)
    await lobby.store.committed()  # durable before visible
    return new.code, tokens


def rematch_messages(
    code: str, tokens: dict[int, tuple[int, str]], seats: list[Seat]
) -> list[tuple[Seat | None, dict[str, Any]]]:
    """What each seat's sockets are told (None: the spectators')."""
    told: list[tuple[Seat | None, dict[str, Any]]] = [(None, {"type": "rematch", "code": code})]
    for seat in seats:
        if seat.index in tokens:
            index, token = tokens[seat.index]
            message = {"type": "rematch", "code": code, "seat": index, "token": token}
            told.append((seat, message))
    return told
