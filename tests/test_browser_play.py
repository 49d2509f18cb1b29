"""The web client in a real browser (Playwright + Debian's Chromium) against a live server.

Two players create and join a wild table and meet; a critters game against bots is played to
the end with the keyboard; a page reload in the middle of a game reconnects to the same seat.
Screenshots go to artifacts/; BESTIARY_UPDATE_SCREENSHOTS=1 also refreshes docs/img/ (the README's).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api

from bestiary.server.live import LiveServer
from bestiary.server.table import TableSettings

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
TIMEOUT_MS = 15_000
PAGE_ERRORS: list[str] = []  # uncaught script errors in any page: a test fails on any

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("browser") / "browser.sqlite"
    with LiveServer(f"sqlite:///{db}", TableSettings(tick_seconds=0.01, grace_seconds=60)) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def new_page(browser: sync_api.Browser) -> sync_api.Page:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda err: PAGE_ERRORS.append(str(err)))
    return page


def screenshot(page: sync_api.Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    docs = ROOT / "docs" / "img"
    if os.environ.get("BESTIARY_UPDATE_SCREENSHOTS") == "1" and docs.is_dir():
        shutil.copy(path, docs / name)  # refresh the README's pictures on request only


def seq(page: sync_api.Page) -> int:
    value = page.evaluate("App.state ? App.state.seq : -1")
    assert isinstance(value, int)
    return value


def test_two_players_meet_in_wild(server: LiveServer, browser: sync_api.Browser) -> None:
    ann, bob = new_page(browser), new_page(browser)
    ann.goto(server.url + "/")
    ann.fill("#name", "ann")
    ann.select_option("#game", "wild")
    ann.fill("#seats", "2")
    ann.select_option("#fill-bot", "")
    ann.click("#create")
    link = ann.get_attribute("#share-link", "href")
    assert link is not None
    bob.goto(link)
    bob.fill("#join-name", "bob")
    bob.click("#join")
    ann.wait_for_selector("#seats >> text=bob")
    ann.click("#start")
    ann.wait_for_selector("#my-hand")
    bob.wait_for_selector("#my-hand")
    # ann offers her first card with its own Call; bob answers on the same Call
    creature = ann.get_attribute("#my-hand button.card >> nth=0", "data-card")
    assert creature is not None
    ann.click(f"button.callbtn[data-call={creature}]")
    bob.wait_for_selector(f"[data-player=ann] .call-badge.c-{creature}")
    bob.click(f"button.callbtn[data-call={creature}]")
    ann.wait_for_selector(f"[data-player=bob] .call-badge.c-{creature}")
    ann.click("button[data-meet=bob]")
    bob.wait_for_selector("[data-player=ann] .ask")
    bob.keyboard.press("g")  # meet with the keyboard: the player who asked
    for page in (ann, bob):
        page.wait_for_selector("#meetings li")
        assert "met on the" in page.inner_text("#meetings li")
    screenshot(ann, "wild.png")
    assert PAGE_ERRORS == []


def test_critters_against_bots_to_the_end_with_a_reload(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.fill("#name", "ann")
    page.select_option("#game", "critters")
    page.fill("#seats", "3")
    page.click("#create")
    page.click("#start")
    page.wait_for_selector("#my-hand")
    reloaded = False
    shot = False
    for _ in range(400):
        page.wait_for_selector("#moves button, #allow:not([disabled]), #results")
        if page.query_selector("#results"):
            break
        before = seq(page)
        if not shot and page.query_selector("#tableaus .set"):
            screenshot(page, "critters.png")
            shot = True
        if page.query_selector("#allow:not([disabled])"):
            page.keyboard.press("n" if page.query_selector("#say-no:not([disabled])") else "a")
        else:
            page.keyboard.press("1")
        page.wait_for_function(f"App.state.seq > {before} || App.state.over")
        if not reloaded and before > 10:
            hand = page.inner_text("#my-hand")
            page.reload()  # the seat token in localStorage brings ann back to her seat
            page.wait_for_selector("#my-hand")
            assert page.evaluate("App.me.player") == "ann"
            reloaded = bool(hand)
    else:
        pytest.fail("the game did not end")
    assert reloaded
    results = page.inner_text("#results")
    assert "Game over" in results and "full sets" in results
    screenshot(page, "critters-end.png")
    assert PAGE_ERRORS == []
