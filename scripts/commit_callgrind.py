"""Instructions of one worker's group commit of k moves, counted by callgrind (docs/server.md,
"The second worker's cost per move").

Run under callgrind itself; a throwaway PostgreSQL cluster (not counted) holds the store. One
process joins as worker 0 of 1, opens ``--tables`` tables, and for each k commits ``--commits``
groups of k events (spread over the tables, as the writer's thread does: ``Store._write``).
Its own counters are zeroed before and dumped after each k (``callgrind_control``), so a
group's instructions are the dump's total over the commits. ``--writer``: each group is queued
and committed through ``Store.run_writer`` on an event loop (uvloop, as the server runs), as a
table's moves are: the loop's side and the hand-offs to the writer's thread and back counted too.

    PYTHONPATH=. valgrind --tool=callgrind --callgrind-out-file=/tmp/cc/callgrind.%p \\
        .venv/bin/python scripts/commit_callgrind.py --ks 1,2,5,10 --commits 100
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import time
from pathlib import Path

import orjson
import uvloop
from tests.pg import throwaway_cluster

from bestiary.server.ownership import Cluster
from bestiary.server.store import Store, Write


def control(option: str) -> None:
    """``callgrind_control`` on this very process: it answers only while it runs code, so the
    wait is a loop of short sleeps rather than one blocking call."""
    asked = subprocess.Popen(
        ["callgrind_control", option, str(os.getpid())],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while asked.poll() is None:
        time.sleep(0.01)


def last_total(out: Path) -> int:
    dumps = sorted(
        out.glob(f"callgrind.{os.getpid()}.*"), key=lambda p: int(p.name.rsplit(".", 1)[1])
    )
    found = re.search(r"^summary: (\d+)", dumps[-1].read_text(), re.MULTILINE)
    if not found:
        raise RuntimeError(f"no summary in {dumps[-1]}")
    return int(found.group(1))


def table_row(code: str) -> dict[str, object]:
    return {
        "code": code, "game": "critters", "options": {}, "seats": [], "status": "playing",
        "header": None, "winners": None, "created": time.time(), "started": None,
        "finished": None,
    }  # fmt: skip


async def through_writer(store: Store, batches: list[list[Write]]) -> None:
    """Each batch queued and committed by the store's writer task, one after the other."""
    writer = asyncio.ensure_future(store.run_writer())
    for batch in batches:
        done = asyncio.Event()
        for kind, row in batch:
            store._queue(kind, row)
        store.commit(done.set)
        await done.wait()
    writer.cancel()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ks", default="1,2,5,10", help="moves per group commit")
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--writer", action="store_true", help="through Store.run_writer")
    parser.add_argument("--out", default="/tmp/cc", help="callgrind's --callgrind-out-file dir")
    args = parser.parse_args()
    out = Path(args.out)
    line = orjson.dumps({"type": "play", "by": "p1", "card": "x" * 40, "t": 12.345}).decode()
    with throwaway_cluster() as pg:
        store = Store(pg.database("commits"), inline=False)
        cluster = Cluster(store, 0, 1, "127.0.0.1:1", lease=600)
        cluster.join()
        codes = [f"T{n:04d}" for n in range(args.tables)]
        for code in codes:
            store.save_table(table_row(code))
            store.write("own", {"code": code, "lobby": {"status": "playing"}, "new": True})
        store.flush()
        seq = dict.fromkeys(codes, 0)
        loop = uvloop.new_event_loop()  # one for every k (the store's wake event is bound to it)
        turn = 0
        store._write([("event", {"code": codes[0], "seq": 1, "line": line})])  # warm up
        seq[codes[0]] = 1
        for k in [int(k) for k in args.ks.split(",")]:
            batches: list[list[Write]] = []
            for _ in range(args.commits):
                batch: list[Write] = []
                for _ in range(k):
                    code = codes[turn % len(codes)]
                    turn += 1
                    seq[code] += 1
                    batch.append(("event", {"code": code, "seq": seq[code], "line": line}))
                batches.append(batch)
            control("-z")
            if args.writer:
                loop.run_until_complete(through_writer(store, batches))
            else:
                for batch in batches:
                    store._write(batch)
            control("-d")
            total = last_total(out)
            print(
                f"k={k}: {total / args.commits:,.0f} instructions per group commit, "
                f"{total / args.commits / k:,.0f} per move",
                flush=True,
            )
        loop.close()
        store.close()
        cluster.leave()


if __name__ == "__main__":
    main()
