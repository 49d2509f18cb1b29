"""A table's reactions: a few fixed signs a seated player shows the table (a nod, a wave, "good
game"), never free text.

At a real table of wild, meetings are agreed "usually non-verbally": a reaction is that nod.
Reactions are not moves: the rules never see them, they are not numbered or stored (the game's
record holds the game alone), and they are sent at once to every socket at the table. Each seat
may send a few in a row and then one every few seconds (a bucket on the table's clock, per
seat: a second tab of the same player shares it); a spectator sends none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bestiary.core.game import get_game
from bestiary.server.buckets import Bucket
from bestiary.server.seats import Seat
from bestiary.server.table_settings import TableClock

# Each seat's allowance: this many in a row, then one more every 1/RATE seconds.
BURST = 3
RATE = 0.5


@dataclass(frozen=True)
class Reaction:
    key: str  # what goes on the wire
    sign: str  # what a client shows (an emoji)
    words: str  # what it says, for a screen reader and a log

    def as_json(self) -> dict[str, str]:
        return {"key": self.key, "sign": self.sign, "words": self.words}


COMMON = (
    Reaction("wave", "👋", "hello"),
    Reaction("yes", "👍", "yes"),
    Reaction("no", "👎", "no"),
    Reaction("laugh", "😄", "ha!"),
    Reaction("gg", "🎉", "good game"),
)


def menu(game: str) -> tuple[Reaction, ...]:
    """The reactions a table of ``game`` offers: the common ones, then the game's own (its
    vocabulary's ``reactions``: each a key, a sign and its words)."""
    own = get_game(game).info.vocabulary.get("reactions", ())
    return COMMON + tuple(Reaction(r["key"], r["sign"], r["words"]) for r in own)


class Refused(ValueError):
    """A reaction the table does not send: ``code`` and one sentence, as an error message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Reactions:
    """The reactions of a table of ``game``: which there are, and each seat's allowance."""

    def __init__(self, game: str, clock: TableClock) -> None:
        self.clock = clock
        self.offered = {r.key: r for r in menu(game)}
        self._allowance: dict[int, Bucket] = {}

    def react(self, seat: Seat | None, key: str) -> dict[str, Any]:
        """The message that shows ``seat``'s reaction ``key`` to the table; Refused if a
        spectator sends it, the table has no such reaction, or the seat sends too many."""
        if seat is None or seat.name is None:
            raise Refused("not_seated", "spectators cannot send reactions; take a seat to react.")
        reaction = self.offered.get(key)
        if reaction is None:
            known = ", ".join(self.offered)
            raise Refused("bad_reaction", f"there is no reaction {key!r} here (known: {known}).")
        now = self.clock.now()
        bucket = self._allowance.get(seat.index)
        if bucket is None:
            bucket = self._allowance[seat.index] = Bucket(RATE, BURST)
            bucket.checked = now
        if bucket.refill(now) < 1.0:
            wait = bucket.wait()
            raise Refused("slow_down", f"too many reactions; the next one in {wait:.1f} s.")
        bucket.tokens -= 1.0
        return {"type": "reaction", "seat": seat.index, "player": seat.name, "reaction": key}
