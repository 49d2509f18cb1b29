"""Behind the TLS reverse proxy of docs/operating.md (nginx, its config read from the doc itself):
HTTPS and WebSockets pass, and the per-address limits see each client's own address.

nginx listens on 127.0.0.1 with a throwaway self-signed certificate; clients connect from
127.0.0.2 and 127.0.0.3 (loopback source addresses), which nginx forwards as X-Forwarded-For.
Without nginx or openssl the test is skipped, except under CI=true, where it fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from bestiary.bench.loadtest import free_port
from bestiary.server.settings import ServerSettings
from bestiary.server.workers import nginx_config
from tests.live import LiveServer

DOC = Path(__file__).parent.parent / "docs" / "operating.md"
NEW = {"game": "wild", "seats": 2, "name": "ann"}


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"the proxy test cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def doc_config(port: int, upstream: int, tmp: Path) -> str:
    """The doc's nginx server block, on a test port with a test certificate, in a whole config."""
    block = re.search(r"```nginx\n(.*?)```", DOC.read_text(), re.S)
    assert block, "docs/operating.md shows no nginx config"
    site = block.group(1)
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {tmp / 'cert.pem'};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {tmp / 'key.pem'};", site)
    assert "127.0.0.1:8000" in site
    site = site.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    return nginx_config(site, tmp)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[LiveServer, int]]:
    nginx, openssl = shutil.which("nginx") or "/usr/sbin/nginx", shutil.which("openssl") or ""
    if not Path(nginx).exists() or not openssl:
        _missing("nginx and openssl are needed (apt-get install nginx-light openssl)")
    key, cert = str(tmp_path / "key.pem"), str(tmp_path / "cert.pem")
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", key, "-out", cert],
        check=True, capture_output=True,
    )  # fmt: skip
    limits = ServerSettings(tables_per_minute=2, trusted_proxies=("127.0.0.1",))
    with LiveServer(f"sqlite:///{tmp_path / 'p.sqlite'}", server=limits) as server:
        port = free_port()
        conf = tmp_path / "nginx.conf"
        conf.write_text(doc_config(port, server.port, tmp_path))
        proc = subprocess.Popen(
            [nginx, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(conf),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if proc.poll() is not None or time.monotonic() > deadline:
                    error = proc.stderr.read().decode() if proc.stderr else ""
                    pytest.fail(f"nginx did not start: {error}")
                time.sleep(0.05)
            yield server, port
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def client(source: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source, verify=False)
    return httpx.Client(transport=transport, timeout=10)


def test_the_documented_proxy_passes_https_and_websockets_and_real_addresses(
    proxied: tuple[LiveServer, int],
) -> None:
    _, port = proxied
    base = f"https://localhost:{port}"
    with client("127.0.0.2") as first, client("127.0.0.3") as second:
        # a forged X-Forwarded-For is overwritten by nginx: the limit is 127.0.0.2's own
        forged = {"x-forwarded-for": "198.51.100.1"}
        answers = [first.post(f"{base}/api/tables", json=NEW, headers=forged) for _ in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 429]
        made = second.post(f"{base}/api/tables", json=NEW)
        assert made.status_code == 201  # another address, its own limit
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.3", 0))
    code, token = made.json()["code"], made.json()["token"]
    with connect(f"wss://localhost:{port}/ws/{code}", ssl=context, sock=sock) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
