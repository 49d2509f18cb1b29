"""The generic browser board: duel (tests/toygame) ships no board, and plays to the end anyway.

The page shows ann's view one field a row (her own card, never the bot's) and her legal moves as
buttons; presses and number keys send them; the results and the replay use the same board; the
pages pass axe-core. A game that does ship a board is served from its package under its name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright import sync_api

from bestiary.server.table import TableSettings
from tests.browser import CHROMIUM, MANY, PAGE_ERRORS, audit, launch, seat_page, wait_until
from tests.live import LiveServer

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("generic") / "generic.sqlite"
    settings = TableSettings(tick_seconds=0.05, grace_seconds=600)
    with LiveServer(f"sqlite:///{db}", settings, server=MANY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


def test_a_game_package_serves_its_own_board_under_its_name(server: LiveServer) -> None:
    with server.http() as http:
        board = http.get("/games/wild/board.js")
        assert board.status_code == 200 and "export default" in board.text
        assert http.get("/games/duel/board.js").status_code == 404  # duel ships none


def test_duel_plays_to_the_end_on_the_generic_board(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    PAGE_ERRORS.clear()
    page, wire, code = seat_page(browser, server, "duel", 2, "duel-keeper", {"rounds": 3})
    page.wait_for_selector("#generic-board")
    with server.http() as http:
        view = http.get(f"/api/tables/{code}").json()
    assert view["game"] == "duel"
    shown = page.inner_text("#view")
    assert "card" in shown and "deck" in shown
    problems = audit(page, "generic board")
    by_key = False
    for _ in range(40):
        if page.query_selector("#results"):
            break
        button = page.query_selector("#moves button")
        if button is None:
            page.wait_for_timeout(50)
            continue
        before = len(wire.actions())
        if not by_key:
            page.keyboard.press("1")  # the first legal move, by key
            by_key = True
        else:
            button.click()

        def sent_or_over(b: int = before) -> bool:
            return len(wire.actions()) > b or page.query_selector("#results") is not None

        wait_until(page, sent_or_over, 5, "the move to be sent")
        page.wait_for_timeout(100)
    page.wait_for_selector("#results")
    sent = [m["action"]["do"] for m in wire.actions()]
    assert len(sent) == 3 and set(sent) <= {"stand", "swap"}
    assert not wire.refused()
    assert "winners" in page.inner_text("#results")
    problems += audit(page, "generic results")
    page.goto(f"{server.url}/#/replay/{code}")
    page.wait_for_selector("#step")
    page.keyboard.press("End")
    page.wait_for_selector("#results")
    assert "null" not in page.inner_text("#replay-log")
    problems += audit(page, "generic replay")
    assert problems == []
    assert PAGE_ERRORS == []
    page.context.close()
