"""``bestiary serve`` in its own process: killed, restarted, signalled and measured from outside.

``ServerProcess(db, log)`` runs ``bestiary.server.run.serve`` (what ``bestiary serve`` runs) in
a subprocess logging to ``log``; ``table`` and ``server`` are the keyword arguments of its
``TableSettings`` and ``ServerSettings`` as Python source (the operator's flags).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

import httpx

from bestiary.bench.loadtest import free_port
from tests.live import LiveServer


class ServerProcess:
    """``bestiary serve`` in its own process (so that it can be killed), logging to a file."""

    def __init__(
        self,
        db: str,
        log: Path,
        tick: float = 0.02,
        table: str = "grace_seconds=3600",
        server: str = "",
        host: str = "127.0.0.1",
    ) -> None:
        self.db = db
        self.log = log
        self.tick = tick
        self.table = table
        self.server = server
        self.host = host
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ServerProcess:
        code = (
            "from bestiary.server.run import serve\n"
            "from bestiary.server.settings import ServerSettings\n"
            "from bestiary.server.table import TableSettings\n"
            f"serve(host={self.host!r}, port={self.port}, db={self.db!r}, rate=1000.0,"
            f" settings=TableSettings({self.table}, tick_seconds={self.tick}),"
            f" server=ServerSettings({self.server}))\n"
        )
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-c", code], stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/games", timeout=2).status_code == 200:
                    return self
            time.sleep(0.05)
        raise RuntimeError("the server did not come up")

    def __exit__(self, *_exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()

    def stop(self) -> None:
        """A graceful stop (SIGTERM: the lifespan ends, the store flushes)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def rss_mb(self) -> float:
        """The server's resident memory now, in MiB (from /proc)."""
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def live(self) -> LiveServer:
        return cast(LiveServer, self)  # TableSocket needs only ws_url

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)
