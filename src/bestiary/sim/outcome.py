"""What a finished game says beyond its winners: how it ended, ties, and each seat's play.

Everything here is read from the finished state's ``summary()``, ``header()`` and ``events()``
(the public record), never from the driver, so it stays the same whichever loop played the game.
The strategy counts are the game's own (``GameInfo.analytics.strategy``, in its own words:
docs/sim.md, "Strategy mix"); a game that declares none has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.core.game import State, get_game


def outcome_fields(state: State) -> dict[str, Any]:
    """The extra ``GameResult`` fields of a finished game (``play_game`` calls this once)."""
    header = state.header()
    scores = state.scores()
    winners = state.winners()
    return {
        "tie": len(winners) > 1,
        "zero_zero": not any(scores.values()),
        "strategy": strategy_counts(
            header["game"], list(state.players), state.summary(), header, state.events()
        ),
        "options": dict(header.get("options", {})),
    }


def strategy_counts(
    game: str,
    players: Sequence[str],
    summary: Mapping[str, Any],
    header: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, float], ...]:
    """Per seat, the counts ``game`` declares (empty dicts if it declares none)."""
    count = get_game(game).info.analytics.strategy
    if count is None:
        return tuple({} for _ in players)
    return count(players, summary, header, events)
