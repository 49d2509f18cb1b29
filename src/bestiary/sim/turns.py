"""``--turns turns.csv|.parquet``: one row per move of every game, for the curves designers read
(lead changes, a runaway leader, comebacks).

Each game is played again from its spec with its record kept (seeded, so it is the same game),
and the record is replayed move by move (``bestiary.core.game.replay_steps``). After each move
(an event with ``by``) a row holds: ``arm``, ``index``, ``seed``, ``move`` (1, 2, ...), ``by``
(the mover's seat), ``do`` (the event's kind), ``score_<seat>``, ``leader`` (the seats with the
highest score, ``;``-separated, empty while nobody has scored), and, from the public view (the
spectator's: nothing hidden), every per-player count the game shows: a number as itself, a list
by its length (critters: ``hand_sizes_<seat>``, ``tableaus_<seat>`` sets on the table,
``tableaus_full_<seat>`` full sets; wild: ``hand_sizes``, ``packs``, ``dens`` cards).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bestiary.core.game import replay_steps, start_replay
from bestiary.core.records import parse_lines
from bestiary.sim.runner import GameSpec, play_game


def public_counts(view: Mapping[str, Any], players: Sequence[str]) -> dict[str, int]:
    """Every per-player number in a spectator's view: ``<key>_<seat>`` (seats from 1).

    >>> counts = public_counts({"hand_sizes": {"a": 3, "b": 5}, "tableaus": {"a": [{"full": True}],
    ...   "b": []}, "turn": "a"}, ["a", "b"])
    >>> counts["hand_sizes_2"], counts["tableaus_1"], counts["tableaus_full_1"], len(counts)
    (5, 1, 1, 6)
    """
    counts: dict[str, int] = {}
    for key, value in view.items():
        if key == "scores" or not isinstance(value, Mapping) or set(value) != set(players):
            continue
        items = [value[p] for p in players]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in items):
            counts.update({f"{key}_{s}": v for s, v in enumerate(items, start=1)})
        elif all(isinstance(v, list) for v in items):
            counts.update({f"{key}_{s}": len(v) for s, v in enumerate(items, start=1)})
            if any(isinstance(e, Mapping) and "full" in e for v in items for e in v):
                counts.update(
                    {
                        f"{key}_full_{s}": sum(
                            1 for e in v if isinstance(e, Mapping) and e.get("full")
                        )
                        for s, v in enumerate(items, start=1)
                    }
                )
    return counts


def turn_rows(arm: str, spec: GameSpec) -> list[dict[str, Any]]:
    """The rows of one game (played again from ``spec`` with its record kept)."""
    result = play_game(dataclasses.replace(spec, keep_record=True))
    assert result.record is not None
    header, events = parse_lines(result.record)
    state = start_replay(header)
    players = list(state.players)
    seat = {p: s for s, p in enumerate(players, start=1)}
    rows: list[dict[str, Any]] = []
    for event in replay_steps(state, events):
        if "by" not in event:
            continue
        scores = state.scores()
        values = [scores[p] for p in players]
        best = max(values)
        row: dict[str, Any] = {
            "arm": arm,
            "index": spec.index,
            "seed": spec.seed,
            "move": len(rows) + 1,
            "by": seat.get(event["by"], 0),
            "do": event.get("do", ""),
        }
        row.update({f"score_{s}": v for s, v in enumerate(values, start=1)})
        row["leader"] = ";".join(
            str(s) for s, v in enumerate(values, start=1) if v == best and best
        )
        row.update(public_counts(state.view(None), players))
        rows.append(row)
    # A count that first appears mid-game (full sets, once a set is on the table) was 0 before.
    keys = dict.fromkeys(k for row in rows for k in row)
    return [{k: row.get(k, 0) for k in keys} for row in rows]


def all_turn_rows(arms: Iterable[tuple[str, Sequence[GameSpec]]]) -> list[dict[str, Any]]:
    return [row for arm, specs in arms for spec in specs for row in turn_rows(arm, spec)]
