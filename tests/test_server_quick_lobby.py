"""The lobby's busiest calls, answered in front of FastAPI's routing (``quick_lobby``), answer
every request exactly as FastAPI answers it: the same status, headers and bytes, refusals too
(bad bodies, other content types, unknown tables, quotas), for the same requests to a server
with the quick path and one without, each dealing the same codes and tokens."""

from __future__ import annotations

import random
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import orjson
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bestiary.server.app import create_app
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]
# (what, which table: the n-th opened, or an unknown one (-1), which seat's token, the body)
Call = tuple[str, int, int, tuple[str | None, bytes]]


@contextmanager
def the_same_draws() -> Iterator[None]:
    """Codes, tokens and deals drawn from one seed, and one wall time: both servers deal alike."""
    rng = random.Random(7)
    with (
        mock.patch.object(secrets, "choice", rng.choice),
        mock.patch.object(secrets, "token_urlsafe", lambda n: rng.randbytes(n).hex()),
        mock.patch.object(secrets, "randbits", rng.getrandbits),
        mock.patch("time.time", lambda: 1_765_000_000.25),
    ):
        yield


def serve(calls: list[Call], quick: bool, limits: ServerSettings) -> list[Answer]:
    """Every call's answer, in order, from a new server (``quick`` or not)."""
    answers: list[Answer] = []
    tables: list[tuple[str, list[str]]] = []  # each opened table's code and seats' tokens
    with tempfile.TemporaryDirectory() as tmp, the_same_draws():
        db = f"sqlite:///{Path(tmp) / 'lobby.sqlite'}"
        app = create_app(db, TableSettings(grace_seconds=3600), server=limits, quick=quick)
        with TestClient(app, base_url="http://127.0.0.1") as http:
            for what, table, seat, (content_type, body) in calls:
                code, tokens = tables[table] if 0 <= table < len(tables) else ("NOPE99", [])
                if what == "start" and tokens:  # the body's token: the seat's own
                    body = body.replace(b"TOKEN", tokens[seat % len(tokens)].encode())
                path = {
                    "create": "/api/tables",
                    "join": f"/api/tables/{code}/join",
                    "start": f"/api/tables/{code.lower() if seat == 3 else code}/start",
                }[what]
                headers = {} if content_type is None else {"content-type": content_type}
                response = http.post(path, content=body, headers=headers)
                answers.append((response.status_code, response.headers.raw, response.content))
                if response.status_code < 300 and what == "create":
                    made = response.json()
                    tables.append((made["code"], [made["token"]]))
                elif response.status_code < 300 and what == "join":
                    tables[table][1].append(response.json()["token"])
    return answers


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=4,
)


def bodies(
    fields: dict[str, st.SearchStrategy[Any]], sound: dict[str, st.SearchStrategy[Any]]
) -> st.SearchStrategy[tuple[str | None, bytes]]:
    """JSON bodies of a call: ``sound`` ones (its required fields), others with any of its
    ``fields`` (sound or not), and some that FastAPI must refuse in its own words: other content
    types, bytes that are not JSON."""
    optional = {name: values | json_values for name, values in fields.items()}
    rest = {name: values for name, values in optional.items() if name not in sound}
    objects = (
        st.fixed_dictionaries(sound, optional=rest) | st.fixed_dictionaries({}, optional=optional)
    ).map(lambda body: orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS))
    broken = st.sampled_from([b"", b"{", b"[]", b"null", b'{"seats": NaN}', b"\xff", b"[" * 5000])
    json_types = ["application/json", "application/json; charset=utf-8"]
    content_types = st.sampled_from(
        [*json_types, "application/json", None, "text/plain", "application/merge-patch+json"]
    )
    return st.tuples(content_types, objects | broken)


names = st.sampled_from(["ann", "bob", "Bob", "b0b", "", "x" * 30, "cy\u200b"]) | st.text(
    max_size=6
)
create_calls = st.tuples(
    st.just("create"),
    st.just(0),
    st.just(0),
    bodies(
        {
            "game": st.sampled_from(["critters", "wild", "chess"]),
            "seats": st.integers(1, 9),
            "name": names,
            "options": st.sampled_from([{}, {"set_size": 9}, {"deck": "default"}]),
            "bots": st.sampled_from([[], [{"bot": "nobody"}]]),
            "pace": st.sampled_from(["fast", "normal", "brisk"]),
            "answer_seconds": st.floats(-1, 4000),
        },
        {
            "game": st.sampled_from(["critters", "wild"]),
            "seats": st.integers(2, 4),
            "name": st.just("ann"),
        },
    ),
)
join_calls = st.tuples(
    st.just("join"),
    st.integers(-1, 2),
    st.just(0),
    bodies({"name": names, "seat": st.integers(-1, 4)}, {"name": names}),
)
start_calls = st.tuples(
    st.just("start"),
    st.integers(-1, 2),
    st.integers(0, 3),
    bodies(
        {"token": st.sampled_from(["TOKEN", "x" * 32]), "seed": st.integers(0, 9)},
        {"token": st.just("TOKEN")},
    ),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(create_calls, join_calls, start_calls), min_size=1, max_size=8))
def test_the_quick_calls_answer_as_fastapi_does(calls: list[Call]) -> None:
    limits = ServerSettings(tables_per_minute=1000, joins_per_minute=1000, seats_per_address=1000)
    assert serve(calls, True, limits) == serve(calls, False, limits)


def _sound(what: str, table: int, seat: int, **body: Any) -> Call:
    return (what, table, seat, ("application/json", orjson.dumps(body)))


def test_a_table_opened_joined_and_started_and_the_quotas_answer_as_fastapi_does() -> None:
    """The bench's own calls, then the per-address quotas' refusals (429 and their words)."""
    calls = [
        _sound("create", 0, 0, game="critters", seats=3, name="ann"),
        _sound("join", 0, 0, name="bob"),
        _sound("start", 0, 0, token="TOKEN"),  # not every seat filled
        _sound("join", 0, 0, name="cy"),
        _sound("start", 0, 1, token="TOKEN"),  # not the host
        _sound("start", 0, 0, token="TOKEN", seed=4),  # seeds are the operator's
        _sound("start", 0, 3, token="TOKEN"),  # the code in lower case
        _sound("join", 0, 0, name="dee"),  # a seat too many for the address
        _sound("create", 0, 0, game="wild", seats=2, name="eve"),  # a seat too many again
        _sound("create", 0, 0, game="wild", seats=2, name="eve"),  # and a table too many
    ]
    limits = ServerSettings(tables_per_minute=2, seats_per_address=3)
    quick, slow = serve(calls, True, limits), serve(calls, False, limits)
    assert [status for status, _, _ in quick] == [201, 200, 400, 200, 400, 400, 200, 429, 429, 429]
    assert quick == slow


def test_a_table_socket_is_served_as_fastapi_serves_it() -> None:
    """``/ws/{code}``: a seat's hello is answered with the same messages, and an unknown table
    is refused in the same words and close code."""
    heard: dict[bool, list[Any]] = {}
    for quick in (True, False):
        with (
            tempfile.TemporaryDirectory() as tmp,
            the_same_draws(),
            TestClient(
                create_app(f"sqlite:///{Path(tmp) / 'lobby.sqlite'}", quick=quick),
                base_url="http://127.0.0.1",
            ) as http,
        ):
            made = http.post("/api/tables", json={"game": "critters", "seats": 2, "name": "ann"})
            code, token = made.json()["code"], made.json()["token"]
            with http.websocket_connect(f"ws://127.0.0.1/ws/{code}") as seat:
                seat.send_json({"type": "hello", "v": 1, "token": token})
                seat.send_json({"type": "ping", "ref": 1})
                heard[quick] = [seat.receive_json(), seat.receive_json()]
            with http.websocket_connect("ws://127.0.0.1/ws/NOPE99") as socket:
                heard[quick] += [socket.receive_json(), socket.receive()]
    assert heard[True] == heard[False]
    assert heard[True][-2:] == [
        {"type": "error", "code": "no_table", "message": "there is no table NOPE99.", "ref": None},
        {"type": "websocket.close", "code": 4404, "reason": ""},
    ]
