"""The FastAPI app: lobby over HTTP (with OpenAPI at /docs), tables over WebSockets, the client.

``create_app(db_url)`` builds an app with its own store and lobby; the lifespan restores every
open table and game in play from the store and flushes the store on the way out.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import math
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.routing import WebSocketRoute
from starlette.types import Receive, Scope, Send

from bestiary.core.agent import LEVELS, bot_entries, bot_levels
from bestiary.core.driver import pace_option
from bestiary.core.game import games as registered_games
from bestiary.server.bodycap import BodyCap, HeaderCap
from bestiary.server.buckets import client_key
from bestiary.server.connection import Connection
from bestiary.server.gate import DIRECT
from bestiary.server.health import StoreProbe
from bestiary.server.keeper import Moving, join
from bestiary.server.lobby import MAX_OFFSET, MAX_PAGE, PAGE, BadCursor, Lobby
from bestiary.server.metrics import (
    CONTENT_TYPE_LATEST,
    CountRefusals,
    Reading,
    app_registry,
    exposition,
)
from bestiary.server.origins import HostCheck, OwnPages
from bestiary.server.pages import SWAGGER_CDN, SWAGGER_VERSION, page
from bestiary.server.protocol import (
    ActionMessage,
    BadMessage,
    Hello,
    React,
    error_message,
    parse_client_message,
)
from bestiary.server.quotas import AddressLimits, Refused, SharedCounts
from bestiary.server.reach import friend_addresses, is_loopback
from bestiary.server.reactions import menu as reaction_menu
from bestiary.server.rematch import play_again
from bestiary.server.retention import sweeper_for
from bestiary.server.settings import ServerSettings
from bestiary.server.store import READ_SECONDS, Store, StoreSlow
from bestiary.server.table import Table, TableError, TableSettings
from bestiary.server.wire import encode

log = logging.getLogger("bestiary.server")

STATIC = Path(__file__).parent / "static"
MAX_HEADERS = 100  # header lines a request may have (their bytes: gate.MAX_HEAD_BYTES)

# FastAPI's own OpenTelemetry (0.16x): off, as the server exports no traces; left on, every call
# asked three global providers whether anyone listens
NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI).parameters
    else {}
)


class BotSeat(BaseModel):
    bot: str
    seat: int | None = None
    name: str | None = Field(default=None, max_length=24)


class CreateTable(BaseModel):
    """A new table: the game, how many seats, the game's options, and the host's name."""

    game: str
    seats: int = Field(ge=2, le=8)
    name: str = Field(min_length=1, max_length=24)
    options: dict[str, Any] = Field(default_factory=dict)
    bots: list[BotSeat] = Field(default_factory=list, description="Bots to seat at once.")
    answer_seconds: float | None = Field(default=None, gt=0, le=3600)
    grace_seconds: float | None = Field(default=None, ge=0, le=3600)
    tick_seconds: float | None = Field(default=None, gt=0, le=10)
    pace: Literal["normal", "slow", "fast"] | None = Field(
        default=None,
        description="The bots' pace (the table option `pace` of GET /api/games).",
    )
    bot_pause: float | None = Field(
        default=None, ge=0, le=10, description="Turn-based games: seconds a bot's move waits."
    )
    turn_seconds: float | None = Field(
        default=None, gt=0, le=3600, description="Turn-based games: a person's turn clock."
    )
    start: bool = Field(default=False, description="Start at once (every seat must be filled).")


class JoinTable(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    seat: int | None = None


class SeatRequest(BaseModel):
    token: str


class AddBot(BaseModel):
    token: str
    bot: str
    seat: int | None = None
    name: str | None = Field(default=None, max_length=24)


class RemoveSeat(BaseModel):
    token: str
    seat: int


class StartTable(BaseModel):
    token: str
    seed: int | None = None
    fill: str | None = Field(default=None, description="The bot for each seat still empty.")


class Rematched(BaseModel):
    code: str
    seat: int | None
    token: str | None


class Seated(BaseModel):
    code: str
    seat: int
    token: str
    table: dict[str, Any]


def create_app(
    db_url: str = "sqlite:///bestiary.sqlite",
    settings: TableSettings | None = None,
    rate: float = 100.0,
    server: ServerSettings | None = None,
) -> FastAPI:
    """The whole server. ``rate`` is each socket's flood limit in messages per second;
    ``server`` holds the operator's limits (bodies, new tables, sockets per address, seeds)."""
    defaults = settings or TableSettings()
    limits = server or ServerSettings()
    holder: dict[str, Lobby] = {}
    probes: dict[str, StoreProbe] = {}
    quotas = AddressLimits(limits, lambda address: lobby().tables.held(address))

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(db_url, wal_limit=int(limits.wal_limit_mib * 1024 * 1024))
        lobby = Lobby(store, defaults, limits)
        keeper = None
        if limits.worker is not None:  # one of several processes (keeper.py, ownership.py)
            keeper = join(lobby, limits)
            # behind several workers, one client's limits are counted by all of them together
            quotas.shared = SharedCounts(keeper.cluster)
            keeper.on_seats = quotas.seats_changed
        restored = lobby.restore() if keeper is None else keeper.restored
        if restored:
            log.info("restored %d tables", restored)
        lobby.start()
        sweeper = sweeper_for(store, lobby, limits)
        sweeper.start()
        holder["lobby"] = lobby
        name = "server" if limits.worker is None else f"worker-{limits.worker}"
        probe = probes["store"] = StoreProbe(db_url, name)
        writer = asyncio.get_running_loop().create_task(store.run_writer())
        try:
            yield
        finally:
            writer.cancel()
            if keeper is not None:
                keeper.quiet()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            sweeper.stop()
            await lobby.close()
            if keeper is not None:
                keeper.leave()
            if quotas.shared is not None:
                quotas.shared.close()
            probe.close()

    app = FastAPI(
        title="bestiary",
        version="1",
        summary="Lobby and tables for Call of the Wild and the critter set-collection game.",
        lifespan=lifespan,
        # the API's reference page runs a CDN's script: only when the operator asks (--api-docs)
        docs_url=None,
        redoc_url=None,
        # a redirect would be built from the Host a proxy passes, which may lack the port
        redirect_slashes=False,
        **NO_TELEMETRY,
    )
    app.add_middleware(BodyCap, max_bytes=limits.max_body_bytes)
    app.add_middleware(HeaderCap, max_headers=MAX_HEADERS)
    app.add_middleware(HostCheck, pages=OwnPages(limits.allowed_hosts))
    app.add_middleware(CountRefusals)  # outermost: it sees every refusal the others make

    @app.exception_handler(RequestValidationError)
    async def one_sentence(_request: Request, err: RequestValidationError) -> JSONResponse:
        """A request of the wrong shape: 400 and one sentence, like every other refusal."""
        first = err.errors()[0] if err.errors() else {"loc": (), "msg": "unreadable"}
        where = ".".join(str(p) for p in first["loc"] if p != "body") or "the request"
        return JSONResponse({"detail": f"bad request: {where}: {first['msg']}."}, status_code=400)

    @app.exception_handler(StoreSlow)
    async def store_slow(_request: Request, err: StoreSlow) -> JSONResponse:
        """A read the database did not answer in time: 503, try again (the loop never waited)."""
        return JSONResponse({"detail": str(err)}, status_code=503, headers={"Retry-After": "1"})

    def lobby() -> Lobby:
        return holder["lobby"]

    async def table_or_404(code: str) -> Table:
        try:
            return await lobby().get(code)
        except (Moving, StoreSlow) as moving:  # nginx tries the next worker on a 503
            # (an HTTPException: the quick lobby answers it as FastAPI would)
            raise HTTPException(503, str(moving), headers={"Retry-After": "1"}) from None
        except KeyError:
            raise HTTPException(404, f"there is no table {code}.") from None

    def client(connection: Request) -> str:
        return client_of(connection.scope)

    def client_of(scope: Scope) -> str:
        """The client a request counts as for every per-address limit (``client_key``)."""
        peer = scope.get("client")
        return client_key(peer[0] if peer else "unknown", limits.ipv6_prefix)

    def too_many(refused: Refused) -> HTTPException:
        """429, with ``Retry-After`` when it is a rate."""
        wait = refused.retry_after
        headers = None if wait is None else {"Retry-After": str(math.ceil(wait))}
        return HTTPException(429, str(refused), headers=headers)

    async def in_table(table: Table, job: Any) -> Any:
        try:
            return await table.ask(job)
        except TableError as err:
            raise HTTPException(400, str(err)) from None

    index_page = (STATIC / "index.html").read_text(encoding="utf-8")

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return page(index_page)

    if limits.api_docs:
        docs_page = bytes(
            get_swagger_ui_html(
                openapi_url="/openapi.json",
                title="bestiary API",
                swagger_js_url=f"{SWAGGER_CDN}/npm/swagger-ui-dist@{SWAGGER_VERSION}/swagger-ui-bundle.js",
                swagger_css_url=f"{SWAGGER_CDN}/npm/swagger-ui-dist@{SWAGGER_VERSION}/swagger-ui.css",
                swagger_favicon_url="data:,",
            ).body
        ).decode()

        @app.get("/docs", include_in_schema=False)
        async def api_docs() -> HTMLResponse:
            return page(docs_page, scripts_from=SWAGGER_CDN)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Each game package's own browser board, served under the game's name (GameInfo.faces).
    for rules in registered_games():
        folder = rules.info.faces.web_folder()
        if folder is not None:
            app.mount(f"/games/{rules.info.name}", StaticFiles(directory=folder))

    @app.get("/healthz", response_class=PlainTextResponse)
    async def healthz() -> Response:
        """200 ``ok`` when this process answers and its store commits a test write now; 503
        and the reason when it does not (a load balancer takes the process out meanwhile)."""
        if "lobby" not in holder:
            return PlainTextResponse("starting\n", 503)
        store = holder["lobby"].store
        reason = f"the store cannot commit: {store.down}" if store.down else None
        if reason is None:
            reason = await probes["store"].check()
        if reason is not None:
            return PlainTextResponse(f"unhealthy: {reason}\n", 503, {"Retry-After": "1"})
        return PlainTextResponse("ok\n")

    def reading() -> Reading | None:
        held = holder.get("lobby")
        if held is None:
            return None
        tables = held.tables.values
        return Reading(
            lambda: dict(Counter(table.status for table in tables())),
            lambda: sum(len(table.all_connections()) for table in tables()),
            lambda: held.store.queued,
        )

    registry = app_registry(reading)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """This process's figures in Prometheus' text format (docs/operating.md)."""
        return Response(exposition(registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every registered game's self-description (options schema, vocabulary) and bots."""
        return [
            {
                **rules.info.as_json(),
                "bots": _bot_menu(rules.info.name),
                "reactions": [r.as_json() for r in reaction_menu(rules.info.name)],
                # the table's own options (not the game's rules): the bots' pace
                "table_options": [
                    pace_option(
                        rules.info.real_time, defaults.bots_pace, defaults.tick_seconds
                    ).as_json()
                ],
            }
            for rules in registered_games()
        ]

    @app.get("/api/reach")
    async def reach(request: Request) -> dict[str, Any]:
        """Where friends on other machines can reach this server: ``friends`` (addresses to
        share, from the address ``bestiary serve`` listens on), ``local_only`` (it listens on
        this machine only; None: not known) and ``port``."""
        bind: tuple[str, int] | None = getattr(request.app.state, "bind", None)
        if bind is None:
            return {"friends": [], "local_only": None, "port": request.url.port}
        host, port = bind
        return {
            "friends": friend_addresses(host, port),
            "local_only": is_loopback(host),
            "port": port,
        }

    @app.get("/api/decks")
    async def decks() -> list[dict[str, Any]]:
        """The decks this server offers by name, per game (``default`` and the operator's)."""
        return lobby().decks.listing()

    @app.get("/api/tables")
    async def tables(
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
        before: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        """One page of open tables, games in play and finished games, newest first; the next
        page of finished games is ``?before=`` the page's ``next``."""
        try:
            return await lobby().listing(offset, limit, before)
        except BadCursor as err:
            raise HTTPException(400, f"bad request: {err}.") from None

    @app.post("/api/tables", status_code=201)
    async def create_table(request: CreateTable, http: Request) -> Seated:
        """Open a table and take its first seat (the host)."""
        address = client(http)
        try:
            await quotas.new_table(address)
            await quotas.take_seat(address, joining=False)
        except Refused as refused:
            raise too_many(refused) from None
        try:
            return await open_table(request, address)
        finally:
            quotas.seated(address)

    async def open_table(request: CreateTable, address: str) -> Seated:
        chosen = TableSettings(
            answer_seconds=request.answer_seconds or defaults.answer_seconds,
            grace_seconds=(
                defaults.grace_seconds if request.grace_seconds is None else request.grace_seconds
            ),
            tick_seconds=(
                defaults.tick_seconds if request.tick_seconds is None else request.tick_seconds
            ),
            think_seconds=defaults.think_seconds,
            stand_in=defaults.stand_in,
            bots_pace=defaults.bots_pace if request.pace is None else request.pace,
            bot_pause=defaults.bot_pause if request.bot_pause is None else request.bot_pause,
            turn_seconds=request.turn_seconds or defaults.turn_seconds,
        )
        # The table is set up before anyone else can see it (no await until it is open), so a
        # refusal at any step leaves nothing stored or listed.
        try:
            bots = tuple(bot.bot for bot in request.bots)
            table = await lobby().create(request.game, request.seats, request.options, chosen, bots)
            seat, token = table.join(request.name, 0, address)
            for bot in request.bots:
                table.add_bot(token, bot.bot, bot.seat, bot.name)
            if request.start:
                table.start(token)
        except TableError as err:
            raise HTTPException(400, str(err)) from None
        lobby().open(table)
        info = await table.ask(table.info)
        # durable before visible: the code and token too; or a 503 that keeps nothing
        await stored_or_undone(partial(lobby().withdraw, table))
        return Seated(code=table.code, seat=seat, token=token, table=info)

    async def stored_or_undone(undo: Callable[[], Awaitable[object]]) -> None:
        """A new table or seat is answered once the store has committed it; if it has not
        within READ_SECONDS it is undone (the undoing queued after it, so committed after it)
        and the answer is a 503: behind nginx, which then sends the same request to the next
        worker, the first must keep nothing of it (no seat whose token nobody was given)."""
        try:
            await asyncio.wait_for(lobby().store.committed(), READ_SECONDS)
        except TimeoutError:
            await undo()
            raise HTTPException(
                503,
                f"the database did not store this within {READ_SECONDS:g} s, so nothing of it"
                " was kept; try again shortly.",
                headers={"Retry-After": "1"},
            ) from None

    @app.get("/api/tables/{code}")
    async def get_table(code: str) -> dict[str, Any]:
        """One table: its seats, status and options."""
        table = await table_or_404(code)
        info: dict[str, Any] = await table.ask(table.info)
        return info

    @app.post("/api/tables/{code}/join")
    async def join_table(code: str, request: JoinTable, http: Request) -> Seated:
        """Take an open seat under a name; keep the token to reconnect."""
        address = client(http)
        table = await table_or_404(code)
        try:
            await quotas.take_seat(address, joining=True)
        except Refused as refused:
            raise too_many(refused) from None
        try:
            seat, token = await in_table(
                table, lambda: table.join(request.name, request.seat, address)
            )
        finally:
            quotas.seated(address)
        info = await table.ask(table.info)
        await stored_or_undone(partial(table.ask, partial(_give_back, table, token)))
        return Seated(code=table.code, seat=seat, token=token, table=info)

    @app.post("/api/tables/{code}/bots")
    async def add_bot(code: str, request: AddBot) -> dict[str, Any]:
        """Fill an open seat with a bot (any seated player may)."""
        table = await table_or_404(code)
        await in_table(
            table, lambda: table.add_bot(request.token, request.bot, request.seat, request.name)
        )
        info: dict[str, Any] = await table.ask(table.info)
        await lobby().store.committed()
        return info

    @app.post("/api/tables/{code}/leave")
    async def leave_table(code: str, request: SeatRequest) -> dict[str, Any]:
        """Give a seat back before the game starts."""
        table = await table_or_404(code)
        await in_table(table, lambda: table.leave(request.token))
        info: dict[str, Any] = await table.ask(table.info)
        await lobby().store.committed()
        return info

    @app.post("/api/tables/{code}/remove")
    async def remove_seat(code: str, request: RemoveSeat) -> dict[str, Any]:
        """The host takes a seat back: before the start it opens again; after it, a player who
        stays away loses it to a bot."""
        table = await table_or_404(code)
        await in_table(table, lambda: table.remove(request.token, request.seat))
        info: dict[str, Any] = await table.ask(table.info)
        await lobby().store.committed()
        return info

    @app.post("/api/tables/{code}/start")
    async def start_table(code: str, request: StartTable) -> dict[str, Any]:
        """Deal and begin (the host only, every seat filled)."""
        table = await table_or_404(code)
        if request.seed is not None and not limits.allow_seeds:
            raise HTTPException(
                400, "this server deals every game itself; a seed is for testing servers only."
            )
        await in_table(table, lambda: table.start(request.token, request.seed, request.fill))
        info: dict[str, Any] = await table.ask(table.info)
        await lobby().store.committed()
        return info

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, request: SeatRequest) -> Rematched:
        """A finished game's players play again (any of them may ask; the first press makes
        the table, the others are given it): same game, options and seats, the start rotated."""
        table = await table_or_404(code)
        try:
            made = await play_again(lobby(), table, request.token)
        except TableError as err:
            raise HTTPException(400, str(err)) from None
        return Rematched(**made)

    @app.get("/api/tables/{code}/record", response_class=PlainTextResponse)
    async def record(code: str) -> Response:
        """A finished game's record, as JSON Lines (docs/records.md), streamed."""
        try:
            lines = await lobby().record(code)
        except KeyError:
            raise HTTPException(404, f"there is no finished game {code}.") from None
        return StreamingResponse(lines, media_type="text/plain; charset=utf-8")

    @app.get("/api/tables/{code}/replay", response_class=JSONResponse)
    async def replay_frames(code: str) -> Response:
        """A finished game step by step (public views), and everything revealed at the end:
        ``{frames: [{event, view}], summary, header, events}``, streamed as it is worked out."""
        try:
            frames = await lobby().replay_frames(code)
        except KeyError:
            raise HTTPException(404, f"there is no finished game {code}.") from None
        if isinstance(frames, bytes):  # from the cache
            return Response(frames, media_type="application/json")
        return StreamingResponse(frames, media_type="application/json")

    @app.get("/api/worker", include_in_schema=False)
    async def worker() -> dict[str, Any]:
        """One of several workers: the tables it holds now, and until when its lease holds."""
        keeper = lobby().keeper
        if keeper is None:
            raise HTTPException(404, "this server is the only one (no --worker).")
        return keeper.report()

    app.router.routes.append(
        WebSocketRoute("/ws/{code}", TableSockets(lobby, quotas, client_of, rate, limits))
    )
    return app


def _give_back(table: Table, token: str) -> None:
    """A seat its taker was told was not taken (503) is open again; if the game has started
    meanwhile it stays (a bot plays it once its grace runs out)."""
    with contextlib.suppress(TableError):
        table.leave(token)


def _bot_menu(game: str) -> list[dict[str, Any]]:
    """The game's bots as people choose them: weakest first, each with its level (easy, medium,
    hard, then the practice bots) beside its name and persona."""
    levels = bot_levels(game)
    order = {level: i for i, level in enumerate((*LEVELS, "practice"))}
    entries = sorted(bot_entries(game), key=lambda e: (order[levels[e.name]], e.rank, e.name))
    return [{**e.as_json(), "level": levels[e.name]} for e in entries]


class TableSockets:
    """``/ws/{code}``: a table's sockets, as a plain ASGI app (Starlette's router finds it; no
    wrapper object per message). Each socket's messages are read in order (hello first, in
    time; then actions and pings) and its answers sent by its ``Connection`` (directly where
    the server's own protocol offers it: ``gate.DIRECT``)."""

    def __init__(
        self,
        lobby: Callable[[], Lobby],
        quotas: AddressLimits,
        client_of: Callable[[Scope], str],
        rate: float,
        limits: ServerSettings,
    ) -> None:
        self.lobby, self.quotas, self.client_of = lobby, quotas, client_of
        self.rate, self.hello_timeout = rate, limits.hello_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        address = self.client_of(scope)
        if not await self.quotas.open_socket(address):
            why = error_message("too_many", "too many table sockets from your address.")
            await _refuse(send, why, 1013)
            return
        try:
            table = await self.lobby().get(scope["path_params"]["code"])
        except (StoreSlow, Moving, KeyError) as err:
            self.quotas.close_socket(address)
            await _refuse(send, *_no_table(err, scope["path_params"]["code"]))
            return
        direct = scope["extensions"].get(DIRECT) if "extensions" in scope else None
        conn = Connection(send, rate=self.rate, burst=2 * self.rate, direct=direct)
        try:
            await self._read(receive, table, conn)
        finally:
            self.quotas.close_socket(address)
            table.post(lambda: table.detach(conn))
            conn.close()
            await conn.finish(1.0)

    async def _read(self, receive: Receive, table: Table, conn: Connection) -> None:
        reader = Reader(table, conn)
        loop = asyncio.get_running_loop()
        late = loop.call_later(self.hello_timeout, reader.too_late, self.hello_timeout)
        conn.read_directly(reader.read)  # where it can; else, and before that, in this loop
        try:
            while not conn.closed:
                message = await receive()
                if message["type"] != "websocket.receive":
                    conn.gone()  # websocket.disconnect: nothing more can be sent
                    return
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                try:
                    reader.read(text)
                except Exception:  # a bug in one message's handling must not end the socket
                    log.exception("a table socket's message could not be handled")
        finally:
            late.cancel()
            conn.read_directly(None)


def _no_table(err: Exception, code: str) -> tuple[dict[str, Any], int]:
    """What a socket is told when its table cannot be reached here, and its close code."""
    if isinstance(err, StoreSlow):
        return error_message("storage", str(err)), 1013
    if isinstance(err, Moving):  # the client reconnects, and reaches the owner
        return error_message("moving", str(err)), 1013
    return error_message("no_table", f"there is no table {code}."), 4404


async def _refuse(send: Send, message: dict[str, Any], code: int) -> None:
    await send({"type": "websocket.send", "text": encode(message).decode()})
    await send({"type": "websocket.close", "code": code})


class Reader:
    """What one socket's messages do, in the order they come."""

    def __init__(self, table: Table, conn: Connection) -> None:
        self.table, self.conn = table, conn
        self.greeted = False

    def too_late(self, hello_timeout: float) -> None:
        if not self.greeted and not self.conn.closed:
            self.conn.send(error_message("no_hello", f"no hello within {hello_timeout:g} s."))
            self.conn.close()

    def read(self, text: str | bytes) -> None:
        conn, table = self.conn, self.table
        if conn.closed:
            return
        if not conn.allow():
            conn.send(error_message("flood", "too many messages; slow down."))
            return
        try:
            parsed = parse_client_message(text)
        except BadMessage as err:
            conn.send(error_message(err.code, err.message))
            return
        if isinstance(parsed, Hello):
            if self.greeted:
                conn.send(error_message("bad_message", "hello was already said.", None))
                return
            self.greeted = True
            table.post(partial(table.attach, conn, parsed.token, parsed.v))
        elif not self.greeted:
            conn.send(error_message("no_hello", "say hello first.", getattr(parsed, "ref", None)))
        elif isinstance(parsed, ActionMessage):
            table.post(partial(table.act, conn, parsed.action, parsed.ref))
        elif isinstance(parsed, React):
            table.post(partial(table.react, conn, parsed.reaction, parsed.ref))
        else:
            conn.send({"type": "pong", "ref": parsed.ref})
