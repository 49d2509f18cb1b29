"""Who sits where in a simulation run.

The bot list is repeated to fill the table, and game ``i`` rotates it by ``i`` seats, so over
a run every bot sits in every seat equally often: a bot's win rate is not a seat's advantage in
disguise, and the seat's own advantage can be measured separately.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.sim.parallel import game_seed
from bestiary.sim.runner import GameSpec


def seat_bots(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The bots in seat order for game ``index``.

    >>> seat_bots(["a", "b"], 4, 0), seat_bots(["a", "b"], 4, 1)
    (('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a'))
    >>> seat_bots(["a", "b", "c"], 3, 2)
    ('c', 'a', 'b')
    """
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) > players:
        raise ValueError(f"{len(bots)} bots do not fit at a table of {players} players")
    table = [bots[seat % len(bots)] for seat in range(players)]
    shift = index % players
    return tuple(table[shift:] + table[:shift])


def sim_specs(
    game: str,
    bots: Sequence[str],
    players: int,
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    keep_record: bool = False,
) -> list[GameSpec]:
    """The specs of a ``bestiary sim`` run (game ``i`` seeded from ``(seed, i)``)."""
    if games < 1:
        raise ValueError("--games must be at least 1")
    return [
        GameSpec(
            index=i,
            game=game,
            bots=seat_bots(bots, players, i),
            seed=game_seed(seed, i),
            options=dict(options or {}),
            keep_record=keep_record,
        )
        for i in range(games)
    ]
