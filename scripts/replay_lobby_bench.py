"""The lobby's answer time while someone fetches a long finished game's replay, record and table.

Plays random critters games of 8 players on the largest deck a table takes (500 cards, 200
kinds of 2: each game runs to the bound on a game's length; the longest of ``--seeds`` seeds is
kept; ``tests/test_server_replays.py``), stores the finished game straight into a fresh SQLite
file, starts ``bestiary serve`` in its own process (``tests/serverproc.py``), then asks for the
game's ``/replay`` (``--repeat`` times: streamed as worked out, or from the cache), its
``/record`` and ``GET /api/tables/{code}`` (the finished table brought back), while another
thread asks ``GET /api/games`` every 20 ms: prints each fetch's time and size, the slowest
lobby answer meanwhile, and the server's RSS before and after.

    PYTHONPATH=src:. .venv/bin/python scripts/replay_lobby_bench.py --seeds 1 --repeat 2
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path

import httpx
import orjson
from tests.serverproc import ServerProcess
from tests.test_server_replays import CODE, long_game, rss, store_finished


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    header, events = max((long_game(seed) for seed in range(args.seeds)), key=lambda g: len(g[1]))
    print(f"the longest game: {len(events)} events, {len(orjson.dumps(events)) / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'db.sqlite'}"
        store_finished(db, header, events)
        with ServerProcess(db, Path(tmp) / "log") as server:
            assert server.process is not None
            pid = server.process.pid
            print(f"RSS at the start {rss(pid):.0f} MB")
            slowest = [0.0]
            done = threading.Event()

            def lobby() -> None:
                with httpx.Client(base_url=server.url, timeout=60) as http:
                    while not done.is_set():
                        start = time.monotonic()
                        http.get("/api/games").raise_for_status()
                        slowest[0] = max(slowest[0], time.monotonic() - start)
                        time.sleep(0.02)

            asking = threading.Thread(target=lobby)
            asking.start()
            paths = [*[f"/api/tables/{CODE}/replay"] * args.repeat, f"/api/tables/{CODE}/record"]
            with httpx.Client(base_url=server.url, timeout=120) as http:
                for path in [*paths, f"/api/tables/{CODE}"]:
                    slowest[0] = 0.0
                    start = time.monotonic()
                    answer = http.get(path)
                    took = time.monotonic() - start
                    time.sleep(0.1)
                    print(
                        f"{path:<28} {answer.status_code} {len(answer.content) / 1e6:7.1f} MB"
                        f" in {took:5.2f} s; slowest lobby answer meanwhile {slowest[0]:5.3f} s;"
                        f" RSS {rss(pid):.0f} MB"
                    )
            done.set()
            asking.join()


if __name__ == "__main__":
    main()
