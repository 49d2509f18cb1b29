"""The shape every game engine has (docs/driver.md, "Adding a game"), and the game registry.

An engine is a mutable ``State`` with ``clone()``, ``legal_actions(player)``, ``apply(action)``.
Actions are small frozen dataclasses whose ``to_event()`` is exactly an event line of
docs/records.md.
Games describe themselves (``GameInfo``) and register by name; the registry is the one list of
games and the ``bestiary.games`` entry points are its one route, for the built-in games and any
other installed distribution alike (so a worker process finds the same games, with their bots:
``GameInfo.bots``). Nothing outside a game package names a game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol, Self

from bestiary.core.errors import IllegalAction, RecordError
from bestiary.core.info import GameInfo
from bestiary.core.records import Event, Header
from bestiary.core.viewer import redacted as redacted  # re-exported: the one filter
from bestiary.core.viewer import view_in_parts as view_in_parts

ENTRY_POINT_GROUP = "bestiary.games"


class Action(Protocol):
    def to_event(self) -> Event: ...


class State(Protocol):
    """One game in progress. Player arguments are player names (as in records).

    Everything a driver needs is here, so no driver probes a state's attributes, with one
    optional exception: a state may offer ``view_part(player, key)``, ``view(player)[key]``
    without building the rest of the view for the keys it answers so (KeyError for any other),
    which ``core.driver.LazyView`` asks first (wild: the Calls heard).
    """

    players: tuple[str, ...]

    @property
    def is_over(self) -> bool: ...

    @property
    def actors(self) -> tuple[str, ...]:
        """The players who may act now (empty once over, or while a chance event is due)."""

    @property
    def chance_due(self) -> bool:
        """Whether the next event must be a chance event (sampled by the driver)."""

    def chance_outcome(self, rng: random.Random | None = None) -> Any:
        """A chance event drawn with ``rng``; None: the one the record's own seed gives."""

    @property
    def progress(self) -> int:
        """Grows whenever something restarts the quiet clock (wild: a meeting)."""

    def quiet_action(self) -> Any | None:
        """What the table plays when the quiet clock runs out (wild: Nightfall), if anything."""

    def timeout_action(self, player: str) -> Any | None:
        """What the table plays for ``player`` whose time to answer ran out, if anything."""

    def legal_actions(self, player: str) -> list[Any]: ...

    def apply(self, action: Any) -> list[Event]:
        """Apply a legal action or raise IllegalAction (state unchanged); the events it made."""

    def clone(self) -> Self: ...

    def winners(self) -> list[str]: ...

    def scores(self) -> dict[str, int]: ...

    def ending(self) -> str | None:
        """How the game ended, in one word (None while in play)."""

    def tallies(self) -> dict[str, int]:
        """Counts of the game's notable outcomes so far (wild: meetings by outcome)."""

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator), JSON-shaped."""

    def redact(self, event: Event, viewer: str | None) -> Event:
        """``event`` as ``viewer`` may see it (``None``: a spectator); the one place per game."""

    def summary(self) -> dict[str, Any]:
        """The final-state object of ``bestiary replay --json`` (docs/records.md)."""

    def header(self) -> Header:
        """The record header: explicit deal, options, players, seed if any."""

    @property
    def history(self) -> Sequence[Any]:
        """Every action applied so far, chance events included, in order."""

    def events(self) -> list[Event]:
        """``history`` as record lines."""


class Game(Protocol):
    """A game package's entry point (its ``GAME``), registered by its info's name."""

    info: GameInfo

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> State: ...

    def from_header(self, header: Header) -> State:
        """Build the starting state from a record header; BadOption/ValueError if it can't."""

    def action_from_event(self, event: Event) -> Any:
        """Parse one event line; MalformedEvent (with a reason) if it is not an action."""

    def random_playout(self, state: State, rng: random.Random, max_steps: int) -> int:
        """Play random legal actions until the game ends; return the number of steps."""


class BaseState:
    """The plumbing a simple game does without: subclass it and write only what the game has.

    A game with no chance, no quiet clock, no answer clock and nothing to tally gets them here
    (``State`` still lists them, so every driver asks every game the same questions). What a
    game must write itself: ``players``, ``is_over``, ``actors``, ``legal_actions``, ``apply``,
    ``winners``, ``scores``, ``view``, ``redact`` (no default: what a viewer may see of an event
    is always the game's own decision), ``summary``, ``header`` and ``history``.
    """

    players: tuple[str, ...]

    @property
    def history(self) -> Sequence[Any]:
        raise NotImplementedError(f"{type(self).__name__} must say its history")

    @property
    def is_over(self) -> bool:
        raise NotImplementedError(f"{type(self).__name__} must say when it is over")

    @property
    def chance_due(self) -> bool:
        return False

    def chance_outcome(self, rng: random.Random | None = None) -> Any:
        raise IllegalAction(f"{type(self).__name__} has no chance events")

    @property
    def progress(self) -> int:
        return len(self.history)

    def quiet_action(self) -> Any | None:
        return None

    def timeout_action(self, player: str) -> Any | None:
        return None

    def tallies(self) -> dict[str, int]:
        return {}

    def ending(self) -> str | None:
        return "over" if self.is_over else None

    def events(self) -> list[Event]:
        return [action.to_event() for action in self.history]

    def clone(self) -> Self:
        return copy.deepcopy(self)


class BaseGame:
    """A game's entry point with the default random playout (any actor, chance included)."""

    info: GameInfo

    def random_playout(self, state: State, rng: random.Random, max_steps: int) -> int:
        """Random legal play by whoever must act until the game ends or ``max_steps``."""
        steps = 0
        while not state.is_over and steps < max_steps:
            if state.chance_due:
                state.apply(state.chance_outcome(rng))
            else:
                actor = rng.choice(state.actors)
                state.apply(rng.choice(state.legal_actions(actor)))
            steps += 1
        return steps


_GAMES: dict[str, Game] = {}
_LOADED = False


def _load_builtins() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for point in entry_points(group=ENTRY_POINT_GROUP):
        game = point.load()
        _GAMES.setdefault(game.info.name, game)


def game_names() -> tuple[str, ...]:
    """Every registered game, in registration order."""
    _load_builtins()
    return tuple(_GAMES)


def games() -> tuple[Game, ...]:
    _load_builtins()
    return tuple(_GAMES.values())


def get_game(name: str) -> Game:
    """The registered game called ``name``; KeyError with one sentence if there is none."""
    _load_builtins()
    game = _GAMES.get(name)
    if game is None:
        known = ", ".join(_GAMES) or "none"
        raise KeyError(f"unknown game {name!r}; choose one of {known}")
    return game


def replay(header: Header, events: Sequence[tuple[int, Event]]) -> State:
    """Rebuild a game from a parsed record, stopping at the first bad line.

    A record that carries no chance events (a deal from a seed alone) gets each one from its
    seed where it is due. Raises RecordError naming the line, the event and the reason.
    """
    state = start_replay(header)
    for _ in replay_steps(state, events):
        pass
    return state


def start_replay(header: Header) -> State:
    """The starting state of a record (RecordError if its header is bad)."""
    name = header.get("game")
    known = game_names()
    if not isinstance(name, str) or name not in known:
        raise RecordError(
            1, f"header names no known game (got {name!r}; expected {'/'.join(known)})"
        )
    version = header.get("version", 1)
    if version != 1:
        raise RecordError(1, f"record version {version!r} is not supported (expected 1)")
    try:
        return get_game(name).from_header(header)
    except (ValueError, TypeError, KeyError) as err:
        raise RecordError(1, f"bad header: {_reason(err)}") from None


def replay_steps(state: State, events: Sequence[tuple[int, Event]]) -> Iterator[Event]:
    """Apply a record's events to ``state`` (from ``start_replay``) one by one, yielding each
    event once it is applied: a caller can look at the state after every move."""
    game = get_game(state.header()["game"])
    for line, event in events:
        try:
            action = game.action_from_event(event)
            if state.chance_due and not _is_chance(event):
                state.apply(state.chance_outcome(None))
            state.apply(action)
        except ValueError as err:
            raise RecordError(line, f"event {_short(event)} is refused: {_reason(err)}") from None
        yield event


def _is_chance(event: Event) -> bool:
    # docs/records.md: a chance event is one with no `by` (the table's own).
    return "by" not in event


def _reason(err: BaseException) -> str:
    text = str(err.args[0]) if err.args else type(err).__name__
    return text.rstrip(".")


def _short(event: Event) -> str:
    from bestiary.core.records import dumps

    text = dumps(event)
    return text if len(text) <= 160 else text[:157] + "..."
