"""Which worker process serves a table, and the nginx configuration that routes there.

A table's code picks its **shard**: the place of its first letter in the code alphabet, modulo
the number of workers. Worker ``k`` creates only codes of shard ``k`` (so it owns what it creates)
and serves them; when it is gone, the next living worker in the shard's order (``k``, ``k+1``, ...
round the ring) takes them over. nginx computes the same shard from the path with a ``map`` of
first letters, tries the shard's own worker first and the others after it, and moves on from any
worker that answers 503 ("not mine") or refuses the connection: so a request reaches the owner
whoever it is, and the usual case costs no extra hop.

>>> shard_of("BCDFGH", 2), order(1, 3)
(1, [1, 2, 0])
>>> first_living("BCDFGH", 2, {0})
0
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Collection, Sequence

# Codes people read aloud and type: no 0/O, 1/I/L (the lobby's codes).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
# one letter picks the shard, so one nginx routes to at most this many workers
MAX_WORKERS = len(CODE_ALPHABET)


def shard_of(code: str, count: int) -> int:
    """The shard of table ``code`` among ``count`` workers (codes are case-insensitive)."""
    return CODE_ALPHABET.index(code[0].upper()) % count


def order(shard: int, count: int) -> list[int]:
    """The workers that serve ``shard``, first choice first: its own, then round the ring."""
    return [(shard + step) % count for step in range(count)]


def first_living(code: str, count: int, living: Collection[int]) -> int | None:
    """The worker that should own ``code`` while ``living`` workers hold leases (None: none)."""
    return next((w for w in order(shard_of(code, count), count) if w in living), None)


def new_code(shard: int, count: int) -> str:
    """A random table code of ``shard`` (its first letter is one of the shard's)."""
    letters = [c for i, c in enumerate(CODE_ALPHABET) if i % count == shard]
    rest = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))
    return secrets.choice(letters) + rest


def letters_of(shard: int, count: int) -> str:
    return "".join(c for i, c in enumerate(CODE_ALPHABET) if i % count == shard)


def nginx_routes(workers: Sequence[str]) -> str:
    """The ``http``-level part of an nginx config that routes to ``workers`` (host:port each,
    worker ``k`` at ``workers[k]``): the shard map and one upstream per shard, plus ``any`` for
    the lobby, new tables and static files. The ``location`` passes to ``$bestiary_upstream``.
    """
    count = len(workers)
    if not 1 <= count <= MAX_WORKERS:
        raise ValueError(f"nginx routes 1 to {MAX_WORKERS} workers, not {count}")
    lines = [
        "# bestiary: the table code in the path picks its shard (bestiary.server.shards)",
        "map $uri $bestiary_upstream {",
        "    default bestiary_any;",
    ]
    for shard in range(count):
        letters = letters_of(shard, count)
        lines.append(f"    ~*^/(ws|api/tables)/[{letters}] bestiary_shard{shard};")
    lines.append("}")
    # max_fails=0: a worker answering 503 for a table it does not own is not "down"
    lines.append("upstream bestiary_any {")
    lines += [f"    server {address} max_fails=0;" for address in workers]
    lines.append("}")
    for shard in range(count):
        lines.append(f"upstream bestiary_shard{shard} {{")
        for rank, worker in enumerate(order(shard, count)):
            backup = " backup" if rank else ""
            lines.append(f"    server {workers[worker]} max_fails=0{backup};")
        lines.append("}")
    return "\n".join(lines) + "\n"


# What every proxied request needs (inside a ``location``): WebSockets pass, the client's own
# address reaches the limits, and a worker that is gone, frozen or not the owner is skipped.
NGINX_PROXY = """\
        proxy_pass http://$bestiary_upstream;
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        # a refused connection, a 503 ("this table is not mine") or no answer in time tries the
        # next worker; safe for POST too: a 503 has done nothing (a new table or seat the store
        # did not take within 4 s is undone), and a frozen worker's commits are fenced
        proxy_next_upstream error timeout http_503 non_idempotent;
        proxy_next_upstream_tries 0;
        proxy_connect_timeout 2s;
"""


def answer_seconds(lease: float) -> int:
    """How long nginx waits for a worker's answer to an HTTP request before it tries the next:
    two leases (by then a frozen worker's tables are another's), and never less than the
    longest a live worker takes to answer a read (``store.READ_SECONDS``, then a 503)."""
    from bestiary.server.store import READ_SECONDS

    return math.ceil(max(2 * lease, READ_SECONDS + 1))


def nginx_site(workers: Sequence[str], listen: str, lease: float = 2.5) -> str:
    """A whole ``http``-level site: the routes and a server listening on ``listen``; a worker
    that does not answer an HTTP request within ``answer_seconds(lease)`` is skipped (a table
    socket waits longer: the server pings it every ``--idle-timeout``)."""
    return (
        "map $http_upgrade $connection_upgrade {\n    default upgrade;\n    ''      close;\n}\n"
        + nginx_routes(workers)
        + "server {\n"
        + f"    listen {listen};\n"
        + "    client_max_body_size 8k;\n"
        + "    location / {\n"
        + NGINX_PROXY
        + f"        proxy_read_timeout {answer_seconds(lease)}s;\n"
        + "    }\n"
        + "    location /ws/ {\n"
        + NGINX_PROXY
        + "        proxy_read_timeout 120s;  # above --idle-timeout: the server's pings\n"
        + "    }\n}\n"
    )
