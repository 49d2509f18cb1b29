"""Is a live wild table fair to a person? A benchmark, not a test (it takes real minutes).

A scripted person plays over the real WebSocket protocol against a real ``bestiary serve`` on
127.0.0.1, at a 4-seat wild table made as the lobby makes it by default (the lobby's seat
count, every empty seat filled with the game's default bot, the default options and the
default bots' pace, all read from ``GET /api/games``). The person takes ``T`` seconds before
each decision: after the first change it has not yet acted on (a state message; its own move
is one), or, when it last chose to wait and nothing changed, after that choice. It then
decides from its own view (``view`` and nothing else, as the browser gets it) with the
default bot's judgement (``reader``: which Call to answer, whom to meet), so it plays as
sensibly as the bots but at a person's speed.

    .venv/bin/python scripts/person_pace.py --think 3 --games 3

prints, per game and pooled: the meetings, how many included the person (a fair share is 50%:
two of four seats meet), how long the game lasted, the scores, and how long a Call waited to
be met.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from bestiary.bots.wild import ReaderBot

GAME = "wild"
NAME = "ann"


@dataclass
class Game:
    meetings: int = 0
    mine: int = 0
    seconds: float = 0.0
    scores: dict[str, int] = field(default_factory=dict)
    waits: list[float] = field(default_factory=list)  # seconds from a Call to its meeting
    decisions: int = 0
    ended: str = ""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(folder: Path, extra: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = shutil.which("bestiary") or str(Path(sys.executable).parent / "bestiary")
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(
        [
            command,
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{folder / 'db.sqlite'}",
            *extra,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                return server, base
        time.sleep(0.1)
    server.terminate()
    raise SystemExit("the server did not start; see " + str(folder / "server.log"))


def lobby_table(base: str) -> tuple[str, str]:
    """A table as the lobby's form makes it when nothing is changed: (code, token)."""
    games = {g["name"]: g for g in httpx.get(f"{base}/api/games").json()}
    info = games[GAME]
    seats = max(info["min_players"], min(info["max_players"], 4))  # the form's default
    body: dict[str, Any] = {
        "game": GAME,
        "seats": seats,
        "name": NAME,
        "options": {},  # every option at its default
        "bots": [{"bot": info["default_bot"]}] * (seats - 1),
    }
    for spec in info.get("table_options", []):
        body[spec["name"]] = spec["default"]
    made = httpx.post(f"{base}/api/tables", json=body).json()
    code, token = made["code"], made["token"]
    started = httpx.post(f"{base}/api/tables/{code}/start", json={"token": token})
    started.raise_for_status()
    return code, token


async def play(base: str, think: float, seed: int) -> Game:
    code, token = lobby_table(base)
    person = ReaderBot(NAME, random.Random(seed))
    result = Game()
    calls: dict[str, float] = {}  # player: game time their current Call was made
    async with websockets.connect(base.replace("http", "ws") + f"/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        latest: dict[str, Any] | None = None
        pending: float | None = None  # when the first change not yet acted on arrived
        idle: float | None = None  # when the person last chose to wait
        loop = asyncio.get_running_loop()
        while True:
            start = pending if pending is not None else idle
            timeout = None if start is None else max(0.0, start + think - loop.time())
            try:
                text = await asyncio.wait_for(ws.recv(), timeout)
            except TimeoutError:
                text = None
            if text is not None:
                message = json.loads(text)
                if message["type"] != "state":
                    continue
                _follow(message, latest, calls, result)
                latest = message
                if message["over"]:
                    break
                if pending is None:
                    pending, idle = loop.time(), None
                continue
            assert latest is not None
            pending = idle = None
            action = person.act(latest["view"], None)
            result.decisions += 1
            if action is None:
                idle = loop.time()
                continue
            await ws.send(json.dumps({"type": "action", "action": action.to_event()}))
    view = latest["view"]
    result.seconds = float(latest["t"])
    result.meetings = len(view["meetings"])
    result.mine = sum(1 for m in view["meetings"] if NAME in m["players"])
    result.scores = dict(view["scores"])
    result.ended = "sundown" if view["ended_by"] else "nightfall or out of cards"
    return result


def _follow(
    message: dict[str, Any], before: dict[str, Any] | None, calls: dict[str, float], game: Game
) -> None:
    """How long Calls wait: from a player's Call to the meeting that used it."""
    t = float(message["t"])
    for event in message["events"]:
        if event.get("do") == "call":
            calls[event["by"]] = t
    seen = len(before["view"]["meetings"]) if before else 0
    for meeting in message["view"]["meetings"][seen:]:
        for player in meeting["players"]:
            made = calls.pop(player, None)
            if made is not None:
                game.waits.append(t - made)


def report(think: float, games: list[Game]) -> None:
    for i, g in enumerate(games, 1):
        best_bot = max((v for k, v in g.scores.items() if k != NAME), default=0)
        print(
            f"T={think:g} s game {i}: {g.mine}/{g.meetings} meetings with the person, "
            f"{g.seconds:.0f} s, person {g.scores.get(NAME, 0)} points, best bot {best_bot}, "
            f"{g.decisions} decisions, {g.ended}",
            flush=True,
        )
    meetings = sum(g.meetings for g in games)
    mine = sum(g.mine for g in games)
    waits = [w for g in games for w in g.waits]
    lengths = sorted(g.seconds for g in games)
    share = mine / meetings if meetings else 0.0
    wait = f", a Call met a median {statistics.median(waits):.1f} s after it" if waits else ""
    print(
        f"T={think:g} s pooled over {len(games)} games: the person took part in {mine} of "
        f"{meetings} meetings ({share:.0%}; fair 50%), games {lengths[0]:.0f}-{lengths[-1]:.0f} s"
        f" (median {statistics.median(lengths):.0f} s){wait}; load {os.getloadavg()[0]:.2f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, default=3.0, help="seconds before each decision")
    parser.add_argument("--games", type=int, default=3, help="games to play, one after another")
    parser.add_argument("--seed", type=int, default=1, help="the person's own choices")
    parser.add_argument(
        "--serve", default="", help="extra `bestiary serve` options, e.g. '--pace fast'"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="person-pace-") as tmp:
        server, base = start_server(Path(tmp), args.serve.split())
        try:
            games = [asyncio.run(play(base, args.think, args.seed + i)) for i in range(args.games)]
        finally:
            server.terminate()
            server.wait(10)
    report(args.think, games)


if __name__ == "__main__":
    main()
