"""``bestiary serve --workers N``: N server processes on this machine behind one nginx.

Each worker is ``bestiary serve --worker K --workers N`` on its own port (``--port`` + 1 + K, on
127.0.0.1), all on one PostgreSQL database; nginx listens on ``--host:--port`` with the routes
of ``shards.nginx_site``. A worker that dies is started again after a second (its tables have
meanwhile been taken over by the others, and are handed back once it holds its lease again).
The tests and ``bestiary bench server --workers N`` start the same thing with :class:`Workers`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from bestiary.server.shards import nginx_site


class NoNginx(RuntimeError):
    """nginx is not installed; the message is one sentence."""


def find_nginx() -> str:
    found = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(found).exists():
        raise NoNginx("--workers routes through nginx, which is not installed (apt install nginx)")
    return found


def nginx_config(site: str, root: Path) -> str:
    """A whole nginx.conf around ``site`` whose files all live under ``root`` (no root needed)."""
    temps = "\n".join(
        f"    {kind}_temp_path {root / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"pid {root / 'nginx.pid'};\nerror_log {root / 'error.log'};\nworker_processes 1;\n"
        "events { worker_connections 4096; }\n"
        f"http {{\n    access_log off;\n{temps}\n{site}}}\n"
    )


class Workers:
    """N ``bestiary serve --worker K`` processes and nginx in front of them."""

    nginx_seconds = 10.0  # for nginx to answer a first request through it

    def __init__(
        self,
        db: str,
        count: int,
        port: int,
        host: str = "127.0.0.1",
        ports: Sequence[int] | None = None,
        serve_args: Sequence[str] = (),
        lease: float = 2.5,
        pin: bool = False,
    ) -> None:
        self.db, self.count, self.port, self.host, self.lease = db, count, port, host, lease
        self.ports = list(ports) if ports else [port + 1 + k for k in range(count)]
        self.serve_args = list(serve_args)
        self.pin = pin  # worker k on core k (benchmarks)
        self.root = Path(tempfile.mkdtemp(prefix="bestiary-nginx-"))
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * count
        self.nginx: subprocess.Popen[bytes] | None = None
        self.url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}"

    def command(self, k: int) -> list[str]:
        return [
            sys.executable, "-c", "from bestiary.cli import main; main()", "serve",
            "--host", "127.0.0.1", "--port", str(self.ports[k]), "--db", self.db,
            "--worker", str(k), "--workers", str(self.count), "--lease", str(self.lease),
            "--trusted-proxy", "127.0.0.1", *self.serve_args,
        ]  # fmt: skip

    def start_worker(self, k: int, wait: bool = True) -> None:
        cores = os.cpu_count() or 1
        pinned = (lambda: os.sched_setaffinity(0, {k % cores})) if self.pin else None
        self.procs[k] = subprocess.Popen(
            self.command(k), stdout=subprocess.DEVNULL, preexec_fn=pinned
        )
        if wait:
            self.wait_up(k)

    def kill(self, k: int) -> None:
        """``kill -9`` worker ``k``: no goodbye, its lease simply stops being renewed."""
        proc = self.procs[k]
        if proc is not None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            self.procs[k] = None

    def wait_up(self, k: int, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            proc = self.procs[k]
            if proc is None or proc.poll() is not None:
                raise RuntimeError(f"worker {k} exited before it served")
            with contextlib.suppress(httpx.HTTPError):
                url = f"http://127.0.0.1:{self.ports[k]}/api/worker"
                if httpx.get(url, timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"worker {k} did not come up within {seconds:g} s")

    def start(self) -> Workers:
        nginx = find_nginx()
        addresses = [f"127.0.0.1:{p}" for p in self.ports]
        listen = f"{self.host}:{self.port}"
        conf = self.root / "nginx.conf"
        conf.write_text(nginx_config(nginx_site(addresses, listen, self.lease), self.root))
        for k in range(self.count):
            self.start_worker(k, wait=False)
        for k in range(self.count):
            self.wait_up(k)
        self.nginx = subprocess.Popen(
            [nginx, "-p", str(self.root), "-e", str(self.root / "error.log"), "-c", str(conf),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        deadline = time.monotonic() + self.nginx_seconds
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{self.port}/api/games", timeout=1).is_success:
                    return self
            if self.nginx.poll() is not None or time.monotonic() > deadline:
                error = self.nginx.stderr.read().decode() if self.nginx.stderr else ""
                self.stop()
                raise RuntimeError(f"nginx did not start: {error.strip()}")
            time.sleep(0.05)

    def supervise(self) -> None:
        """Until interrupted: start again any worker that died."""
        try:
            while True:
                time.sleep(1.0)
                for k, proc in enumerate(self.procs):
                    if proc is not None and proc.poll() is not None:
                        print(f"worker {k} exited ({proc.returncode}); starting it again")
                        self.start_worker(k, wait=False)
        except KeyboardInterrupt:
            pass

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.terminate()
            self.nginx.wait(timeout=10)
            self.nginx = None
        for proc in self.procs:
            if proc is not None:
                proc.terminate()
        for k, proc in enumerate(self.procs):
            if proc is not None:
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                self.procs[k] = None
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Workers:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()
