"""Bad input on a table's socket: each is answered with an error, and socket and table go on."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator

import orjson
import pytest

from bestiary.core.game import get_game
from bestiary.server import protocol, wire
from bestiary.server.protocol import MAX_MESSAGE_BYTES
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("bad") / "bad.sqlite"
    # a table per case, all from 127.0.0.1: more new tables a minute than a stranger may open
    server = ServerSettings(tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000)
    with LiveServer(f"sqlite:///{db}", TableSettings(), rate=20.0, server=server) as live:
        yield live


@pytest.fixture
def seated(server: LiveServer) -> Iterator[TableSocket]:
    with server.http() as http:
        made = http.post(
            "/api/tables",
            json={"game": "wild", "seats": 2, "name": "ann", "bots": [{"bot": "random"}]},
        ).json()
        token = made["token"]
        http.post(f"/api/tables/{made['code']}/start", json={"token": token})
    sock = TableSocket(server, made["code"], token)
    sock.wait_state(lambda m: True)
    yield sock
    sock.close()


def still_alive(sock: TableSocket) -> None:
    """The socket still answers, and the table still takes a legal action from it."""
    sock.send({"type": "ping", "ref": "alive"})
    assert sock.wait(lambda m: m["type"] == "pong")["ref"] == "alive"


def error_after(sock: TableSocket, raw: str) -> dict[str, object]:
    sock.send(raw)
    error = sock.wait(lambda m: m["type"] == "error", "an error")
    assert isinstance(error["message"], str) and error["message"].endswith(".")
    return error


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"no_type": 1}', "unknown_type"),
        ('{"type": "action"}', "bad_message"),
        ('{"type": "action", "action": "draw"}', "bad_message"),
        ('{"type": "action", "action": {"do": "draw"}, "extra": 1}', "bad_message"),
        ('{"type": "hello", "v": 1}', "bad_message"),  # hello twice
        ('{"type": "action", "action": {"do": "fly"}}', "bad_action"),
        ('{"type": "action", "action": {"do": "call", "card": 3, "call": []}}', "bad_action"),
        ('{"type": "action", "action": {"by": "random-2", "do": "draw"}}', "wrong_seat"),
        ('{"type": "ping", "ref": 123456789012345678901234567890}', "bad_message"),
        ('{"type": "ping", "ref": "\\ud800"}', "bad_json"),
    ],
)
def test_bad_messages_get_an_error(seated: TableSocket, raw: str, code: str) -> None:
    assert error_after(seated, raw)["code"] == code
    still_alive(seated)


def test_oversize_message(seated: TableSocket) -> None:
    raw = json.dumps({"type": "ping", "ref": "x" * (MAX_MESSAGE_BYTES + 10)})
    assert error_after(seated, raw)["code"] == "too_large"
    still_alive(seated)


def test_flood_is_refused_then_forgiven(seated: TableSocket) -> None:
    for i in range(120):  # the limit is 20 a second with a burst of 40
        seated.send({"type": "ping", "ref": i})
    floods = 0
    pongs = 0
    while pongs + floods < 120:
        message = seated.recv()
        if message["type"] == "error" and message["code"] == "flood":
            floods += 1
        elif message["type"] == "pong":
            pongs += 1
    assert floods > 0 and pongs >= 30
    # The table goes on and still hears this socket: once the bucket has refilled, one of its
    # legal actions is played. (Waiting for the bot alone was not enough: with its one opponent
    # idle, wild's random bot can run out of things to do before a slow flood is read back.)
    latest = seated.latest or {}
    seq = latest.get("seq", 0)
    time.sleep(0.25)  # 20 a second: a few messages' worth
    if latest.get("legal"):
        seated.act(latest["legal"][0], ref="after the flood")
    seated.wait_state(lambda m: m["seq"] > seq, "the table to go on")


def test_first_message_must_be_hello(server: LiveServer) -> None:
    from websockets.sync.client import connect

    with server.http() as http:
        code = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"}).json()[
            "code"
        ]
    with connect(f"{server.ws_url}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "action", "action": {"do": "draw"}, "ref": 1}))
        error = json.loads(ws.recv(timeout=10))
        assert error["code"] == "no_hello" and error["ref"] == 1
        ws.send(json.dumps({"type": "hello", "v": 1}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def test_forged_token_and_unknown_table(server: LiveServer) -> None:
    from websockets.sync.client import connect

    with server.http() as http:
        code = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "ann"}).json()[
            "code"
        ]
    with connect(f"{server.ws_url}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": "guess"}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
    with connect(f"{server.ws_url}/ws/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "v": 2}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_version"
    with connect(f"{server.ws_url}/ws/NOPE99") as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "no_table"


@pytest.mark.parametrize("game", ["critters", "wild"])
def test_legal_actions_are_sent_as_their_events(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The legal list, made once per action, is the same JSON as the actions' events; when the
    store of made ones is full it starts again rather than grow."""
    monkeypatch.setattr(wire, "LEGAL_KEPT", 5)
    monkeypatch.setattr(wire, "_LEGAL", {})  # other tests of this process made some
    monkeypatch.setattr(wire, "_BY_ID", {})
    state = get_game(game).new_game(["ann", "bo", "cy", "di"], {}, 3)
    rng = random.Random(3)
    for _ in range(40):
        acts = [a for p in state.players for a in state.legal_actions(p)]
        if state.is_over or not acts:
            break
        for player in state.players:
            legal = state.legal_actions(player)
            sent = orjson.loads(protocol.encode({"legal": protocol.legal_json(legal)}))
            assert sent["legal"] == [a.to_event() for a in legal]
            assert len(wire._LEGAL) <= 5 and len(wire._BY_ID) <= 5
        state.apply(rng.choice(acts))


def test_legal_actions_of_a_game_whose_actions_are_not_hashable() -> None:
    """A game added through the entry point may use plain objects with lists as its actions."""

    class Loose:
        __hash__ = None  # type: ignore[assignment]

        def __init__(self, cards: list[str]) -> None:
            self.cards = cards

        def to_event(self) -> dict[str, object]:
            return {"by": "ann", "do": "play", "cards": self.cards}

    sent = orjson.loads(protocol.encode({"legal": protocol.legal_json([Loose(["a", "b"])])}))
    assert sent["legal"] == [{"by": "ann", "do": "play", "cards": ["a", "b"]}]
