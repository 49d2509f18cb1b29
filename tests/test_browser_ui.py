"""The client as a newcomer meets it, in Debian's Chromium (issue 21).

- No page is wider than its screen at 1280 and 390 px: the lobby (each game chosen), both
  boards, the results and the replay; on a phone a tap on "Create table" lands on it.
- Keyboard focus survives updates: critters by keys (the moves go away after each of ann's
  moves: focus goes to her hand, never back to the page), wild's Meet button while bots play.
- The clocks' words: an answer left to run out is logged as the time running out (never "You
  allow it"), the prompt says what happens then, and critters shows a turn clock that says what
  happens when it runs out (a bot moves for you), which the log then says too.
- On a touch screen, a tap on a control that is off shows its reason next to it, on screen.
- Sentences over every card and move of both games (from seeded random games of the engines,
  narrated and turned into buttons by the client's own modules): articles, capitals, full
  stops, commands on buttons, no `undefined`.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from bestiary.core.game import get_game
from bestiary.critters.decks import DECKS
from bestiary.server.table import TableSettings
from tests.browser import (
    CHROMIUM,
    DESKTOP,
    MANY,
    PAGE_ERRORS,
    PHONE,
    keyboard_critters_turn,
    launch,
    new_page,
    seat_page,
    wait_until,
)
from tests.live import LiveServer

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

# a critters game that plays itself in seconds: bots at once, ann's clocks short
QUICK = {"bot_pause": 0, "turn_seconds": 0.05, "answer_seconds": 0.05}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("ui") / "ui.sqlite"
    settings = TableSettings(tick_seconds=0.05, grace_seconds=600)
    with LiveServer(f"sqlite:///{db}", settings, server=MANY) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    yield from launch()


def overflow(page: sync_api.Page) -> int:
    """How many pixels the page is wider than the screen (0: it is not)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_no_page_is_wider_than_its_screen(server: LiveServer, browser: sync_api.Browser) -> None:
    for viewport in (DESKTOP, PHONE):
        where = f"{viewport['width']} px"
        page = new_page(browser, viewport, own_policy=True)
        page.goto(server.url + "/")
        page.wait_for_selector("#create")
        for game in ("wild", "critters"):
            page.check(f"input[name=game][value={game}]")
            assert overflow(page) == 0, f"the lobby with {game} chosen at {where}"
        page.locator("#create").scroll_into_view_if_needed()
        hit = page.evaluate(
            """() => { const b = document.querySelector('#create').getBoundingClientRect();
              const el = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
              return el && el.id; }"""
        )
        assert hit == "create", f"a tap on Create table lands on {hit!r} at {where}"
        page.context.close()

        for game, bot in (("wild", "reader"), ("critters", "greedy")):
            page, _, _ = seat_page(browser, server, game, 4, bot, viewport=viewport)
            page.wait_for_selector("#my-hand")
            page.wait_for_timeout(800)
            assert overflow(page) == 0, f"the {game} board at {where}"
            page.context.close()

        # results and replay: wild ends at Nightfall (ann never meets), critters plays itself
        games: tuple[tuple[str, str, dict[str, Any], dict[str, Any]], ...] = (
            ("wild", "random", {"nightfall_seconds": 1}, {}),
            ("critters", "greedy", {}, QUICK),
        )
        for game, bot, options, extra in games:
            page, _, code = seat_page(
                browser, server, game, 2, bot, options, viewport=viewport, extra=extra
            )
            page.wait_for_selector("#results", timeout=60_000)
            assert overflow(page) == 0, f"the {game} results at {where}"
            page.goto(f"{server.url}/#/replay/{code}")
            page.wait_for_selector("#step")
            page.keyboard.press("End")
            page.wait_for_selector("#results")
            assert overflow(page) == 0, f"the {game} replay at {where}"
            page.context.close()
    assert PAGE_ERRORS == []


def focused(page: sync_api.Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const el = document.activeElement;
              return {id: el ? el.id : null, tag: el ? el.tagName : null,
                      board: !!(el && el.closest('.board'))}; }"""
        )
    )


def test_focus_is_kept_across_updates_in_both_games(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, wire, _ = seat_page(browser, server, "critters", 2, "greedy", extra={"bot_pause": 0.3})
    page.wait_for_selector("#my-hand")
    moves = 0
    deadline = time.monotonic() + 90
    while moves < 5 and not page.query_selector("#results"):
        assert time.monotonic() < deadline, "ann made too few moves"
        if "Your turn" not in page.inner_text("#turn"):
            page.wait_for_timeout(50)
            continue
        sent = len(wire.actions())
        keyboard_critters_turn(page)
        if len(wire.actions()) == sent:
            continue
        moves += 1
        ref = wire.actions()[-1]["ref"]
        wait_until(page, lambda: ref in wire.answered(), 10, "an answer")  # noqa: B023
        page.wait_for_timeout(600)  # and the bot's move after it
        now = focused(page)
        assert now["tag"] not in ("BODY", "MAIN") and now["board"], f"focus fell to {now}"
    assert moves >= 3
    page.context.close()

    page, wire, _ = seat_page(browser, server, "wild", 4, "reader", {"nightfall_seconds": 600})
    page.wait_for_selector("#players .meet")
    page.focus("#meet-0")
    start = wire.states()
    while wire.states() < start + 15 and not page.query_selector("#results"):
        assert focused(page)["id"] == "meet-0"
        page.wait_for_timeout(50)
    assert PAGE_ERRORS == []


def test_clocks_say_what_happens_when_they_run_out(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    # the turn clock: ann waits, a bot moves for her, and the board and the log say so
    page, _, _ = seat_page(
        browser, server, "critters", 2, "greedy", extra={"bot_pause": 0.2, "turn_seconds": 2}
    )
    page.wait_for_selector("#my-hand")
    page.wait_for_selector("#turn-timer >> text=Your move")
    assert "a bot makes this move for you" in page.inner_text("#turn-clock-rule")
    page.wait_for_selector("#log >> text=Your time ran out, so a bot moved for you")
    page.context.close()

    # the answer clock: ann plays her turns and lets every answer run out
    deadline = time.monotonic() + 240
    log = ""
    while "time to answer ran out" not in log:
        assert time.monotonic() < deadline, "no bot played an action card on ann"
        extra = {"bot_pause": 0.1, "answer_seconds": 1.5}
        page, _, _ = seat_page(browser, server, "critters", 2, "greedy", extra=extra)
        page.wait_for_selector("#my-hand")
        while not page.query_selector("#results") and time.monotonic() < deadline:
            if page.query_selector("#no-prompt"):
                assert "it is allowed" in page.inner_text("#answer-rule")
                page.wait_for_selector("#log li >> text=time to answer ran out")
                break
            if "Your turn" in page.inner_text("#turn"):
                keyboard_critters_turn(page)
            page.wait_for_timeout(60)
        log = page.inner_text("#log")
        page.context.close()
    assert "Your time to answer ran out, so" in log
    assert "You allow it" not in log
    assert PAGE_ERRORS == []


def test_a_tap_on_a_control_that_is_off_shows_why(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    page, _, _ = seat_page(browser, server, "wild", 4, "reader", viewport=PHONE, touch=True)
    page.wait_for_selector("#my-hand")
    off = page.locator("#my-hand .actions button[aria-disabled=true]").first
    control = off.get_attribute("id")
    off.tap(force=True)  # Playwright counts aria-disabled as disabled; a finger does not
    note = page.locator(f"#{control}-note")
    note.wait_for()
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert note.inner_text().endswith(".")
    page.context.close()

    page, _, _ = seat_page(
        browser, server, "critters", 2, "greedy", viewport=PHONE, touch=True,
        extra={"bot_pause": 2},
    )  # fmt: skip
    page.wait_for_selector("#my-hand")
    deadline = time.monotonic() + 60
    while "Your turn" in page.inner_text("#turn"):  # pass while it is ann's turn; then tap
        assert time.monotonic() < deadline
        keyboard_critters_turn(page)
        page.wait_for_timeout(100)
    page.tap("#pass", force=True)
    page.wait_for_selector("#pass-note")
    assert "turn" in page.inner_text("#pass-note")
    assert overflow(page) == 0
    assert PAGE_ERRORS == []


# ------------------------------------------------------------------ sentences

NAMES = ["Ann", "Bob", "Cleo"]  # capitalised: a lower-case letter after them is the client's


def played(
    game: str, games: int, steps: int, options: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Seeded random games of ``game``: every move with the public views around it and the
    mover's legal actions (the buttons), at most ``steps`` moves a game."""
    rules = get_game(game)
    out: list[dict[str, Any]] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = rules.new_game(NAMES, options or {}, seed)
        for _ in range(steps):
            if state.is_over:
                break
            if state.chance_due:
                before = state.view(None)
                events = state.apply(state.chance_outcome(rng))
                out.append({"before": before, "events": events, "after": state.view(None)})
                continue
            actor = rng.choice(list(state.actors))
            legal = state.legal_actions(actor)
            if not legal:
                break
            before = state.view(None)
            events = state.apply(rng.choice(legal))
            out.append(
                {
                    "before": before,
                    "events": events,
                    "after": state.view(None),
                    "me": actor,
                    "legal": [a.to_event() for a in legal],
                }
            )
    return out


NARRATE = """async ([game, moves]) => {
  const info = (await (await fetch("/api/games")).json()).find((g) => g.name === game);
  const board = (await import(info.board)).default;  // the game package's own board
  const vocab = info.vocabulary;
  const lines = [], commands = [];
  const say = (events, m, me) => {
    for (const line of board.narrate(events, m.before, m.after, me, vocab)) lines.push(line.text);
  };
  for (const m of moves) {
    for (const me of [null, m.me || null, "Cleo"]) {
      say(m.events, m, me);  // and as if the clock had made each move
      say(m.events.map((e) => (e.by ? { ...e, timeout: true } : e)), m, me);
    }
    for (const a of (board.command && m.legal) || []) commands.push(board.command(a, m.me, vocab));
  }
  return { lines, commands, names: Object.values(vocab.cards || {}) };
}"""

A_BEFORE_VOWEL = re.compile(r"\b[Aa] [aeiouAEIOU]")
AN_BEFORE_CONSONANT = re.compile(r"\b[Aa]n [b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]")
# "You" inside a sentence (not after a full stop) is a capital where "you" belongs
YOU_INSIDE = re.compile(r"[^.!?] You\b|: You\b")
COMMANDS = {"Put", "Play", "Complete", "Swap", "Pass", "Discard", "Say", "Allow"}


def grammar(text: str) -> list[str]:
    wrong = []
    if A_BEFORE_VOWEL.search(text) or AN_BEFORE_CONSONANT.search(text):
        wrong.append("article")
    if YOU_INSIDE.search(text):
        wrong.append("You inside a sentence")
    if not text[:1].isupper():
        wrong.append("no capital")
    if not text.rstrip(")").endswith((".", "!")):
        wrong.append("no full stop")
    if re.search(r"undefined|null|NaN|\[object|  | \.|\bpts\b|\b1 points\b", text):
        wrong.append("a stray word or space")
    return wrong


@pytest.mark.parametrize(
    ("game", "games", "steps", "deck"),
    [
        ("critters", 40, 400, None),
        ("wild", 12, 300, None),
        # a deck with new action cards (docs/cards.md): they are said by their titles too
        ("critters", 20, 400, "sneaky.toml"),
        ("critters", 20, 400, "windfall.toml"),
        ("critters", 20, 400, "pickpocket.toml"),
    ],
)
def test_sentences_over_every_card_and_move(
    server: LiveServer,
    browser: sync_api.Browser,
    game: str,
    games: int,
    steps: int,
    deck: str | None,
) -> None:
    path = Path(__file__).parent.parent / "examples" / "decks" / (deck or "")
    moves = played(game, games, steps, {"deck": str(path)} if deck else None)
    page = new_page(browser, own_policy=True)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    said = page.evaluate(NARRATE, [game, moves])
    lines: list[str] = said["lines"]
    bad = sorted({f"{text!r}: {', '.join(w)}" for text in lines if (w := grammar(text))})
    assert not bad, "\n".join(bad[:20])
    done = {m["events"][0]["do"] for m in moves if m["events"]}
    assert len(done) >= (9 if game == "critters" else 5), done  # most kinds of move were said
    text = " ".join(lines).lower()
    # "It's Okay to Say NO!" is said as what it says: "NO!"
    missing = [n for n in said["names"] if n.lower() not in text and n.split()[-1] != "NO!"]
    assert game == "wild" or "says no!" in text
    assert not missing, f"cards never named in a sentence: {missing}"
    own = moves[0]["after"].get("cards", {}) if deck else {}
    assert all(card["title"].lower() in text for card in own.values()), own
    for command in said["commands"]:
        assert command.split()[0] in COMMANDS, f"a button that is not a command: {command!r}"
        assert not A_BEFORE_VOWEL.search(command) and "undefined" not in command, command
    assert game == "wild" or said["commands"]
    assert PAGE_ERRORS == []


def test_the_lobby_and_waiting_room_speak_to_players(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    """No developer words in the lobby; bots by level with the default marked; the waiting
    room's hint for friends names this server's own port."""
    page = new_page(browser, own_policy=True)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('bestiary.played', '1')")  # a returning player
    page.reload()
    page.wait_for_selector("#create")
    for game in ("critters", "wild"):
        page.check(f"input[name=game][value={game}]")
        form = page.inner_text("#create-form")
        for word in ("sheet:", "playouts", "Exploiter", "ISMCTS"):
            assert word not in form, f"{word!r} in the {game} lobby"
        labels = page.locator("#fill-bot option").all_inner_texts()
        assert labels[0] == "leave them for friends"
        levels = [["Easy", "Medium", "Hard", "Practice"].index(x.split(":")[0]) for x in labels[1:]]
        assert levels == sorted(levels) and levels[0] == 0, labels
        chosen = page.eval_on_selector("#fill-bot", "(s) => s.selectedOptions[0].textContent")
        assert chosen.endswith("(default)")
        assert page.inner_text("#bot-persona").startswith(chosen)
    page.context.close()
    page, _, _ = seat_page(browser, server, "critters", 3, None)
    page.wait_for_selector("#share-local")
    assert f"PORT={server.port}" in page.inner_text("#share-local")
    assert PAGE_ERRORS == []


def test_the_replay_log_is_numbered_by_move_and_jumps(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    """ "Move N of M" highlights the log line numbered N; a click on a line goes to its move;
    wild's replay jumps from meeting to meeting."""
    for _ in range(4):  # two honest bots nearly always mate before Nightfall; else again
        page, _, code = seat_page(browser, server, "wild", 3, "honest", {"nightfall_seconds": 4})
        page.wait_for_selector("#results", timeout=60_000)
        page.goto(f"{server.url}/#/replay/{code}")
        page.wait_for_selector("#step")
        if page.query_selector("#next-mark"):
            break
        page.context.close()
    else:
        pytest.fail("no meeting in four games")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector("#step >> text=Move 5 of")
    assert page.get_attribute("#replay-log li.current", "value") == "5"
    page.locator("#replay-log li[value='3'] button").click()
    page.wait_for_selector("#step >> text=Move 3 of")
    assert page.inner_text("#step-text") == page.inner_text("#replay-log li.current")
    page.click("#next-mark")
    step = int(page.inner_text("#step").split()[1])
    assert step > 3 and " meet on " in page.inner_text("#replay-log li.current")
    page.keyboard.press("End")
    page.wait_for_selector("#results")
    last = int(page.inner_text("#step").split()[1])
    page.keyboard.press("PageUp")  # the last meeting, before Sundown or Nightfall
    page.wait_for_function(
        f"!document.querySelector('#step').textContent.startsWith('Move {last} ')"
    )
    assert " meet on " in page.inner_text("#replay-log li.current")
    assert PAGE_ERRORS == []


def test_a_decks_own_cards_show_their_titles_and_descriptions(
    server: LiveServer, browser: sync_api.Browser
) -> None:
    """A table dealt from a deck with new action cards (docs/cards.md): the hand shows each by
    its title, its description is its tooltip and the selected card's line, and playing one
    offers the moves its choice makes."""
    sneaky = DECKS.from_file(Path(__file__).parent.parent / "examples" / "decks" / "sneaky.toml")
    # its Nap Time, 40 of them among 9 critters: a deal gives ann one but for 1 in 15,000
    deck = {
        "kinds": {"fox": 3, "owl": 3, "frog": 3},
        "wild": 0,
        "actions": {"nap": 40},
        "cards": {"nap": sneaky["cards"]["nap"]},
    }
    options = {"deck": deck}
    page, _, _ = seat_page(browser, server, "critters", 2, "greedy", options, extra={"seed": 34})
    page.wait_for_selector("#my-hand [data-card='nap']")
    page.wait_for_selector("#turn:has-text('Your turn')")  # ann, the first seat, plays first
    nap = page.locator("#my-hand [data-card='nap']").first
    assert "Nap Time" in nap.inner_text()
    assert nap.get_attribute("title") == "An opponent skips their next turn."
    nap.click()
    heading = page.locator("#moves h3").inner_text()
    assert heading.startswith("Nap Time: An opponent skips their next turn."), heading
    moves = page.locator("#moves button").all_inner_texts()
    assert any(m.startswith("Play Nap Time on ") for m in moves), moves
    assert PAGE_ERRORS == []
