"""Disk a flat-out server uses: SQLite's database, its write-ahead log and the server's log.

Runs ``bestiary serve`` in its own process (``tests/serverproc.py``) on a fresh SQLite file,
keeps ``--tables`` all-bot critters tables of 8 greedy bots playing as fast as the server goes
(ticks of 1 ms, no pause, an endless deck: a table that ends anyway is replaced), and every 5 s
prints the sizes of the database, its ``-wal`` file and the server's log, and the server's RSS.

    PYTHONPATH=src:. .venv/bin/python scripts/wal_bench.py --seconds 90
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import httpx
from tests.serverproc import ServerProcess
from tests.test_server_disk import flat_out

MIB = 1024 * 1024


def size(path: Path) -> float:
    return path.stat().st_size / MIB if path.exists() else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--tables", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, log = Path(tmp) / "db.sqlite", Path(tmp) / "server.log"
        wal = Path(f"{db}-wal")
        limits = "tables_per_minute=1000, seats_per_address=1000"
        with ServerProcess(f"sqlite:///{db}", log, server=limits) as server:
            assert server.process is not None
            status = Path(f"/proc/{server.process.pid}/status")
            with httpx.Client(base_url=server.url, timeout=30) as http:
                playing = [flat_out(http) for _ in range(args.tables)]
                start = time.monotonic()
                next_report = start
                peak_wal = 0.0
                while (now := time.monotonic()) - start < args.seconds:
                    peak_wal = max(peak_wal, size(wal))
                    if now >= next_report:
                        rss = next(
                            int(line.split()[1]) / 1024
                            for line in status.read_text().splitlines()
                            if line.startswith("VmRSS")
                        )
                        events = sum(
                            http.get(f"/api/tables/{code}").json()["seq"] for code in playing
                        )
                        print(
                            f"{now - start:5.0f} s: db {size(db):7.1f} MiB, wal {size(wal):7.1f}"
                            f" MiB (peak {peak_wal:7.1f}), log {size(log):6.2f} MiB,"
                            f" RSS {rss:5.0f} MB, events of the tables playing {events}",
                            flush=True,
                        )
                        next_report += 5
                    for k, code in enumerate(playing):
                        if http.get(f"/api/tables/{code}").json()["status"] != "playing":
                            playing[k] = flat_out(http)
                    time.sleep(0.2)
            print(f"peak wal {peak_wal:.1f} MiB; log tail:")
            print("\n".join(log.read_text().splitlines()[-5:]))


if __name__ == "__main__":
    main()
