"""The wild terminal app through Textual's headless pilot, on explicit Packs: a mate with the
``honest`` bot, asking, refusals, discarding, Nightfall, and a table readable without colour."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, RenderableType
from textual.widgets import Static

from bestiary.core.agent import Agent, make_bot
from bestiary.tui.live import LiveTable
from bestiary.tui.screens import EndScreen, HelpScreen
from bestiary.tui.wild_app import CALL_KEYS, WildApp
from bestiary.tui.wild_table import wild_table
from bestiary.wild import CREATURES, GAME

SIZE = (160, 50)
ANN = ["megalotaur", "snerlep", "snerlep", "megalotaur", "fizzalisk"]  # top first
ANN += ["fizzalisk", "wiffaloon", "wiffaloon", "skeevil", "skeevil"]
BOT = ["snerlep", "fizzalisk", "snerlep", "fizzalisk", "megalotaur"]
BOT += ["megalotaur", "wiffaloon", "wiffaloon", "skeevil", "skeevil"]


def text_of(renderable: RenderableType | Any) -> str:
    console = Console(width=SIZE[0], file=io.StringIO(), record=True, no_color=True)
    console.print(renderable)
    return console.export_text()


class Idle:
    """A seat that never acts."""

    def __init__(self, player: str) -> None:
        self.player = player

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        return None


def table_with(bot: str | None, options: dict[str, Any] | None = None) -> LiveTable:
    other = bot or "idle"
    header: dict[str, Any] = {
        "game": "wild",
        "version": 1,
        "players": ["ann", other],
        "options": options or {},
        "packs": {"ann": ANN, other: BOT},
    }
    if (options or {}).get("objectives"):
        header["objectives"] = {"ann": "mate_twice", other: "eat_skeevil"}
    agent: Agent = make_bot("wild", bot, other, 1) if bot else Idle(other)
    return LiveTable(GAME, GAME.from_header(header), "ann", {other: agent})


def prompt_text(app: WildApp) -> str:
    return text_of(app.query_one("#prompt", Static).content)


def test_honest_bot_answers_and_asks_then_they_mate() -> None:
    table = table_with("honest")

    async def play() -> None:
        app = WildApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("2", "enter")  # card 2 (the hand is in the order drawn): snerlep
            await pilot.pause()
            assert table.view()["offer"] == {"card": "snerlep", "call": "snerlep"}
            for _ in range(40):  # the bot answers the Call, then asks to meet
                app.advance()
                await pilot.pause()
                if ["honest", "ann"] in table.view()["asks"]:
                    break
            assert "honest asked YOU to meet — press y to agree" in prompt_text(app)
            assert "⚠ ASKS YOU" in text_of(app.query_one("#table", Static).content)
            await pilot.press("y")
            await pilot.pause()

    asyncio.run(play())
    view = table.view()
    assert view["dens"] == {
        "ann": [{"creature": "snerlep", "owner": "honest"}],
        "honest": [{"creature": "snerlep", "owner": "ann"}],
    }
    assert view["meetings"][-1]["outcome"] == "mate"
    assert table.log[-1].text == (
        "ann and honest meet: two snerleps answer 'SNIK-SNIK!' and mate: "
        "honest and ann swap cards into their Dens"
    )
    assert table.log[-1].to_you


def test_call_by_key_and_ask_by_number() -> None:
    table = table_with(None)
    table.state.apply(
        GAME.action_from_event(
            {"by": "idle", "do": "call", "card": "fizzalisk", "call": "megalotaur"}
        )
    )

    async def play() -> None:
        app = WildApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("1", "m")  # the megalotaur, Called honestly with m
            await pilot.press("a")
            await pilot.pause()
            assert "Ask whom to meet? 1:idle" in prompt_text(app)
            await pilot.press("1")
            await pilot.pause()

    asyncio.run(play())
    view = table.view()
    assert view["offer"] == {"card": "megalotaur", "call": "megalotaur"}
    assert view["asks"] == [["ann", "idle"]]


def test_refused_key_says_why_and_changes_nothing() -> None:
    table = table_with(None)

    async def play() -> str:
        app = WildApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("d")  # the hand is full
            await pilot.pause()
            return prompt_text(app)

    before = table.state.summary()
    shown = asyncio.run(play())
    assert "✗ " in shown
    assert table.state.summary() == before
    assert table.state.events() == []


def test_discard_then_draw() -> None:
    table = table_with(None)

    async def play() -> None:
        app = WildApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("x")
            await pilot.pause()
            assert "Discard which card? 1:megalotaur  2:snerlep" in prompt_text(app)
            await pilot.press("2", "d")
            await pilot.pause()

    asyncio.run(play())
    view = table.view()
    assert view["watering_hole"]["face_down"]["ann"] == 1
    assert view["hand"] == ["megalotaur", "snerlep"]  # the snerlep went, the next one came
    assert view["packs"]["ann"] == 7
    assert [line.text for line in table.log] == [
        "ann discards a card face-down at the Watering Hole",
        "ann draws a card",
    ]


def test_nightfall_ends_a_quiet_game_with_the_end_screen() -> None:
    table = table_with(None, {"nightfall_seconds": 1})

    async def play() -> str:
        app = WildApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert "Nightfall in 1 s unless someone meets" in prompt_text(app)
            for _ in range(10):
                app.advance()
                await pilot.pause()
                if table.state.is_over:
                    break
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            return text_of(app.screen.query_one("#end-body", Static).content)

    end = asyncio.run(play())
    assert table.state.is_over
    assert table.log[-1].text == "Nightfall: no meeting for too long, the game ends"
    assert "The game is over. ann and idle won." in end  # nobody scored: a shared win


def test_table_reads_without_colour() -> None:
    table = table_with(None)
    table.state.apply(
        GAME.action_from_event({"by": "idle", "do": "call", "card": "snerlep", "call": "skeevil"})
    )
    table.state.apply(
        GAME.action_from_event({"by": "ann", "do": "call", "card": "megalotaur", "call": "skeevil"})
    )
    table.state.apply(GAME.action_from_event({"by": "idle", "do": "meet", "with": "ann"}))
    text = text_of(wild_table(table.view()))
    assert "▲ megalotaur › ~ snerlep › ✦ fizzalisk › ● wiffaloon › ■ skeevil › ▲" in text
    assert "Calls: ▲ HROOM!  ~ SNIK-SNIK!  ✦ FZZZT!  ● WOOO-FA!  ■ KEE-KEE!" in text
    assert "▯ face-down calls KEE-KEE! (skeevil)" in text  # idle's card stays hidden
    assert "▲ megalotaur calls KEE-KEE! (skeevil)" in text  # ann sees her own offer
    assert "1:~ snerlep" in text  # and her hand, numbered
    assert "⚠ ASKS YOU" in text
    assert "A:ann (you)" in text and "B:idle" in text
    assert "snerlep calls" not in text


def test_watering_hole_counts_and_reveal() -> None:
    table = table_with(None, {"objectives": True})
    state = table.state
    state.apply(GAME.action_from_event({"by": "ann", "do": "discard", "card": "snerlep"}))
    assert "Watering Hole: face-down: ann 1" in text_of(wild_table(state.view("idle")))
    revealed = text_of(wild_table(state.view(None), reveal=state.summary()))
    assert "face-down: ann 1 (~ snerlep×1)" in revealed
    assert "Your Objective (1 pt): Mate at least twice" in text_of(wild_table(state.view("ann")))
    assert "Objective" not in text_of(wild_table(state.view(None)))


def test_picked_card_is_bracketed() -> None:
    view = table_with(None).view()
    assert "1:▲ megalotaur  [2:~ snerlep]" in text_of(wild_table(view, picked=1))
    assert "[1:▲ megalotaur]  2:~ snerlep" in text_of(wild_table(view, picked=0))


def test_every_creature_has_a_call_key() -> None:
    assert sorted(CALL_KEYS.values()) == sorted(CREATURES)
    assert len(set(CALL_KEYS)) == len(CREATURES)
