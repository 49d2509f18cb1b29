"""The README's pictures: both games at 1280 and 390 px, as a newcomer sees them.

    .venv/bin/python scripts/screenshots.py [--out docs/img]

Starts a live server on a free port (SQLite in a temporary directory), seats ann at a 4-seat
table of the default bots for each game, plays a few of her moves by keyboard so that cards are
down, and saves ``wild.png``, ``wild-phone.png``, ``critters.png`` and ``critters-phone.png``
(the visible screen, not the whole page). It also prints each page's width against the
viewport's, the check the browser tests make.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/browser.py: the suite's Chromium and seating helpers

from playwright import sync_api  # noqa: E402
from tests.browser import (  # noqa: E402
    DESKTOP,
    MANY,
    PAGE_ERRORS,
    PHONE,
    keyboard_critters_turn,
    launch,
    seat_page,
)
from tests.live import LiveServer  # noqa: E402

from bestiary.server.table import TableSettings  # noqa: E402


def wider(page: sync_api.Page) -> str:
    width = page.evaluate("document.documentElement.scrollWidth")
    shown = page.evaluate("window.innerWidth")
    return f"page {width} px in a {shown} px viewport"


def critters(
    browser: sync_api.Browser, live: LiveServer, viewport: dict[str, int]
) -> sync_api.Page:
    page, _, _ = seat_page(browser, live, "critters", 4, "greedy", viewport=viewport)
    page.wait_for_selector("#my-hand")
    deadline = time.monotonic() + 60
    while page.locator("#tableaus .set").count() < 4 and time.monotonic() < deadline:
        keyboard_critters_turn(page)
        page.wait_for_timeout(100)
        if page.query_selector("#results"):
            break
    page.wait_for_timeout(300)
    return page


def wild(browser: sync_api.Browser, live: LiveServer, viewport: dict[str, int]) -> sync_api.Page:
    page, _, _ = seat_page(
        browser, live, "wild", 4, "reader", {"nightfall_seconds": 600}, viewport=viewport
    )
    page.wait_for_selector("#my-hand")
    page.wait_for_selector("#players .call-badge")
    page.keyboard.press("1")
    page.wait_for_timeout(1500)
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        settings = TableSettings(tick_seconds=0.35, grace_seconds=600)
        with LiveServer(f"sqlite:///{tmp}/shots.sqlite", settings, server=MANY) as live:
            for browser in launch():
                for name, board in (("wild", wild), ("critters", critters)):
                    for suffix, viewport in (("", DESKTOP), ("-phone", PHONE)):
                        page = board(browser, live, viewport)
                        path = args.out / f"{name}{suffix}.png"
                        page.screenshot(path=str(path))
                        print(f"{path}: {wider(page)}")
                        for error in PAGE_ERRORS:
                            print(f"  script error: {error}")
                        PAGE_ERRORS.clear()
                        page.context.close()


if __name__ == "__main__":
    main()
