"""A throwaway PostgreSQL cluster for tests: the server's own binaries, a temp dir, a free port.

``initdb`` refuses to run as root, so as root the cluster belongs to the ``postgres`` user
(Debian's package makes it) and every server command runs through ``runuser``. The server
listens only on 127.0.0.1 (and a socket in the temp dir), trusts local connections, and skips
fsync: the data is thrown away. Without the binaries the tests are skipped, except in CI
(``CI=true``), where a missing PostgreSQL is a failure rather than a silent gap.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

from bestiary.bench.loadtest import free_port

USER = "bestiary"  # the cluster's superuser (a database role, not an OS user)


def _unavailable(reason: str) -> NoReturn:
    """Skip a developer's run; fail in CI, where every test must really run."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def server_bin() -> Path | None:
    """The newest Debian server build (``/usr/lib/postgresql/N/bin``), else ``initdb`` on PATH."""
    debian = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if debian:
        newest = max(debian, key=lambda p: int(Path(p).parts[-3]))
        return Path(newest).parent
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl", path=str(Path(found).parent)):
        return Path(found).parent
    return None


@dataclass
class Cluster:
    """A running cluster; :meth:`database` makes a fresh, empty database in it."""

    bin: Path
    root: Path
    port: int
    owner: str | None  # the OS user the server runs as, when we are root

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.owner is not None:
            command = ["runuser", "-u", self.owner, "--", *command]
        return subprocess.run(
            command, cwd=self.root, capture_output=True, text=True, check=False, timeout=60
        )

    def database(self, name: str) -> str:
        """A new empty database ``name``; returns its SQLAlchemy URL."""
        import psycopg

        admin = f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # name: the test's own identifier
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{name}"


def _check(done: subprocess.CompletedProcess[str], what: str, log: Path | None = None) -> None:
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
        raise RuntimeError(f"{what} failed ({done.returncode}): {done.stderr}{done.stdout}{tail}")


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """Start a cluster in a temp dir; stop it and delete every file at the end."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _unavailable("the psycopg driver is not installed (pip install -e '.[postgres]')")
    found = server_bin()
    if found is None:
        _unavailable("no PostgreSQL server binaries (apt-get install postgresql)")
    owner = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user to run the server")
        owner = "postgres"
    # not pytest's tmp_path: its parents are private to root, the server could not reach it
    root = Path(tempfile.mkdtemp(prefix="bestiary-pg-"))
    if owner is not None:
        shutil.chown(root, user=owner)
    cluster = Cluster(found, root, free_port(), owner)
    data, log = root / "data", root / "server.log"
    try:
        _check(
            cluster.run(
                "initdb", "-D", str(data), "-U", USER, "--auth=trust", "--encoding=UTF8",
                "--locale=C", "--no-sync", "--no-instructions",
            ),
            "initdb",
        )  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -p {cluster.port} -k {root} "
            "-c fsync=off -c full_page_writes=off -c synchronous_commit=off"
        )
        started = cluster.run(
            "pg_ctl", "-D", str(data), "-l", str(log), "-w", "-o", options, "start"
        )
        _check(started, "pg_ctl start", log)
        try:
            yield cluster
        finally:
            cluster.run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)
