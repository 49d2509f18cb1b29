"""Arms of an experiment: one table set-up (players, bots, options) played on the run's seeds.

A plain run is one arm; ``--compare`` adds a second; each ``--sweep KEY=V1,V2`` value is an arm
that differs from the baseline in that one key. Keys: ``players``, ``bots`` (line-ups, bots
joined by ``+``: ``bots=reader+random,hunter+honest``), or any game option (``mating_bonus``,
``nightfall_seconds``, ``set_size``, ``deck`` with a deck file, ...).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.bot_params import split_outside
from bestiary.core.game import get_game
from bestiary.core.options import parse_options
from bestiary.sim.runner import GameSpec
from bestiary.sim.seating import sim_specs

TABLE_KEYS = ("players", "bots")


@dataclass(frozen=True)
class Arm:
    """Everything a run varies, apart from the seeds."""

    label: str
    game: str
    players: int
    bots: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    pace: str = "lab"  # runner.SIM_PACES

    def specs(self, games: int, seeds: Sequence[int], keep_record: bool = False) -> list[GameSpec]:
        """Games ``0..games-1`` of each seed in turn (pooled seeds get consecutive indices)."""
        specs: list[GameSpec] = []
        for k, seed in enumerate(seeds):
            for spec in sim_specs(
                self.game,
                self.bots,
                self.players,
                games,
                seed,
                self.options,
                keep_record=keep_record,
            ):
                specs.append(
                    dataclasses.replace(spec, index=k * games + spec.index, pace=self.pace)
                )
        return specs

    def changed(self, key: str, value: Any, label: str) -> Arm:
        """This arm with ``key`` set to ``value``."""
        if key == "players":
            return dataclasses.replace(self, label=label, players=int(value))
        if key == "bots":
            return dataclasses.replace(self, label=label, bots=tuple(value))
        return dataclasses.replace(self, label=label, options={**self.options, key: value})

    def value_of(self, key: str) -> Any:
        if key == "players":
            return self.players
        if key == "bots":
            return self.bots
        if key in self.options:
            return self.options[key]
        return get_game(self.game).info.defaults().get(key)


def unique_pairs(pairs: Sequence[str], flag: str) -> dict[str, Any]:
    """Parse ``key=value`` pairs, refusing a key given twice (it would silently win)."""
    seen: set[str] = set()
    for pair in pairs:
        key = pair.partition("=")[0]
        if key in seen:
            raise ValueError(f"{flag} names {key!r} twice; give each key once")
        seen.add(key)
    return parse_options(pairs)


@dataclass(frozen=True)
class SweepKey:
    key: str
    values: tuple[Any, ...]


def parse_sweeps(texts: Sequence[str]) -> list[SweepKey]:
    """``KEY=V1,V2,...`` per text; a key swept twice is refused.

    >>> parse_sweeps(["mating_bonus=false,true", "bots=reader+random,hunter"])[1].values
    (('reader', 'random'), ('hunter',))
    """
    sweeps: list[SweepKey] = []
    for text in texts:
        key, sep, raw = text.partition("=")
        if not sep or not key or not raw:
            raise ValueError(f"--sweep {text!r} should look like KEY=V1,V2,...")
        if any(s.key == key for s in sweeps):
            raise ValueError(f"--sweep names {key!r} twice; list all its values in one --sweep")
        parts = split_outside(raw)
        if key == "bots":
            values: list[Any] = [tuple(split_outside(part, "+")) for part in parts]
        else:
            values = [parse_options([f"{key}={part}"])[key] for part in parts]
        if len(set(map(describe_value, values))) != len(values):
            raise ValueError(f"--sweep {key} lists a value twice")
        sweeps.append(SweepKey(key, tuple(values)))
    return sweeps


def describe_value(value: Any) -> str:
    """A setting as a short label: ``reader+random``, ``true``, ``4``, ``my.toml``."""
    if isinstance(value, tuple):
        return "+".join(value)
    return value if isinstance(value, str) else json.dumps(value)


def describe_options(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "defaults"
