"""Agents (bots) and their registry: every interface picks bots by name from here.

An agent plays one seat and receives only that seat's ``view`` and its legal actions
(docs/driver.md: hidden information never leaks; agents never re-derive the rules). It owns a
seeded ``random.Random`` so that the same seed gives the same play. How often an agent is
asked is the driver's business (``bestiary.core.driver.Pace``), the same everywhere.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bestiary.core.bot_params import BotParam, bot_settings, split_bot


class Agent(Protocol):
    """A bot in one seat.

    ``act`` gets the seat's current view and its legal actions, and returns one of those
    actions, or ``None`` to wait (wild is real-time: waiting is a choice). A bot class that
    sets ``lazy_view = True`` gets a ``bestiary.core.driver.LazyView`` instead, built when
    first read: it must read it during ``act`` only (later the state may have moved on).
    """

    player: str

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None: ...


# ``factory(player, rng, **params)``: ``params`` are the bot's declared parameters that the
# name sets (core/bot_params.py); a factory that declares none is called with none.
AgentFactory = Callable[..., Agent]


@dataclass(frozen=True)
class BotEntry:
    """A registered bot. ``rank`` orders bots by strength (higher is stronger, as measured in
    docs/bots.md); ``seconds`` is about how long it thinks per decision at its defaults;
    ``persona`` says in a player's words how it plays (the lobby's menu), ``description`` in
    a designer's (the ladder's tables)."""

    game: str
    name: str
    description: str
    factory: AgentFactory
    rank: int = 0
    seconds: float = 0.0
    persona: str = ""
    params: tuple[BotParam, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "rank": self.rank,
            "persona": self.persona or self.description,
        }


_BOTS: dict[tuple[str, str], BotEntry] = {}


def register_bot(
    game: str,
    name: str,
    description: str,
    rank: int = 0,
    seconds: float = 0.0,
    persona: str = "",
    params: tuple[BotParam, ...] = (),
) -> Callable[[AgentFactory], AgentFactory]:
    """Decorator: register ``factory(player, rng, **params) -> Agent`` as bot ``name`` for
    ``game``, with the parameters it declares."""

    def decorate(factory: AgentFactory) -> AgentFactory:
        entry = BotEntry(game, name, description, factory, rank, seconds, persona, params)
        _BOTS[(game, name)] = entry
        return factory

    return decorate


def _load_bots() -> None:
    # A game's bots register themselves when the modules its info names are imported; loading
    # the registry (its entry points) first means no game list has to be read beforehand.
    from bestiary.core.game import games

    for game in games():
        for module in game.info.bots:
            importlib.import_module(module)


def bot_entries(game: str) -> list[BotEntry]:
    """Every registered bot for ``game``, by name."""
    _load_bots()
    return sorted((e for (g, _), e in _BOTS.items() if g == game), key=lambda e: e.name)


def default_bot(game: str, budget_seconds: float | None = None) -> str:
    """The strongest bot for ``game`` that decides within ``budget_seconds`` (None: any).

    This one choice is the stand-in at a live table and the default in the browser and the
    terminal. ValueError if the game has no bot at all.
    """
    entries = bot_entries(game)
    if not entries:
        raise ValueError(f"no bot is registered for {game}")
    fitting = [e for e in entries if budget_seconds is None or e.seconds <= budget_seconds]
    best = max(fitting or entries, key=lambda e: (e.rank, -e.seconds, e.name))
    return best.name


LEVELS = ("easy", "medium", "hard")


def bot_levels(game: str) -> dict[str, str]:
    """Each bot's level for people choosing one: the bots that play to win (rank 0 and up),
    weakest first, spread from easy to hard (thirds of them; of two, one easy and one hard;
    one alone is medium); the yardsticks (rank below 0) are ``practice`` (set habits to
    learn against).

    >>> levels = bot_levels("critters")
    >>> [levels[name] for name in ("random", "greedy", "ismcts")]
    ['easy', 'medium', 'hard']
    """
    entries = bot_entries(game)
    ranked = sorted((e for e in entries if e.rank >= 0), key=lambda e: (e.rank, -e.seconds))
    top = len(LEVELS) - 1
    spread = max(1, len(ranked) - 1)
    out = {
        e.name: LEVELS[round(i * top / spread) if len(ranked) > 1 else 1]
        for i, e in enumerate(ranked)
    }
    out.update({e.name: "practice" for e in entries if e.rank < 0})
    return out


def bot_entry(game: str, spec: str) -> tuple[BotEntry, dict[str, float]]:
    """The registered bot ``spec`` names (``reader`` or ``reader(decay=0.5)``) and the
    parameters it sets; ValueError in one sentence."""
    _load_bots()
    name, raw = split_bot(spec)
    entry = _BOTS.get((game, name))
    if entry is None:
        known = ", ".join(e.name for e in bot_entries(game)) or "none"
        raise ValueError(f"no bot called {name!r} for {game} (known: {known})")
    return entry, bot_settings(name, raw, entry.params)


def make_bot(game: str, name: str, player: str, seed: int) -> Agent:
    """A new bot ``name`` (with any parameters it sets) for ``game`` playing ``player``, with
    its own seeded RNG."""
    entry, params = bot_entry(game, name)
    return entry.factory(player, random.Random(seed), **params)
