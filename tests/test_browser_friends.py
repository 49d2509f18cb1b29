"""A table of friends in Chromium, each person in a browser context of their own: the invite link
seats a friend (live: a bot added then removed is never left on the friend's page) or says why
not, bots fill the rest at the start, reactions show by the sender's row, and one press at the
results brings everyone to the rematch."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from playwright import sync_api

from bestiary.server.table import TableSettings
from tests.browser import MANY, PAGE_ERRORS, launch, new_page, wait_until
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db: Path = tmp_path_factory.mktemp("friends") / "friends.sqlite"
    settings = TableSettings(tick_seconds=0.35, grace_seconds=60, bot_pause=0.0)
    with LiveServer(f"sqlite:///{db}", settings, server=MANY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


def host_table(page: sync_api.Page, server: LiveServer, game: str, seats: int, fill: str) -> str:
    """ann makes a table in the lobby's form; the code from its share link."""
    page.goto(server.url + "/")
    page.fill("#name", "ann")
    page.check(f"input[name=game][value={game}]")
    page.fill("#seats", str(seats))
    page.select_option("#fill-bot", fill)
    page.click("#create")
    link = page.get_attribute("#share-link", "href")
    assert link is not None
    return link.rsplit("/", 1)[1]


def friend(browser: sync_api.Browser, server: LiveServer, code: str, name: str) -> sync_api.Page:
    """A friend opens the link in a browser of their own and takes a seat."""
    page = new_page(browser)
    page.goto(f"{server.url}/#/t/{code}")
    page.fill("#join-name", name)
    page.click("#join")
    page.wait_for_selector("#seats >> text=✓ here")
    return page


def started_with_bob(
    browser: sync_api.Browser, server: LiveServer, game: str, fill: str
) -> tuple[sync_api.Page, sync_api.Page, str]:
    """ann hosts, bob comes with the link, ann starts: bots fill the rest."""
    ann = new_page(browser)
    code = host_table(ann, server, game, 3, fill)
    bob = friend(browser, server, code, "bob")
    ann.wait_for_selector("#seats >> text=bob ✓ here")
    ann.click("#start")
    return ann, bob, code


def away_from(page: sync_api.Page, code: str) -> bool:
    return code not in page.url


def test_the_invite_link_seats_a_friend_or_says_why_and_bots_fill_the_rest_at_the_start(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    ann = new_page(browser)
    code = host_table(ann, server, "critters", 4, "greedy")
    seats = ann.inner_text("#seats")
    assert seats.count("empty") == 3 and "bot:" not in seats  # no bot took a seat at create
    bob = new_page(browser)
    bob.goto(f"{server.url}/#/t/{code}")
    bob.wait_for_selector("#join")
    assert "3 seats are free" in bob.inner_text("#join-box")
    ann.click("#seats li:nth-child(4) .add-bot")  # a bot in the last seat, seen by bob at once
    bob.wait_for_selector("#seats >> text=(bot:")
    ann.click("#remove-3")
    bob.wait_for_selector("#seats >> text=Seat 4: empty")
    assert "bot:" not in bob.inner_text("#seats")  # the removed bot is gone from bob's page
    bob.fill("#join-name", "bob")
    bob.click("#join")
    ann.wait_for_selector("#seats >> text=bob ✓ here")
    assert ann.locator("#fill-at-start").input_value() == "greedy"
    assert ann.is_enabled("#start")  # two seats still empty: greedy takes them at the start
    ann.click("#start")
    for page in (ann, bob):
        page.wait_for_selector("#my-hand")
    with server.http() as http:
        table = http.get(f"/api/tables/{code}").json()
    assert [s["bot"] for s in table["seats"]] == [None, None, "greedy", "greedy"]
    late = new_page(browser)  # the link after the start: watching, and told why
    late.goto(f"{server.url}/#/t/{code}")
    assert "began before you took a seat" in late.inner_text("#watching")
    assert late.query_selector("#reactions .reaction-bar") is None  # a watcher cannot react
    # a full table's link says so in one sentence, before anyone presses anything
    full = host_table(ann, server, "critters", 2, "")
    joined = friend(browser, server, full, "cy")
    dee = new_page(browser)
    dee.goto(f"{server.url}/#/t/{full}")
    assert dee.inner_text("#join-why") == (
        "Every seat is taken; ask ann (the host) to free one. Until then you are watching."
    )
    assert dee.query_selector("#join") is None
    for page in (ann, bob, late, joined, dee):
        page.context.close()
    assert PAGE_ERRORS == []


def test_reactions_show_by_the_senders_row_for_a_few_seconds(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    ann, bob, _ = started_with_bob(browser, server, "wild", "honest")
    ann.wait_for_selector("#players [data-player=bob]")
    bob.wait_for_selector("#players [data-player=ann]")
    ann.click("#react-meet")
    bubble = bob.wait_for_selector(".reaction-bubble[data-from=ann]")
    assert bubble is not None and "meet me?" in bubble.inner_text()
    row = bob.locator("#players [data-player=ann]").bounding_box()
    shown = bubble.bounding_box()
    assert row is not None and shown is not None
    assert row["y"] - 4 <= shown["y"] <= row["y"] + row["height"]  # on the sender's row
    bob.wait_for_selector(".reaction-bubble", state="detached", timeout=8000)  # gone again
    for _ in range(4):  # past the seat's allowance: the server says no, beside the buttons
        ann.click("#react-howl")
    wait_until(ann, lambda: "Too many reactions" in ann.inner_text("#reactions"), 5, "a refusal")
    # an alert: bob makes ann's Call and asks to meet her; ann's tab title says so
    creature = ann.get_attribute("#hand-0", "data-card")
    assert creature is not None
    ann.click(f"#call-{creature}")
    bob.wait_for_selector(f"#players [data-player=ann] [data-call={creature}]")
    bob.click(f"#call-{creature}")
    bob.click("#players [data-player=ann] .meet")
    wait_until(ann, lambda: "asks to meet you" in ann.title(), 10, "the title to call ann")
    assert ann.title().startswith("(!) ")
    for page in (ann, bob):
        page.context.close()
    assert PAGE_ERRORS == []


def play_generic(pages: list[sync_api.Page]) -> None:
    """Each person presses their first legal move on the generic board until the results."""
    for _ in range(400):
        if all(p.query_selector("#results") for p in pages):
            return
        for page in pages:
            move = page.query_selector("#moves button[aria-disabled=false]")
            if move is not None:
                move.click()
            page.wait_for_timeout(40)
    raise AssertionError("the game did not reach its results")


def test_one_press_at_the_results_brings_everyone_to_the_rematch(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    ann, bob, code = started_with_bob(browser, server, "duel", "random")
    # alerts: the title calls whoever is to move; the sound is off until turned on, and stays on
    wait_until(
        ann,
        lambda: any(p.title().startswith("(!) Your turn") for p in (ann, bob)),
        10,
        "a title that says whose turn it is",
    )
    assert ann.inner_text("#alert-sound") == "alerts: title only"
    ann.click("#alert-sound")
    ann.reload()
    ann.wait_for_selector("#generic-board")
    assert ann.get_attribute("#alert-sound", "aria-pressed") == "true"
    play_generic([ann, bob])
    assert not ann.title().startswith("(!)")  # the game is over: nobody is called
    assert "Same game and seats with ann and bob" in bob.inner_text("#results")
    bob.click("#rematch")
    for page in (ann, bob):  # both pages move to the new table, seated, playing
        wait_until(page, partial(away_from, page, code), 10, "the move to the rematch")
        page.wait_for_selector("#generic-board")
    new = ann.url.rsplit("/", 1)[1]
    assert bob.url.endswith(new)
    with server.http() as http:
        table = http.get(f"/api/tables/{new}").json()
    assert [s["name"] for s in table["seats"]] == ["bob", "random-3", "ann"]
    assert table["status"] in ("playing", "finished")
    late = new_page(browser)  # the old link follows to the new table
    late.goto(f"{server.url}/#/t/{code}")
    wait_until(late, lambda: late.url.endswith(new), 10, "the old link to follow")
    for page in (ann, bob, late):
        page.context.close()
    assert PAGE_ERRORS == []
