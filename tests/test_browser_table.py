"""The live table in a real browser while bots play at their live speed.

- At a 6-seat wild table, person-speed presses (pointer down, 120 ms, up) on Call and Meet
  buttons each send exactly one action, and the server answers every one; the focused button
  keeps the focus across 20 updates.
- Whole games by keyboard alone: wild against a bot, and critters until a bot steals ann's full
  set (the log says so in a sentence); the boards, the results and the replay pass axe-core;
  the replay reads as sentences, never `null`.
- Fairness (printed, not asserted): a scripted player deciding about once a second at a 4-seat
  wild table of the default bots; BESTIARY_FAIRNESS_GAMES=N plays N games (default 1).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright import sync_api

from bestiary.server.table import TableSettings
from tests.browser import (
    CHROMIUM,
    MANY,
    PAGE_ERRORS,
    Wire,
    audit,
    keyboard_critters_turn,
    launch,
    press,
    screenshot,
    seat_page,
    wait_until,
)
from tests.live import LiveServer

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")


CALL_KEYS = "qwert"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("table") / "table.sqlite"
    # bots at the live server's speed (bestiary serve's default tick)
    settings = TableSettings(tick_seconds=0.35, grace_seconds=600)
    with LiveServer(f"sqlite:///{db}", settings, server=MANY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


def creatures(server: LiveServer) -> list[str]:
    with server.http() as http:
        wild = next(g for g in http.get("/api/games").json() if g["name"] == "wild")
    return list(wild["vocabulary"]["creatures"])


def default_bot(server: LiveServer) -> str:
    with server.http() as http:
        wild = next(g for g in http.get("/api/games").json() if g["name"] == "wild")
    return str(wild["default_bot"])


def pressed(page: sync_api.Page, wire: Wire, before: int, note: str) -> Callable[[], bool]:
    """Whether a press has had its effect: an action sent, its note shown, or the game over."""
    return lambda: (
        len(wire.actions()) > before
        or page.query_selector(note) is not None
        or page.query_selector("#results") is not None
    )


def test_presses_at_a_busy_table_all_take_effect_and_focus_stays(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, wire, _ = seat_page(browser, server, "wild", 6, "reader", {"nightfall_seconds": 600})
    page.wait_for_selector("#my-hand")
    chain = creatures(server)

    # focus survives the bots' updates
    page.focus(f"#call-{chain[1]}")
    start = wire.states()
    while wire.states() < start + 20:
        assert page.evaluate("document.activeElement.id") == f"call-{chain[1]}"
        page.wait_for_timeout(50)
    assert page.evaluate("document.activeElement.id") == f"call-{chain[1]}"
    page.keyboard.press("Escape")
    screenshot(page, "wild.png", full_page=False)

    presses = sent = noted = refused = 0
    accepted_meets = 0
    tables = 1
    while presses < 56:
        if page.query_selector("#results"):  # Sundown: carry on at a new table
            refused += len(wire.refused())
            page, wire, _ = seat_page(browser, server, "wild", 6, "reader")
            page.wait_for_selector("#my-hand")
            tables += 1
            continue
        meets = read(page, "#players .meet[aria-disabled=false]", "id")
        cards = read(page, "#my-hand .cards .card", "data-card")
        heard = read(page, "#players .call-badge", "data-call")
        if meets and presses % 2 == 1:
            target = f"#{meets[0]}"
        elif len(cards) < 2 and read(page, "#draw", "aria-disabled") == ["false"]:
            target = "#draw"  # keep cards in hand, so there is always something to call with
        else:  # answer someone's Call (so that a Meet lights up), or any Call
            target = f"#call-{heard[presses % len(heard)] if heard else chain[presses % 5]}"
        if read(page, target, "aria-disabled") != ["false"]:
            page.wait_for_timeout(50)
            continue
        before = len(wire.actions())
        press(page, target)
        note = f"{target}-note"
        wait_until(page, pressed(page, wire, before, note), 3, f"{target} to send or say why not")
        if len(wire.actions()) == before and page.query_selector("#results"):
            continue  # the game ended under the pointer: the results took the board's place
        presses += 1
        assert len(wire.actions()) <= before + 1, f"one press on {target} sent twice"
        if len(wire.actions()) > before:
            sent += 1
            ref = wire.actions()[-1]["ref"]
            wait_until(page, lambda: ref in wire.answered(), 5, f"an answer to {ref}")  # noqa: B023
            if "meet" in target and not any(m.get("ref") == ref for m in wire.refused()):
                accepted_meets += 1
        else:
            noted += 1  # the control went off under the pointer: it says why, next to itself
    refused += len(wire.refused())
    print(
        f"\n{presses} presses at {tables} table(s): {sent} sent and answered "
        f"({refused} refused with a reason shown by the control), {noted} explained locally; "
        f"{accepted_meets} Meet presses accepted"
    )
    assert presses == sent + noted
    assert sent >= 50
    assert PAGE_ERRORS == []


def read(page: sync_api.Page, selector: str, attribute: str) -> list[str]:
    """``attribute`` of every element matching ``selector`` now, in one go (the board changes
    any moment, so it is never looked up twice)."""
    found = page.eval_on_selector_all(
        selector, "(es, a) => es.map((e) => e.getAttribute(a))", attribute
    )
    return [str(v) for v in found]


def keyboard_wild_turn(page: sync_api.Page, chain: list[str]) -> None:
    """One decision by keys: agree, ask, call honestly, or draw."""
    mine = read(page, "#my-hand .call-badge", "data-call")
    heard = read(page, "#players .call-badge", "data-call")
    hand = read(page, "#my-hand .cards .card", "data-card")
    if page.query_selector("#players .ask") or (mine and mine[0] in heard):
        page.keyboard.press("g")
    elif not mine and hand:
        page.keyboard.press("1")
        page.keyboard.press(CALL_KEYS[chain.index(hand[0])])
    elif read(page, "#draw", "aria-disabled") == ["false"]:
        page.keyboard.press("d")


def test_a_whole_wild_game_by_keyboard(server: LiveServer, browser: sync_api.Browser) -> None:
    page, wire, _ = seat_page(browser, server, "wild", 3, "reader", {"nightfall_seconds": 20})
    page.wait_for_selector("#my-hand")
    chain = creatures(server)
    deadline = time.monotonic() + 240
    while not page.query_selector("#results"):
        assert time.monotonic() < deadline, "the wild game did not end"
        keyboard_wild_turn(page, chain)
        page.wait_for_timeout(250)
    assert wire.actions(), "ann played no action"
    results = page.inner_text("#results")
    assert "Game over" in results and "Who hunted whom" in results
    assert "null" not in results
    assert audit(page, "wild results") == []
    assert PAGE_ERRORS == []


def test_critters_by_keyboard_until_a_bot_steals_a_full_set(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    audited = False
    for _ in range(16):  # a steal comes in about one 2-player game in three
        page, wire, code = seat_page(browser, server, "critters", 2, "greedy")
        page.wait_for_selector("#my-hand")
        deadline = time.monotonic() + 120
        while not page.query_selector("#results"):
            assert time.monotonic() < deadline, "the critters game did not end"
            if not audited and page.query_selector("#tableaus .set"):
                assert audit(page, "critters board") == []
                screenshot(page, "critters.png")
                audited = True
            keyboard_critters_turn(page)
            page.wait_for_timeout(60)
        assert wire.actions(), "ann played no action"
        log = page.inner_text("#log")
        if "steals your full" in log:
            break
        page.context.close()
    else:
        pytest.fail("no bot stole a full set in 16 games")
    assert "You allow it: greedy-2 steals your full" in log
    assert "null" not in log and "undefined" not in log
    assert audit(page, "critters results") == []
    # the replay: sentences step by step, the same steal, no null
    page.goto(f"{server.url}/#/replay/{code}")
    page.wait_for_selector("#step")
    assert "null" not in page.inner_text("#main")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#step >> text=Move 1 of")
    page.keyboard.press("End")
    page.wait_for_selector("#results")
    replay = page.inner_text("#replay-log")
    assert "steals ann's full" in replay
    assert "null" not in page.inner_text("#main") and "undefined" not in replay
    assert audit(page, "replay") == []
    assert PAGE_ERRORS == []


def person(page: sync_api.Page) -> None:
    """One decision of a person-paced player, by pointer: agree, ask, draw, answer, or offer."""
    asked = read(page, "#players .player:has(.ask) .meet", "id")
    meet = read(page, "#players .meet[aria-disabled=false]", "id")
    mine = read(page, "#my-hand .call-badge", "data-call")
    hand = read(page, "#my-hand .cards .card", "data-card")
    heard = read(page, "#players .call-badge", "data-call")
    call = mine[0] if mine else None
    if asked or (call and meet):
        press(page, f"#{(asked or meet)[0]}")
    elif read(page, "#draw", "aria-disabled") == ["false"]:
        press(page, "#draw")
    elif answer := next((c for c in heard if c in hand and c != call), None):
        press(page, f"#hand-{hand.index(answer)}")  # answer an honest-looking Call in kind
        press(page, f"#call-{answer}")
    elif not call and hand:
        press(page, "#hand-0")
        press(page, f"#call-{hand[0]}")


def test_fairness_of_a_person_paced_player_is_measured(
    tmp_path: Path, browser: sync_api.Browser
) -> None:
    games = int(os.environ.get("BESTIARY_FAIRNESS_GAMES", "1"))
    tick = float(os.environ.get("BESTIARY_FAIRNESS_TICK", "0.35"))  # bestiary serve's default
    db = f"sqlite:///{tmp_path / 'fair.sqlite'}"
    with LiveServer(db, TableSettings(tick_seconds=tick), server=MANY) as s:
        took_part, total = person_paced_games(s, browser, games)
    share = took_part / total if total else 0.0
    print(
        f"\nfairness: a person-paced player took part in {took_part} of {total} meetings "
        f"({share:.0%}) over {games} game(s) at 4 seats, bot tick {tick} s; a fair share is 50%"
    )
    assert PAGE_ERRORS == []


def person_paced_games(
    server: LiveServer, browser: sync_api.Browser, games: int
) -> tuple[int, int]:
    """(meetings ann took part in, all meetings) over ``games`` games against 3 default bots."""
    took_part = total = 0
    for _ in range(games):
        bot = default_bot(server)
        page, _, _ = seat_page(browser, server, "wild", 4, bot, {"nightfall_seconds": 30})
        page.wait_for_selector("#my-hand")
        deadline = time.monotonic() + 400
        while not page.query_selector("#results"):
            assert time.monotonic() < deadline, "the wild game did not end"
            person(page)
            page.wait_for_timeout(1000)  # about one decision a second
        meetings = page.locator("#reveal li").all_inner_texts()
        total += len(meetings)
        took_part += sum(1 for m in meetings if "You (" in m or "you (" in m)
        page.context.close()
    return took_part, total
