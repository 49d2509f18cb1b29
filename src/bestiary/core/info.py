"""What a game says about itself: its options as a typed schema, its vocabulary, its dynamics.

Every front end reads a game's ``GameInfo`` instead of knowing the game: the server validates
options with it and serves it at ``/api/games``, the CLI lists options from it, the driver
learns from it whether the game runs in real time.

>>> spec = OptionSpec("rounds", "int", 3, minimum=1, maximum=9, description="rounds to play")
>>> spec.check(4)
4
>>> spec.check(10)
Traceback (most recent call last):
...
bestiary.core.errors.BadOption: option rounds must be a whole number from 1 to 9, not 10
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from bestiary.core.errors import BadOption

OptionKind = Literal["bool", "int", "number", "choice", "player", "deck"]

# A deck given as content (an object of card: count, or a list of cards) is capped so that no
# option can carry an unbounded payload into a game.
MAX_DECK_ENTRIES = 256
MAX_TEXT = 256


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, kind, default and bounds.

    ``default`` None means the game decides from the table (e.g. critters' hand limit depends
    on the number of players); ``description`` says so in words.
    """

    name: str
    kind: OptionKind
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    description: str = ""

    def check(self, value: Any) -> Any:
        """``value`` if it fits this option, else BadOption with one sentence."""
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise BadOption(f"option {self.name} must be true or false, not {value!r}")
            return value
        if kind == "choice":
            if isinstance(value, bool) or value not in self.choices:
                listed = ", ".join(repr(c) for c in self.choices)
                raise BadOption(f"option {self.name} must be one of {listed}, not {value!r}")
            return value
        if kind in ("int", "number"):
            return self._check_number(value)
        if kind == "player":
            if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
                raise BadOption(f"option {self.name} must name a player, not {value!r}")
            return value
        return _check_deck(self.name, value)

    def _check_number(self, value: Any) -> Any:
        whole = self.kind == "int"
        ok = not isinstance(value, bool) and isinstance(value, int if whole else int | float)
        if ok and isinstance(value, float) and not math.isfinite(value):
            ok = False
        lo, hi = self.minimum, self.maximum
        if ok and ((lo is not None and value < lo) or (hi is not None and value > hi)):
            ok = False
        if not ok:
            what = "a whole number" if whole else "a number"
            raise BadOption(f"option {self.name} must be {what}{self._range()}, not {value!r}")
        return value

    def _range(self) -> str:
        lo, hi = _plain(self.minimum), _plain(self.maximum)
        if lo is not None and hi is not None:
            return f" from {lo} to {hi}"
        if lo is not None:
            return f" of at least {lo}"
        if hi is not None:
            return f" of at most {hi}"
        return ""

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices),
            "description": self.description,
        }


def _plain(number: float | None) -> float | int | None:
    if number is None:
        return None
    return int(number) if float(number).is_integer() else number


def _check_deck(name: str, value: Any) -> Any:
    """A deck by name (text) or by content (object of card: count, or list of cards)."""
    if isinstance(value, str):
        if not 0 < len(value) <= MAX_TEXT:
            raise BadOption(f"option {name} must be a deck name of 1 to {MAX_TEXT} characters")
        return value
    if isinstance(value, Mapping | list) and len(value) <= MAX_DECK_ENTRIES:
        return value
    raise BadOption(
        f"option {name} must be a deck name or a deck's content "
        f"(at most {MAX_DECK_ENTRIES} entries), not {type(value).__name__}"
    )


class DeckBook(Protocol):
    """How a game with a ``deck`` option reads decks (its content is the game's own JSON).

    A front end that offers decks (the server's deck folder) asks the game's book, so it never
    parses a game's deck itself and a client never names a file.
    """

    def default(self) -> dict[str, Any]: ...

    def from_file(self, path: Path) -> dict[str, Any]:
        """An operator's deck file as content; BadOption if it holds no deck of this game."""

    def from_content(self, value: object) -> dict[str, Any]:
        """Deck content from a request, checked like a deck file; BadOption if it is none."""


def resolve(reference: str) -> Any:
    """The object a ``module:name`` reference names (imported only when asked: front ends and
    RL libraries are heavy, and a game's rules must not import them).

    >>> resolve("bestiary.core.info:resolve") is resolve
    True
    """
    module, _, name = reference.partition(":")
    if not module or not name:
        raise ValueError(f"{reference!r} is not a module:name reference")
    return getattr(importlib.import_module(module), name)


# Per seat, what a finished game's public record shows of each seat's play (the lab's strategy
# mix): (players, summary, header, events) -> one dict of counts per seat, in seat order.
StrategyCounts = Callable[
    [Sequence[str], Mapping[str, Any], Mapping[str, Any], Sequence[Mapping[str, Any]]],
    tuple[dict[str, float], ...],
]


@dataclass(frozen=True)
class Analytics:
    """What the lab counts of a game and the words it prints them in, declared by the game.

    ``tallies`` names what ``State.tallies`` counts (wild: ``meetings``): the summary's JSON
    key, the prefix of the per-game table's columns (``meetings_mate``) and the printed label;
    ``mix`` is the JSON key of their shares; ``labels`` how a paired or sweep table names each
    per-game count (``{"meetings_mate": "mates per game"}``); ``strategy`` the per-seat counts;
    ``stalls`` the game's endings where the table stopped it rather than play ending it (wild:
    ``nightfall``, its quiet clock; critters: ``exhausted``), the first one the headline stall.
    """

    tallies: str = "tallies"
    stalls: tuple[str, ...] = ()
    mix: str = "tally_mix"
    labels: Mapping[str, str] = field(default_factory=dict)
    strategy: StrategyCounts | None = None


@dataclass(frozen=True)
class Faces:
    """Where a game's front ends and research faces live, each a ``module:name`` reference
    (None: the generic one, from the game's views and legal actions).

    ``web``: a package folder (``package:folder``) the server serves at ``/games/<name>/``
    whose ``board.js`` is the browser board. ``terminal``: a ``bestiary.tui.boards.Board``.
    ``encoding``: a factory ``(players, options) -> encoding`` of observations and action ids
    for the Gymnasium and OpenSpiel faces (``bestiary.adapters.encoding``). ``vector``: a
    factory ``(num_envs, **kwargs) -> VectorEnv`` (``bestiary.adapters.generic_vector``; a
    turn-based game without one gets the generic vector env over its Gymnasium env).
    """

    web: str | None = None
    terminal: str | None = None
    encoding: str | None = None
    vector: str | None = None
    demo: str | None = None  # ``run_demo(players=, seed=, delay=)``: ``bestiary demo GAME``

    def web_folder(self) -> Path | None:
        """The folder of the browser board's files, if the game ships one."""
        if self.web is None:
            return None
        package, _, folder = self.web.partition(":")
        spec = importlib.import_module(package).__file__
        if spec is None:
            raise ValueError(f"{package} is not a package with files")
        return Path(spec).parent / folder


@dataclass(frozen=True)
class GameInfo:
    """A game's self-description, declared once in its package and registered with it.

    ``vocabulary`` is the game's own JSON for front ends: card ids and their display names,
    and whatever else a board needs to draw the game (wild: the food chain and its Calls).
    ``quiet_option`` names the option that holds the quiet clock in seconds (wild's
    ``nightfall_seconds``): the driver ends a game with no progress for that long.
    ``answer_timeout``: the game has answers that the table gives for a player who lets the
    answer clock run out (critters: ``allow``; see ``State.timeout_action``).
    ``decks``: how the game reads a ``deck`` option from a file or from content, if it has one.
    ``bots``: the modules that register the game's bots (imported with the game, so its bots are
    known wherever the game is, a worker process included). ``faces``: its boards and research
    faces; ``analytics``: what the lab counts of it.
    ``endings``: every way a game of it can end (``State.ending()``'s names), each in one
    sentence, so that front ends and the lab say why a game ended.
    """

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    real_time: bool
    chance: bool
    options: tuple[OptionSpec, ...]
    vocabulary: Mapping[str, Any]
    default_bot: str
    quiet_option: str | None = None
    answer_timeout: bool = False
    decks: DeckBook | None = None
    bots: tuple[str, ...] = ()
    faces: Faces = Faces()
    analytics: Analytics = Analytics()
    endings: Mapping[str, str] = field(default_factory=dict)
    _by_name: dict[str, OptionSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {spec.name: spec for spec in self.options})

    def option(self, name: str) -> OptionSpec:
        return self._by_name[name]

    def defaults(self) -> dict[str, Any]:
        return {spec.name: spec.default for spec in self.options}

    def check_options(
        self, options: Mapping[str, Any] | None, *, from_record: bool = False
    ) -> dict[str, Any]:
        """The given options, each checked against its spec (missing ones are not filled in).

        A new game refuses an unknown name (most likely a typo); a record ignores it, as
        docs/records.md says of every unknown key.
        """
        if options is None:
            return {}
        if not isinstance(options, Mapping):
            raise BadOption("options must be an object of name: value")
        checked: dict[str, Any] = {}
        for key, value in options.items():
            spec = self._by_name.get(key)
            if spec is None:
                if from_record:
                    continue
                known = ", ".join(self._by_name) or "none"
                raise BadOption(f"unknown {self.name} option {key!r} (known: {known})")
            checked[key] = spec.check(value)
        return checked

    def check_player_count(self, count: int) -> None:
        if not self.min_players <= count <= self.max_players:
            raise BadOption(
                f"{self.name} takes {self.min_players} to {self.max_players} players, not {count}"
            )

    def as_json(self) -> dict[str, Any]:
        """What ``GET /api/games`` serves for this game (bots are added by the server)."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "real_time": self.real_time,
            "chance": self.chance,
            "options": [spec.as_json() for spec in self.options],
            "vocabulary": dict(self.vocabulary),
            "default_bot": self.default_bot,
            "quiet_option": self.quiet_option,
            "answer_timeout": self.answer_timeout,
            # The browser board the server serves for this game (None: the generic board).
            "board": f"/games/{self.name}/board.js" if self.faces.web else None,
            "endings": dict(self.endings),
        }
