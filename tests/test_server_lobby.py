"""The lobby over HTTP against the real app: tables, seats, bots, start, listings, OpenAPI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bestiary.server.table import TableSettings
from tests.live import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("lobby") / "lobby.sqlite"
    with LiveServer(f"sqlite:///{db}", TableSettings(tick_seconds=0.01)) as live:
        yield live


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with server.http() as client:
        yield client


def open_table(http: httpx.Client, game: str = "wild", seats: int = 3) -> tuple[str, str]:
    response = http.post("/api/tables", json={"game": game, "seats": seats, "name": "ann"})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["seat"] == 0
    return body["code"], body["token"]


def test_create_join_and_start(http: httpx.Client) -> None:
    code, token = open_table(http)
    bob = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()
    assert bob["seat"] == 1 and bob["token"] != token
    http.post(f"/api/tables/{code}/bots", json={"token": bob["token"], "bot": "random"})
    listing = http.get("/api/tables").json()
    assert code in [t["code"] for t in listing["open"]]
    started = http.post(f"/api/tables/{code}/start", json={"token": token})
    assert started.status_code == 200, started.text
    table = started.json()
    assert table["status"] == "playing"
    assert [s["name"] for s in table["seats"]] == ["ann", "bob", "random-3"]
    assert table["seats"][2]["bot"] == "random"
    listing = http.get("/api/tables").json()
    assert code in [t["code"] for t in listing["playing"]]
    assert code not in [t["code"] for t in listing["open"]]


def test_codes_are_case_insensitive(http: httpx.Client) -> None:
    code, _ = open_table(http)
    assert http.get(f"/api/tables/{code.lower()}").json()["code"] == code


@pytest.mark.parametrize(
    ("request_body", "words"),
    [
        ({"game": "chess", "seats": 2, "name": "ann"}, "unknown game"),
        ({"game": "wild", "seats": 7, "name": "ann"}, "2 to 6 players"),
        ({"game": "wild", "seats": 2, "name": "ann", "options": {"speed": 3}}, "speed"),
        ({"game": "critters", "seats": 2, "name": "a", "options": {"set_size": 9}}, "set_size"),
        ({"game": "wild", "seats": 2, "name": "a", "bots": [{"bot": "nobody"}]}, "no bot"),
    ],
)
def test_bad_tables_are_refused_in_a_sentence(
    http: httpx.Client, request_body: dict[str, object], words: str
) -> None:
    response = http.post("/api/tables", json=request_body)
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert words in detail and detail.endswith(".") and "Traceback" not in detail


def test_seat_rules(http: httpx.Client) -> None:
    code, token = open_table(http, seats=2)
    assert http.post(f"/api/tables/{code}/join", json={"name": "ann"}).status_code == 400
    assert http.post(f"/api/tables/{code}/start", json={"token": token}).status_code == 400
    bob = http.post(f"/api/tables/{code}/join", json={"name": "bob"}).json()
    full = http.post(f"/api/tables/{code}/join", json={"name": "cy"})
    assert full.status_code == 400 and "every seat at table" in full.json()["detail"]
    not_host = http.post(f"/api/tables/{code}/start", json={"token": bob["token"]})
    assert not_host.status_code == 400 and "host" in not_host.json()["detail"]
    forged = http.post(f"/api/tables/{code}/start", json={"token": "x" * 32})
    assert forged.status_code == 400 and "token" in forged.json()["detail"]
    left = http.post(f"/api/tables/{code}/leave", json={"token": bob["token"]}).json()
    assert left["seats"][1]["name"] is None


def test_unknown_table_is_404(http: httpx.Client) -> None:
    assert http.get("/api/tables/NOPE99").status_code == 404
    assert http.post("/api/tables/NOPE99/join", json={"name": "x"}).status_code == 404
    assert http.get("/api/tables/NOPE99/record").status_code == 404


def test_games_list_their_bots(http: httpx.Client) -> None:
    games = {g["name"]: g for g in http.get("/api/games").json()}
    assert set(games) == {"wild", "critters", "duel"}  # duel: the test game (tests/toygame)
    assert games["duel"]["bots"] and games["duel"]["board"] is None  # the generic board
    assert games["wild"]["board"] == "/games/wild/board.js"
    assert games["wild"]["min_players"] == 2 and games["wild"]["max_players"] == 6
    assert "random" in [b["name"] for b in games["wild"]["bots"]]


def test_bots_are_offered_by_level_weakest_first(http: httpx.Client) -> None:
    """easy, medium, hard by the ladder's ranks (docs/bots.md), then the practice bots; each
    with a persona in a player's words; the game's default among them."""
    levels = ["easy", "medium", "hard", "practice"]
    for game in http.get("/api/games").json():
        bots = game["bots"]
        order = [levels.index(b["level"]) for b in bots]
        assert order == sorted(order), [b["name"] for b in bots]
        playing = [b for b in bots if b["level"] != "practice"]
        assert [b["rank"] for b in playing] == sorted(b["rank"] for b in playing)
        if len(playing) >= 2:  # the weakest is easy, the strongest hard
            assert (playing[0]["level"], playing[-1]["level"]) == ("easy", "hard")
        assert all(b["rank"] < 0 for b in bots if b["level"] == "practice")
        assert game["default_bot"] in [b["name"] for b in playing]
        for b in bots:
            assert b["persona"] and not re.search(r"playout|Exploiter|ISMCTS", b["persona"])
    critters = next(g for g in http.get("/api/games").json() if g["name"] == "critters")
    shipped = [b for b in critters["bots"] if not b["name"].startswith("test-")]  # tests add some
    assert [(b["name"], b["level"]) for b in shipped] == [
        ("random", "easy"),
        ("greedy", "medium"),
        ("ismcts", "hard"),
    ]


def test_reach_says_where_friends_can_join(server: LiveServer, http: httpx.Client) -> None:
    """The address the server listens on (as `bestiary serve` records it) decides the table
    page's hint for friends; without it the page falls back to its own port."""
    here = ("127.0.0.1", server.port)
    assert http.get("/api/reach").json() == {
        "friends": [],
        "local_only": True,
        "port": server.port,
    }
    try:
        server.app.state.bind = ("192.0.2.7", 8123)
        assert http.get("/api/reach").json() == {
            "friends": ["http://192.0.2.7:8123/"],
            "local_only": False,
            "port": 8123,
        }
        del server.app.state.bind
        unknown = http.get("/api/reach").json()
        assert unknown == {"friends": [], "local_only": None, "port": server.port}
    finally:
        server.app.state.bind = here


def test_openapi_describes_the_lobby(http: httpx.Client) -> None:
    schema = http.get("/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{code}/join", "/api/tables/{code}/start"):
        assert path in schema["paths"]


def test_client_is_served(http: httpx.Client, server: LiveServer) -> None:
    page = http.get("/")
    assert page.status_code == 200 and "bestiary" in page.text
    assert Path(__file__).name  # the page's scripts are served from /static
