"""Whole games on seeded tables, every move the same on every run: the fixed workload that
``workers_callgrind.py`` counts (docs/server.md, "The second worker's cost per move").

Each table is made, joined and started through the lobby with its own deal's seed (the server
runs with ``--allow-seeds``), its four seats connect, and then one move at a time: once every
seat has seen the latest state, the first seat (in seat order) with legal actions sends one of
them, chosen by the table's own seeded ``random.Random`` (a meeting when one is open, as the
bench's clients choose), and waits for its answer and for every other seat to see it. So a
table's moves depend on its seeds only, never on timing, however many workers serve it (which
tables share a group commit still does: that is what is measured).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import orjson
from sqlalchemy import create_engine

from bestiary.bench.leanhttp import LeanHTTP, LobbyError
from bestiary.bench.leansocket import LeanSocket, lean_connect

SEATS = 4
# the flags a seeded run adds to the bench's: seeds chosen by the client, no clock that could
# move for a player slowed by callgrind
SEEDED_FLAGS = ["--allow-seeds", "--turn", "0", "--answer", "36000"]


@dataclass
class Seat:
    ws: LeanSocket
    latest: dict[str, Any]


async def _post(http: LeanHTTP, path: str, body: dict[str, Any]) -> Any:
    status, answer = await http.post(path, body)
    if status >= 400:
        raise LobbyError(f"POST {path} answered {status}: {answer}")
    return answer


async def _until(seat: Seat, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read ``seat``'s messages until a state for which ``done(state)`` holds."""
    async for raw in seat.ws:
        message: dict[str, Any] = orjson.loads(raw)
        if message["type"] == "error":
            raise RuntimeError(f"the server refused a move: {message}")
        if message["type"] == "state":
            seat.latest = message
            if done(message):
                return message
    raise ConnectionError("a seat's socket closed mid-game")


async def open_table(http: LeanHTTP, ws_base: str, game: str, seed: int) -> list[Seat]:
    """A table of four players dealt from ``seed``, every seat connected and shown its state."""
    made = await _post(http, "/api/tables", {"game": game, "seats": SEATS, "name": "p1"})
    code, tokens = made["code"], [made["token"]]
    for i in range(2, SEATS + 1):
        tokens.append((await _post(http, f"/api/tables/{code}/join", {"name": f"p{i}"}))["token"])
    await _post(http, f"/api/tables/{code}/start", {"token": tokens[0], "seed": seed})
    seats = []
    for token in tokens:
        ws = await lean_connect(f"{ws_base}/ws/{code}")
        await ws.send(orjson.dumps({"type": "hello", "v": 1, "token": token}).decode())
        seat = Seat(ws, {})
        await _until(seat, lambda _: True)
        seats.append(seat)
    return seats


def _past(seq: int, state: dict[str, Any]) -> bool:
    return int(state["seq"]) > seq


def _answers(ref: int, state: dict[str, Any]) -> bool:
    """The state that answers move ``ref`` (the last one of a game carries no ref)."""
    return state.get("ref") == ref or bool(state["over"])


async def play_out(seats: list[Seat], rng: random.Random) -> int:
    """Play the table's game to its end, one move at a time; returns the moves."""
    moves = 0
    while not any(seat.latest["over"] for seat in seats):
        seq = max(seat.latest["seq"] for seat in seats)
        for seat in seats:  # everyone sees the latest state before anyone moves
            if seat.latest["seq"] < seq:
                await _until(seat, partial(_past, seq - 1))
        actor = next((seat for seat in seats if seat.latest["legal"]), None)
        if actor is None:  # only a clock can move the game on
            await _until(seats[0], partial(_past, seq))
            continue
        legal = actor.latest["legal"]
        action = rng.choice([a for a in legal if a["do"] == "meet"] or legal)
        moves += 1
        await actor.ws.send(
            orjson.dumps({"type": "action", "action": action, "ref": moves}).decode()
        )
        await _until(actor, partial(_answers, moves))
    for seat in seats:  # everyone sees the end before the sockets close
        if not seat.latest["over"]:
            await _until(seat, lambda m: bool(m["over"]))
        await seat.ws.close()
    return moves


async def open_and_play(
    base: str, game: str, tables: int, seed: int, opened: Callable[[], None]
) -> tuple[int, float]:
    """Open ``tables`` tables dealt from seeds ``seed``, ``seed`` + 1, ... (one at a time: the
    same tables in the same order on every run), call ``opened``, then play every game to its
    end, all at once; returns the moves and the seconds they took."""
    host, _, port = base.removeprefix("http://").partition(":")
    ws_base = base.replace("http://", "ws://")
    async with LeanHTTP(host, int(port), keepalive=1.0, timeout=600) as http:
        ready = [await open_table(http, ws_base, game, seed + n) for n in range(tables)]
    opened()
    began = time.monotonic()
    played = await asyncio.gather(
        *(play_out(seats, random.Random(seed + n)) for n, seats in enumerate(ready))
    )
    return sum(played), time.monotonic() - began


def games_digest(db: str) -> str:
    """What was played, whoever served it: every table's event lines without their times,
    tables in order of their lines (codes are random), hashed."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT code, line FROM events ORDER BY code, seq").all()
    finally:
        engine.dispose()
    games: dict[str, list[Any]] = {}
    for code, line in rows:
        event = orjson.loads(line)
        event.pop("t", None)
        games.setdefault(code, []).append(event)
    played = sorted(orjson.dumps(events, option=orjson.OPT_SORT_KEYS) for events in games.values())
    return hashlib.sha256(b"\n".join(played)).hexdigest()[:16]
