"""The critters terminal app through Textual's headless pilot: menus, the NO! prompt, a whole
game against bots, and the menu's promise that it offers exactly the legal moves."""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console, RenderableType
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from typer.testing import CliRunner

from bestiary.cli import app as cli_app
from bestiary.core.agent import Agent
from bestiary.critters import GAME
from bestiary.tui.critters_app import CrittersApp, NoPrompt
from bestiary.tui.critters_table import critters_table, critters_words
from bestiary.tui.live import LiveTable
from bestiary.tui.menu import group_moves
from bestiary.tui.run import new_table
from bestiary.tui.screens import EndScreen, HelpScreen

SIZE = (150, 50)


def text_of(renderable: RenderableType | Any) -> str:
    console = Console(width=SIZE[0], file=io.StringIO(), record=True, no_color=True)
    console.print(renderable)
    return console.export_text()


class Script:
    """A seat that plays exactly the events it is given, one per move it is asked for."""

    def __init__(self, player: str, events: list[dict[str, Any]]) -> None:
        self.player = player
        self.events = list(events)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        if not self.events:
            return None
        return GAME.action_from_event({"by": self.player, **self.events.pop(0)})


# Dealt one at a time: ann (first) gets fox, no, owl, frog, hedgehog; bo gets hop_over, turtle,
# turtle, rabbit, rabbit; ann then draws an otter, bo an otter.
DECK = [
    "fox", "hop_over", "no", "turtle", "owl", "turtle", "frog", "rabbit", "hedgehog", "rabbit",
    "otter", "otter", "squirrel", "squirrel", "raccoon", "raccoon", "owl", "owl",
]  # fmt: skip


def scripted_table(deck: list[str], bo_events: list[dict[str, Any]]) -> LiveTable:
    header = {"game": "critters", "version": 1, "players": ["ann", "bo"], "deck": deck}
    state = GAME.from_header(header)
    bots: dict[str, Agent] = {"bo": Script("bo", bo_events)}
    return LiveTable(GAME, state, "ann", bots)


def options(app: CrittersApp) -> list[str]:
    menu = app.query_one("#menu", OptionList)
    return [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]


async def choose(pilot: Pilot[None], app: CrittersApp, label: str) -> None:
    """Move the menu cursor to ``label`` with the arrow keys and press enter."""
    labels = options(app)
    assert label in labels, labels
    menu = app.query_one("#menu", OptionList)
    target = labels.index(label)
    while menu.highlighted != target:
        await pilot.press("down" if (menu.highlighted or 0) < target else "up")
    await pilot.press("enter")
    await pilot.pause()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# bo's one move: Hop Over on the fox that ann puts down.
HOP_OVER_ANN = [{"do": "hop_over", "target": "ann", "kind": "fox", "card": "fox"}]


async def fox_down_then_hop_over(pilot: Pilot[None], app: CrittersApp) -> None:
    """ann puts her fox down from the menu; bo answers with HOP_OVER_ANN."""
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    await choose(pilot, app, "fox")


def test_menu_down_then_no_cancels_hop_over() -> None:
    table = scripted_table(
        DECK, [{"do": "hop_over", "target": "ann", "kind": "fox", "card": "fox"}]
    )

    async def play() -> None:
        app = CrittersApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            # Six cards (one a NO!), nothing else to do: putting a critter down is the only group.
            assert options(app) == ["Put a card down (5)"]
            await pilot.press("enter")
            await pilot.pause()
            assert options(app)[0] == "← back"
            assert "wild as fox" not in options(app)  # ann holds no wild
            await choose(pilot, app, "fox")
            # bo drew and played Hop Over on ann's fox: the NO! prompt asks ann.
            assert isinstance(app.screen, NoPrompt)
            question = str(app.screen.query_one("#question", Static).content)
            assert "bo plays Hop Over on ann: take a fox from ann's fox set" in question
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, NoPrompt)

    run(play())
    summary = table.state.summary()
    assert summary["tableaus"]["ann"] == [{"kind": "fox", "cards": ["fox"], "full": False}]
    assert summary["tableaus"]["bo"] == []
    assert summary["centre_pile"] == ["hop_over", "no"]
    assert "no" not in summary["hands"]["ann"]
    assert [line.text for line in table.log][-2:] == [
        "bo plays Hop Over on ann: take a fox from ann's fox set",
        "ann says NO! The action is cancelled",
    ]


def test_no_prompt_without_a_no_card_only_allows() -> None:
    deck = ["owl" if card == "no" else card for card in DECK]  # ann's NO! becomes an owl
    table = scripted_table(deck, HOP_OVER_ANN)

    async def play() -> None:
        app = CrittersApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await fox_down_then_hop_over(pilot, app)
            assert isinstance(app.screen, NoPrompt)
            answers = app.screen.query_one("#answers", OptionList)
            assert answers.get_option("no").disabled
            await pilot.press("n")  # refused: ann holds no NO! card
            await pilot.pause()
            assert isinstance(app.screen, NoPrompt)
            await pilot.press("a")
            await pilot.pause()

    run(play())
    summary = table.state.summary()
    assert summary["tableaus"]["ann"] == []
    assert summary["tableaus"]["bo"] == [{"kind": "fox", "cards": ["fox"], "full": False}]


def test_unanswered_prompt_is_allowed_when_the_answer_clock_runs_out() -> None:
    # The driver's answer clock (Pace.answer_seconds) answers for a person who lets it run out,
    # as at a live table; the prompt then closes and the game goes on.
    table = scripted_table(DECK, HOP_OVER_ANN)

    async def play() -> None:
        app = CrittersApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await fox_down_then_hop_over(pilot, app)
            assert isinstance(app.screen, NoPrompt)
            question = str(app.screen.query_one("#question", Static).content)
            assert "(Not answered in 30 s, it is allowed.)" in question
            asked = table.tick
            table.advance(asked + table.pace.ticks(table.pace.answer_seconds) - 1)
            app.refresh_table()
            await pilot.pause()
            assert isinstance(app.screen, NoPrompt)  # not yet
            table.advance(table.tick + 1)
            app.refresh_table()
            await pilot.pause()
            assert not isinstance(app.screen, NoPrompt)

    run(play())
    assert table.log[-1].text == "ann allows it"
    assert table.state.summary()["tableaus"]["bo"] == [
        {"kind": "fox", "cards": ["fox"], "full": False}
    ]


def test_back_and_help_screens() -> None:
    table = scripted_table(DECK, [])

    async def play() -> None:
        app = CrittersApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("backspace")
            await pilot.pause()
            assert options(app) == ["Put a card down (5)"]
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)

    run(play())
    assert table.state.events() == []  # looking around plays nothing


def test_whole_game_against_bots_from_the_menu(tmp_path: Path) -> None:
    table = new_table("critters", 3, "greedy,random", {}, 7, "ann")

    async def play() -> str:
        app = CrittersApp(table, realtime=False)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(600):
                await pilot.pause()
                if table.state.is_over:
                    break
                if isinstance(app.screen, NoPrompt):
                    await pilot.press("a")
                else:
                    await pilot.press("enter")  # first group, then its first move
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            return text_of(app.screen.query_one("#end-body", Static).content)

    end = run(play())
    assert table.state.is_over
    winners = table.state.winners()
    assert winners
    assert f"The game is over. {' and '.join(winners)} won." in end
    assert any(line.text.startswith("ann ") for line in table.log)
    # The record written by --save replays to the same final state.
    path = tmp_path / "game.jsonl"
    table.save(path)
    result = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == table.state.summary()


def test_table_marks_full_sets_and_turn_without_colour() -> None:
    # ann: fox, fox, wild, no, owl (and draws a frog); bo: turtle, turtle, rabbit, rabbit, otter.
    deck = ["fox", "turtle", "fox", "turtle", "wild", "rabbit", "no", "rabbit", "owl", "otter"]
    deck += ["frog", "frog", "squirrel", "squirrel"]
    header = {"game": "critters", "version": 1, "players": ["ann", "bo"], "deck": deck}
    state = GAME.from_header(header)
    text = text_of(critters_table(state.view("ann")))
    assert "Your turn." in text
    assert "★ wild" in text and "✋ NO!" in text  # special cards by shape and name
    assert "5 cards" in text  # bo's hand is only a count
    assert "Draw Pile: 3 cards" in text
    event = {"by": "ann", "do": "set", "kind": "fox", "cards": ["fox", "fox", "wild"]}
    state.apply(GAME.action_from_event(event))
    text = text_of(critters_table(state.view("bo")))
    assert "[✔ FULL fox: fox fox ★wild]" in text
    assert "Your turn." in text  # now bo's
    assert "owl" not in text  # ann's hand (NO!, owl, frog) is hidden from bo


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_menu_offers_exactly_the_legal_moves(seed: int, steps: int) -> None:
    state = GAME.new_game(["ann", "bo", "cy"], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        actor = state.awaiting or state.turn
        assert actor is not None
        state.apply(rng.choice(state.legal_actions(actor)))
    for player in state.players:
        legal = state.legal_actions(player)
        groups = group_moves(legal)
        offered = [move.action for group in groups for move in group.moves]
        assert sorted(map(repr, offered)) == sorted(map(repr, legal))
        for group in groups:
            labels = [move.label for move in group.moves]
            assert len(labels) == len(set(labels)), labels


def test_a_decks_own_cards_by_title_and_description_in_table_menu_and_log() -> None:
    deck = Path(__file__).parent.parent / "examples" / "decks" / "sneaky.toml"
    rng = random.Random(5)
    for seed in range(40):
        state = GAME.new_game(["ann", "bo"], {"deck": str(deck)}, seed=seed)
        while not state.is_over and "sneak" not in state.hand(str(state.to_act)):
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
            else:
                state.apply(rng.choice(state.legal_actions(str(state.to_act))))
        if not state.is_over:
            break
    me = str(state.to_act)
    view = state.view(me)
    shown = text_of(critters_table(view))
    assert "✦ Sneak" in shown  # in the hand
    assert "Sneak: Take one Down Card from an opponent's incomplete set, then draw a card." in shown
    assert "Nap Time: An opponent skips their next turn." in shown
    groups = group_moves(state.legal_actions(me), view.get("cards"))
    titles = [g.title for g in groups]
    sneaks = [g for g in groups if g.do == "sneak"]
    assert not sneaks or sneaks[0].title.startswith("Sneak (Take one Down Card"), titles
    event = {"by": "ann", "do": "nap", "target": "bo"}
    said = critters_words(event, view["cards"])
    assert said == "ann plays Nap Time on bo: An opponent skips their next turn."
    event = {"by": "ann", "do": "sneak", "target": "bo", "kind": "fox", "card": "wild"}
    assert critters_words(event, view["cards"]) == (
        "ann plays Sneak on bo: take a wild from bo's fox set"
    )


def test_take_random_and_protect_set_in_words_menu_and_table() -> None:
    deck = Path(__file__).parent.parent / "examples" / "decks" / "pickpocket.toml"
    cards = GAME.new_game(["ann", "bo"], {"deck": str(deck)}, seed=1).view("ann")["cards"]
    taken = {"do": "random_card", "from": "bo", "to": "ann", "card": "fox"}
    assert critters_words(taken, cards) == "ann takes a fox at random from bo's hand"
    hidden = {"do": "random_card", "from": "bo", "to": "ann"}  # as a third seat sees it
    assert critters_words(hidden, cards) == "ann takes a card at random from bo's hand"
    shield = {"by": "ann", "do": "shield", "kind": "owl", "full": True}
    assert critters_words(shield, cards) == "ann plays Shield: protect their full owl set"
    pick = {"by": "ann", "do": "pickpocket", "target": "bo"}
    assert critters_words(pick, cards) == (
        "ann plays Pickpocket on bo: Take a card at random from an opponent's hand."
    )
    # a game until a set is protected: the table marks it, the menu offered it by its words
    rng = random.Random(3)
    for seed in range(60):
        state = GAME.new_game(["ann", "bo"], {"deck": str(deck)}, seed=seed)
        while not state.is_over and not state.protected:
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
                continue
            me = str(state.to_act)
            legal = state.legal_actions(me)
            shields = [g for g in group_moves(legal, cards) if g.do == "shield"]
            if shields:
                assert shields[0].title.startswith("Shield (Protect one of your sets")
                move = shields[0].moves[0]
                assert move.label.startswith("protect your ")
                state.apply(move.action)
            else:
                state.apply(rng.choice(legal))
        if state.protected:
            break
    owner, kind, _ = state.protected[0]
    shown = text_of(critters_table(state.view("ann")))
    assert "⛨ protected" in shown and kind in shown, (owner, kind, shown)
