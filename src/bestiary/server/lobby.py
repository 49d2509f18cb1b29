"""The lobby: every live table by its code, new tables, restore after a restart, replays."""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson

from bestiary.core.errors import BadOption, RecordError
from bestiary.core.game import game_names, get_game, redacted, replay
from bestiary.core.info import GameInfo
from bestiary.core.records import dumps
from bestiary.server.decks import DeckShelf
from bestiary.server.live_tables import LiveTables
from bestiary.server.ownership import LIVE
from bestiary.server.settings import ServerSettings
from bestiary.server.shards import CODE_ALPHABET, CODE_LENGTH
from bestiary.server.store import Store, StoredTable, within
from bestiary.server.table import Table, TableError, TableSettings, _sentence, check_bot

if TYPE_CHECKING:
    from bestiary.server.keeper import Keeper

log = logging.getLogger("bestiary.server")

PAGE = 50  # tables per list in one lobby page (and the most a page may ask for: MAX_PAGE)
MAX_PAGE = 100
MAX_OFFSET = 1_000
# A replay holds every public view of the game: it is streamed as worked out, EVENT_PAGE events
# read at a time and CHUNK_BYTES sent at a time; the cache keeps replays as sent up to
# REPLAY_CACHE_BYTES in all, each up to KEPT_REPLAY_BYTES, least recently asked dropped first.
EVENT_PAGE = 500
CHUNK_BYTES = 256 * 1024
KEPT_REPLAY_BYTES = 8 * 1024 * 1024
STREAMERS = 2  # threads that work replays and records out, beside the store's readers
REPLAY_CACHE_BYTES = 64 * 1024 * 1024
CURSOR_CODE = re.compile(r"^[A-Z0-9]{1,16}$")
LARGEST = 2**53  # beyond this a number is not exact in every client's JSON


def _chunk(parts: Iterator[bytes]) -> bytes:
    """The next CHUNK_BYTES or so of ``parts`` (b"" once they are all sent)."""
    out: list[bytes] = []
    size = 0
    for part in parts:
        out.append(part)
        size += len(part)
        if size >= CHUNK_BYTES:
            break
    return b"".join(out)


def _check_number(where: str, value: object) -> None:
    """Every number in an option, however deep, is finite and of a sane size."""
    if isinstance(value, dict):
        for key, inner in value.items():
            _check_number(f"{where}.{key}", inner)
    elif isinstance(value, list):
        for inner in value:
            _check_number(where, inner)
    elif isinstance(value, float) and not math.isfinite(value):
        raise BadOption(f"option {where} must be a finite number, not {value}")
    elif isinstance(value, int | float) and abs(value) > LARGEST:
        raise BadOption(f"option {where} is far too large a number")


class Lobby:
    """Live tables (open or in play) in memory; finished ones are read from the store."""

    def __init__(
        self, store: Store, settings: TableSettings, server: ServerSettings | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.server = server or ServerSettings()
        self.decks = DeckShelf(self.server.decks)
        self._sweeper: asyncio.TimerHandle | None = None
        self._jobs: set[asyncio.Future[None]] = set()
        self.tables = LiveTables()
        self._replays: OrderedDict[str, bytes] = OrderedDict()  # replays as sent, newest last
        self._replay_bytes = 0
        self._coming_back: dict[str, asyncio.Future[Table]] = {}  # finished tables being restored
        self._expiring: set[str] = set()
        self._streamers = ThreadPoolExecutor(max_workers=STREAMERS, thread_name_prefix="replay")
        self.keep_finished = self.server.finished_table_seconds
        self.keeper: Keeper | None = None  # one of several workers: what it owns (keeper.py)

    def restore(self) -> int:
        """Bring back every open table and game in play from the store; returns how many."""
        stored = self.store.load(["open", "playing"])
        return sum(self.adopt(table) is not None for table in stored)

    def adopt(self, stored: StoredTable, restored: Table | None = None) -> Table | None:
        """Bring back one stored table (replayed from its record, unless ``restored`` is that
        already) and let it play on."""
        table = restored or self._restored(stored)
        if table is None:
            return None
        self._add(table)
        table.post(table.resume)
        return table

    def _restored(self, stored: StoredTable) -> Table | None:
        try:
            return Table.restore(stored, self.store)
        except (RecordError, ValueError, KeyError) as err:
            log.error("table %s cannot be restored: %s", stored.code, err)
            return None

    def read_back(self, code: str) -> tuple[StoredTable | None, Table | None]:
        """A live table read from the store and replayed from its record, in a thread (the
        loop only adopts it): (None, None) if there is none; (stored, None) if it cannot be
        restored, or is not live."""
        stored = self.store.get(code)
        if stored is None or stored.status not in LIVE:
            return stored, None
        return stored, self._restored(stored)

    def _add(self, table: Table) -> None:
        self.tables[table.code] = table
        table.max_spectators = self.server.max_spectators  # restored tables too
        table.on_change = self._changed
        table.start_actor()

    def _changed(self, table: Table) -> None:
        self.tables.recount(table)  # every seat taken or given up is saved, and heard here
        if self.keeper is not None:
            self.keeper.changed(table)
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

    async def create(
        self,
        game: str,
        seats: int,
        options: dict[str, Any],
        settings: TableSettings | None = None,
        bots: tuple[str, ...] = (),
    ) -> Table:
        """A new table, not yet stored or listed: its creator seats the host, then ``open``s it.

        Every option is checked first (the game's typed schema; every number finite; a deck by
        name or content; then the rules between options, by dealing a trial game) and so are
        the ``bots`` to seat, before the table is built, so a refused table leaves nothing.
        """
        if game not in game_names():
            raise TableError(f"unknown game {game!r}; choose one of {', '.join(game_names())}.")
        rules = get_game(game)
        try:
            rules.info.check_player_count(seats)
        except ValueError as err:
            raise TableError(f"{err}.") from None
        for bot in bots:
            check_bot(game, bot)
        try:
            options = self._resolved(rules.info, options)
            rules.new_game([f"seat{i}" for i in range(seats)], options, 0)
        except (ValueError, TypeError, OverflowError) as err:
            raise TableError(f"bad options: {_sentence(err)}") from None
        code = await self._new_code()
        table = Table(code, game, options, seats, self.store, settings or self.settings)
        table.draft = True
        return table

    def _resolved(self, info: GameInfo, options: dict[str, Any]) -> dict[str, Any]:
        """The options as the engine will see them: checked, and a deck as its content."""
        resolved = info.check_options(options)
        for key, value in resolved.items():
            _check_number(key, value)  # inside a deck's content too
        for spec in info.options:
            if spec.kind == "deck" and spec.name in resolved:
                content = self.decks.resolve(info, resolved.pop(spec.name))
                if content is not None:  # None: the default deck, the game's own default
                    resolved[spec.name] = content
        return resolved

    def open(self, table: Table) -> None:
        """A table its creator has set up: stored, listed, and running."""
        table.draft = False
        self._add(table)
        if self.keeper is not None:
            self.keeper.opening(table.code)  # its first write claims it
        table._save_table()  # after _add: its lobby change is heard (on_change)

    async def _new_code(self) -> str:
        while True:
            if self.keeper is not None:  # one of several workers: a code of its own shard
                code = self.keeper.new_code()
            else:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.tables:
                continue
            if self.store.inline:  # SQLite on the writer's own connection: a local lookup
                taken = self.store.exists(code)
            else:  # a database over a connection: beside the loop
                taken = await self.store.read(self.store.exists, code)
            if not taken:
                return code

    async def get(self, code: str) -> Table:
        """The table called ``code``; a finished one is brought back from the store, beside
        the loop (KeyError if there is none; Moving if another worker holds it; StoreSlow)."""
        code = code.upper()
        if self.keeper is not None:  # a copy held across a lapsed lease is never shown
            self.keeper.check_lease(code)
        table = self.tables.get(code)
        if table is not None:
            return table
        if self.keeper is not None:
            await self.keeper.where(code)  # live at another worker: Moving
        coming = self._coming_back.get(code)
        if coming is None:  # one restore however many ask meanwhile
            coming = self._coming_back[code] = asyncio.ensure_future(self._bring_back(code))
            coming.add_done_callback(partial(self._came_back, code))
        return await within(coming)

    def _came_back(self, code: str, coming: asyncio.Future[Table]) -> None:
        self._coming_back.pop(code, None)
        if not coming.cancelled():
            coming.exception()  # retrieved: a waiter may have given up on it

    async def _bring_back(self, code: str) -> Table:
        stored = await self.store.beside(self.store.get, code)
        if stored is None or stored.status != "finished":
            raise KeyError(code)
        # replaying the record is the long part: beside the loop too
        table = await self.store.beside(Table.restore, stored, self.store)
        if code in self.tables:  # brought back meanwhile by a path of its own
            return self.tables[code]
        self._add(table)
        self._changed(table)
        return table

    async def listing(
        self, offset: int = 0, limit: int = PAGE, before: str | None = None
    ) -> dict[str, Any]:
        """One page of open tables, games in play and finished games (newest first), and totals.

        Finished games page on by ``next`` (given back as ``before``): a page costs the same
        however many games have finished. ``offset`` pages every list (finished games too, up
        to MAX_OFFSET). BadCursor if ``before`` is not a ``next`` this server gave."""
        after = _cursor(before) if before is not None else None
        held: list[Table | dict[str, Any]] = [*self.tables.values()]
        if self.keeper is not None:  # and every other worker's, as their notices say
            held += self.keeper.others()
        live = sorted(held, key=_created, reverse=True)
        open_ = [t for t in live if _status(t) == "open"]
        playing = [t for t in live if _status(t) == "playing"]
        finished = [
            {
                "code": s.code,
                "game": s.game,
                "status": "finished",
                "players": [seat["name"] for seat in s.seats],
                "winners": s.winners or [],
                "finished": s.finished,
            }
            for s in await self.store.read(
                self.store.finished, limit, 0 if after else offset, after
            )
        ]
        last = finished[-1] if len(finished) == limit else None
        return {
            "open": [_info(t) for t in open_[offset : offset + limit]],
            "playing": [_info(t) for t in playing[offset : offset + limit]],
            "finished": finished,
            "next": last and f"{last['finished']!r}~{last['code']}",
            "offset": offset,
            "total": {"open": len(open_), "playing": len(playing)},
        }

    # -- open tables nobody joins or starts expire ------------------------------------------

    def start(self) -> None:
        """Begin sweeping for expired open tables (inside the running loop)."""
        every = min(60.0, self.server.open_table_seconds / 4)
        self._sweeper = asyncio.get_running_loop().call_later(every, self._sweep)

    def _sweep(self) -> None:
        horizon = time.monotonic() - self.server.open_table_seconds
        for table in list(self.tables.values()):
            if table.status == "open" and table.touched < horizon:
                task = asyncio.ensure_future(self._expire(table))
                self._jobs.add(task)
                task.add_done_callback(self._jobs.discard)
        self.start()

    async def _expire(self, table: Table) -> None:
        if await self.withdraw(table):
            log.info("table %s expired: nobody joined or started it", table.code)

    async def withdraw(self, table: Table) -> bool:
        """An open table goes, as one nobody joined in time does (stored as ``expired``);
        False if it has started meanwhile (it plays on)."""
        if not await table.ask(table.expire):
            return False
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        await table.stop()
        return True

    async def record(self, code: str) -> AsyncIterator[bytes]:
        """A finished game's record as JSON Lines, streamed: its header read beside the loop
        first (KeyError if there is none to show; StoreSlow), then its events a page at a
        time, each page read and written out beside the loop (``_streamed``)."""
        stored = await self.store.read(self._finished, code.upper())
        return self._streamed(self._record_parts(stored))

    def _finished(self, code: str) -> StoredTable:
        stored = self.store.finished_table(code)
        if stored is None or stored.header is None:
            raise KeyError(code)
        return stored

    def _events(self, code: str) -> Iterator[dict[str, Any]]:
        """A finished table's events in order, read a page at a time (never all at once)."""
        seq = 0
        while page := self.store.event_page(code, seq, EVENT_PAGE):
            yield from (event for _, event in page)
            seq = page[-1][0]

    def _record_parts(self, stored: StoredTable) -> Iterator[bytes]:
        assert stored.header is not None  # _finished's
        yield (dumps(stored.header) + "\n").encode()
        for event in self._events(stored.code):
            yield (dumps(event) + "\n").encode()

    async def replay_frames(self, code: str) -> bytes | AsyncIterator[bytes]:
        """A finished game step by step (the public view after each event, then everything)
        as JSON: from the cache, or streamed as it is worked out a page of events at a time
        beside the loop, and kept in the cache (by bytes) if it is small enough."""
        code = code.upper()
        cached = self._replays.get(code)
        if cached is not None:
            self._replays.move_to_end(code)
            return cached
        stored = await self.store.read(self._finished, code)
        return self._streamed(self._frame_parts(stored), keep=code)

    def forget_replays(self, codes: list[str]) -> None:
        """Games deleted from the store (retention.py): their replays are not served again."""
        for code in codes:
            body = self._replays.pop(code, None)
            if body is not None:
                self._replay_bytes -= len(body)

    def _keep(self, code: str, body: bytes) -> None:
        if code in self._replays:  # worked out twice at once: kept once
            return
        self._replays[code] = body
        self._replay_bytes += len(body)
        while self._replay_bytes > REPLAY_CACHE_BYTES:
            self._replay_bytes -= len(self._replays.popitem(last=False)[1])

    def _frame_parts(self, stored: StoredTable) -> Iterator[bytes]:
        header = stored.header
        assert header is not None  # _finished's
        game = str(header["game"])
        rules = get_game(game)
        state = replay(header, [])
        players = header.get("players", [])
        head = orjson.dumps({"code": stored.code, "game": game, "players": players})
        first = orjson.dumps({"event": None, "view": state.view(None)})
        yield b"".join([head[:-1], b',"frames":[', first])
        for event in self._events(stored.code):
            state.apply(rules.action_from_event(event))
            frame = {"event": redacted(state, [event], None)[0], "view": state.view(None)}
            yield b"," + orjson.dumps(frame)
        tail = orjson.dumps({"summary": state.summary(), "header": header})
        yield b"]," + tail[1:-1] + b',"events":['
        comma = b""
        for event in self._events(stored.code):  # read again: nothing of the game is kept
            yield comma + orjson.dumps(event)
            comma = b","
        yield b"]}"

    async def _streamed(
        self, parts: Iterator[bytes], keep: str | None = None
    ) -> AsyncIterator[bytes]:
        """``parts`` gathered into chunks of about CHUNK_BYTES, each made in one of STREAMERS
        threads of their own (the store's readers stay free for the lobby's reads) when the one
        before it has been sent (so a slow reader holds no thread, and the memory is a chunk and
        the game's state); a whole answer up to KEPT_REPLAY_BYTES is kept as ``keep`` in the
        replay cache. A chunk not made within READ_SECONDS (a stalled database, or more streams
        at once than the threads serve) cuts the answer off (StoreSlow): its status was sent
        with the first chunk."""
        kept: list[bytes] | None = [] if keep is not None else None
        size = 0
        loop = asyncio.get_running_loop()
        while chunk := await within(loop.run_in_executor(self._streamers, _chunk, parts)):
            size += len(chunk)
            if kept is not None and size <= KEPT_REPLAY_BYTES:
                kept.append(chunk)
            else:
                kept = None
            yield chunk
        if kept is not None and keep is not None:
            self._keep(keep, b"".join(kept))

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        self._streamers.shutdown(wait=False, cancel_futures=True)
        self.store.close()


class BadCursor(ValueError):
    """A ``before`` that is not a ``next`` the listing gave."""


def _cursor(text: str) -> tuple[float, str]:
    when, _, code = text.partition("~")
    try:
        finished = float(when)
    except ValueError:
        finished = math.nan
    if not math.isfinite(finished) or not CURSOR_CODE.match(code):
        raise BadCursor("before must be the 'next' of a listing's page of finished games")
    return finished, code


# a table in the listing: one held here, or another worker's as its lobby info
def _created(table: Table | dict[str, Any]) -> float:
    return float(table["created"]) if isinstance(table, dict) else table.created


def _status(table: Table | dict[str, Any]) -> str:
    return str(table["status"]) if isinstance(table, dict) else table.status


def _info(table: Table | dict[str, Any]) -> dict[str, Any]:
    return table if isinstance(table, dict) else table.info()
