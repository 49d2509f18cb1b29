"""No message to a seat ever holds what that seat may not see.

Every `state` message a seat receives is checked against the engine's own allow-listed view
for that seat at that point of the record, and every event from another seat against the
public form of that event (no card under a Call, no discarded card, no reshuffle order).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bestiary.core.game import get_game, replay
from bestiary.core.records import parse_lines
from bestiary.server.table import TableSettings
from tests.live import LiveServer, TableSocket


def play_to_the_end(
    server: LiveServer, game: str, bots: list[str], options: dict[str, Any]
) -> tuple[str, TableSocket, TableSocket]:
    with server.http() as http:
        made = http.post(
            "/api/tables",
            json={
                "game": game,
                "seats": 1 + len(bots),
                "name": "ann",
                "options": options,
                "bots": [{"bot": b} for b in bots],
                "start": True,
            },
        ).json()
    code = made["code"]
    ann, watcher = TableSocket(server, code, made["token"]), TableSocket(server, code)
    rng = random.Random(5)
    while True:
        state = ann.wait_state(lambda m: m["over"] or bool(m["legal"]), "ann's chance to act")
        if state["over"]:
            break
        ann.act(rng.choice(state["legal"]), ref=state["seq"])
        ann.wait_ref(state["seq"])
    watcher.wait_state(lambda m: m["over"], "the end, for the watcher")
    return code, ann, watcher


def check_messages(server: LiveServer, code: str, ann: TableSocket, watcher: TableSocket) -> None:
    with server.http() as http:
        header, numbered = parse_lines(http.get(f"/api/tables/{code}/record").text.splitlines())
    events = [e for _, e in numbered]
    game = str(header["game"])
    rules = get_game(game)
    states = [replay(header, [])]
    for event in events:
        state = states[-1].clone()
        state.apply(rules.action_from_event(event))
        states.append(state)
    for sock, who in ((ann, "ann"), (watcher, None)):
        seen = [m for m in sock.received if m["type"] == "state"]
        assert seen and seen[-1]["over"]
        for message in seen:
            truth = states[message["seq"]]
            assert message["view"] == truth.view(who)
            if who is None:
                assert message["legal"] == []
                assert "hand" not in message["view"]
            first = message["seq"] - len(message["events"])
            for offset, shown in enumerate(message["events"]):
                real = events[first + offset]
                mine = who is not None and real.get("by") == who
                expected = dict(real) if mine else states[0].redact(real, None)
                expected.pop("t", None)
                assert shown == expected


def test_wild_messages_hold_no_hidden_cards(tmp_path: Path) -> None:
    settings = TableSettings(tick_seconds=0.002)
    with LiveServer(f"sqlite:///{tmp_path / 's.sqlite'}", settings) as server:
        code, ann, watcher = play_to_the_end(
            server, "wild", ["random", "honest"], {"nightfall_seconds": 3}
        )
        check_messages(server, code, ann, watcher)


def test_critters_messages_hold_no_hidden_cards(tmp_path: Path) -> None:
    settings = TableSettings(tick_seconds=0.002)
    with LiveServer(f"sqlite:///{tmp_path / 's.sqlite'}", settings) as server:
        code, ann, watcher = play_to_the_end(server, "critters", ["greedy", "greedy"], {})
        check_messages(server, code, ann, watcher)
