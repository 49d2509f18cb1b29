"""The ``bestiary`` command line: replay, bench, demo (and more as the project grows)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from bestiary.adapters.commands import register as register_research
from bestiary.core.driver import Pace
from bestiary.core.errors import RecordError
from bestiary.core.game import game_names, games, get_game, replay
from bestiary.core.records import read_record
from bestiary.server.settings import ServerSettings

app = typer.Typer(
    name="bestiary",
    help="Call of the Wild and the critter set-collection game: play, simulate, replay, study.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_BAD_INPUT = 2
SERVER = ServerSettings()  # the defaults of `serve`'s limits

PACE = Pace()  # the one real-time model: `serve --tick` defaults to its tick


def _show_version(value: bool) -> None:
    if value:
        from bestiary import __version__
        from bestiary.build import core_build

        typer.echo(f"bestiary {__version__}: {core_build().line()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_show_version,
            help="Print the version and whether the core is compiled, then exit.",
        ),
    ] = False,
) -> None:
    """Call of the Wild and the critter set-collection game: play, simulate, replay, study."""


def _fail(message: str) -> typer.Exit:
    from bestiary.tui.plain import escaped

    typer.echo(f"error: {escaped(message)}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


GAME_HELP = "A registered game (bestiary.games entry points: wild, critters, any installed)."


def _check_game(name: str) -> str:
    if name not in game_names():
        raise _fail(f"unknown game {name!r}; choose one of {', '.join(game_names())}")
    return name


PLAYERS_HELP = "Players at the table, you included (default: 4, or the nearest the game allows)."


def _players(game: str, players: int | None) -> int:
    """``--players`` as given, else 4 moved into the game's declared range (kuhn, duel: 2)."""
    if players is not None:
        return players
    info = get_game(_check_game(game)).info
    return max(info.min_players, min(info.max_players, 4))


def _default_bot(game: str) -> str:
    """The bot a game declares as its default (``GameInfo.default_bot``)."""
    return get_game(_check_game(game)).info.default_bot


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (JSON Lines, docs/records.md).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final state as one JSON object.")
    ] = False,
) -> None:
    """Replay a game record and show the final state; exit 2 if the record is bad."""
    try:
        header, events = read_record(file)
        state = replay(header, events)
    except RecordError as err:
        raise _fail(f"{file}: {err}") from None
    from bestiary.tui.plain import json_escaped, record_for_terminal

    summary = state.summary()
    if as_json:
        typer.echo(json_escaped(json.dumps(summary, ensure_ascii=False)))
        return
    from bestiary.tui.run import view_replay

    try:
        shown = record_for_terminal(header, events)
    except ValueError as err:
        raise _fail(f"{file}: {err}") from None
    view_replay(*shown)


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    players: Annotated[int | None, typer.Option(help=PLAYERS_HELP)] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="Bots for the other seats, comma-separated (one name fills them all)."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option as key=value.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a repeatable deal.")] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "human",
    save: Annotated[
        Path | None, typer.Option(help="Write the game's record (JSON Lines) here at the end.")
    ] = None,
    tick: Annotated[
        float | None,
        typer.Option(help="Seconds per tick of the table's clock (default: the driver's Pace)."),
    ] = None,
) -> None:
    """Play a game in the terminal against bots (wild in real time, critters turn by turn)."""
    from bestiary.core.options import parse_options
    from bestiary.tui.run import new_table, play

    _check_game(game)
    try:
        options = parse_options(option or [])
        table = new_table(game, _players(game, players), bots, options, seed, name, tick)
    except ValueError as err:
        raise _fail(str(err)) from None
    play(table, save)


@app.command("bench")
def bench_command(
    game: Annotated[str, typer.Argument(help="A registered game, or server.")],
    players: Annotated[
        int | None, typer.Option(help="Players per game (default: 4, or the nearest allowed).")
    ] = None,
    games: Annotated[int, typer.Option(help="Games to play.")] = 2000,
    seed: Annotated[int, typer.Option(help="First seed; game i uses seed+i.")] = 1,
    tables: Annotated[
        str, typer.Option(help="server: table counts to load, comma-separated.")
    ] = "10,50,100,200",
    seconds: Annotated[float, typer.Option(help="server: seconds per table count.")] = 15.0,
    of: Annotated[str, typer.Option("--of", help="server: critters, wild or both.")] = "both",
    thinkers: Annotated[
        int, typer.Option(help="server: extra tables of seven ismcts bots playing meanwhile.")
    ] = 0,
    movers: Annotated[
        int,
        typer.Option(
            help="server: actions a table may have in flight at once (0: one per client; "
            "1: one per table, as in a turn-based game)."
        ),
    ] = 0,
    workers: Annotated[
        int,
        typer.Option(
            help="server: worker processes behind nginx on --db (PostgreSQL); 0: one process "
            "on SQLite, as serve runs by default."
        ),
    ] = 0,
    db: Annotated[
        str | None, typer.Option(help="server, with --workers: the PostgreSQL database URL.")
    ] = None,
    adapters: Annotated[
        bool, typer.Option("--adapters", help="Also time PettingZoo, Gymnasium and OpenSpiel.")
    ] = False,
    peers: Annotated[
        bool,
        typer.Option("--peers", help="Also time RLCard uno, PettingZoo leduc, OpenSpiel hearts."),
    ] = False,
    adapter_seconds: Annotated[
        float, typer.Option(help="--adapters/--peers: seconds per figure.")
    ] = 3.0,
    sim: Annotated[
        bool,
        typer.Option("--sim", help="Also time whole simulated games and ISMCTS iterations."),
    ] = False,
) -> None:
    """Benchmark an engine (random legal games, one core) or the server (`bench server`)."""
    from bestiary.bench import bench_engine

    if game == "server":
        try:
            from bestiary.bench.loadtest import run_server_bench
        except ModuleNotFoundError as err:
            if err.name != "msgspec":
                raise
            raise _fail("bench server needs msgspec: pip install 'bestiary[bench]'") from None

        served = list(game_names()) if of == "both" else [_check_game(of)]
        try:
            counts = [int(n) for n in tables.split(",")]
        except ValueError:
            raise _fail(f"--tables should be numbers separated by commas, not {tables!r}") from None
        if movers < 0:
            raise _fail(f"--movers should be 0 or more, not {movers}")
        try:
            run_server_bench(
                served, counts, seconds, echo=typer.echo, thinkers=thinkers, movers=movers,
                workers=workers, db=db,
            )  # fmt: skip
        except ValueError as err:
            raise _fail(str(err)) from None
        return
    players = _players(game, players)
    try:
        result = bench_engine(game, players=players, games=games, seed=seed)
    except ValueError as err:
        raise _fail(str(err)) from None
    typer.echo(result.report())
    if adapters or peers:
        from bestiary.adapters.speed import bench_adapters, bench_peers, vector_speedup

        rates = bench_adapters(game, players, adapter_seconds, seed) if adapters else []
        rates += bench_peers(adapter_seconds, seed) if peers else []
        typer.echo("through the research APIs (random legal play, one core):")
        for rate in rates:
            typer.echo(rate.line())
        speedup = vector_speedup(rates)
        if speedup is not None:
            typer.echo(speedup)
    if sim:
        from bestiary.sim.speed import bench_ismcts, bench_sim_games

        typer.echo("simulation (bestiary sim's runner, one core):")
        typer.echo(bench_sim_games(game, players, max(1, games // 10), seed).line())
        typer.echo(bench_ismcts(2, 200, 10, seed).line())


@app.command("demo")
def demo_command(
    game: Annotated[
        str | None,
        typer.Argument(help="The game (default: the first with a narrated demo of its own)."),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Players at the table (default: 4, or the nearest allowed).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a repeatable game.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds between narrated lines.")] = 0.4,
) -> None:
    """Watch bots play a narrated game in the terminal (Call of the Wild's demo by default; a
    game with no demo of its own is told by its terminal board's words)."""
    from bestiary.core.info import resolve

    if game is None:
        with_demo = [g.info.name for g in games() if g.info.faces.demo is not None]
        game = with_demo[0] if with_demo else game_names()[0]
    demo = get_game(_check_game(game)).info.faces.demo
    players = _players(game, players)
    if demo is not None:
        resolve(demo)(players=players, seed=seed, delay=delay)
        return
    from bestiary.tui.watch import run_watch

    run_watch(game, players, seed, delay)


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option(help="Database URL (SQLite file by default, or postgresql://...).")
    ] = "sqlite:///bestiary.sqlite",
    grace: Annotated[
        float, typer.Option(help="Seconds a seat may stay empty before a bot stands in.")
    ] = 30.0,
    answer: Annotated[
        float, typer.Option(help="critters: seconds to answer an action before it is allowed.")
    ] = 30.0,
    tick: Annotated[
        float, typer.Option(help="Seconds per tick of the table's clock (bots react in ticks).")
    ] = PACE.tick_seconds,
    pace: Annotated[
        str,
        typer.Option(
            help="The bots' pace where a table chooses none: normal, slow or fast (docs/driver.md)."
        ),
    ] = "normal",
    turn: Annotated[
        float,
        typer.Option(
            help="critters: seconds a person has to move before a bot moves (0: no clock)."
        ),
    ] = 90.0,
    decks: Annotated[
        Path | None,
        typer.Option(help="critters: a folder of deck files (NAME.toml/.json) offered by name."),
    ] = None,
    allow_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-seeds", help="Let `POST /start` choose the deal's seed (testing servers only)."
        ),
    ] = False,
    stock_transport: Annotated[
        bool,
        typer.Option(
            "--stock-transport",
            help="Table sockets through uvicorn's and websockets' own frames only (slower).",
        ),
    ] = False,
    wal_limit: Annotated[
        float,
        typer.Option(
            "--wal-limit",
            help="SQLite: MiB its write-ahead log may reach before it is checkpointed and cut.",
        ),
    ] = SERVER.wal_limit_mib,
    api_docs: Annotated[
        bool,
        typer.Option(
            "--api-docs",
            help="Serve /docs, the API's reference page (Swagger UI, loaded from a CDN).",
        ),
    ] = False,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="IP or network of a reverse proxy whose X-Forwarded-For is believed (repeatable).",
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="A name the server answers to besides IP addresses and localhost, e.g. its "
            "public name behind a reverse proxy (repeatable).",
        ),
    ] = None,
    max_connections: Annotated[
        int, typer.Option(help="Open connections in all.")
    ] = SERVER.max_connections,
    max_per_address: Annotated[
        int, typer.Option(help="Open connections (and table sockets) from one address.")
    ] = SERVER.max_per_address,
    hello_timeout: Annotated[
        float, typer.Option(help="Seconds a table socket has to say hello.")
    ] = SERVER.hello_timeout,
    header_timeout: Annotated[
        float, typer.Option(help="Seconds a client has to send a request's headers and body.")
    ] = SERVER.header_timeout,
    idle_timeout: Annotated[
        float,
        typer.Option(help="Seconds a kept-alive connection may idle, or a socket miss a ping."),
    ] = SERVER.idle_timeout,
    max_body: Annotated[
        int, typer.Option(help="Bytes in an HTTP request body.")
    ] = SERVER.max_body_bytes,
    tables_per_minute: Annotated[
        float, typer.Option(help="New tables one address may open per minute.")
    ] = SERVER.tables_per_minute,
    open_table_seconds: Annotated[
        float, typer.Option(help="Seconds an open table nobody joins or starts is kept.")
    ] = SERVER.open_table_seconds,
    max_spectators: Annotated[
        int, typer.Option(help="Spectators at one table.")
    ] = SERVER.max_spectators,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes sharing the --db (PostgreSQL); alone: start them all here, "
            "behind nginx on --port."
        ),
    ] = 1,
    worker: Annotated[
        int | None,
        typer.Option(help="This process is worker K (0 to --workers - 1) behind your own proxy."),
    ] = None,
    lease: Annotated[
        float, typer.Option(help="Seconds after which a silent worker's tables are taken over.")
    ] = SERVER.lease_seconds,
    finished_table_seconds: Annotated[
        float, typer.Option(help="Seconds a finished game stays in memory for its sockets.")
    ] = SERVER.finished_table_seconds,
    keep_finished: Annotated[
        int, typer.Option(help="Finished games the store keeps (the newest; older ones deleted).")
    ] = SERVER.keep_finished,
    keep_days: Annotated[
        float, typer.Option(help="Days a finished game is kept in the store at most.")
    ] = SERVER.keep_days,
    joins_per_minute: Annotated[
        float, typer.Option(help="Seats one address may take per minute.")
    ] = SERVER.joins_per_minute,
    seats_per_address: Annotated[
        int, typer.Option(help="Seats one address may hold at once (open tables, games in play).")
    ] = SERVER.seats_per_address,
    ipv6_prefix: Annotated[
        int, typer.Option(help="IPv6 clients are counted by their network of this prefix.")
    ] = SERVER.ipv6_prefix,
) -> None:
    """Serve the lobby, live tables and the browser client (open the printed URL)."""
    from bestiary.server.run import PortTaken, check_port, serve
    from bestiary.server.store import Store, StoreUnavailable
    from bestiary.server.table import TableSettings

    try:  # first of all: a busy port is one sentence, before any table is restored
        check_port(host, port)
    except PortTaken as exc:
        raise _fail(str(exc)) from None
    if decks is not None and not decks.is_dir():
        raise _fail(f"--decks {decks} is not a folder")
    try:
        limits = ServerSettings(
            max_connections=max_connections,
            max_per_address=max_per_address,
            hello_timeout=hello_timeout,
            header_timeout=header_timeout,
            idle_timeout=idle_timeout,
            max_body_bytes=max_body,
            tables_per_minute=tables_per_minute,
            open_table_seconds=open_table_seconds,
            max_spectators=max_spectators,
            allow_seeds=allow_seeds,
            stock_transport=stock_transport,
            api_docs=api_docs,
            wal_limit_mib=wal_limit,
            trusted_proxies=tuple(trusted_proxy or ()),
            allowed_hosts=tuple(allowed_host or ()),
            joins_per_minute=joins_per_minute,
            finished_table_seconds=finished_table_seconds,
            keep_finished=keep_finished,
            keep_days=keep_days,
            seats_per_address=seats_per_address,
            ipv6_prefix=ipv6_prefix,
            decks=decks,
            worker=worker,
            workers=workers,
            lease_seconds=lease,
            address=f"{host}:{port}",
        )
    except ValueError as exc:
        raise _fail(f"--{exc}") from None
    if (workers > 1 or worker is not None) and not db.startswith("postgresql"):
        raise _fail(
            "several workers share a PostgreSQL database: give --db postgresql+psycopg://..."
        )
    try:  # a bad --db is a sentence here, not a traceback from the server's start-up
        Store(db).close()
    except StoreUnavailable as exc:
        raise _fail(str(exc)) from None
    if workers > 1 and worker is None:  # all of them here, behind nginx on --port
        _serve_workers(db, workers, host, port, lease, sys.argv)
        return
    settings = TableSettings(
        answer_seconds=answer,
        grace_seconds=grace,
        tick_seconds=tick,
        bots_pace=pace,
        turn_seconds=turn or None,
    )
    try:
        serve(host=host, port=port, db=db, settings=settings, server=limits)
    except PortTaken as exc:
        raise _fail(str(exc)) from None


def _serve_workers(
    db: str, count: int, host: str, port: int, lease: float, argv: list[str]
) -> None:
    """``serve --workers N``: N workers on the ports after --port, nginx on --port."""
    from bestiary.server.run import PortTaken, check_port
    from bestiary.server.workers import NoNginx, Workers

    ports = [port + 1 + k for k in range(count)]
    try:
        for taken in ports:
            check_port("127.0.0.1", taken)
    except PortTaken as exc:
        raise _fail(f"{exc} (--workers {count} uses ports {ports[0]} to {ports[-1]})") from None
    # every other flag goes to each worker as given (limits, timings, decks...)
    passed = _worker_flags(argv)
    try:
        running = Workers(db, count, port, host, ports, passed, lease).start()
    except (NoNginx, RuntimeError) as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"bestiary is serving at {running.url}/ ({count} workers behind nginx)")
    typer.echo(f"workers on 127.0.0.1 ports {ports[0]}-{ports[-1]}; records in {db}")
    try:
        running.supervise()
    finally:
        running.stop()


# flags that --workers sets for each worker itself
_OWN_FLAGS = {"--host", "--port", "--db", "--workers", "--worker", "--lease", "--trusted-proxy"}


def _worker_flags(argv: list[str]) -> list[str]:
    """The flags of ``serve`` given on the command line, less those each worker gets its own of."""
    args = argv[argv.index("serve") + 1 :] if "serve" in argv else []
    passed: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in _OWN_FLAGS:
            skip = "=" not in arg
            continue
        passed.append(arg)
    return passed


@app.command("routes")
def routes_command(
    workers: Annotated[list[str], typer.Argument(help="Each worker's host:port, worker 0 first.")],
    listen: Annotated[str, typer.Option(help="What nginx listens on (its `listen`).")] = "80",
    lease: Annotated[
        float, typer.Option(help="The workers' --lease: nginx skips a worker silent for two.")
    ] = SERVER.lease_seconds,
) -> None:
    """Print the nginx configuration that routes each table to the worker that owns it."""
    from bestiary.server.shards import nginx_site

    try:
        typer.echo(nginx_site(workers, listen, lease), nl=False)
    except ValueError as err:
        raise _fail(str(err)) from None


@app.command("sim")
def sim_command(
    game: Annotated[str | None, typer.Argument(help=GAME_HELP)] = None,
    players: Annotated[
        int | None, typer.Option(help="Players per game (default: 4, or the nearest allowed).")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bot names, repeated to fill the table (the game's default "
            "bot); a bot's parameters as name(key=value), listed by bestiary bots."
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option(help="Run seed; game i is seeded from (seed, i).")] = 1,
    jobs: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: start a local Ray).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Game option key=value (repeatable).")
    ] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            help="Also play the same deals with these options changed and pair the games "
            "(key=value, repeatable; each key once)."
        ),
    ] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            help="KEY=V1,V2,... : play each value against the baseline on the same seeds "
            "(a game option, players, or bots=a+b,c+d; repeatable)."
        ),
    ] = None,
    grid: Annotated[
        list[str] | None,
        typer.Option(
            help="KEY=V1,V2,... given twice: play every combination of the two keys' values "
            "against the baseline (a heat map in the report)."
        ),
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot", help="Add a bot to the line-up: a name or module:Factory (repeatable)."
        ),
    ] = None,
    seeds: Annotated[
        str | None, typer.Option(help="Pool runs with these seeds (comma-separated).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    out: Annotated[
        Path | None, typer.Option(help="Write every game's record (JSON Lines) to this folder.")
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="Write a self-contained HTML report with plots.")
    ] = None,
    table: Annotated[
        Path | None, typer.Option(help="Write one row per game to this .csv or .parquet file.")
    ] = None,
    figures: Annotated[
        Path | None, typer.Option(help="Write each figure of the report as a PNG to this folder.")
    ] = None,
    turns: Annotated[
        Path | None,
        typer.Option(
            help="Write one row per move (scores, sets, hand sizes) to this .csv or .parquet file."
        ),
    ] = None,
    changed: Annotated[
        Path | None,
        typer.Option(
            help="With --compare: write both arms' records of the games whose winners changed "
            "to this folder (base/, compare/), for bestiary replay."
        ),
    ] = None,
    plan: Annotated[
        bool, typer.Option("--plan", help="Only say how many games a comparison needs.")
    ] = False,
    margin: Annotated[float, typer.Option(help="--plan: difference in win rate to detect.")] = 0.05,
    rate: Annotated[
        float | None, typer.Option(help="--plan: base win rate (default 1/players).")
    ] = None,
    known: Annotated[
        bool,
        typer.Option(
            "--known", help="--plan: test one rate against --rate as a known share (a seat's)."
        ),
    ] = False,
    confidence: Annotated[float, typer.Option(help="--plan: confidence level.")] = 0.95,
    power: Annotated[float, typer.Option(help="--plan: chance to detect the margin.")] = 0.8,
    pace: Annotated[
        str,
        typer.Option(
            help="lab (bots only, the default) or live: the bots' pace at a live table where a "
            "person sits (docs/driver.md)."
        ),
    ] = "lab",
) -> None:
    """Play seeded games between bots in parallel and print win rates with 95% intervals."""
    from bestiary.core.errors import BadOption
    from bestiary.sim import commands

    try:
        if plan:
            seated = players or (_players(game, None) if game else 4)
            typer.echo(commands.plan(rate or 1.0 / seated, margin, confidence, power, known))
            return
        if game is None:
            raise _fail("name a game (wild or critters), or use --plan")
        commands.run_sim(
            commands.SimRequest(
                game=_check_game(game),
                players=_players(game, players),
                bots=bots if bots is not None else ("" if bot else _default_bot(game)),
                games=games,
                seed=seed,
                jobs=jobs,
                backend=backend,
                address=address,
                option=option or [],
                compare=compare or [],
                sweep=sweep or [],
                extra_bots=bot or [],
                seeds=seeds,
                as_json=as_json,
                out=out,
                report=report,
                table=table,
                command=" ".join(["bestiary", *sys.argv[1:]]),
                grid=grid or [],
                turns=turns,
                changed=changed,
                figures=figures,
                pace=pace,
            )
        )
    except (ValueError, BadOption) as err:
        raise _fail(str(err)) from None


@app.command("lab")
def lab_command(
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 to serve the page on.")] = 8765,
) -> None:
    """Open the balance lab as a page on this computer (127.0.0.1 only, never part of serve):
    pick a game, options, a comparison, sweep or grid and bots, watch the games being played,
    and get the report's figures and sentences, each with the bestiary sim command that makes
    it again, and the games as CSV or Parquet (docs/lab.md)."""
    from bestiary.sim.lab_page import HOST, run_lab

    if not 1 <= port <= 65535:
        raise _fail(f"--port must be 1 to 65535, not {port}")
    typer.echo(f"the lab is at http://{HOST}:{port}/ (this computer only; Ctrl-C stops it)")
    try:
        run_lab(port)
    except OSError as err:
        raise _fail(f"cannot listen on {HOST}:{port}: {err.strerror or err}") from None


@app.command("ladder")
def ladder_command(
    games: Annotated[int, typer.Option(help="critters games per matchup of the fast bots.")] = 1000,
    search_games: Annotated[
        int, typer.Option(help="critters games per matchup with the searching bot.")
    ] = 1000,
    elsewhere_games: Annotated[
        int | None,
        typer.Option(
            help="critters games of the strongest bot in 4 players and against OpenSpiel "
            "(default: --search-games)."
        ),
    ] = None,
    wild_games: Annotated[int, typer.Option(help="wild games per matchup.")] = 400,
    seed: Annotated[int, typer.Option(help="Run seed.")] = 1,
    jobs: Annotated[int, typer.Option(help="Processes to play the games in.")] = 1,
    out: Annotated[
        Path, typer.Option(help="Where to write the page (docs/bots.md is the published one).")
    ] = Path("bots.md"),
) -> None:
    """Measure every bot against the references and the exploiters; write the page (bots.md in
    the working directory unless --out says where)."""
    from bestiary.sim.ladder import ladder

    for name, value in (
        ("--games", games),
        ("--search-games", search_games),
        ("--wild-games", wild_games),
        ("--jobs", jobs),
        ("--elsewhere-games", 1 if elsewhere_games is None else elsewhere_games),
    ):
        if value < 1:
            raise _fail(f"{name} must be at least 1")

    def progress(text: str) -> None:
        typer.echo(f"{time.strftime('%H:%M:%S')} {text}", err=True)

    page = ladder(games, search_games, wild_games, seed, progress, jobs, elsewhere_games)
    out.write_text(page, encoding="utf-8")
    typer.echo(f"wrote {out}")


@app.command("bots")
def bots_command(
    game: Annotated[str | None, typer.Argument(help="A game (default: every game).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the bots as JSON.")] = False,
) -> None:
    """List each game's bots and the parameters each one takes, with defaults and bounds
    (set them as name(key=value), e.g. --bots "reader(decay=0.5),greedy")."""
    import json

    from bestiary.core.agent import bot_entries
    from bestiary.core.game import games

    names = [_check_game(game)] if game is not None else [g.info.name for g in games()]
    listing = {
        name: [
            {**entry.as_json(), "params": [p.as_json() for p in entry.params]}
            for entry in bot_entries(name)
        ]
        for name in names
    }
    if as_json:
        typer.echo(json.dumps(listing, indent=2))
        return
    for name in listing:
        typer.echo(f"{name}:")
        for entry in bot_entries(name):
            typer.echo(f"  {entry.name}: {entry.description}")
            for param in entry.params:
                typer.echo(f"      {param.shown()}: {param.description}")


@app.command("tournament")
def tournament_command(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    pool: Annotated[str, typer.Option(help="Comma-separated bot names.")],
    players: Annotated[int, typer.Option(help="Players per game.")] = 2,
    games: Annotated[
        int, typer.Option(help="round-robin: games per table; random: games in all.")
    ] = 100,
    pairing: Annotated[str, typer.Option(help="round-robin or random.")] = "round-robin",
    seed: Annotated[int, typer.Option(help="Tournament seed.")] = 1,
    jobs: Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")] = None,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address.")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Game option key=value (repeatable).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the leaderboard as JSON.")] = False,
) -> None:
    """Play a bot pool against itself and print an OpenSkill leaderboard with uncertainty."""
    from bestiary.core.errors import BadOption
    from bestiary.sim import commands

    try:
        commands.run_tournament(
            _check_game(game),
            pool,
            players,
            games,
            seed,
            pairing,
            jobs,
            backend,
            address,
            option or [],
            as_json,
        )
    except (ValueError, BadOption) as err:
        raise _fail(str(err)) from None


@app.command("baselines")
def baselines_command(
    game: Annotated[
        str,
        typer.Argument(
            help="A game or variant with a baseline setting (critters, wild, wild-small), "
            "or all of them."
        ),
    ] = "all",
    steps: Annotated[int, typer.Option(help="Learner env steps per agent (the budget).")] = 50_000,
    eval_games: Annotated[int, typer.Option(help="Games per cheap opponent.")] = 200,
    search_games: Annotated[int, typer.Option(help="critters: games against ismcts.")] = 50,
    out: Annotated[str, typer.Option(help="Where checkpoints and results.json go.")] = (
        "artifacts/baselines"
    ),
    seed: Annotated[int, typer.Option(help="Training and evaluation seed.")] = 1,
) -> None:
    """Train MaskablePPO and a masked DQN on each game or variant (one core), save, evaluate."""
    if steps < 1 or eval_games < 1 or search_games < 0:
        raise _fail("--steps and --eval-games must be at least 1, --search-games at least 0")
    try:
        from bestiary.adapters.baselines import SETTINGS, run_baselines
    except ImportError as err:
        raise _fail(
            f"baselines need the learn extra (pip install 'bestiary[learn]'): {err}"
        ) from None
    if game != "all" and game not in SETTINGS:
        _check_game(game)
        raise _fail(f"{game} has no baseline setting (settings: {', '.join(SETTINGS)})")
    games = list(SETTINGS) if game == "all" else [game]
    run_baselines(games, steps, Path(out), seed, eval_games, search_games, echo=typer.echo)


# evaluate, export: the research commands (docs/rl.md), registered from their own module.
register_research(app)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
