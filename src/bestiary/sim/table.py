"""One row per game: what ``--table games.csv|games.parquet`` writes and ``bestiary.lab`` returns.

Columns (seats are numbered from 1; a run's widest table decides how many seat columns exist,
and narrower games leave the extra ones empty):

``arm`` (the set-up's label), ``index``, ``seed`` (the game's own seed), ``players``,
``bot_1..bot_N``, ``score_1..score_N``, ``winners`` (winning seats, ``;``-separated),
``winner_bots``, ``tie``, ``zero_zero``, ``length`` (actions or moves), ``ticks`` (real-time
games, else 0), ``ending``, ``<tallies>_<outcome>`` for each of the game's tallies in its own
words (wild: ``meetings_mate`` / ``meetings_eat`` / ``meetings_avoid``), ``option_<name>`` for
every effective game option, and ``seconds`` (wall-clock).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bestiary.sim.runner import GameResult

FORMATS = (".csv", ".parquet")


def game_row(arm: str, result: GameResult) -> dict[str, Any]:
    row: dict[str, Any] = {
        "arm": arm,
        "index": result.index,
        "seed": result.seed,
        "players": len(result.bots),
    }
    for seat, bot in enumerate(result.bots, start=1):
        row[f"bot_{seat}"] = bot
    for seat, score in enumerate(result.scores, start=1):
        row[f"score_{seat}"] = score
    row["winners"] = ";".join(str(seat + 1) for seat in result.winners)
    row["winner_bots"] = ";".join(result.bots[seat] for seat in result.winners)
    row["tie"] = result.tie
    row["zero_zero"] = result.zero_zero
    row["length"] = result.length
    row["ticks"] = result.ticks
    row["ending"] = result.ended
    for outcome, count in sorted(result.outcomes.items()):
        row[f"{result.tallies}_{outcome}"] = count
    for name, value in sorted(result.options.items()):
        row[f"option_{name}"] = value if isinstance(value, str | int | float) else json.dumps(value)
    row["seconds"] = result.seconds
    return row


def game_rows(arms: Iterable[tuple[str, Sequence[GameResult]]]) -> list[dict[str, Any]]:
    return [game_row(arm, result) for arm, results in arms for result in results]


def columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Every column in a stable order: per-seat columns grouped, seats in order."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            seen.setdefault(key, None)
    if rows and "players" not in rows[0]:  # not game rows (``--turns``): in order of appearance
        return list(seen)
    widest = max((row["players"] for row in rows), default=0)
    fixed = ["arm", "index", "seed", "players"]
    seats = [f"{kind}_{s}" for kind in ("bot", "score") for s in range(1, widest + 1)]
    rest = [k for k in seen if k not in fixed and k not in seats and k != "seconds"]
    return [*fixed, *seats, *rest, "seconds"]


def write_table(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` as CSV or Parquet, chosen by the file's suffix."""
    if path.suffix not in FORMATS:
        raise ValueError(f"--table writes .csv or .parquet files, not {path.name!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns(rows), restval="")
            writer.writeheader()
            writer.writerows(rows)
        return
    from bestiary.sim.frames import frame

    frame(rows).to_parquet(path, index=False)
