"""A newcomer's first game in a real browser (Playwright + Debian's Chromium), live server.

- After pressing Meet, the meeting's result and your score show by your hand, inside the
  screen without scrolling, at 1280x800 and on a 390x844 phone.
- Everyone is warned when a player is one card from Sundown (an empty Pack and one card left).
- On a phone a tap shows what each Call would do.
- How to play opens at a browser's first game (a worked example of each kind of Meeting, the
  game's words explained), and waits to be opened at its later games.
- A player back after a stand-in bot played their seat reads what happened while away, the
  stand-in's moves marked as the stand-in's (the server marks them).
- Critters' Game Changer: give one of your Down Cards, then take one of theirs, from the legal
  moves only (a swap that changes nothing left out).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from bestiary.server.table import TableSettings
from tests.browser import (
    CHROMIUM,
    MANY,
    PAGE_ERRORS,
    PHONE,
    audit,
    keyboard_critters_turn,
    launch,
    new_page,
    press,
    screenshot,
    seat_page,
    wait_until,
)
from tests.live import LiveServer, TableSocket

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("first") / "first.sqlite"
    settings = TableSettings(tick_seconds=0.35, grace_seconds=60)
    with LiveServer(f"sqlite:///{db}", settings, server=MANY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


def two_people(
    browser: sync_api.Browser,
    server: LiveServer,
    viewport: dict[str, int],
    options: dict[str, Any] | None = None,
) -> tuple[sync_api.Page, TableSocket]:
    """ann (a page) and bob (a socket) at a started 2-seat wild table."""
    with server.http() as http:
        ann = http.post(
            "/api/tables",
            json={"game": "wild", "seats": 2, "name": "ann", "options": options or {}},
        ).json()
        code = ann["code"]
        bob = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()
        http.post(f"/api/tables/{code}/start", json={"token": ann["token"]}).raise_for_status()
    page = new_page(browser, viewport)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.evaluate(
        "([code, seat]) => localStorage.setItem('bestiary.seats', JSON.stringify({[code]: seat}))",
        [code, {"token": ann["token"], "seat": ann["seat"]}],
    )
    page.goto(f"{server.url}/#/t/{code}")
    page.wait_for_selector("#my-hand")
    return page, TableSocket(server, code, bob["token"])


def inside(page: sync_api.Page, selector: str, viewport: dict[str, int]) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (selector, box)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
def test_your_meetings_result_and_score_show_by_your_hand(
    server: LiveServer, browser: sync_api.Browser, viewport: dict[str, int]
) -> None:
    page, bob = two_people(browser, server, viewport)
    creature = page.get_attribute("#hand-0", "data-card")
    assert creature is not None
    press(page, f"#call-{creature}")
    bob.wait_state(lambda m: m["view"]["calls"]["ann"] == creature, "ann's Call")
    assert bob.latest is not None
    bob.act({"do": "call", "card": bob.latest["view"]["hand"][0], "call": creature}, ref=1)
    bob.wait_ref(1)
    bob.act({"do": "meet", "with": "ann"}, ref=2)
    bob.wait_ref(2)
    page.wait_for_selector("[data-player=bob] .ask")
    press(page, "[data-player=bob] .meet")
    page.wait_for_selector("#my-meeting >> text=meet on")
    met = bob.wait_state(lambda m: len(m["view"]["meetings"]) == 1, "the meeting")
    score = met["view"]["scores"]["ann"]
    assert page.evaluate("window.scrollY") == 0
    result = page.inner_text("#my-result")
    assert f"Your score: {score} point" in result
    assert "you (" in result.lower() and "bob (" in result and "meet on" in result
    inside(page, "#my-result", viewport)
    inside(page, "#my-meeting", viewport)
    screenshot(page, f"wild-result-{viewport['width']}.png", full_page=False)
    bob.close()
    page.context.close()
    assert PAGE_ERRORS == []


def test_everyone_is_warned_when_a_player_is_one_card_from_sundown(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, bob = two_people(browser, server, LAPTOP)
    assert page.query_selector("#sundown-near") is None  # full Packs: nobody is near
    bob.wait_state(lambda m: True, "bob's first state")
    # bob empties his Pack by discarding and drawing (never meeting), down to one card
    for ref in range(1, 40):
        state = bob.latest
        assert state is not None
        view = state["view"]
        if view["packs"]["bob"] == 0 and len(view["hand"]) == 1:
            break
        if view["packs"]["bob"] and len(view["hand"]) < view["hand_limit"]:
            bob.act({"do": "draw"}, ref=ref)
        else:
            bob.act({"do": "discard", "card": view["hand"][0]}, ref=ref)
        bob.wait_ref(ref)
    warned = page.wait_for_selector("#sundown-near")
    assert warned is not None
    text = warned.inner_text()
    assert "bob is one card from Sundown" in text and "ends the game" in text
    inside(page, "#sundown-near", LAPTOP)
    bob.close()
    page.context.close()
    assert PAGE_ERRORS == []


def test_on_a_phone_a_tap_shows_what_each_call_would_do(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, wire, _ = seat_page(
        browser, server, "wild", 4, "random", {"nightfall_seconds": 600}, PHONE, touch=True
    )
    page.wait_for_selector("#my-hand")
    assert not page.locator("#calls-table table").is_visible()  # no room until asked for
    toggle = page.locator("#calls-toggle")
    inside(page, "#calls-toggle", PHONE)  # by the Call buttons, without scrolling
    toggle.tap()
    table = page.locator("#calls-table table")
    table.wait_for(state="visible")
    assert toggle.get_attribute("aria-expanded") == "true"
    card = page.get_attribute("#hand-0", "data-card")
    assert card is not None
    rows = page.locator("#calls-table tbody tr").all_inner_texts()
    assert len(rows) == 5 and any("you mate" in r for r in rows), rows
    assert "honest" in page.locator(f"#calls-table tr[data-call={card}]").inner_text()
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert wire.actions() == []  # looking sends nothing
    screenshot(page, "wild-phone-calls.png", full_page=False)
    toggle.tap()
    page.locator("#calls-table table").wait_for(state="hidden")
    page.context.close()
    assert PAGE_ERRORS == []


def test_how_to_play_opens_for_a_first_game_with_examples_and_words(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, _, _ = seat_page(browser, server, "wild", 4, "random", {"nightfall_seconds": 600})
    page.wait_for_selector("#my-hand")
    rules = page.locator("#how-to-play")
    assert rules.get_attribute("open") is not None  # a first game: open by itself
    assert page.locator("#first-game-hint").is_visible()
    page.click("#read-rules")
    page.wait_for_function(
        "document.getElementById('how-to-play').getBoundingClientRect().top < 10"
    )
    # an example of each kind of Meeting, in the rule sheet's words
    kinds = page.locator("#examples li")
    assert [kinds.nth(i).get_attribute("data-kind") for i in range(4)] == [
        "mate",
        "hunt",
        "double-cross",
        "avoid",
    ]
    examples = page.inner_text("#examples")
    for word in ("Mating.", "Hunting.", "Double-Crossing.", "Avoiding.", "Watering Hole"):
        assert word in examples, word
    assert "undefined" not in examples and "null" not in examples
    # the words, where first used and in the glossary
    text = rules.inner_text()
    assert "Den (your face-up pile of won cards" in text
    assert "Pack (your own 10 face-down cards)" in text
    words = page.locator("#glossary dt").all_inner_texts()
    for word in ("Den", "Pack", "Watering Hole", "Nightfall", "Sundown", "Call"):
        assert word in words, (word, words)
    assert audit(page, "How to play, open") == []
    page.reload()  # still the first game after a reload
    page.wait_for_selector("#my-hand")
    assert page.locator("#how-to-play").get_attribute("open") is not None
    # the same browser at its next table: it has played, How to play waits to be opened
    with server.http() as http:
        made = http.post(
            "/api/tables",
            json={
                "game": "critters",
                "seats": 2,
                "name": "ann",
                "options": {},
                "bots": [{"bot": "greedy"}],
                "start": True,
            },
        ).json()
    page.evaluate(
        "([code, seat]) => localStorage.setItem('bestiary.seats', JSON.stringify({[code]: seat}))",
        [made["code"], {"token": made["token"], "seat": made["seat"]}],
    )
    page.goto(f"{server.url}/#/t/{made['code']}")
    page.wait_for_selector("#my-hand")
    assert page.locator("#how-to-play").get_attribute("open") is None
    assert page.query_selector("#first-game-hint") is None
    page.click("#how-to-play summary")
    critters = page.locator("#glossary dt").all_inner_texts()
    for word in ("Draw Pile", "Down Card", "Set", "Wild", "Action card", "Target"):
        assert word in critters, (word, critters)
    assert "Down Card (a card face-up in front of you" in page.inner_text("#how-to-play")
    page.context.close()
    assert PAGE_ERRORS == []


def test_a_returning_player_reads_what_happened_with_the_stand_ins_moves_marked(
    tmp_path: Path, browser: sync_api.Browser
) -> None:
    settings = TableSettings(tick_seconds=0.35, grace_seconds=1)
    with LiveServer(f"sqlite:///{tmp_path / 'away.sqlite'}", settings, server=MANY) as server:
        page, bob = two_people(browser, server, LAPTOP, {"nightfall_seconds": 600})
        seat = page.evaluate("localStorage.getItem('bestiary.seats')")
        page.context.close()  # ann goes; after the grace a stand-in bot plays her seat
        bob.wait_state(lambda m: True, "bob's first state")

        def stand_in_moves() -> list[dict[str, Any]]:
            return [
                e
                for m in bob.received
                if m["type"] == "state"
                for e in m["events"]
                if e.get("by") == "ann"
            ]

        for ref in range(1, 30):  # bob keeps calling, the stand-in answers at its pace
            if stand_in_moves():
                break
            assert bob.latest is not None
            hand = bob.latest["view"]["hand"]
            if hand:
                bob.act({"do": "call", "card": hand[0], "call": hand[0]}, ref=ref)
                bob.wait_ref(ref)
            with contextlib.suppress(TimeoutError):
                bob.wait(
                    lambda m: (
                        m["type"] == "state" and any(e.get("by") == "ann" for e in m["events"])
                    ),
                    "a move of ann's seat",
                )
        else:
            pytest.fail("no stand-in moved for ann")
        moves = stand_in_moves()
        assert all(e.get("stand_in") is True for e in moves), moves  # the server marks them
        # ann comes back in a new tab: what happened while away, the stand-in's moves marked
        back = new_page(browser, LAPTOP)
        back.goto(server.url + "/")
        back.wait_for_selector("#create")
        back.evaluate("(seat) => localStorage.setItem('bestiary.seats', seat)", seat)
        back.goto(f"{server.url}/#/t/{bob.welcome['table']['code']}")
        back.wait_for_selector("#log li.away, #log li >> text=While you were away")
        log = back.inner_text("#log-box")
        assert "While you were away" in log and "a stand-in bot played your seat" in log
        assert "You came in at move" not in log and "when you left" in log
        tags = back.locator("#log .stand-in-tag")
        assert tags.count() >= 1 and set(tags.all_inner_texts()) == {"your stand-in"}
        tagged = back.locator("#log li:has(.stand-in-tag)").all_inner_texts()
        assert all("You " in line for line in tagged), tagged
        screenshot(back, "wild-back-from-away.png")
        assert audit(back, "the log after a stand-in") == []
        # bob's own moves are never marked as a stand-in's
        assert not back.locator("#log li:has(.stand-in-tag)", has_text="bob calls").count()
        bob.close()
        back.context.close()
    assert PAGE_ERRORS == []


def test_critters_game_changer_is_chosen_in_two_steps_from_the_legal_moves(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    deck = {"kinds": {"fox": 6, "owl": 6, "frog": 6}, "wild": 0, "actions": {"game_changer": 12}}
    page, wire, _ = seat_page(
        browser, server, "critters", 2, "greedy", {"deck": deck}, extra={"seed": 5}
    )
    page.wait_for_selector("#my-hand")

    def legal() -> list[dict[str, Any]]:
        states = [m for m in wire.got if m["type"] == "state"]
        return list(states[-1]["legal"]) if states else []

    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "ann never had a Game Changer to play"
        assert not page.query_selector("#results"), "the game ended first"
        page.wait_for_timeout(100)
        if "Your turn" not in page.inner_text("#turn"):
            continue
        swaps = [a for a in legal() if a["do"] == "game_changer"]
        if len({(a["give"]["card"], a["give"]["kind"]) for a in swaps}) >= 2:
            break
        keyboard_critters_turn(page)  # grow the sets: put a critter down (or pass)
        page.wait_for_timeout(300)
    hand = page.locator("#my-hand .cards .card")
    changer = next(
        i for i in range(hand.count()) if hand.nth(i).get_attribute("data-card") == "game_changer"
    )
    hand.nth(changer).click()
    page.wait_for_selector("#changer")
    useful = [
        a
        for a in swaps
        if (a["give"]["card"], a["give"]["kind"]) != (a["take"]["card"], a["take"]["kind"])
    ]
    gives = {(a["give"]["card"], a["give"]["kind"]) for a in useful}
    radios = page.locator("#changer input[name=give]")
    assert radios.count() == len(gives)
    takes = page.locator("#changer button[data-do=game_changer]")
    assert takes.count() < len(useful) or len(gives) == 1  # grouped: not one button a pair
    seen = 0
    for i in range(radios.count()):
        page.check(f"#give-{i}")
        given = page.locator(f"label[for=give-{i}]").inner_text().strip()
        for_this = [a for a in useful if given.lower().startswith(a["give"]["card"])]
        names = takes.all_inner_texts()
        assert len(names) == len([a for a in for_this if f"({a['give']['kind']} set)" in given]), (
            given,
            names,
        )
        seen += len(names)
    assert seen == len(useful)  # every legal swap that changes something, and only those
    screenshot(page, "critters-game-changer.png", full_page=False)
    assert audit(page, "Game Changer's two steps") == []
    pointless = len(swaps) - len(useful)
    if pointless:
        assert page.locator("#changer-same").is_visible()
    before = len(wire.actions())
    takes.first.click()
    wait_until(page, lambda: len(wire.actions()) > before, 5, "the swap sent")
    sent = wire.actions()[-1]["action"]
    assert sent["do"] == "game_changer" and sent in swaps
    assert sent["give"] != sent["take"]
    page.context.close()
    assert PAGE_ERRORS == []
