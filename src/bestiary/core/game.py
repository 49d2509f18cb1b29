"""The shape every game engine has (DESIGN.md, "Engine shape"), and the game registry.

An engine is a mutable ``State`` with ``clone()``, ``legal_actions(player)``, ``apply(action)``.
Actions are small frozen dataclasses whose ``to_event()`` is exactly an event line of RECORDS.md.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Self

from bestiary.core.errors import RecordError
from bestiary.core.records import Event, Header

GAME_NAMES = ("wild", "critters")


class Action(Protocol):
    def to_event(self) -> Event: ...


class State(Protocol):
    """One game in progress. Player arguments are player names (as in records)."""

    players: tuple[str, ...]

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self, player: str) -> list[Any]: ...

    def apply(self, action: Any) -> None:
        """Apply a legal action or raise IllegalAction (state unchanged)."""

    def clone(self) -> Self: ...

    def winners(self) -> list[str]: ...

    def scores(self) -> dict[str, int]: ...

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator), JSON-shaped."""

    def summary(self) -> dict[str, Any]:
        """The final-state object of ``bestiary replay --json`` (RECORDS.md)."""

    def header(self) -> Header:
        """The record header: explicit deal, options, players, seed if any."""

    def events(self) -> list[Event]:
        """Every event applied so far, chance events included, as record lines."""


class Game(Protocol):
    """A game module's entry point, registered by name."""

    name: str
    min_players: int
    max_players: int

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> State: ...

    def from_header(self, header: Header) -> State:
        """Build the starting state from a record header; BadOption/ValueError if it can't."""

    def action_from_event(self, event: Event) -> Any:
        """Parse one event line; IllegalAction (with a reason) if it is malformed."""

    def random_playout(self, state: State, rng: random.Random, max_steps: int) -> int:
        """Play random legal actions until the game ends; return the number of steps."""


def get_game(name: str) -> Game:
    """The registered game called ``name`` (``wild`` or ``critters``)."""
    if name not in GAME_NAMES:
        raise KeyError(f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}")
    module = importlib.import_module(f"bestiary.{name}")
    game: Game = module.GAME
    return game


def replay(header: Header, events: Sequence[tuple[int, Event]]) -> State:
    """Rebuild a game from a parsed record, stopping at the first bad line.

    Raises RecordError naming the line, the event and the reason.
    """
    name = header.get("game")
    if not isinstance(name, str) or name not in GAME_NAMES:
        raise RecordError(1, f"header names no known game (got {name!r}; expected wild/critters)")
    version = header.get("version", 1)
    if version != 1:
        raise RecordError(1, f"record version {version!r} is not supported (expected 1)")
    game = get_game(name)
    try:
        state = game.from_header(header)
    except (ValueError, TypeError, KeyError) as err:
        raise RecordError(1, f"bad header: {_reason(err)}") from None
    for line, event in events:
        try:
            state.apply(game.action_from_event(event))
        except ValueError as err:
            raise RecordError(line, f"event {_short(event)} is refused: {_reason(err)}") from None
    return state


def _reason(err: BaseException) -> str:
    text = str(err.args[0]) if err.args else type(err).__name__
    return text.rstrip(".")


def _short(event: Event) -> str:
    from bestiary.core.records import dumps

    text = dumps(event)
    return text if len(text) <= 160 else text[:157] + "..."
