"""Game records as trajectories for offline RL: ``bestiary export trajectories``.

Records come from a lab run (``bestiary sim --out DIR`` writes one ``.jsonl`` a game), any
record file (docs/records.md), or the server's store (``--db URL``: its finished games, read
with ``Store.load``). Each record is replayed by the engine; at every move of a seat (an event
with ``by``) the exporter writes one step of that seat:

- ``observation``: the adapters' encoding of **that seat's own view** before the move
  (``encoding_for``: the game's own encoding, else the generic one), nothing else;
- ``action``: the move's id in that encoding; ``mask``: the seat's legal ids then;
- ``reward``: critters +1 (a win, shared or not) / -1 at the seat's last step, else 0; wild
  the change of the seat's score from this move to its next (its return is its final score);
  any other game its win (+1/-1) at the end;
- ``done``: true at the seat's last step of a finished game (false in an unfinished record);
- ``game`` (the record's index), ``seat``, ``event`` (the move's index among the record's
  events): each seat's trajectory is its steps of one game in ``event`` order.

Wild's records hold moves, not ticks: there is no step for a tick a seat waited, and the
Nightfall clock of the observation is 0 (a record does not say how long the table was quiet).
The records' headers and their table events (reshuffles, Nightfall) are kept beside the steps,
so ``replay_record`` rebuilds every record from the trajectories' actions alone (tested: the
same events as the record's replay).

Formats: NumPy ``.npz`` (flat arrays) or Parquet (one row a step; ``observation`` and ``mask``
list columns; headers and table events in the schema's metadata). ``load`` reads either.
One export holds one game at one table size (the arrays' widths are fixed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bestiary.adapters.encoding import encoding_for
from bestiary.core.errors import BadOption, RecordError
from bestiary.core.game import State, get_game, start_replay
from bestiary.core.records import read_record

Record = tuple[dict[str, Any], list[dict[str, Any]]]  # header, events

# critters' chance events (the engine's own; any other table event waits for them)
_CHANCE = ("reshuffle", "random_card")


@dataclass
class Trajectories:
    """Every seat's steps of every record, as flat arrays (one row a step)."""

    observation: np.ndarray  # float32 (steps, obs_size)
    action: np.ndarray  # int64 (steps,)
    reward: np.ndarray  # float32 (steps,)
    done: np.ndarray  # bool (steps,)
    mask: np.ndarray  # int8 (steps, actions)
    game: np.ndarray  # int32 (steps,): the record's index
    seat: np.ndarray  # int8 (steps,)
    event: np.ndarray  # int32 (steps,): the move's index among the record's events
    headers: list[dict[str, Any]]
    table_events: list[list[tuple[int, dict[str, Any]]]]  # per record: (index, event)

    def __len__(self) -> int:
        return len(self.action)

    def seat_steps(self, game: int, seat: int) -> np.ndarray:
        """The rows of one seat's trajectory in one game, in order."""
        return np.flatnonzero((self.game == game) & (self.seat == seat))


# ------------------------------------------------------------------ reading records


def records_from_paths(paths: Iterable[Path]) -> Iterator[Record]:
    """Records from files and folders (every ``*.jsonl`` in a folder, by name)."""
    for path in paths:
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        if not files:
            raise BadOption(f"no records (.jsonl) in {path}")
        for file in files:
            try:
                header, events = read_record(file)
            except RecordError as err:
                raise BadOption(f"{file} is no record: {err}") from None
            yield dict(header), [dict(e) for _, e in events]


def records_from_store(url: str) -> Iterator[Record]:
    """The finished games of a server's store (a database URL), oldest first."""
    from bestiary.server.store import Store, StoreUnavailable

    try:
        store = Store(url)
    except StoreUnavailable as err:
        raise BadOption(str(err)) from None
    try:
        tables = sorted(store.load(["finished"]), key=lambda t: (t.finished or 0.0, t.code))
    finally:
        store.close()
    for table in tables:
        if table.header is not None:
            yield dict(table.header), list(table.events)


# ------------------------------------------------------------------ records -> steps


def _action_id(enc: Any, action: Any, legal: Sequence[Any]) -> int:
    if hasattr(enc, "action_id"):
        return int(enc.action_id(action))
    return legal.index(action)  # the generic encoding: the i-th legal action


class _Game:
    """One record being exported: its state, its seats' encodings and pending steps."""

    def __init__(self, index: int, header: dict[str, Any]) -> None:
        self.index = index
        self.state: State = start_replay(header)
        self.name = str(header["game"])
        self.players = list(self.state.header()["players"])
        self.encodings = [encoding_for(self.name, self.state.view(p)) for p in self.players]
        self.last: dict[int, int] = {}  # seat -> its latest step's row
        self.score_at: dict[int, float] = {}  # seat -> its score before its latest move


def _score(state: State, player: str) -> float:
    return float(state.scores().get(player, 0))


def trajectories(records: Iterable[Record]) -> Trajectories:
    """Every seat's steps of every record (module docstring)."""
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    action: list[int] = []
    reward: list[float] = []
    done: list[bool] = []
    game_ix: list[int] = []
    seat_ix: list[int] = []
    event_ix: list[int] = []
    headers: list[dict[str, Any]] = []
    table_events: list[list[tuple[int, dict[str, Any]]]] = []
    shape: tuple[str, int, int] | None = None
    for index, (header, events) in enumerate(records):
        try:
            g = _Game(index, header)
        except RecordError as err:
            raise BadOption(f"record {index + 1}: {err}") from None
        rules = get_game(g.name)
        scored = g.name == "wild"
        headers.append(g.state.header())
        own_events: list[tuple[int, dict[str, Any]]] = []
        for k, event in enumerate(events):
            try:
                act = rules.action_from_event(event)
            except ValueError as err:
                raise BadOption(f"record {index + 1}, event {k + 1}: {err}") from None
            state = g.state
            if state.chance_due and "by" not in event and event.get("do") not in _CHANCE:
                state.apply(state.chance_outcome(None))
            by = event.get("by")
            if by is None:
                own_events.append((k, dict(event)))
                state.apply(act)
                continue
            seat = g.players.index(by)
            enc = g.encodings[seat]
            legal = list(state.legal_actions(by))
            if seat in g.last and scored:
                reward[g.last[seat]] = _score(state, by) - g.score_at[seat]
            before = _score(state, by)  # a step's reward runs from its move to the next
            obs.append(np.asarray(enc.observe(state.view(by)), dtype=np.float32))
            masks.append(np.asarray(enc.mask(legal), dtype=np.int8))
            try:
                action.append(_action_id(enc, act, legal))
                state.apply(act)
            except ValueError as err:
                raise BadOption(f"record {index + 1}, event {k + 1} is refused: {err}") from None
            reward.append(0.0)
            done.append(False)
            game_ix.append(index)
            seat_ix.append(seat)
            event_ix.append(k)
            g.last[seat] = len(action) - 1
            g.score_at[seat] = before
            size = (g.name, len(obs[-1]), len(masks[-1]))
            if shape is None:
                shape = size
            elif size != shape:
                raise BadOption(
                    "one export holds one game at one table size: record "
                    f"{index + 1} ({size[0]}, {size[1]} observation entries) differs from "
                    f"the first ({shape[0]}, {shape[1]})"
                )
        table_events.append(own_events)
        _finish(g, reward, done, scored)
    width = (shape[1], shape[2]) if shape is not None else (0, 0)
    return Trajectories(
        np.array(obs, dtype=np.float32).reshape(-1, width[0]),
        np.array(action, dtype=np.int64),
        np.array(reward, dtype=np.float32),
        np.array(done, dtype=np.bool_),
        np.array(masks, dtype=np.int8).reshape(-1, width[1]),
        np.array(game_ix, dtype=np.int32),
        np.array(seat_ix, dtype=np.int8),
        np.array(event_ix, dtype=np.int32),
        headers,
        table_events,
    )


def _finish(g: _Game, reward: list[float], done: list[bool], scored: bool) -> None:
    """Each seat's last step: its last score change (wild) or its win (+1/-1), and done."""
    state = g.state
    over = state.is_over
    winners = set(state.winners()) if over else set()
    for seat, row in g.last.items():
        player = g.players[seat]
        if scored:
            reward[row] = _score(state, player) - g.score_at[seat]
        elif over:
            reward[row] = 1.0 if player in winners else -1.0
        done[row] = over


# ------------------------------------------------------------------ files


def save(data: Trajectories, path: Path) -> None:
    """Write ``data`` as ``.npz`` or ``.parquet`` (by the suffix)."""
    meta = {"headers": data.headers, "table_events": data.table_events}
    if path.suffix == ".npz":
        np.savez_compressed(
            path,
            observation=data.observation,
            action=data.action,
            reward=data.reward,
            done=data.done,
            mask=data.mask,
            game=data.game,
            seat=data.seat,
            event=data.event,
            meta=np.array(json.dumps(meta)),
        )
        return
    if path.suffix != ".parquet":
        raise BadOption(f"write trajectories to a .npz or .parquet file, not {path.name}")
    pa, pq = _arrow()
    columns = {
        "game": pa.array(data.game),
        "seat": pa.array(data.seat),
        "event": pa.array(data.event),
        "observation": pa.FixedSizeListArray.from_arrays(
            pa.array(data.observation.reshape(-1)), data.observation.shape[1]
        ),
        "action": pa.array(data.action),
        "reward": pa.array(data.reward),
        "done": pa.array(data.done),
        "mask": pa.FixedSizeListArray.from_arrays(
            pa.array(data.mask.reshape(-1)), data.mask.shape[1]
        ),
    }
    table = pa.table(columns).replace_schema_metadata({"bestiary": json.dumps(meta)})
    pq.write_table(table, path)


def _arrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BadOption(
            "Parquet needs pyarrow (pip install 'bestiary[lab]'); or write .npz"
        ) from None
    return pa, pq


def load(path: Path) -> Trajectories:
    """Trajectories written by ``save`` (``.npz`` or ``.parquet``)."""
    if path.suffix == ".npz":
        with np.load(path) as saved:
            arrays = {k: saved[k] for k in saved.files}
        meta = json.loads(str(arrays.pop("meta")))
    else:
        _, pq = _arrow()
        table = pq.read_table(path)
        meta = json.loads(table.schema.metadata[b"bestiary"])

        def flat(name: str, dtype: Any) -> np.ndarray:
            column = table.column(name).combine_chunks()
            values = np.asarray(column.flatten(), dtype=dtype)
            return values.reshape(len(column), -1)

        arrays = {
            "observation": flat("observation", np.float32),
            "mask": flat("mask", np.int8),
            **{k: table.column(k).to_numpy() for k in ("action", "reward", "done", "game")},
            "seat": table.column("seat").to_numpy(),
            "event": table.column("event").to_numpy(),
        }
    return Trajectories(
        arrays["observation"].astype(np.float32),
        arrays["action"].astype(np.int64),
        arrays["reward"].astype(np.float32),
        arrays["done"].astype(np.bool_),
        arrays["mask"].astype(np.int8),
        arrays["game"].astype(np.int32),
        arrays["seat"].astype(np.int8),
        arrays["event"].astype(np.int32),
        list(meta["headers"]),
        [[(int(k), dict(e)) for k, e in events] for events in meta["table_events"]],
    )


def replay_record(data: Trajectories, game: int) -> State:
    """Record ``game`` rebuilt from its header, its table events and the trajectories' actions
    alone (each id turned back into a move by the seat's encoding)."""
    header = data.headers[game]
    state = start_replay(header)
    rules = get_game(str(header["game"]))
    players = list(header["players"])
    rows = np.flatnonzero(data.game == game)
    moves: dict[int, tuple[int, int]] = {
        int(data.event[r]): (int(data.seat[r]), int(data.action[r])) for r in rows
    }
    table: Mapping[int, dict[str, Any]] = dict(data.table_events[game])
    for k in range(len(moves) + len(table)):
        if k in table:
            if state.chance_due and table[k].get("do") not in _CHANCE:
                state.apply(state.chance_outcome(None))
            state.apply(rules.action_from_event(table[k]))
            continue
        seat, action_id = moves[k]
        player = players[seat]
        enc = encoding_for(rules.info.name, state.view(player))
        legal = list(state.legal_actions(player))
        if state.chance_due:
            state.apply(state.chance_outcome(None))
        enc.mask(legal)  # the generic encoding's ids are the legal list's indices
        state.apply(enc.action(player, action_id))
    return state
