"""A client never names a server path: critters decks by name (the operator's folder) or content."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket
from tests.serverproc import ServerProcess

SMALL = {"kinds": {"newt": 12, "vole": 12, "wren": 12}, "wild": 2, "actions": {"no": 4}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("decks")
    (folder / "small.json").write_text(json.dumps(SMALL))
    (folder / "broken.toml").write_text("kinds = 3\n")  # skipped, with a warning for the operator
    db = tmp_path_factory.mktemp("d") / "d.sqlite"
    limits = ServerSettings(
        decks=folder, tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000
    )
    with LiveServer(f"sqlite:///{db}", TableSettings(tick_seconds=0.01), server=limits) as live:
        yield live


def create(http: httpx.Client, deck: Any) -> httpx.Response:
    return http.post(
        "/api/tables",
        json={"game": "critters", "seats": 2, "name": "ann", "options": {"deck": deck}},
    )


def test_the_decks_on_offer_are_listed_by_name(server: LiveServer) -> None:
    with server.http() as http:
        decks = http.get("/api/decks").json()
    assert [d["name"] for d in decks] == ["default", "small"]
    assert decks[1]["deck"] == SMALL


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "/etc/passwd",
        "/dev/zero",
        "/no/such/file.toml",
        "../small.json",
        "small.json",
    ],
)
def test_a_path_is_never_opened_and_never_told_apart(server: LiveServer, path: str) -> None:
    with server.http() as http:
        answer = create(http, path)
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    expected = (
        f"bad options: there is no deck called {path!r} on this server (decks: default, small)."
    )
    assert detail == expected  # the same sentence whether or not the path exists
    with server.http() as http:
        assert http.get("/api/tables").json()["total"]["open"] == 0


def test_a_deck_by_name_and_a_deck_as_content_are_dealt(server: LiveServer) -> None:
    custom = {"kinds": {"moth": 10, "toad": 10, "wasp": 10}, "wild": 0}
    with server.http() as http:
        for deck, kinds in (
            (SMALL, ["newt", "vole", "wren"]),
            ("small", ["newt", "vole", "wren"]),
            (custom, ["moth", "toad", "wasp"]),
        ):
            made = http.post(
                "/api/tables",
                json={
                    "game": "critters",
                    "seats": 2,
                    "name": "ann",
                    "options": {"deck": deck},
                    "bots": [{"bot": "greedy"}],
                    "start": True,
                },
            )
            assert made.status_code == 201, made.text
            sock = TableSocket(server, made.json()["code"], made.json()["token"])
            view = sock.wait_state(lambda m: True)["view"]
            assert [
                k
                for k in view["deck"]
                if k not in ("wild", "no", "hop_over", "game_changer", "ultimate_collector")
            ] == kinds
            sock.close()


@pytest.mark.parametrize(
    ("deck", "says"),
    [
        ({"kinds": {"newt": 12}, "colour": "red"}, "the deck has unknown keys: colour"),
        ({"kinds": {"Newt!": 12}}, "bad critter kind name"),
        ({"kinds": {"newt": 2000}}, "from 0 to 1000"),
        ({"kinds": {f"k{i}": 1000 for i in range(3)}}, "at most 500"),
        ({"kinds": {f"kind_{i:04}": 1 for i in range(200)}}, "at most 2048 bytes"),
        ({"kinds": {"newt": 2**70}}, "far too large"),
        (7, "a deck name or a deck's content"),
        (["newt"] * 20, "a deck's name (GET /api/decks) or a deck's content"),
    ],
)
def test_bad_deck_content_is_one_sentence(server: LiveServer, deck: Any, says: str) -> None:
    with server.http() as http:
        answer = create(http, deck)
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert says in detail and detail.endswith(".") and detail.count(". ") == 0


def test_bad_special_and_huge_deck_files_are_skipped_and_start_up_goes_on(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "small.json").write_text(json.dumps(SMALL))
    (folder / "deep.json").write_text("[" * 30_000 + "]" * 30_000)  # within the size bound
    (folder / "deep.toml").write_text("kinds = " + "[" * 30_000 + "]" * 30_000 + "\n")
    (folder / "huge.json").write_text('{"kinds": {"newt": ' + "9" * 5000 + "}}")
    (folder / "huge.toml").write_text("wild = " + "9" * 5000 + "\n")
    (folder / "big.json").write_text(json.dumps(SMALL) + " " * 10_000_000)
    os.mkfifo(folder / "fifo.json")  # nothing ever writes: reading it would wait forever
    (folder / "zero.json").symlink_to("/dev/zero")  # endless
    (folder / "folder.toml").mkdir()
    log = tmp_path / "server.log"
    db = f"sqlite:///{tmp_path / 'd.sqlite'}"
    with ServerProcess(db, log, server=f"decks=__import__('pathlib').Path({str(folder)!r})") as up:
        decks = httpx.get(up.url + "/api/decks", timeout=10).json()
    assert [d["name"] for d in decks] == ["default", "small"]
    said = log.read_text()
    for name, why in [
        ("deep.json", "nested too deeply"),
        ("deep.toml", "nested too deeply"),
        ("huge.json", "a number with too many digits"),
        ("huge.toml", "a number with too many digits"),
        ("big.json", "larger than"),
        ("fifo.json", "not a regular file"),
        ("zero.json", "not a regular file"),
        ("folder.toml", "not a regular file"),
    ]:
        (line,) = [line for line in said.splitlines() if f"deck {folder / name} skipped" in line]
        assert why in line
    assert "Traceback" not in said
