"""Shares of a server profile by what the samples were under: ``py-spy record -f raw`` files of
the server (comma-separated files are added together), side by side.

    .venv/bin/py-spy record -r 200 -f raw -d 18 --nonblocking -p <server pid> -o main.raw
    python scripts/profile_shares.py main1.raw,main2.raw branch1.raw,branch2.raw

A sample counts for a part when one of the part's Python functions is on its stack (compiled
code is not on it: its time counts for the interpreted caller); ``loop`` is the samples whose
innermost frame is ``Runner.run`` (uvloop's own C). Then by the innermost frame's package.
"""

from __future__ import annotations

import sys

# part: (functions any of which puts a sample in it, functions that take it out again)
PARTS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("state messages (wire)", ("Messages._messages",), ()),
    ("redacted (core.game)", ("redacted",), ()),
    ("socket writes (send_now)", ("gated_protocols.<locals>.GatedWebSocket.send_now",), ()),
    (
        "inbound frames (not the reader)",
        ("gated_protocols.<locals>.GatedWebSocket.data_received",),
        ("Reader.read",),
    ),
    ("client message parsed", ("parse_client_message",), ()),
    ("store commits (Store._write)", ("Store._write",), ()),
    (
        "table clocks",
        (
            "Clocks._arm",
            "Messages._timers",
            "Clocks._turn_clock",
            "Commits._hold",
            "Commits._may_run",
            "Clocks._turn_rang",
        ),
        (),
    ),
    ("lobby HTTP", ("RequestResponseCycle.run_asgi",), ()),
    ("WebSocket sessions", ("WebSocketsSansIOProtocol.run_asgi",), ()),
]

Sample = tuple[list[str], list[str], int]  # function names, their files, count


def load(paths: str) -> list[Sample]:
    samples: list[Sample] = []
    for path in paths.split(","):
        with open(path) as raw:
            for line in raw:
                stack, _, count = line.rstrip().rpartition(" ")
                frames = stack.split(";")
                names = [f.split(" (")[0] for f in frames]
                files = [f.rpartition("(")[2].split(":")[0] for f in frames]
                samples.append((names, files, int(count)))
    return samples


def shares(samples: list[Sample]) -> dict[str, float]:
    total = sum(n for _, _, n in samples)
    out: dict[str, float] = {}
    for part, under, unless in PARTS:
        hits = sum(
            n
            for names, _, n in samples
            if any(u in names for u in under) and not any(u in names for u in unless)
        )
        out[part] = 100 * hits / total
    out["loop (Runner.run, innermost)"] = (
        100 * sum(n for names, _, n in samples if names[-1] == "Runner.run") / total
    )
    for _, files, n in samples:
        parts = files[-1].split("/")
        package = "/".join(parts[:2]) if parts[0] == "bestiary" else parts[0]
        key = f"innermost in {package}"
        out[key] = out.get(key, 0.0) + 100 * n / total
    return out


def main(sources: list[str]) -> None:
    columns = [shares(load(source)) for source in sources]
    keys = list(dict.fromkeys(k for column in columns for k in column))
    print(" ".join(f"column {i + 1:>2}" for i in range(len(columns))), "  (", *sources, ")")
    for key in keys:
        values = [c.get(key, 0.0) for c in columns]
        if key.startswith("innermost") and max(values) < 1.0:
            continue
        print(" ".join(f"{v:8.1f}%" for v in values), key)


if __name__ == "__main__":
    main(sys.argv[1:])
