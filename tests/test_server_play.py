"""Live tables over real WebSockets: meetings, refusals, spectators, reconnects, bots, timeouts."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import httpx
import pytest

from bestiary.core.agent import register_bot
from bestiary.core.game import replay
from bestiary.core.records import parse_lines
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket

ACTION_CARDS = ("ultimate_collector", "hop_over", "game_changer")


class PushyCritter:
    """A test bot for critters: plays an action card at its opponent whenever it can."""

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        if not legal:
            return None
        pushy = [a for a in legal if a.to_event()["do"] in ACTION_CARDS]
        return (pushy or legal)[0]


register_bot("critters", "test-pushy", "Test bot: plays action cards at its opponents.", rank=-1)(
    PushyCritter
)


SEEDED = ServerSettings(
    allow_seeds=True, tables_per_minute=600, joins_per_minute=6000, seats_per_address=1000
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("play") / "play.sqlite"
    settings = TableSettings(tick_seconds=0.005, grace_seconds=0.05, answer_seconds=0.05)
    # seeded deals make these scenarios exact: a testing server's setting
    with LiveServer(f"sqlite:///{db}", settings, server=SEEDED) as live:
        yield live


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with server.http() as client:
        yield client


def table_of(
    http: httpx.Client, game: str, humans: list[str], bots: list[str], **extra: Any
) -> tuple[str, list[str]]:
    """A started table; returns its code and the humans' seat tokens."""
    body = {
        "game": game,
        "seats": len(humans) + len(bots),
        "name": humans[0],
        "bots": [{"bot": b} for b in bots],
        **extra,
    }
    created = http.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    code, tokens = created.json()["code"], [created.json()["token"]]
    for name in humans[1:]:
        tokens.append(http.post(f"/api/tables/{code}/join", json={"name": name}).json()["token"])
    started = http.post(f"/api/tables/{code}/start", json={"token": tokens[0], "seed": 7})
    assert started.status_code == 200, started.text
    return code, tokens


def test_two_players_call_and_meet(server: LiveServer, http: httpx.Client) -> None:
    code, (ann_token, bob_token) = table_of(http, "wild", ["ann", "bob"], [])
    ann, bob = TableSocket(server, code, ann_token), TableSocket(server, code, bob_token)
    assert ann.welcome["player"] == "ann" and bob.welcome["seat"] == 1
    a_view = ann.wait_state(lambda m: True)["view"]
    b_view = bob.wait_state(lambda m: True)["view"]
    a_card, b_card = a_view["hand"][0], b_view["hand"][0]
    ann.act({"do": "call", "card": a_card, "call": a_card}, ref="a1")
    ann.wait_state(lambda m: m.get("ref") == "a1")
    heard = bob.wait_state(lambda m: m["view"]["calls"]["ann"] == a_card)
    assert heard["events"] == [{"by": "ann", "do": "call", "call": a_card}]  # no card shown
    bob.act({"do": "call", "card": b_card, "call": a_card}, ref=1)
    ann.wait_state(lambda m: m["view"]["calls"]["bob"] == a_card)
    ann.act({"do": "meet", "with": "bob"}, ref=2)
    bob.wait_state(lambda m: m["view"]["asks"] != [])
    bob.act({"do": "meet", "with": "ann"}, ref=3)
    met = ann.wait_state(lambda m: len(m["view"]["meetings"]) == 1)
    meeting = met["view"]["meetings"][0]
    assert meeting["players"] == ["ann", "bob"]
    assert meeting["cards"] == {"ann": a_card, "bob": b_card}
    assert bob.wait_state(lambda m: len(m["view"]["meetings"]) == 1)["seq"] == met["seq"]
    ann.close()
    bob.close()


def test_illegal_actions_get_the_engines_reason(server: LiveServer, http: httpx.Client) -> None:
    code, (token, _) = table_of(http, "wild", ["ann", "bob"], [])
    ann = TableSocket(server, code, token)
    seq = ann.wait_state(lambda m: True)["seq"]
    ann.act({"do": "draw"}, ref=9)  # two cards in hand already: over the limit
    error = ann.wait(lambda m: m["type"] == "error")
    assert error["code"] == "illegal" and error["ref"] == 9
    assert "hand limit" in error["message"]
    ann.act({"do": "meet", "with": "ann"}, ref=10)
    assert ann.wait(lambda m: m["type"] == "error")["ref"] == 10
    ann.act({"do": "call", "card": "dragon", "call": "snerlep"}, ref=11)
    bad = ann.wait(lambda m: m["type"] == "error")
    assert bad["code"] == "bad_action" and "dragon" in bad["message"]
    ann.act({"do": "withdraw", "by": "bob"}, ref=12)
    assert ann.wait(lambda m: m["type"] == "error")["code"] == "wrong_seat"
    ann.act({"do": "nightfall"}, ref=13)
    assert ann.wait(lambda m: m["type"] == "error")["ref"] == 13
    legal = ann.latest["legal"][0] if ann.latest else {}
    ann.act(legal, ref=14)
    assert ann.wait_state(lambda m: m.get("ref") == 14)["seq"] == seq + 1
    ann.close()


def test_spectators_see_only_public_information(server: LiveServer, http: httpx.Client) -> None:
    code, (token, _) = table_of(http, "wild", ["ann", "bob"], [])
    ann, watcher = TableSocket(server, code, token), TableSocket(server, code)
    assert watcher.welcome["seat"] is None
    card = ann.wait_state(lambda m: True)["view"]["hand"][0]
    ann.act({"do": "call", "card": card, "call": "skeevil"})
    seen = watcher.wait_state(lambda m: m["view"]["calls"]["ann"] == "skeevil")
    assert "hand" not in seen["view"] and seen["legal"] == []
    assert seen["events"] == [{"by": "ann", "do": "call", "call": "skeevil"}]
    watcher.act({"do": "withdraw"}, ref=1)
    assert watcher.wait(lambda m: m["type"] == "error")["code"] == "not_seated"
    ann.close()
    watcher.close()


def test_reconnect_gets_the_full_current_view(server: LiveServer, http: httpx.Client) -> None:
    code, (token, _) = table_of(http, "wild", ["ann", "bob"], [])
    ann = TableSocket(server, code, token)
    card = ann.wait_state(lambda m: True)["view"]["hand"][0]
    ann.act({"do": "call", "card": card, "call": card}, ref=1)
    before = ann.wait_state(lambda m: m.get("ref") == 1)
    ann.close()
    again = TableSocket(server, code, token)
    assert again.welcome["player"] == "ann"
    now = again.wait_state(lambda m: True)
    assert now["seq"] == before["seq"] and now["view"] == before["view"]
    assert now["legal"] == before["legal"]
    again.close()


def test_a_bot_stands_in_for_an_absent_player(server: LiveServer, http: httpx.Client) -> None:
    code, (ann_token, bob_token) = table_of(http, "wild", ["ann", "bob"], [])
    bob = TableSocket(server, code, bob_token)
    bob.wait_state(lambda m: True)
    watcher = TableSocket(server, code)
    # ann never connects: past the grace period a bot plays her seat until she comes back
    if not watcher.welcome["table"]["seats"][0]["stand_in"]:  # it may have come already
        watcher.wait(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["stand_in"], "a stand-in"
        )
    watcher.wait_state(lambda m: any(e.get("by") == "ann" for e in m["events"]), "ann to act")
    ann = TableSocket(server, code, ann_token)
    back = watcher.wait(
        lambda m: m["type"] == "table" and not m["table"]["seats"][0]["stand_in"], "ann's return"
    )
    assert back["table"]["seats"][0]["connected"]
    for sock in (ann, bob, watcher):
        sock.close()


def test_critters_unanswered_action_is_allowed(server: LiveServer, http: httpx.Client) -> None:
    code, (token,) = table_of(http, "critters", ["ann"], ["test-pushy"])
    ann = TableSocket(server, code, token)
    # ann plays her turns (never an action card) and never answers: the table allows for her
    while True:
        state = ann.wait_state(lambda m: m["over"] or bool(m["legal"]), "ann's turn")
        if state["over"]:
            break
        answers = [a for a in state["legal"] if a["do"] in ("no", "allow")]
        if answers:
            ann.wait_past(state["seq"])
            continue
        quiet = [a for a in state["legal"] if a["do"] not in ACTION_CARDS]
        ref = state["seq"]
        ann.act((quiet or state["legal"])[0], ref=ref)
        ann.wait_ref(ref)
    record = http.get(f"/api/tables/{code}/record")
    assert record.status_code == 200
    header, events = parse_lines(record.text.splitlines())
    lines = [event for _, event in events]
    assert ("ann", "allow") in [(e.get("by"), e["do"]) for e in lines]
    # the clock's answers are marked, so the log can say the time ran out; nothing else is
    clocked = [e for e in lines if e.get("by") == "ann" and e["do"] == "allow"]
    assert all(e.get("timeout") is True for e in clocked)
    assert not any(e.get("timeout") for e in lines if e not in clocked)
    assert all("t" in e for e in lines)
    assert replay(header, events).summary() == state["summary"]
    ann.close()


def test_critters_turn_clock_moves_for_a_silent_person(
    server: LiveServer, http: httpx.Client
) -> None:
    code, (token,) = table_of(http, "critters", ["ann"], ["greedy"], turn_seconds=0.2)
    ann = TableSocket(server, code, token)
    # ann never moves: her turns are shown with a clock, and a bot makes her moves when it ends
    clocked = ann.wait_state(
        lambda m: m["over"] or (m["view"]["turn"] == "ann" and not m["view"]["awaiting"]),
        "ann's turn",
    )
    assert clocked["over"] or 0 <= clocked["timers"]["turn"] <= 0.2
    moved: list[dict[str, Any]] = []
    while len(moved) < 3:
        state = ann.recv()
        if state.get("type") != "state":
            continue
        moved += [e for e in state["events"] if e.get("by") == "ann"]
        if state["over"]:
            break
    assert moved and all(e.get("timeout") is True for e in moved)
    ann.close()
