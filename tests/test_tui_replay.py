"""The replay viewer: stepping through records of both games with the pilot, the seat switch,
and agreement with ``bestiary replay --json`` at the end."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, RenderableType
from textual.widgets import Static
from typer.testing import CliRunner

from bestiary.cli import app as cli_app
from bestiary.core.game import get_game, replay
from bestiary.core.records import read_record, write_record
from bestiary.tui.replay_app import Replay, ReplayApp

SIZE = (170, 50)


def text_of(renderable: RenderableType | Any) -> str:
    console = Console(width=SIZE[0], file=io.StringIO(), record=True, no_color=True)
    console.print(renderable)
    return console.export_text()


def record_file(tmp_path: Path, game_name: str, players: list[str], seed: int) -> Path:
    game = get_game(game_name)
    state = game.new_game(players, seed=seed)
    game.random_playout(state, random.Random(seed), 3000)
    path = tmp_path / f"{game_name}.jsonl"
    write_record(path, state.header(), state.events())
    return path


def cli_json(path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.output)
    return summary


@pytest.mark.parametrize(
    ("game_name", "players"), [("critters", ["ann", "bo", "cy"]), ("wild", ["ann", "bo", "cy"])]
)
def test_step_forward_back_and_to_the_end(
    tmp_path: Path, game_name: str, players: list[str]
) -> None:
    path = record_file(tmp_path, game_name, players, seed=5)
    header, events = read_record(path)
    record = Replay(header, events)
    assert record.length > 5

    async def walk() -> dict[str, Any]:
        app = ReplayApp(record)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            where = app.query_one("#where", Static)
            assert f"Step 0 of {record.length}" in text_of(where.content)
            await pilot.press("right", "right", "n", "left")
            await pilot.pause()
            assert app.step == 2
            shown = text_of(where.content)
            assert f"Step 2 of {record.length} — showing everything" in shown
            assert record.words(2, reveal=True) in shown
            assert app.state.summary() == replay(header, events[:2]).summary()
            await pilot.press("left", "left", "left")  # never before the deal
            assert app.step == 0
            await pilot.press("end")
            await pilot.pause()
            assert app.step == record.length
            await pilot.press("right")  # never past the end
            assert app.step == record.length
            summary: dict[str, Any] = app.state.summary()
            return summary

    assert asyncio.run(walk()) == cli_json(path)


def test_seat_view_hides_other_hands(tmp_path: Path) -> None:
    path = record_file(tmp_path, "critters", ["ann", "bo"], seed=11)
    header, events = read_record(path)
    record = Replay(header, events)

    async def look() -> tuple[str, str]:
        app = ReplayApp(record, step=3)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            everything = text_of(app.query_one("#table", Static).content)
            await pilot.press("v")  # everything -> ann's view
            await pilot.pause()
            assert app.seat == "ann"
            seat = text_of(app.query_one("#table", Static).content)
            assert "showing ann's view" in text_of(app.query_one("#where", Static).content)
            await pilot.press("v", "v")  # -> bo -> everything again
            assert app.seat is None
            return everything, seat

    everything, seat = asyncio.run(look())
    bo_hand = len(record.state_at(3).summary()["hands"]["bo"])
    assert f"{bo_hand} cards" in seat and f"{bo_hand} cards" not in everything


def test_wild_words_say_the_meeting() -> None:
    ann = [
        "snerlep",
        "megalotaur",
        *["snerlep", "megalotaur"],
        *["fizzalisk", "wiffaloon", "skeevil"] * 2,
    ]
    bo = [
        "snerlep",
        "fizzalisk",
        *["snerlep", "fizzalisk"],
        *["megalotaur", "wiffaloon", "skeevil"] * 2,
    ]
    header = {
        "game": "wild",
        "version": 1,
        "players": ["ann", "bo"],
        "packs": {"ann": ann, "bo": bo},
    }
    events = [
        {"by": "ann", "do": "call", "card": "snerlep", "call": "snerlep"},
        {"by": "bo", "do": "call", "card": "snerlep", "call": "snerlep"},
        {"by": "ann", "do": "meet", "with": "bo"},
        {"by": "bo", "do": "meet", "with": "ann"},
    ]
    record = Replay(header, list(enumerate(events, start=2)))
    assert record.words(0, reveal=False) == "The deal: every player's starting hand is dealt."
    assert record.words(1, reveal=False) == "ann calls 'SNIK-SNIK!' (snerlep) with a face-down card"
    assert record.words(1, reveal=True) == "ann calls 'SNIK-SNIK!' (snerlep) with their snerlep"
    assert record.words(3, reveal=False) == "ann asks bo to meet"
    assert record.words(4, reveal=False) == (
        "bo and ann meet: two snerleps answer 'SNIK-SNIK!' and mate: "
        "ann and bo swap cards into their Dens"
    )
    everything = text_of(ReplayApp(record, step=2).table(record.state_at(2)))
    assert everything.count("~ snerlep calls SNIK-SNIK! (snerlep)") == 2  # both cards shown
    app = ReplayApp(record, step=2)
    app.seat = "ann"
    mine = text_of(app.table(record.state_at(2)))
    assert mine.count("~ snerlep calls SNIK-SNIK! (snerlep)") == 1  # ann sees her own card
    assert "▯ face-down calls SNIK-SNIK! (snerlep)" in mine  # and not bo's


def test_replay_without_a_terminal_prints_the_final_table(tmp_path: Path) -> None:
    path = record_file(tmp_path, "critters", ["ann", "bo"], seed=3)
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    winners = cli_json(path)["winners"]
    assert "Game over:" in result.output
    for name in winners:
        assert name in result.output


def test_bad_record_is_one_sentence_without_json(tmp_path: Path) -> None:
    path = record_file(tmp_path, "critters", ["ann", "bo"], seed=3)
    lines = path.read_text().splitlines()
    lines.insert(2, '{"by": "nobody", "do": "pass"}')
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "line 3" in result.stderr
    assert "Traceback" not in result.output + result.stderr


def test_a_game_without_widgets_of_its_own_replays_on_the_generic_board(tmp_path: Path) -> None:
    # duel (tests/toygame) is a third game the terminal knows only through its entry point.
    path = record_file(tmp_path, "duel", ["ann", "bo"], seed=2)
    header, events = read_record(path)
    record = Replay(header, events)
    first = events[0][1]
    assert record.words(1) == f"{first['by']}: {first['do']}"

    async def walk() -> tuple[str, dict[str, Any]]:
        app = ReplayApp(record)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("end")
            await pilot.pause()
            return text_of(app.query_one("#table", Static).content), app.state.summary()

    table, summary = asyncio.run(walk())
    assert summary == cli_json(path)
    assert "winners" in table and "Everything:" in table
    result = CliRunner().invoke(cli_app, ["replay", str(path)])  # no terminal: printed
    assert result.exit_code == 0, result.output


def test_a_simulated_record_says_which_bot_sat_where() -> None:
    from bestiary.core.records import parse_lines
    from bestiary.sim.runner import GameSpec, play_game
    from bestiary.tui.replay_app import Replay

    spec = GameSpec(0, "critters", ("greedy", "random"), seed=4, keep_record=True)
    result = play_game(spec)
    assert result.record is not None
    header, events = parse_lines(result.record)
    assert Replay(header, events).seating() == "Seats: p1 (greedy), p2 (random)"
    del header["bots"]
    assert Replay(header, events).seating() == ""


HOSTILE = {
    "deeply nested": "[" * 100_000 + "]" * 100_000,
    "a 5,000-digit integer": '{"game": "critters", "seed": ' + "9" * 5000 + "}",
    "an object nested past the stack": '{"a":' * 50_000 + "1" + "}" * 50_000,
}


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize("as_json", [True, False])
def test_a_hostile_file_is_one_sentence_and_exit_2(
    tmp_path: Path, kind: str, as_json: bool
) -> None:
    path = tmp_path / "sent.jsonl"
    path.write_text(HOSTILE[kind])
    result = CliRunner().invoke(cli_app, ["replay", str(path), *(["--json"] if as_json else [])])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and "line 1: not valid JSON" in line


# A clear-screen, an OSC 8 hyperlink, a window title, a C1 CSI and DEL: each a terminal obeys.
ESCAPES = ["ann\x1b[2J\x1b[H", "\x1b]8;;https://evil.example/\x07bo\x1b]8;;\x07", "cy\x9b31m\x7f"]
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but the line breaks, DEL, C1


def test_control_characters_in_names_are_shown_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = record_file(tmp_path, "critters", ESCAPES, seed=3)
    printed = CliRunner().invoke(cli_app, ["replay", str(path)])
    assert printed.exit_code == 0, printed.output
    assert not CONTROL.search(printed.output)
    assert "ann\\x1b[2J" in printed.output
    as_json = CliRunner().invoke(cli_app, ["replay", str(path), "--json"])
    assert not CONTROL.search(as_json.output)
    assert json.loads(as_json.output) == cli_json(path)  # still the same JSON

    seen: list[tuple[Any, Any]] = []
    monkeypatch.setattr("bestiary.tui.run.view_replay", lambda h, e: seen.append((h, e)))
    assert CliRunner().invoke(cli_app, ["replay", str(path)]).exit_code == 0
    ((header, events),) = seen  # what the viewer is given at a terminal

    async def shown() -> str:
        app = ReplayApp(Replay(header, events))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("right", "right", "end")
            await pilot.pause()
            return "".join(text_of(s.content) for s in app.query(Static))

    screen = asyncio.run(shown())
    assert "\\x1b]8;;https://evil.example/\\x07bo" in screen
    assert not CONTROL.search(screen)
