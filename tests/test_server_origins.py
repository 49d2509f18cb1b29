"""Only the server's own pages may act (docs/reliability.md, "Own pages only"): a foreign
``Host`` is refused on every request (DNS rebinding), a foreign ``Origin`` on every table
socket and state-changing request; the server's own names, IP addresses and the operator's
``--allowed-host`` are accepted. Against ``bestiary serve`` in its own process."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Origin

from tests.serverproc import ServerProcess

NEW = {"game": "critters", "seats": 2, "name": "ann"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("origins")
    limits = "allowed_hosts=('bestiary.example.org',), tables_per_minute=1000"
    with ServerProcess(f"sqlite:///{tmp / 'db.sqlite'}", tmp / "log", server=limits) as proc:
        yield proc


def _hello(
    server: ServerProcess,
    code: str,
    token: str | None,
    host: str | None = None,
    origin: str | None = None,
) -> dict[str, object]:
    """Open a table socket to 127.0.0.1 under the given Host (and Origin) and say hello."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    uri = f"ws://{host or f'127.0.0.1:{server.port}'}/ws/{code}"
    sent = None if origin is None else Origin(origin)
    with connect(uri, sock=sock, open_timeout=10, origin=sent) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        message: dict[str, object] = json.loads(ws.recv(timeout=10))
        return message


def _table(http: httpx.Client) -> tuple[str, str]:
    made = http.post("/api/tables", json=NEW)
    assert made.status_code == 201, made.text
    return made.json()["code"], made.json()["token"]


def test_a_foreign_host_is_refused_on_every_request(server: ServerProcess) -> None:
    with server.http() as http:
        for path in ("/", "/api/games", "/api/tables"):
            refused = http.get(path, headers={"host": "evil.example"})
            assert refused.status_code == 421
            assert refused.json()["detail"] == (
                "this server does not answer to the name 'evil.example'."
            )
        posted = http.post("/api/tables", json=NEW, headers={"host": f"evil.example:{server.port}"})
        assert posted.status_code == 421
        for own in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "[::1]", "10.1.2.3",
                    "bestiary.example.org", "BESTIARY.example.org.", "game.localhost"):  # fmt: skip
            assert http.get("/api/games", headers={"host": own}).status_code == 200, own
        assert http.get("/api/tables").json()["total"]["open"] == 0  # the refused POST made none
        code, token = _table(http)
    with pytest.raises(InvalidStatus) as refused_socket:
        _hello(server, code, token, host=f"evil.example:{server.port}")
    assert refused_socket.value.response.status_code == 403


def test_a_foreign_origin_may_not_drive_a_table(server: ServerProcess) -> None:
    evil = "http://evil.example"
    with server.http() as http:
        code, token = _table(http)
        posted = http.post("/api/tables", json=NEW, headers={"origin": evil})
        assert posted.status_code == 403
        assert posted.json()["detail"] == "pages from http://evil.example may not use this server."
        joined = http.post(
            f"/api/tables/{code}/join", json={"name": "bo"}, headers={"origin": evil}
        )
        assert joined.status_code == 403
        assert http.get(f"/api/tables/{code}", headers={"origin": evil}).status_code == 200
        own = http.post(
            f"/api/tables/{code}/join",
            json={"name": "cy"},
            headers={"origin": f"http://127.0.0.1:{server.port}"},
        )
        assert own.status_code == 200, own.text
    for token_given in (None, token):  # as a spectator and with a seat token
        for origin in (evil, f"http://6.6.6.6:{server.port}", "null"):
            with pytest.raises(InvalidStatus) as refused:
                _hello(server, code, token_given, origin=origin)
            assert refused.value.response.status_code == 403
    assert _hello(server, code, token, origin=f"http://127.0.0.1:{server.port}")["seat"] == 0
    assert _hello(server, code, None)["type"] == "welcome"  # a program sends no Origin
    proxied = _hello(
        server, code, token, host="bestiary.example.org", origin="https://bestiary.example.org"
    )
    assert proxied["seat"] == 0
