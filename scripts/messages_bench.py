"""CPU time to make one move's state messages: four seats and two spectators at one table.

    PYTHONPATH=build/core:tests/toygame .venv/bin/python scripts/messages_bench.py critters
    PYTHONPATH=build/core:tests/toygame .venv/bin/python scripts/messages_bench.py legal
    PYTHONPATH=build/core:tests/toygame .venv/bin/python scripts/messages_bench.py frames

Plays 40 seeded games at random on a ``Table`` (no actor, no sockets: stand-ins for them) and
times only ``Table._messages`` after each move (``time.process_time``): the views, redacted
events, legal actions and encoding every move costs the server, without its sends or commits.
Run it under each source tree to compare (``PYTHONPATH=build/base:...``). ``legal``: CPU time
of one ``legal_json`` call for a critters hand of 98 legal actions, 20,000 calls, three times.
``frames``: CPU time to read one client's action (a masked text frame, as a browser sends it)
by websockets' sans-I/O parser (its ``Frame``, then the text decoded, as uvicorn did for every
message) and by ``wire.client_texts``, 50,000 frames each, three times alternated.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from websockets.frames import Frame, Opcode
from websockets.protocol import SERVER, Protocol

from bestiary.core.driver import Match
from bestiary.server.run import WS_MAX_SIZE as MAX_FRAME
from bestiary.server.store import Store
from bestiary.server.table import Table, TableSettings
from bestiary.server.wire import client_texts


class Socket:
    """A connection as a table's seat holds it (only its identity matters here)."""


def main(game: str, games: int = 40) -> None:
    store = Store(f"sqlite:///{Path(tempfile.mkdtemp()) / 'messages.sqlite'}")
    spent, moves = 0.0, 0
    for seed in range(games):
        table = Table("BENCH1", game, {}, 4, store, TableSettings())
        for seat, name in zip(table.seats, "abcd", strict=True):
            seat.name = name
            seat.connections = {Socket()}  # type: ignore[arg-type]
        table.presence.spectators = {Socket(), Socket()}  # type: ignore[arg-type]
        table._deal(seed)
        table.status = "playing"
        state = table.state
        assert state is not None
        table.match = Match(table.game, state, {}, seed=1, pace=table.pace, strict=False)
        rng = random.Random(seed)
        for step in range(300):
            if state.is_over:
                break
            if state.chance_due:
                events = state.apply(state.chance_outcome(rng))
            else:
                movers = [p for p in state.players if state.legal_actions(p)]
                if not movers:
                    break
                mover = rng.choice(movers)
                events = state.apply(rng.choice(state.legal_actions(mover)))
            table.seq += 1
            start = time.process_time()
            table._messages(events, 0, step)
            spent += time.process_time() - start
            moves += 1
    print(f"{game}: {1e6 * spent / moves:.1f} CPU us per move's messages ({moves:,} moves)")


def legal() -> None:
    from bestiary.core.game import get_game
    from bestiary.server.protocol import legal_json

    state = get_game("critters").new_game(list("abcd"), {}, 3)
    rng = random.Random(1)
    for _ in range(30):
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions(state.actors[0])))
    hand = state.legal_actions(state.actors[0])
    for _ in range(3):
        start = time.process_time()
        for _ in range(20_000):
            legal_json(hand)
        spent = (time.process_time() - start) / 20_000
        print(f"legal_json of {len(hand)} actions: {1e6 * spent:.1f} CPU us")


def frames(count: int = 50_000) -> None:
    action = b'{"type":"action","ref":17,"action":{"do":"play","card":"fox","by":"ann"}}'
    frame = Frame(Opcode.TEXT, action).serialize(mask=True)
    for _ in range(3):
        parser = Protocol(SERVER, max_size=MAX_FRAME)
        started = time.process_time()
        for _ in range(count):
            parser.receive_data(frame)
            for event in parser.events_received():
                assert isinstance(event, Frame)
                bytes(event.data).decode()
        spent = (time.process_time() - started) / count
        print(f"websockets: {spent * 1e6:.2f} us a frame", flush=True)
        started = time.process_time()
        for _ in range(count):
            client_texts(frame, MAX_FRAME)
        spent = (time.process_time() - started) / count
        print(f"client_texts: {spent * 1e6:.2f} us a frame", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "legal":
        legal()
    elif sys.argv[1] == "frames":
        frames()
    else:
        main(sys.argv[1])
