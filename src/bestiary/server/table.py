"""One table: its seats, its connections, and the actor that alone owns the game.

The table is composed of parts that each own their state behind a small interface:

- ``actor``: the one task that runs every job touching the table (``post``, ``ask``);
- ``seating``: who sits where, names and tokens (``seating.Seating``);
- ``presence``: the sockets of each seat and the watchers, and each absent seat's grace;
- ``ticks``, ``alarm``, ``turn``: the driver's ticks in wall time, the one timer that waits for
  ``match.next_due()`` and a person's turn clock (``table_clocks``);
- ``outbox`` and ``line``: the messages waiting for their events' commit, and the jobs waiting
  their turn while bots think or events are committed (``commits``);
- ``reactions``: the signs seated players show the table, each seat's allowance (``reactions``);
- ``rematch``: the table a finished one's players went on to (``rematch``).

The game itself is played by the core's one driver (``bestiary.core.driver.Match``): people's
actions go in through ``match.submit``, bots and chance through ``match.advance``, and a
stand-in is a bot the match is given for an absent player's seat. What happens when a move
arrives is :meth:`Table.act`, from the socket's message to the messages sent once the store has
the move; what every new group of events goes through is :meth:`Table._publish`.

Bots that think (registered with a thinking time: the search bots) think off the event loop, in
a worker thread, so that a table of them does not hold up every other table.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from bestiary.core.agent import Agent, bot_entries, default_bot, make_bot
from bestiary.core.driver import Match, Played
from bestiary.core.game import Game, State, get_game, replay
from bestiary.core.records import Event
from bestiary.core.viewer import redacted
from bestiary.server.actor import Actor
from bestiary.server.away import AwayLog
from bestiary.server.commits import Line, Outbox, Sends
from bestiary.server.connection import Connection
from bestiary.server.presence import Presence
from bestiary.server.protocol import PROTOCOL_VERSION, encode, error_message
from bestiary.server.reactions import Reactions, Refused
from bestiary.server.rematch import Planned, Rematch, planned, rematch_messages
from bestiary.server.seating import Seating, TableError, check_bot, sentence
from bestiary.server.seats import Seat, hash_token
from bestiary.server.store import Store, StoredTable, quick_switches
from bestiary.server.table_clocks import Alarm, Ticks, TurnClock
from bestiary.server.table_settings import TableClock, TableSettings
from bestiary.server.wire import change_messages, state_message
from bestiary.sim.runner import derive_seeds

__all__ = [
    "Table",
    "TableClock",
    "TableError",
    "TableSettings",
    "_sentence",
    "check_bot",
    "hash_token",
]

_sentence = sentence  # the lobby's name for it
log = logging.getLogger("bestiary.server")
T = TypeVar("T")

# The most actions one call of the driver plays on the event loop. A table behind its clock
# (a short pause, a loaded machine) catches up a few moves per turn of the loop, so no table
# holds the loop from the others however far behind it is.
MOVES_PER_TURN = 4

STORAGE_DOWN = "storage unavailable, retrying; the game is paused and nothing is lost."

# Bots think here, off the event loop. Two threads: a second table's bots need not queue
# behind a long search (the GIL shares one core between them and the loop either way).
_THINKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")


def _think(match: Match, to_tick: int) -> list[Played]:
    quick_switches()
    return match.advance(to_tick, MOVES_PER_TURN)


class Table:
    """A table in the lobby, then a game in play, then a finished record."""

    def __init__(
        self,
        code: str,
        game: str,
        options: dict[str, Any],
        seats: int,
        store: Store,
        settings: TableSettings,
        clock: TableClock | None = None,
    ) -> None:
        # what the table is, and the game at it
        self.code = code
        self.game_name = game
        self.game: Game = get_game(game)
        self.options = options
        self.store = store
        self.settings = settings
        self.pace = settings.pace
        self.clock = clock or TableClock()
        self.status = "open"
        self.state: State | None = None
        self.match: Match | None = None
        self.seq = 0
        self.created = time.time()
        self.started: float | None = None  # wall clock, so `t` survives a restart
        self.finished: float | None = None
        self.on_change: Callable[[Table], None] | None = None
        self.draft = False  # being set up by its creator: not stored, not listed yet
        self.touched = time.monotonic()  # the last lobby change (an open table expires)
        self.halted: str | None = None  # why the game cannot go on (its driver failed)
        self.paused: str | None = None  # why nothing is played here now (the store is down)
        self._seeds: tuple[int, list[int]] = (secrets.randbits(63), [])  # table's, bots'
        self._lead = 0.0  # seconds before its tick a bot decision starts (see _set_lead)
        self._busy: str | None = None  # "thinking" or "waiting" (to send at its tick)
        # its parts
        self.actor = Actor(code)
        self.seating = Seating(code, game, seats)
        # (no part holds the table: one that is done with is freed at once by its count)
        self.presence = Presence(self.seating.seats, self.clock, self.actor.post)
        self.away = AwayLog()  # what each absent seat missed, for when it comes back
        self.ticks = Ticks(self.clock, self.pace.tick_seconds)
        self.alarm = Alarm(self.clock, self.actor.post)
        self.turn = TurnClock(self.clock, self.actor.post)
        self.outbox = Outbox()
        self.line = Line(code)
        self.reactions = Reactions(game, self.clock)
        self.rematch = Rematch()

    # -- the actor -------------------------------------------------------------------------

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    @property
    def spectators(self) -> set[Connection]:
        return self.presence.spectators

    @property
    def max_spectators(self) -> int:
        return self.presence.max_spectators

    @max_spectators.setter
    def max_spectators(self, most: int) -> None:
        self.presence.max_spectators = most

    def start_actor(self) -> None:
        """The table is in the lobby: it runs, and hears of the store's outages. (Not before: a
        table refused while being set up must leave nothing that holds it.)"""
        if not self.actor.started:
            self.store.watch(self._storage)
            self.actor.start()

    def post(self, job: Callable[[], None]) -> None:
        self.actor.post(job)

    async def ask(self, job: Callable[[], T]) -> T:
        return await self.actor.ask(job)

    async def stop(self) -> None:
        self.presence.end_graces()
        self.alarm.cancel()
        self.turn.stop()
        self.store.unwatch(self._storage)
        await self.actor.stop()

    def quiet(self) -> bool:
        """Whether nothing will happen at this table until its clock moves (nothing queued,
        being thought or committed): a test steps a fake clock when it is."""
        if not self.actor.idle():
            return False
        if self._busy == "waiting":
            return True
        return self._busy is None and not self.line and self.outbox.unsent == 0

    # -- the lobby -------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        now = self.clock.now()
        return {
            "code": self.code,
            "game": self.game_name,
            "options": self.options,
            "settings": self.settings.as_json(),
            "status": self.status,
            "seats": [self.seating.shown(s, now) for s in self.seats],
            "seq": self.seq,
            "winners": self.state.winners() if self.state and self.state.is_over else [],
            "created": self.created,
            "halted": self.halted,
            "next": self.rematch.next,
        }

    def join(self, name: str, seat: int | None, address: str | None = None) -> tuple[int, str]:
        """Seat a human called ``name`` (from client ``address``); returns (seat, token)."""
        self._require_open()
        chosen, token = self.seating.join(name, seat, address)
        self._lobby_changed()
        return chosen.index, token

    def add_bot(self, token: str, bot: str, seat: int | None, name: str | None) -> int:
        """Put bot ``bot`` in an open seat (any seated player may)."""
        self._require_open()
        self.seating.seat_of(token)
        chosen = self.seating.add_bot(bot, seat, name)
        self._lobby_changed()
        return chosen.index

    def leave(self, token: str) -> None:
        """Give up a seat before the game starts."""
        self._require_open()
        seat = self.seating.seat_of(token)
        if seat.index == 0:
            raise TableError("the host cannot leave the table before it starts.")
        self.seating.empty(seat, "you left this seat.")
        self._lobby_changed()

    def remove(self, token: str, seat: int) -> None:
        """The host takes a seat back: before the start, any other seat is opened again; after
        it, a player who stays away (no socket) loses the seat to a bot for the rest of the game.
        The removed player's token is refused from then on."""
        self.seating.host(token, "remove a player")
        chosen = self.seating.other(seat)
        if self.status == "open":
            self.seating.empty(chosen, "the host gave your seat to someone else.")
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
        self.presence.end_grace(seat)
        try:
            name = seat.agent_name or self.settings.stand_in or self._stand_in()
        except ValueError:
            raise TableError("this game has no bot to take the seat.") from None
        if seat.agent is None:
            self._seat_agent(seat, name)
        seat.bot, seat.token_hash, seat.address = name, None, None
        self._lobby_changed()

    def seats_of(self, address: str) -> int:
        """Seats a person from client ``address`` holds here (an open table or a game in play)."""
        return self.seated_addresses().count(address)

    def seated_addresses(self) -> list[str]:
        """The client address of each seat a person holds here (an open table or a game in play:
        a finished game holds no seat)."""
        if self.status not in ("open", "playing"):
            return []
        return self.seating.addresses()

    def start(self, token: str, seed: int | None = None, fill: str | None = None) -> None:
        """Deal and begin: only the host (seat 0) may, once every seat is filled; ``fill``: the
        bot that takes each seat still empty (friends take seats until the start)."""
        self._require_open()
        self.seating.host(token, "start the game")
        if fill is not None:
            check_bot(self.game_name, fill)
            for seat in self.seats:
                if seat.is_open:
                    self.seating.add_bot(fill, seat.index, None)
        if not self.seating.full():
            raise TableError("every seat must be filled (by a player or a bot) before starting.")
        self.play(seed)

    def play(self, seed: int | None = None) -> None:
        """Deal and begin, every seat being filled (by ``start``, or a rematch)."""
        self.begin(seed)
        for seat in self.seats:
            if not seat.connections:
                self._seat_left(seat)  # a player who never came gets a stand-in in time too

    def expire(self) -> bool:
        """An open table nobody joined or started in time goes away; False if it has moved on."""
        if self.status != "open":
            return False
        self.status = "expired"
        self._lobby_changed()
        self.presence.close_all()
        return True

    def _require_open(self) -> None:
        if self.status != "open":
            raise TableError(
                f"the game at table {self.code} has already started; you can watch it."
            )

    def _lobby_changed(self) -> None:
        self.touched = time.monotonic()
        self._save_table()
        self._announce()

    def row(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game_name,
            "options": {
                "rules": self.options,
                "table": self.settings.as_json(),
                "next": self.rematch.next,  # its players' rematch (the link follows)
            },
            "seats": [s.stored() for s in self.seats],
            "status": self.status,
            "header": self.state.header() if self.state else None,
            "winners": self.state.winners() if self.state and self.state.is_over else None,
            "created": self.created,
            "started": self.started,
            "finished": self.finished,
        }

    def _save_table(self) -> None:
        if self.draft:
            return
        self.store.save_table(self.row())
        if self.on_change:
            self.on_change(self)

    @classmethod
    def restore(cls, stored: StoredTable, store: Store) -> Table:
        """Rebuild a table from the store: a game in play is replayed from its record."""
        options = stored.options.get("rules", {})
        settings = TableSettings.from_json(stored.options.get("table", {}))
        table = cls(stored.code, stored.game, options, len(stored.seats), store, settings)
        table.status, table.created = stored.status, stored.created
        table.started, table.finished = stored.started, stored.finished
        table.seating.restore(stored.seats)
        table.rematch.next = stored.options.get("next")
        if stored.header is not None and stored.status != "open":
            lines = [(number + 2, ev) for number, ev in enumerate(stored.events)]
            table.state = replay(stored.header, lines)
            table.seq = len(stored.events)
            last = stored.events[-1].get("t") if stored.events else None
            table.ticks.offset = float(last) if isinstance(last, int | float) else 0.0
        return table

    # -- after the game: a rematch ---------------------------------------------------------

    def rematch_claim(self, token: str) -> tuple[int, str | list[Planned] | asyncio.Future[str]]:
        """A seated player asks for a rematch: their seat, and the rematch's code if made, the
        future of the one being made, else the seats to make it with (this press makes it:
        ``rematch.play_again``)."""
        asker = self.seating.seat_of(token).index
        if self.status != "finished":
            raise TableError("a rematch is offered once the game is over.")
        if self.rematch.next is not None:
            return asker, self.rematch.next
        if self.rematch.making is not None:
            return asker, self.rematch.making
        seats = planned(self.seats, self._rematch_bot, asker)
        self.rematch.making = asyncio.get_running_loop().create_future()
        return asker, seats

    def _rematch_bot(self, seat: Seat) -> str:
        """The bot that takes the seat of a person who left: the one that stood in for them,
        else the one the table would stand in with."""
        try:
            return seat.agent_name or self.settings.stand_in or self._stand_in()
        except ValueError:
            raise TableError(
                "this game has no bot to take the seat of a player who left."
            ) from None

    def rematch_made(self, code: str, tokens: dict[int, tuple[int, str]]) -> None:
        """The rematch is committed: the old table keeps its code, and every socket is told
        (each person with their new seat and token, spectators the code alone)."""
        self.rematch.next, self.rematch.tokens = code, tokens
        self._save_table()
        for seat, message in rematch_messages(code, tokens, self.seats):
            text = encode(message)
            for conn in seat.connections if seat is not None else list(self.spectators):
                conn.send_text(text)

    # -- reactions ---------------------------------------------------------------------------

    def react(self, conn: Connection, key: str, ref: int | str | None) -> None:
        """A seated player's reaction, shown to every socket at once (not a move: nothing is
        stored or numbered); a refusal is one error message to this socket."""
        seat = None if conn.seat is None else self.seats[conn.seat]
        try:
            message = self.reactions.react(seat, key)
        except Refused as err:
            conn.send(error_message(err.code, err.message, ref))
            return
        self._tell(message)

    # -- the sockets -----------------------------------------------------------------------

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
                seat = self.seating.seat_of(token)
            except TableError as err:
                conn.send(error_message("bad_token", str(err)))
                conn.close()
                return
        if seat is None and not self.presence.room_to_watch():
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
        missed = self.away.back(seat.name) if seat is not None and seat.name else None
        if missed is not None and (missed.events or missed.dropped):
            conn.send(missed.message())  # what happened while away, after the state it led to
        if self.paused is not None:
            conn.send(error_message("storage", STORAGE_DOWN))
        if self.halted is not None:
            conn.send(error_message("halted", f"this game is halted: {self.halted}"))
        if self.presence.add(conn, seat):
            self._announce()

    def detach(self, conn: Connection) -> None:
        left = self.presence.remove(conn)
        if left is not None:
            self._seat_left(left)
            self._announce()

    def all_connections(self) -> list[Connection]:
        return self.presence.connections()

    def _seat_back(self, seat: Seat) -> None:
        """A socket of ``seat``'s player came: no stand-in for it, and the one playing steps
        aside."""
        self.presence.end_grace(seat)
        if seat.agent is not None and seat.bot is None:
            self._seat_agent(seat, None)

    def _seat_left(self, seat: Seat) -> None:
        if self.status == "playing" and seat.bot is None:
            self.presence.start_grace(seat, self.settings.grace_seconds, self._grace_over)
            if seat.name is not None and self.state is not None:
                self.away.left(seat.name, self.seq, self.state.view(seat.name))

    def _grace_over(self, seat: Seat) -> None:
        if seat.connections or self.status != "playing" or seat.name is None:
            return
        if self._hold(partial(self._grace_over, seat)):
            return
        try:
            name = self.settings.stand_in or self._stand_in()
        except ValueError:
            return  # a game with no bot: the seat simply waits for its player
        self._seat_agent(seat, name)
        self._announce()

    def _announce(self) -> None:
        """Tell every socket at the table who sits where (seats, bots, presence, status)."""
        self.presence.send(self._table_message())

    def _tell(self, message: dict[str, Any]) -> None:
        self.presence.send(encode(message))

    # -- play ------------------------------------------------------------------------------

    def act(self, conn: Connection, event: dict[str, Any], ref: int | str | None) -> None:
        """A player's action from a socket (run inside the actor): what happens when a move
        arrives, from the message to the messages sent once the store has it.

        A refusal is one error message to this socket, with the action's ``ref``."""
        # 1. It must come from a seat, at a game that has begun, for that seat's player.
        if conn.seat is None:
            conn.send(error_message("not_seated", "spectators cannot act.", ref))
            return
        seat = self.seats[conn.seat]
        if self.state is None or seat.name is None:
            conn.send(error_message("not_started", "the game has not started yet.", ref))
            return
        by = event.get("by", seat.name)
        if by != seat.name:
            conn.send(error_message("wrong_seat", f"you play {seat.name}, not {by!r}.", ref))
            return
        event["by"] = seat.name  # the socket's own message: nothing else holds it
        # 2. It must be one of the game's actions.
        try:
            action = self.game.action_from_event(event)
        except (ValueError, KeyError, TypeError) as err:
            conn.send(error_message("bad_action", sentence(err), ref))
            return
        # 3. The game must be in play here, now.
        if self.paused is not None:
            conn.send(error_message("storage", STORAGE_DOWN, ref))
            return
        if self.halted is not None:
            conn.send(error_message("halted", f"this game is halted: {self.halted}", ref))
            return
        if self.match is None or self.status != "playing":
            conn.send(error_message("illegal", "the game is not in play.", ref))
            return
        # 4. Whatever is due first is played first (bots, chance, clocks); while bots think
        #    or jobs wait, this action waits its turn, in order.
        if not self._may_run():
            self.line.keep(partial(self.act, conn, event, ref))
            return
        if getattr(action, "by", None) != seat.name:
            conn.send(error_message("illegal", "only the table can do that.", ref))
            return
        # 5. The rules apply it (or refuse it, with their own reason).
        try:
            events = self.match.submit(seat.name, action)
        except ValueError as err:  # IllegalAction
            conn.send(error_message("illegal", sentence(err), ref))
            return
        # 6. Its events are numbered and stored, every seat's message is made; they are sent
        #    once the store has committed them (_publish).
        played = Played(self.match.tick, seat.name, events)
        self._publish([played], seat.index, ref, t=self._game_time())

    def _publish(
        self,
        played: list[Played],
        actor: int | None,
        ref: int | str | None,
        t: float | None = None,
        always: bool = False,
    ) -> None:
        """Number, stamp and store new events; make each seat's message now, from the state
        they made; send them once the store has them (the outbox). ``actor``: the seat whose
        action this was (its message carries ``ref``); ``always``: send the state even without
        an event (play begins)."""
        match, state = self.match, self.state
        assert match is not None and state is not None
        for fault in match.faults:
            log.warning("table %s: %s", self.code, fault)
        match.faults.clear()
        events: list[Event] = []
        first = self.seq + 1
        # an absent player's seat played by a stand-in bot: its moves are marked as the
        # stand-in's, so nobody (the player back, above all) reads them as the player's own
        standing = {s.name for s in self.seats if s.agent is not None and s.bot is None}
        for step in played:
            stamp = round(self.ticks.played_at(step.tick) if t is None else t, 3)
            # The driver's own moves are its bots' and, for a seat no bot plays, the answer
            # the clock gave when it ran out: marked, so the log says so (records ignore it).
            timed_out = actor is None and step.by is not None and step.by not in match.agents
            for event in step.events:
                if timed_out and event.get("by") == step.by:
                    event = {**event, "timeout": True}
                elif actor is None and event.get("by") in standing:
                    event = {**event, "stand_in": True}
                self.seq += 1
                self.store.append_event(self.code, self.seq, {**event, "t": stamp})
                events.append(event)
        self._busy = None  # whatever thought these events is done
        for player in self.away.missing() if events else ():
            self.away.add(player, first, redacted(state, events, player))
        if events or always:
            self._turn_clock()  # before the messages are made: they show it
            finished = state.is_over and self.status == "playing"
            if finished:
                self._finish()
            # meanwhile the table plays on (later events are sent after these)
            sends = self._messages(events, actor, ref)
            if finished:
                sends.append((self.all_connections(), self._table_message()))
            self.outbox.add(sends, len(events))
            # the store calls back on the loop, in the order asked, while the actor is idle
            self.store.commit(self._committed)
        self._settled()

    def _committed(self) -> None:
        self.actor.run(self._send_committed)  # a job: whatever it causes waits its turn

    def _send_committed(self) -> None:
        self.outbox.send_oldest()
        self._settled()

    def _finish(self) -> None:
        self.turn.stop()
        self.status = "finished"
        self.finished = time.time()
        self.presence.end_graces()
        self.alarm.cancel()
        self._save_table()

    def begin(self, seed: int | None = None) -> None:
        """Deal and play, every seat being filled (``start`` once the host may start).

        ``seed`` is the operator's (a server setting) or a test's own; None: a secret one.
        """
        try:
            self._deal(seed)
        except ValueError as err:
            raise TableError(str(err)) from None
        self.status = "playing"
        self.started = time.time()
        self._lobby_changed()
        self._begin_play()

    def _deal(self, seed: int | None) -> None:
        """Deal the game. One seed (the operator's, else a secret one) gives the deal, the
        table's own draws and each bot's, derived as ``bestiary sim`` derives a game's."""
        players = [s.name or "" for s in self.seats]
        chosen = secrets.randbits(63) if seed is None else seed
        deal, table, bots = derive_seeds(chosen, len(players))
        self.state = self.game.new_game(players, self.options, deal)
        self._seeds = (table, bots)

    def _begin_play(self) -> None:
        """Seat the bots and start the driver's clock (a new deal, or a restored game)."""
        state = self.state
        assert state is not None
        table_seed, bot_seeds = self._seeds
        agents: dict[str, Agent] = {}
        for seat in self.seats:
            if seat.bot is not None and seat.name is not None:
                seed = bot_seeds[seat.index] if bot_seeds else secrets.randbits(63)
                seat.agent = make_bot(self.game_name, seat.bot, seat.name, seed)
                seat.agent_name = seat.bot
                agents[seat.name] = seat.agent
        before = len(state.history)
        self.match = Match(self.game, state, agents, seed=table_seed, pace=self.pace, strict=False)
        self.ticks.start()
        self._set_lead()
        drawn = state.events()[before:]  # chance the driver drew as play began
        self._publish([Played(0, None, drawn)], None, None, always=True)

    def resume(self) -> None:
        """After a restart: the driver picks up where the game was (bots, timers, stand-ins).

        A game that cannot go on (a bot that cannot be seated again, a driver that fails) is
        halted and reported, never retried in a loop."""
        if self.status == "playing" and self.state is not None:
            try:
                self._begin_play()
            except Exception as err:
                self._halt(f"it could not be resumed after a restart ({sentence(err)})")
                return
            for seat in self.seats:
                if seat.bot is None:
                    self._seat_left(seat)

    def _halt(self, why: str) -> None:
        """Stop this table's play for good (logged, told to every socket, shown in its info):
        its clock stops and nothing it does runs again; every other table plays on."""
        if self.halted is not None:
            return
        self.halted = why
        self.alarm.cancel()
        log.error("table %s: halted: %s", self.code, why)
        self._tell(error_message("halted", f"this game is halted: {why}"))

    def _seat_agent(self, seat: Seat, name: str | None) -> None:
        """Give ``seat`` to bot ``name`` (a stand-in), or back to its player (None)."""
        if name is None or seat.name is None:
            seat.agent = seat.agent_name = None
        else:
            seat.agent = make_bot(self.game_name, name, seat.name, secrets.randbits(63))
            seat.agent_name = name
        if self.match is not None and seat.name is not None:
            self.match.set_agent(seat.name, seat.agent)
        if self.state is not None and seat.name in self.state.actors:
            self._turn_clock()  # her move changed hands: a person's clock starts, a bot's stops
        self._set_lead()
        self._arm()

    def _set_lead(self) -> None:
        """A decision starts this long before its tick: the slowest seated bot's thinking time
        (within the budget), so that its answer is sent at its tick, as fast as the hand that
        leaves one legal move: timing never tells what a bot holds."""
        thinking = {e.name: e.seconds for e in bot_entries(self.game_name)}
        slowest = max((thinking.get(s.agent_name or "", 0.0) for s in self.seats), default=0.0)
        self._lead = min(self._budget(), slowest)

    def _stand_in(self) -> str:
        """The strongest bot that decides within the table's budget (ValueError: none)."""
        return default_bot(self.game_name, self._budget())

    def _budget(self) -> float:
        return self.settings.budget(self.game.info.real_time)

    # -- what is due: bots, chance, clocks (the alarm) -------------------------------------

    def _next_due(self) -> int | None:
        """The driver's next due tick, if the table may run it now (playing, not busy)."""
        match = self.match
        if match is None or self._busy or self.paused or self.halted or self.status != "playing":
            return None
        return match.next_due()

    def _due_at(self, tick: int) -> float:
        """Table-clock time to start tick ``tick`` (early by the bots' lead)."""
        return self.ticks.starts_at(tick) - self._lead

    def _arm(self) -> None:
        """Wait for the driver's next due tick (again after every change; pauses, halts and the
        end cancel the alarm)."""
        due = self._next_due()
        if due is not None:
            self.alarm.want(self._due_at(due), self._due)

    def _due(self) -> None:
        """The alarm: the driver runs what is due (bots' decisions); in a worker thread when a
        seated bot is registered as one that thinks (``seconds``), else at once."""
        due, match = self._next_due(), self.match
        if due is None or match is None:
            return
        if self._due_at(due) > self.clock.now() + 1e-3:
            self._arm()  # an alarm from before a change: what is due now is later
            return
        to_tick = max(due, self.ticks.now_tick())
        self._busy = "thinking"
        if self._lead <= 0:  # cheap bots: a thread hop would cost more than their thinking
            run = partial(match.advance, to_tick, MOVES_PER_TURN)
            self._thought(to_tick, self._advance(run, to_tick))
            return
        thinking = asyncio.get_running_loop().run_in_executor(_THINKERS, _think, match, to_tick)
        thinking.add_done_callback(
            lambda done: self.post(
                partial(self._thought, to_tick, self._advance(done.result, to_tick))
            )
        )

    def _advance(self, run: Callable[[], list[Played]], tick: int) -> list[Played]:
        try:
            return run()
        except Exception as err:  # a faulty bot or engine: this table halts, the others go on
            log.exception("table %s: the driver failed at tick %d", self.code, tick)
            self._halt(f"the table's driver failed at tick {tick} ({sentence(err)})")
            return []

    def _thought(self, tick: int, played: list[Played]) -> None:
        publish = partial(self._publish, played, None, None)
        wait = self.ticks.starts_at(tick) - self.clock.now()
        if wait > 0 and any(p.events for p in played):
            self._busy = "waiting"  # thought early: sent at its tick, not before
            self.clock.later(wait, partial(self.post, publish))
        else:
            publish()

    def _turn_clock(self) -> None:
        """Start the turn clock of the person who must move now, if any (again after every
        change; answers have the driver's own answer clock)."""
        seconds, person = self.settings.turn_seconds, self._on_the_clock()
        if person is None or seconds is None:
            self.turn.stop()
        else:
            self.turn.run(person, self.seq, seconds, self._turn_over)

    def _on_the_clock(self) -> str | None:
        """The person a turn clock runs for now: the first to act who is no bot and has no
        answer clock of the driver's (None: no turn clock, or a real-time game)."""
        state, match = self.state, self.match
        if self.settings.turn_seconds is None or self.game.info.real_time:
            return None
        if state is None or match is None or state.is_over or self.status != "playing":
            return None
        person = next((p for p in state.actors if p not in match.agents), None)
        if person is None or state.timeout_action(person) is not None:
            return None
        return person

    def _turn_over(self, player: str, seq: int) -> None:
        """The clock ran out: the table's quick bot makes this one move for ``player``."""
        if self.seq != seq or self.status != "playing" or self.paused is not None:
            if self.seq == seq and self.status == "playing":
                self._turn_clock()  # paused: the player gets a whole turn when play resumes
            return
        if self._hold(partial(self._turn_over, player, seq)):
            return
        state, match = self.state, self.match
        if self.seq != seq or state is None or match is None or player in match.agents:
            return
        if player not in state.actors or not (legal := state.legal_actions(player)):
            return
        try:
            stand_in = make_bot(self.game_name, default_bot(self.game_name, 0.0), player, 0)
        except ValueError:
            return  # a game with no bot: the table waits for its player
        action = stand_in.act(state.view(player), legal) or legal[0]
        events = match.submit(player, action)
        self._publish([Played(match.tick, player, events)], None, None, t=self._game_time())

    def _game_time(self) -> float:
        """Seconds of play so far (the clock stands still while the store is down)."""
        return 0.0 if self.match is None else self.ticks.played()

    # -- jobs waiting their turn (the line) -------------------------------------------------

    def _hold(self, job: Callable[[], None], reveals: bool = False) -> bool:
        """Whether game job ``job`` must wait (and is kept, in order, until it may run): the
        table's bots are thinking, an earlier job waits, something is due first (which starts
        now), or ``job`` ``reveals`` the state (a socket's first view) while events of it are
        not yet committed. Otherwise the driver's clock is brought to now and ``job`` runs."""
        if self._may_run(reveals):
            return False
        self.line.keep(job, reveals)
        return True

    def _may_run(self, reveals: bool = False) -> bool:
        """``_hold`` without the job: False if the job must be kept (``line.keep``). A move
        asks this first, so that the job it would keep is only made when it waits."""
        match = self.match
        blocked = self.line.waiting() or (reveals and self.outbox.unsent > 0)
        free = self._busy is None and self.paused is None and self.status == "playing"
        free = free and self.halted is None
        if free and not blocked and match is not None:
            due, now = match.next_due(), self.ticks.now_tick()  # one reading: the clock moves
            if due is not None and due <= now:
                self._due()
            else:
                match.advance(now)  # nothing is due by then: this only sets the tick
        return self._busy is None and not blocked

    def _may_go(self, reveals: bool) -> bool:
        """Whether the first waiting job may run now."""
        return self._busy is None and not (reveals and self.outbox.unsent > 0)

    def _settled(self) -> None:
        """Run the jobs that waited and may run now, in order, then wait for the clock."""
        if self.line.run(self._may_go):
            self._arm()

    # -- the store's news --------------------------------------------------------------------

    def _storage(self, reason: str | None) -> None:
        """The store's news (run by its writer on the loop): down (with why), or back."""
        if self.status != "playing":
            return
        if reason is not None and self.paused is None:
            self.paused = reason
            self.ticks.pause()
            self.alarm.cancel()
            log.warning("table %s: paused, storage unavailable (%s)", self.code, reason)
            self._tell(error_message("storage", STORAGE_DOWN))
        elif reason is None and self.paused is not None:
            self.ticks.resume()
            self.paused = None
            log.warning("table %s: storage is back, play resumes", self.code)
            self._tell({"type": "notice", "code": "storage_back", "message": "storage is back."})
            self._arm()

    def move_out(self, why: str) -> None:
        """Another server process serves this table from now on (``server.keeper``): nothing more
        is played here, and every socket is told ``moving`` and closed (clients reconnect)."""
        self.paused = why
        self.ticks.pause()
        self.store.unwatch(self._storage)
        self.alarm.cancel()
        self._tell(error_message("moving", why))
        self.presence.close_all()

    # -- what the table sends (made in ``wire``, where every event passes the one filter) ----

    def _table_message(self) -> bytes:
        return encode({"type": "table", "table": self.info()})

    def _timers(self) -> dict[str, float]:
        """The driver's public timers, as seconds left at this message (the clients'
        countdowns): ``quiet`` (the quiet clock: wild's Nightfall), ``answer`` (the answer
        the table will give for a player who lets it run out) and ``turn`` (a person's)."""
        if self.match is None or self.status != "playing":
            return {}
        now = self._game_time()
        out: dict[str, float] = {}
        for name, due in self.match.deadlines().items():
            tick = min(due.values()) if isinstance(due, dict) else due
            out[name] = round(max(0.0, self.ticks.played_at(tick) - now), 1)
        left = self.turn.left()
        if left is not None:
            out["turn"] = round(left, 1)
        return out

    def _state_message(self, player: str | None, events: list[Event], ref: Any) -> bytes:
        state = self.state
        assert state is not None
        t = round(self._game_time(), 3)
        return state_message(state, player, events, ref, self.seq, t, self._timers())

    def _messages(self, events: list[Event], actor: int | None, ref: Any) -> Sends:
        """Every seat its own view and its own form of each event; spectators the public one
        (one message shared by all of them)."""
        state = self.state
        assert state is not None
        turn_based = not self.game.info.real_time
        t = round(self._game_time(), 3)
        return change_messages(
            state, self.seats, self.spectators, events, actor, ref, self.seq, t,
            self._timers(), turn_based,
        )  # fmt: skip
