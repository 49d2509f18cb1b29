"""What the browser tests share: Debian's Chromium, pages seated at a table, the wire, axe-core.

Screenshots go to artifacts/ (the README's pictures in docs/img/ are made by
scripts/screenshots.py).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from playwright import sync_api

from bestiary.server.settings import ServerSettings
from tests.live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
TIMEOUT_MS = 15_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
PAGE_ERRORS: list[str] = []  # uncaught script errors in any page: a test fails on any


# One test player opens many tables from 127.0.0.1: more than a stranger may.
MANY = ServerSettings(tables_per_minute=1000, joins_per_minute=6000, seats_per_address=1000)


def launch() -> Iterator[sync_api.Browser]:
    """Debian's Chromium under Playwright, for a module-scoped fixture to yield from."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def new_page(
    browser: sync_api.Browser,
    viewport: dict[str, int] | None = None,
    touch: bool = False,
    own_policy: bool = False,
) -> sync_api.Page:
    """A fresh page; ``touch``: a phone's touch screen (taps, no hover). ``own_policy``: the
    server's Content-Security-Policy holds (tests/test_browser_ui.py); otherwise the test's
    own scripts may run (Playwright evaluates some of its waits as strings, which the policy
    rightly refuses)."""
    context = browser.new_context(
        viewport=viewport or DESKTOP,  # type: ignore[arg-type]
        reduced_motion="reduce",  # screenshots and timing without animations in between
        has_touch=touch,
        is_mobile=touch,
        bypass_csp=not own_policy,
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda err: PAGE_ERRORS.append(str(err)))
    return page


def screenshot(page: sync_api.Page, name: str, full_page: bool = True) -> None:
    """A test's picture in artifacts/ (docs/img/ is made by scripts/screenshots.py)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)


class Wire:
    """Every WebSocket frame a page sends and receives, parsed."""

    def __init__(self, page: sync_api.Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.got: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: sync_api.WebSocket) -> None:
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: self.got.append(json.loads(payload)))

    def actions(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "action"]

    def states(self) -> int:
        return sum(1 for m in self.got if m["type"] == "state")

    def answered(self) -> set[Any]:
        """Refs the server answered: with a new state, or with an error saying why not."""
        return {m.get("ref") for m in self.got if m["type"] in ("state", "error")}

    def refused(self) -> list[dict[str, Any]]:
        return [m for m in self.got if m["type"] == "error" and m.get("ref") is not None]


def seat_page(
    browser: sync_api.Browser,
    server: LiveServer,
    game: str,
    seats: int,
    bot: str | None,
    options: dict[str, Any] | None = None,
    viewport: dict[str, int] | None = None,
    extra: dict[str, Any] | None = None,
    touch: bool = False,
) -> tuple[sync_api.Page, Wire, str]:
    """ann at a new started table (empty seats filled with ``bot``), her page open on it."""
    body: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "name": "ann",
        "options": options or {},
        "bots": [{"bot": bot}] * (seats - 1) if bot else [],
        "start": bot is not None,
        **(extra or {}),
    }
    with server.http() as http:
        made = http.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        seated = made.json()
    page = new_page(browser, viewport, touch)
    wire = Wire(page)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.evaluate(
        "([code, seat]) => localStorage.setItem('bestiary.seats', JSON.stringify({[code]: seat}))",
        [seated["code"], {"token": seated["token"], "seat": seated["seat"]}],
    )
    page.goto(f"{server.url}/#/t/{seated['code']}")
    return page, wire, str(seated["code"])


def press(page: sync_api.Page, selector: str, hold_ms: int = 120) -> None:
    """A person's press: pointer down on the control, held ``hold_ms``, then up."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on screen"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(hold_ms)
    page.mouse.up()


def wait_until(page: sync_api.Page, check: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``check`` while the page runs (Playwright delivers frames only while it waits)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"waited {seconds} s for {what}")


def audit(page: sync_api.Page, where: str) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated by the browser's devtools, not as a <script> tag: the page's
        # Content-Security-Policy (rightly) refuses an inline script of the test's
        page.evaluate("(() => {" + AXE.read_text() + "\n})()")
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ["violations"]});
          return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ` +
              v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
        }"""
    )
    return [f"{where}: {line}" for line in found]


def keyboard_critters_turn(page: sync_api.Page) -> None:
    """One decision by keys: always allow; else the first card with a move, its first move."""
    if page.query_selector("#allow[aria-disabled=false]"):
        page.keyboard.press("a")
        return
    if "Your turn" not in page.inner_text("#turn"):
        return
    cards = page.locator("#my-hand .cards .card").count()
    for i in range(min(cards, 9)):
        page.keyboard.press(str(i + 1))
        page.wait_for_timeout(30)
        focused = page.evaluate(
            "document.activeElement && document.activeElement.closest('#moves') !== null"
        )
        if focused:
            page.keyboard.press("Enter")
            return
    page.keyboard.press("p")
