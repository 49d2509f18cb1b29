"""Agents (bots) and their registry: every interface picks bots by name from here.

An agent plays one seat and receives only that seat's ``view`` (DESIGN.md: hidden information
never leaks). It owns a seeded ``random.Random`` so that the same seed gives the same play.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class Agent(Protocol):
    """A bot in one seat.

    ``act`` gets the seat's current view and returns an action to apply, or ``None`` to wait
    (wild is real-time: waiting is a choice). ``reaction_ticks`` is how many ticks the bot lets
    pass before acting again (simulation ticks; the server turns ticks into seconds).
    """

    player: str

    def act(self, view: Mapping[str, Any]) -> Any | None: ...

    def reaction_ticks(self) -> int: ...


AgentFactory = Callable[[str, random.Random], Agent]


@dataclass(frozen=True)
class BotEntry:
    game: str
    name: str
    description: str
    factory: AgentFactory


_BOTS: dict[tuple[str, str], BotEntry] = {}


def register_bot(game: str, name: str, description: str) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: register ``factory(player, rng) -> Agent`` as bot ``name`` for ``game``."""

    def decorate(factory: AgentFactory) -> AgentFactory:
        _BOTS[(game, name)] = BotEntry(game, name, description, factory)
        return factory

    return decorate


def _load_bots() -> None:
    # Bots register themselves when their package is imported; the package may not exist yet
    # in a minimal install, in which case there simply are no bots.
    try:
        importlib.import_module("bestiary.bots")
    except ModuleNotFoundError as err:
        if err.name not in ("bestiary.bots",):
            raise


def bot_entries(game: str) -> list[BotEntry]:
    """Every registered bot for ``game``, by name."""
    _load_bots()
    return sorted((e for (g, _), e in _BOTS.items() if g == game), key=lambda e: e.name)


def make_bot(game: str, name: str, player: str, seed: int) -> Agent:
    """A new bot ``name`` for ``game`` playing ``player``, with its own seeded RNG."""
    _load_bots()
    entry = _BOTS.get((game, name))
    if entry is None:
        known = ", ".join(e.name for e in bot_entries(game)) or "none"
        raise ValueError(f"no bot called {name!r} for {game} (known: {known})")
    return entry.factory(player, random.Random(seed))
