"""What the lab counts of a critters game, in its words (docs/sim.md, "Strategy mix").

Per seat, from the finished game's public record: ``played_<card>`` for each action card played
(a deck's own card too, with or without a target) and ``refused_<card>`` when its target
answered NO!, and as a target ``said_no`` / ``allowed``.
Critters has no tallies beyond the winners (``State.tallies`` is empty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.core.info import Analytics


def strategy(
    players: Sequence[str],
    summary: Mapping[str, Any],
    header: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, float], ...]:
    """Per seat, the counts in the module docstring."""
    counts = {p: Counter[str]() for p in players}
    own = header.get("cards") or {}  # a deck's own action cards
    pending: Mapping[str, Any] | None = None
    for event in events:
        if "target" in event:
            pending = event
            counts[event["by"]][f"played_{event['do']}"] += 1
        elif event.get("do") in own:  # a deck's own card played on nobody
            counts[event["by"]][f"played_{event['do']}"] += 1
        elif pending is not None and event.get("by") == pending["target"]:
            refused = event.get("do") == "no"
            counts[event["by"]]["said_no" if refused else "allowed"] += 1
            if refused:
                counts[pending["by"]][f"refused_{pending['do']}"] += 1
            pending = None
    return tuple({k: float(v) for k, v in sorted(counts[p].items())} for p in players)


ANALYTICS = Analytics(
    labels={"ending_exhausted": "exhausted share", "ending_stalled": "stalled share"},
    strategy=strategy,
    stalls=("exhausted", "stalled"),
)
