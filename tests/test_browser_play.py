"""The web client in a real browser (Playwright + Debian's Chromium) against a live server.

Two players create and join a wild table through the lobby and meet (`g` sends exactly one
message); a page reload in the middle of a game reconnects to the same seat; the lobby and the
board pass an axe-core audit; the phone layout shows what real-time play needs without
scrolling.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright import sync_api

from bestiary.server.table import TableSettings
from tests.browser import (
    CHROMIUM,
    MANY,
    PAGE_ERRORS,
    PHONE,
    Wire,
    audit,
    keyboard_critters_turn,
    launch,
    new_page,
    screenshot,
    seat_page,
    wait_until,
)
from tests.live import LiveServer, TableSocket

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("browser") / "browser.sqlite"
    settings = TableSettings(tick_seconds=0.35, grace_seconds=60)
    with LiveServer(f"sqlite:///{db}", settings, server=MANY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


def test_two_players_meet_in_wild_and_g_sends_once(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    ann = new_page(browser)
    wire = Wire(ann)
    ann.goto(server.url + "/")
    assert audit(ann, "lobby") == []
    ann.fill("#name", "ann")
    ann.check("input[name=game][value=wild]")
    ann.fill("#seats", "2")
    ann.select_option("#fill-bot", "")
    ann.click("#create")
    link = ann.get_attribute("#share-link", "href")
    assert link is not None and link.startswith(server.url)  # the address the browser used
    code = link.rsplit("/", 1)[1]
    with server.http() as http:
        bob_seat = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()
    bob = TableSocket(server, code, bob_seat["token"])
    ann.wait_for_selector("#seats >> text=bob")
    ann.click("#start")
    ann.wait_for_selector("#my-hand")
    # ann offers her first card with its own Call; bob makes the same Call and asks to meet
    creature = ann.get_attribute("#hand-0", "data-card")
    assert creature is not None
    ann.click(f"#call-{creature}")
    bob.wait_state(lambda m: m["view"]["calls"]["ann"] == creature, "ann's Call")
    assert bob.latest is not None
    bob_card = bob.latest["view"]["hand"][0]
    bob.act({"do": "call", "card": bob_card, "call": creature}, ref=1)
    bob.wait_ref(1)
    bob.act({"do": "meet", "with": "ann"}, ref=2)
    bob.wait_ref(2)
    ann.wait_for_selector("[data-player=bob] .ask")
    before = len(wire.actions())
    ann.keyboard.press("g")  # agree with the keyboard: exactly one message
    ann.wait_for_selector("#log li >> text=meet on")
    ann.wait_for_timeout(500)
    assert len(wire.actions()) == before + 1
    assert wire.actions()[-1]["action"] == {"by": "ann", "do": "meet", "with": "bob"}
    assert wire.refused() == []
    assert audit(ann, "wild board") == []
    bob.close()
    assert PAGE_ERRORS == []


def test_a_reload_brings_the_player_back_to_the_seat(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, _, _ = seat_page(browser, server, "critters", 3, "greedy")
    page.wait_for_selector("#my-hand")
    while page.locator("#log li").count() < 3:  # ann plays first: a move or two by keys
        keyboard_critters_turn(page)
        page.wait_for_timeout(100)
    lines = page.locator("#log li").count()
    page.reload()  # the seat token in localStorage brings ann back; the log comes back too
    page.wait_for_selector("#my-hand")
    assert "Your hand (ann)" in page.inner_text("#my-hand")
    assert page.locator("#log li").count() >= lines
    assert PAGE_ERRORS == []


def test_the_phone_shows_hand_calls_and_every_meet_button_without_scrolling(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, _, _ = seat_page(
        browser, server, "wild", 6, "reader", {"nightfall_seconds": 600}, viewport=PHONE
    )
    page.wait_for_selector("#my-hand")
    page.wait_for_function("document.querySelectorAll('#log li').length > 3")
    needed = ["#my-hand .cards .card", ".callbtn", "#players .pcall", "#players .meet"]
    counts = {sel: page.locator(sel).count() for sel in needed}
    assert counts[".callbtn"] == 5 and counts["#players .meet"] == 5, counts
    assert counts["#my-hand .cards .card"] >= 1
    assert page.evaluate("window.scrollY") == 0
    for selector in needed:
        for i in range(counts[selector]):
            box = page.locator(selector).nth(i).bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, i, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (selector, i, box)
    screenshot(page, "wild-phone.png", full_page=False)
    # critters on the phone: the hand, then one card's moves, fit the screen too
    page, _, _ = seat_page(browser, server, "critters", 4, "greedy", viewport=PHONE)
    page.wait_for_selector("#my-hand")
    while page.locator("#tableaus .set").count() < 2:
        keyboard_critters_turn(page)
        page.wait_for_timeout(100)
    while not page.inner_text("#turn").startswith("Your turn"):
        if page.query_selector("#allow[aria-disabled=false]"):  # a bot played on ann
            page.keyboard.press("a")
        assert not page.query_selector("#results"), "the game ended before ann's turn"
        page.wait_for_timeout(100)
    page.keyboard.press("1")
    for selector in ["#my-hand .cards .card", "#moves h3", "#pass"]:
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    screenshot(page, "critters-phone.png", full_page=False)
    assert PAGE_ERRORS == []


def test_a_refused_action_is_shown_next_to_its_control(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    """ann presses Meet on a Call bob has just taken back (her page has not heard yet)."""
    with server.http() as http:
        made = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"}).json()
        code = made["code"]
        bob_seat = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()
        http.post(f"/api/tables/{code}/start", json={"token": made["token"]})
    page = new_page(browser)
    held: list[str | bytes] = []
    hold = [False]
    routes: list[sync_api.WebSocketRoute] = []

    def relay(ws: sync_api.WebSocketRoute) -> None:
        routes.append(ws)
        upstream = ws.connect_to_server()
        upstream.on_message(lambda m: held.append(m) if hold[0] else ws.send(m))

    page.route_web_socket(lambda url: "/ws/" in url, relay)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.evaluate(
        "([code, seat]) => localStorage.setItem('bestiary.seats', JSON.stringify({[code]: seat}))",
        [code, {"token": made["token"], "seat": 0}],
    )
    page.goto(f"{server.url}/#/t/{code}")
    page.wait_for_selector("#my-hand")
    bob = TableSocket(server, code, bob_seat["token"])
    creature = page.get_attribute("#hand-0", "data-card")
    page.click(f"#call-{creature}")
    bob.wait_state(lambda m: m["view"]["calls"]["ann"] == creature, "ann's Call")
    assert bob.latest is not None
    bob.act({"do": "call", "card": bob.latest["view"]["hand"][0], "call": creature}, ref=1)
    bob.wait_ref(1)
    page.wait_for_selector("#meet-0[aria-disabled=false]")
    hold[0] = True  # ann's page stops hearing the table for a moment
    bob.act({"do": "withdraw"}, ref=2)
    bob.wait_ref(2)
    page.click("#meet-0")
    wait_until(page, lambda: any('"error"' in str(m) for m in held), 5, "the refusal")
    hold[0] = False
    for message in held:  # the withdrawal and the refusal arrive, in order
        routes[-1].send(message)
    refusal = next(json.loads(m) for m in held if json.loads(m)["type"] == "error")
    assert refusal["code"] == "illegal"
    page.wait_for_selector("#meet-0-note")
    assert page.inner_text("#meet-0-note") == refusal["message"]  # next to the Meet button
    bob.close()
    assert PAGE_ERRORS == []


@pytest.mark.parametrize("game", ["wild", "critters"])
def test_the_lobby_offers_the_bots_pace_for_both_games_and_the_table_keeps_it(
    server: LiveServer, browser: sync_api.Browser, game: str
) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('bestiary.played', '1')")  # a returning player
    page.reload()
    page.fill("#name", "pat")
    page.check(f"input[name=game][value={game}]")
    pace = page.locator("#opt-pace")
    assert pace.input_value() == "normal"  # the served default
    assert pace.locator("option").all_inner_texts() == ["normal (default)", "slow", "fast"]
    label = page.locator("label[for=opt-pace]").inner_text()
    assert label.startswith("Bots' pace (") and "slow" in label
    pace.select_option("slow")
    page.click("#create")
    link = page.get_attribute("#share-link", "href")
    assert link is not None
    with server.http() as http:
        table = http.get(f"/api/tables/{link.rsplit('/', 1)[1]}").json()
    assert table["settings"]["bots_pace"] == "slow" and table["game"] == game
    assert PAGE_ERRORS == []
    page.context.close()


def test_the_host_removes_a_seated_player_before_the_start(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    """A squatter (or a friend who took the wrong seat) is removed with the host's button: the
    seat opens again, the removed player's token is refused, and a bot can take the seat."""
    ann = new_page(browser)
    ann.goto(server.url + "/")
    ann.fill("#name", "ann")
    ann.check("input[name=game][value=critters]")
    ann.fill("#seats", "2")
    ann.select_option("#fill-bot", "")
    ann.click("#create")
    link = ann.get_attribute("#share-link", "href")
    assert link is not None
    code = link.rsplit("/", 1)[1]
    with server.http() as http:
        squatter = http.post(f"/api/tables/{code}/join", json={"name": "squatter"}).json()
        ann.wait_for_selector("#seats >> text=squatter")
        assert ann.get_attribute("#remove-1", "aria-label") == "Remove: squatter, seat 2"
        assert ann.query_selector("#remove-0") is None  # the host's own seat has no button
        ann.click("#remove-1")
        ann.wait_for_selector("#seats >> text=Seat 2: empty")
        refused = http.post(
            f"/api/tables/{code}/bots",
            json={"token": squatter["token"], "seat": 1, "bot": "greedy"},
        )
        assert refused.status_code >= 400
    ann.click("#seats .add-bot")
    ann.wait_for_selector("#start:not([disabled])")
    assert PAGE_ERRORS == []


def test_a_first_time_browser_starts_gentle_and_a_returning_one_gets_the_defaults(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    """A browser that never sat at a game: Easy bots and the slow pace, said plainly; once it has
    sat at a table it is a returning player and gets the served defaults (the default bot)."""
    page = new_page(browser)
    page.goto(server.url + "/")
    page.check("input[name=game][value=wild]")
    assert "first game" in page.inner_text("#first-game")
    chosen = page.eval_on_selector("#fill-bot", "(s) => s.selectedOptions[0].textContent")
    assert chosen.startswith("Easy:"), chosen
    assert page.locator("#opt-pace").input_value() == "slow"
    page.fill("#name", "newcomer")
    page.click("#create")
    link = page.get_attribute("#share-link", "href")
    assert link is not None
    with server.http() as http:
        table = http.get(f"/api/tables/{link.rsplit('/', 1)[1]}").json()
    assert table["settings"]["bots_pace"] == "slow"
    page.click("#start")  # seated and playing: this browser has played now
    page.wait_for_selector("#wild-board")
    page.goto(server.url + "/#/")
    page.wait_for_selector("#create")
    page.check("input[name=game][value=wild]")
    assert page.query_selector("#first-game") is None
    chosen = page.eval_on_selector("#fill-bot", "(s) => s.selectedOptions[0].textContent")
    assert chosen.endswith("(default)"), chosen
    assert page.locator("#opt-pace").input_value() == "normal"
    assert PAGE_ERRORS == []
    page.context.close()
