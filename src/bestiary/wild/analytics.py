"""What the lab counts of a wild game, in wild's words (docs/sim.md, "Strategy mix").

Per seat, from the finished game's public record: ``calls`` made and ``false_calls`` (a Call
whose sound is not the offered creature); for every meeting the seat took part in, its *play*
by its card against the Call (``honest``: the card is the called creature; ``hunt``: the card
eats it; ``double_cross``: the card eats the called creature's eater; ``bluff``: anything
else), what the meeting did to it (``mated``, ``ate``, ``eaten``, ``avoided``) and the points it
earned (``points_<play>``: a mate 1 point each, 2 with the Mating Bonus; an eat 2 for the eater,
3 with the bonus). ``State.tallies`` counts meetings by outcome (``meetings_mate`` ...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.core.info import Analytics
from bestiary.wild.cards import CREATURES

INDEX = {c: i for i, c in enumerate(CREATURES)}
HONEST, HUNT, DOUBLE_CROSS, BLUFF = "honest", "hunt", "double_cross", "bluff"
PLAYS = (HONEST, HUNT, DOUBLE_CROSS, BLUFF)
MEETING_RESULTS = {"mate": "mated", "avoid": "avoided"}


def intent(card: str, call: str) -> str:
    """What a Call made with ``card`` aimed at: mating, hunting, a double-cross, or neither.

    >>> intent("skeevil", "megalotaur"), intent("megalotaur", "fizzalisk")
    ('hunt', 'double_cross')
    """
    step = (INDEX[call] - INDEX[card]) % 5
    return (HONEST, HUNT, DOUBLE_CROSS, BLUFF, BLUFF)[step]


def strategy(
    players: Sequence[str],
    summary: Mapping[str, Any],
    header: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, float], ...]:
    """Per seat, the counts in the module docstring."""
    counts = {p: Counter[str]() for p in players}
    bonus = bool(header.get("options", {}).get("mating_bonus"))
    for event in events:
        if event.get("do") == "call":
            seat = counts[event["by"]]
            seat["calls"] += 1
            seat["false_calls"] += event["call"] != event["card"]
    for meeting in summary["meetings"]:
        call, outcome, eater = meeting["call"], meeting["outcome"], meeting["eater"]
        for player in meeting["players"]:
            seat = counts[player]
            play = intent(meeting["cards"][player], call)
            seat["meetings"] += 1
            seat[f"play_{play}"] += 1
            if outcome == "eat":
                result = "ate" if eater == player else "eaten"
            else:
                result = MEETING_RESULTS[outcome]
            seat[result] += 1
            seat[f"points_{play}"] += _points(result, bonus)
    return tuple({k: float(v) for k, v in sorted(counts[p].items())} for p in players)


def _points(result: str, bonus: bool) -> int:
    """Points a meeting gave one side: 1 per Den card, plus 1 per foreign card with the bonus."""
    if result == "mated":
        return 2 if bonus else 1
    if result == "ate":
        return 3 if bonus else 2
    return 0


ANALYTICS = Analytics(
    tallies="meetings",
    mix="meeting_mix",
    stalls=("nightfall",),
    labels={
        "meetings_mate": "mates per game",
        "meetings_eat": "eats per game",
        "meetings_avoid": "avoids per game",
        "ending_nightfall": "Nightfall share",
    },
    strategy=strategy,
)
