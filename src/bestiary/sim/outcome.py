"""What a finished game says beyond its winners: how it ended, ties, and each seat's play.

Everything here is read from the finished state's ``summary()``, ``header()`` and ``events()``
(the public record), never from the driver, so it stays the same whichever loop played the game.

The strategy counts use the games' own words (docs/sim.md, "Strategy mix"):

- wild, per seat: ``calls`` made and ``false_calls`` (a Call whose sound is not the offered
  creature); for every meeting the seat took part in, its *play* by its card against the Call
  (``honest``: the card is the called creature; ``hunt``: the card eats it; ``double_cross``:
  the card eats the called creature's eater; ``bluff``: anything else), what the meeting did to
  it (``mated``, ``ate``, ``eaten``, ``avoided``) and the points it earned (``points_<play>``:
  a mate 1 point each, 2 with the Mating Bonus; an eat 2 for the eater, 3 with the bonus).
- turn-based games with targeted action cards (critters): ``played_<card>`` and
  ``refused_<card>`` (the target answered NO!), and as target ``said_no`` / ``allowed``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.bots.wild_view import intent
from bestiary.core.game import State

PLAYS = ("honest", "hunt", "double_cross", "bluff")
MEETING_RESULTS = {"mate": "mated", "avoid": "avoided"}


def outcome_fields(state: State) -> dict[str, Any]:
    """The extra ``GameResult`` fields of a finished game (``play_game`` calls this once)."""
    summary = state.summary()
    header = state.header()
    events = state.events()
    players = list(state.players)
    scores = state.scores()
    winners = state.winners()
    return {
        "tie": len(winners) > 1,
        "zero_zero": not any(scores.values()),
        "strategy": strategy_counts(players, summary, header, events),
        "options": dict(header.get("options", {})),
    }


def strategy_counts(
    players: Sequence[str],
    summary: Mapping[str, Any],
    header: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, float], ...]:
    """Per seat, the counts described in the module docstring (empty dicts if neither applies)."""
    counts = {p: Counter[str]() for p in players}
    if "meetings" in summary:
        bonus = bool(header.get("options", {}).get("mating_bonus"))
        _calls(counts, events)
        _meetings(counts, summary["meetings"], bonus)
    else:
        _answers(counts, events)
    return tuple({k: float(v) for k, v in sorted(counts[p].items())} for p in players)


def _calls(counts: dict[str, Counter[str]], events: Sequence[Mapping[str, Any]]) -> None:
    for event in events:
        if event.get("do") == "call":
            seat = counts[event["by"]]
            seat["calls"] += 1
            seat["false_calls"] += event["call"] != event["card"]


def _meetings(
    counts: dict[str, Counter[str]], meetings: Sequence[Mapping[str, Any]], bonus: bool
) -> None:
    for meeting in meetings:
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


def _points(result: str, bonus: bool) -> int:
    """Points a meeting gave one side: 1 per Den card, plus 1 per foreign card with the bonus."""
    if result == "mated":
        return 2 if bonus else 1
    if result == "ate":
        return 3 if bonus else 2
    return 0


def _answers(counts: dict[str, Counter[str]], events: Sequence[Mapping[str, Any]]) -> None:
    pending: Mapping[str, Any] | None = None
    for event in events:
        if "target" in event:
            pending = event
            counts[event["by"]][f"played_{event['do']}"] += 1
        elif pending is not None and event.get("by") == pending["target"]:
            refused = event.get("do") == "no"
            counts[event["by"]]["said_no" if refused else "allowed"] += 1
            if refused:
                counts[pending["by"]][f"refused_{pending['do']}"] += 1
            pending = None
