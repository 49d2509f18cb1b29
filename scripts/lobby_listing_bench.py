"""What one lobby listing costs as finished games pile up (docs/reliability.md, "The lobby").

Stores ``N`` finished games straight into a fresh SQLite file for each N given, starts the real
app under uvicorn on it (``LiveServer``) and times ``GET /api/tables`` (the page every open
lobby polls), ``?offset=1000&limit=100`` and, where the server gives one, the page after the
first by its ``next`` cursor: the median and the slowest of ``--repeat`` requests each.

    PYTHONPATH=src .venv/bin/python scripts/lobby_listing_bench.py 100 100000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from tests.live import LiveServer

from bestiary.server.store import Store

BATCH = 5_000


def fill(db: str, count: int) -> None:
    store = Store(db)
    for n in range(count):
        store.save_table(
            {
                "code": f"{n:06d}",
                "game": "critters",
                "options": {"deck": "default"},
                "seats": [{"name": f"p{n}-{k}", "bot": "greedy"} for k in range(4)],
                "status": "finished",
                "header": {"game": "critters", "deck": ["newt"] * 120, "players": ["a", "b"]},
                "winners": [f"p{n}-0"],
                "created": 1e9 + n,
                "started": 1e9 + n,
                "finished": 1e9 + n + 0.5,
            }
        )
        if n % BATCH == BATCH - 1:
            store.flush()
    store.flush()
    store.close()


def timed(http: httpx.Client, path: str, params: dict[str, int | str], repeat: int) -> list[float]:
    took = []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = http.get(path, params=params)
        took.append(time.perf_counter() - start)
        answer.raise_for_status()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("counts", nargs="+", type=int, help="finished games in the store")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    for count in args.counts:
        with tempfile.TemporaryDirectory() as tmp:
            db = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
            fill(db, count)
            with LiveServer(db) as server, server.http() as http:
                first = http.get("/api/tables").json()
                pages: list[tuple[str, dict[str, int | str]]] = [
                    ("first page", {}),
                    ("offset=1000&limit=100", {"offset": 1000, "limit": 100}),
                ]
                if first.get("next"):
                    pages.append(("the next page by cursor", {"before": first["next"]}))
                for name, params in pages:
                    took = timed(http, "/api/tables", params, args.repeat)
                    median, worst = statistics.median(took) * 1e3, max(took) * 1e3
                    print(
                        f"{count:>7} finished: {name:<24} median {median:6.1f} ms,"
                        f" max {worst:6.1f} ms"
                    )


if __name__ == "__main__":
    main()
