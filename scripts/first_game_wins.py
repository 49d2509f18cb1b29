"""Can a newcomer win at the table a first-time browser is offered? A benchmark, not a test.

A scripted person opens the lobby in real Chromium (Debian's /usr/bin/chromium) with a fresh
browser profile each game, so the lobby treats it as a first-time player and offers its gentle
table (Easy bots, the slow pace); it picks Call of the Wild, keeps every other default, creates
the table and starts it. It then plays by pointer, one decision every ``T`` seconds: it reads
its own view from the page's WebSocket (what the browser got, nothing more), decides with the
``reader`` bot's judgement (``--judge``: another wild bot's), and presses the page's own
controls (a hand card, a Call, Meet, Draw ...). A shared win counts as a win.

    PYTHONPATH=src:. .venv/bin/python scripts/first_game_wins.py --think 3 --games 8

prints each game's scores and the person's win share with a 95% Wilson interval. It runs for
many minutes (the bots keep a person's pace) but uses little CPU, so ``--tables`` people (4)
play at once, each at a table of their own.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # scripts.person_pace (the server) and tests.browser (Chromium)

from playwright import sync_api  # noqa: E402
from scripts.person_pace import start_server  # noqa: E402
from tests.browser import ARGS, CHROMIUM, press  # noqa: E402

from bestiary.bots.wild import WildBot  # noqa: E402
from bestiary.core.agent import make_bot  # noqa: E402

NAME = "ann"
GAME_SECONDS = 900  # a game that runs longer than this is reported as stuck


@dataclass
class Game:
    won: bool
    shared: bool
    scores: dict[str, int]
    seconds: float
    decisions: int
    bots: str


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share (sound for few games and shares near 0)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def first_table(page: sync_api.Page, base: str) -> str:
    """The lobby's first-time table for wild, as a newcomer makes it: its bots, as listed."""
    page.goto(base + "/")
    page.wait_for_selector("#first-game")  # the lobby sees a first-time browser
    page.check("input[name=game][value=wild]")
    page.fill("#name", NAME)
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    bots = sorted({m for m in re.findall(r"\(bot: ([^)]*)\)", page.inner_text("#seats"))})
    page.click("#start")
    page.wait_for_selector("#my-hand")
    return ", ".join(bots)


def tap(page: sync_api.Page, selector: str) -> None:
    page.locator(selector).scroll_into_view_if_needed()
    press(page, selector)


def do(page: sync_api.Page, action: dict[str, Any], view: dict[str, Any]) -> None:
    """``action`` made by pressing the page's controls, as a person would."""
    kind = action["do"]
    hand: list[str] = view["hand"]
    if action.get("card") in hand and kind in ("call", "discard"):
        tap(page, f"#hand-{hand.index(action['card'])}")
    if kind == "call":
        tap(page, f"#call-{action['call']}")
    elif kind == "meet":
        tap(page, f'#players button[data-meet="{action["with"]}"]')
    elif kind in ("draw", "withdraw", "discard"):
        tap(page, f"#{kind}")
    elif kind == "reveal_own":
        tap(page, "#reveal-own")


def play(browser: sync_api.Browser, base: str, think: float, seed: int, judge: str) -> Game:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    states: list[dict[str, Any]] = []

    def listen(ws: sync_api.WebSocket) -> None:
        def got(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                states.append(message)

        ws.on("framereceived", got)

    page.on("websocket", listen)
    bots = first_table(page, base)
    person = make_bot("wild", judge, NAME, seed)
    assert isinstance(person, WildBot), f"{judge} is not a wild bot"
    started = time.monotonic()
    decisions = 0
    while not (states and states[-1]["over"]):
        if time.monotonic() - started > GAME_SECONDS:
            raise SystemExit(f"a game ran over {GAME_SECONDS} s; the person's page: {page.url}")
        page.wait_for_timeout(think * 1000)  # a person's pause, then one decision
        if not states or states[-1]["over"]:
            continue
        view = states[-1]["view"]
        action = person.act(view, None)
        decisions += 1
        if action is not None:
            do(page, action.to_event(), view)
    last = states[-1]
    winners: list[str] = last["winners"]
    context.close()
    return Game(
        won=NAME in winners,
        shared=NAME in winners and len(winners) > 1,
        scores=dict(last["view"]["scores"]),
        seconds=float(last["t"]),
        decisions=decisions,
        bots=bots,
    )


def line(i: int, g: Game) -> None:
    others = ", ".join(f"{p} {s}" for p, s in g.scores.items() if p != NAME)
    result = "shared win" if g.shared else "win" if g.won else "loss"
    print(
        f"game {i}: {result}; {NAME} {g.scores.get(NAME, 0)} points against {others} "
        f"({g.bots}); {g.seconds:.0f} s, {g.decisions} decisions",
        flush=True,
    )


def report(think: float, judge: str, games: list[Game]) -> None:
    wins = sum(g.won for g in games)
    low, high = wilson(wins, len(games))
    print(
        f"T={think:g} s, {judge}'s judgement: the person won {wins} of {len(games)} wild games "
        f"at the first-time table ({sum(g.shared for g in games)} shared), "
        f"win share {wins / len(games):.2f} "
        f"(95% interval {low:.2f}-{high:.2f}; target at least 0.25)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, default=3.0, help="seconds before each decision")
    parser.add_argument("--games", type=int, default=8, help="games to play, one after another")
    parser.add_argument("--seed", type=int, default=1, help="the person's own choices")
    parser.add_argument(
        "--judge", default="reader", help="the wild bot whose judgement the person plays by"
    )
    parser.add_argument(
        "--tables", type=int, default=4, help="tables played at once (one person at each)"
    )
    args = parser.parse_args()
    seeds = [args.seed + i for i in range(args.games)]
    games: list[Game] = []
    with tempfile.TemporaryDirectory(prefix="first-game-") as tmp:
        server, base = start_server(Path(tmp), [])
        try:
            # each person in a process of its own (Playwright's sync API is one per thread)
            with ProcessPoolExecutor(max(1, min(args.tables, len(seeds)))) as pool:
                runs = [
                    pool.submit(sitting, base, args.think, seeds[k :: args.tables], args.judge)
                    for k in range(args.tables)
                ]
                for run in runs:
                    for game in run.result():
                        games.append(game)
                        line(len(games), game)
        finally:
            server.terminate()
            server.wait(10)
    report(args.think, args.judge, games)


def sitting(base: str, think: float, seeds: list[int], judge: str) -> list[Game]:
    """One person's games, one after another, in one Chromium."""
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        games = [play(browser, base, think, seed, judge) for seed in seeds]
        browser.close()
    return games


if __name__ == "__main__":
    main()
