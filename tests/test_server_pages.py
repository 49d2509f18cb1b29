"""The server's pages run only its own scripts (docs/reliability.md, "Own scripts only"): every
HTML page carries a Content-Security-Policy; the API's reference page (``/docs``, a CDN's script)
is off unless the operator asks; no redirect is ever built from a proxy's ``Host``. Against
``bestiary serve`` in its own process."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bestiary.server.pages import SWAGGER_VERSION
from tests.serverproc import ServerProcess


def serving(tmp: Path, server: str = "") -> ServerProcess:
    return ServerProcess(f"sqlite:///{tmp / 'db.sqlite'}", tmp / "log", server=server)


@pytest.fixture(scope="module")
def default(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving(tmp_path_factory.mktemp("pages")) as proc:
        yield proc


def directives(response: httpx.Response) -> dict[str, list[str]]:
    said = response.headers["content-security-policy"]
    return {
        name: rest for name, *rest in (part.split() for part in said.split(";") if part.strip())
    }


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_client_page_runs_only_its_own_scripts(default: ServerProcess) -> None:
    page = httpx.get(default.url + "/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    policy = directives(page)
    (import_map,) = re.findall(r'<script type="importmap">(.*?)</script>', page.text, re.DOTALL)
    assert policy["script-src"] == ["'self'", sha256(import_map)]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert "'unsafe-inline'" not in page.headers["content-security-policy"]


def test_the_api_reference_page_is_off_by_default(default: ServerProcess) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert httpx.get(default.url + path).status_code == 404, path
    assert "/api/tables" in httpx.get(default.url + "/openapi.json").json()["paths"]


@pytest.mark.parametrize("path", ["/api/tables/", "/api/games/", "/static", "/api/decks/"])
def test_no_redirect_is_built_from_the_host_a_proxy_passes(
    default: ServerProcess, path: str
) -> None:
    # behind nginx the Host has no port: a redirect built from it would point at port 80
    answer = httpx.get(default.url + path, headers={"Host": "127.0.0.1"})
    assert answer.status_code == 404 and "location" not in answer.headers


def test_the_api_reference_page_when_asked_is_pinned_and_fenced(tmp_path: Path) -> None:
    with serving(tmp_path, "api_docs=True") as proc:
        page = httpx.get(proc.url + "/docs")
    assert page.status_code == 200
    cdn = f"https://cdn.jsdelivr.net/npm/swagger-ui-dist@{SWAGGER_VERSION}/swagger-ui-bundle.js"
    assert f'src="{cdn}"' in page.text
    policy = directives(page)
    inline = re.findall(r"<script>(.*?)</script>", page.text, re.DOTALL)
    assert inline and policy["script-src"] == [
        "'self'",
        "https://cdn.jsdelivr.net",
        *map(sha256, inline),
    ]
