"""Seeded random games reduced to one digest each, for the differential test of the engines.

Only the games' public surface is used (new_game, legal_actions, apply, chance_outcome, view,
events), so the same code runs against an older engine: ``scripts/differential_fixtures.py``
records the digests an engine gives, and ``tests/test_engines_differential.py`` checks that
today's engines give the same. A digest covers every legal-action list (in order), every choice,
the seats' views every few steps, the record and the winners.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay"]


class Digest:
    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def add(self, value: Any) -> None:
        self._h.update(json.dumps(value, sort_keys=True, default=repr).encode())

    def hex(self) -> str:
        return self._h.hexdigest()[:24]


def critters_game(seed: int) -> str:
    from bestiary.critters import GAME

    rng = random.Random(seed)
    n = 2 + seed % 5
    options: dict[str, Any] = {}
    if n <= 4 and seed % 3 == 1:
        options["set_size"] = 4
    elif n <= 4 and seed % 3 == 2:
        options["sets_to_win"] = 4
    state = GAME.new_game(PLAYERS[:n], options, seed=seed)
    digest = Digest()
    steps = 0
    while not state.is_over and steps < 600:
        action: Any
        if state.chance_due:
            action = state.chance_outcome(rng)
        else:
            player = str(state.to_act)
            legal = state.legal_actions(player)
            digest.add([a.to_event() for a in legal])
            action = legal[rng.randrange(len(legal))]
            if steps % 7 == 0:
                digest.add(state.view(player))
        state.apply(action)
        steps += 1
    digest.add(state.events())
    digest.add([state.view(p) for p in state.players])
    digest.add(state.winners())
    return digest.hex()


def wild_game(seed: int) -> str:
    from bestiary.wild import GAME

    rng = random.Random(seed)
    n = 2 + seed % 5
    packs = [(5, 2), (3, 1), (4, 2)][seed % 3]
    options = {
        "mating_bonus": seed % 2 == 0,
        "objectives": seed % 4 < 2,
        "pack_creatures": packs[0],
        "pack_copies": packs[1],
    }
    state = GAME.new_game(PLAYERS[:n], options, seed=seed)
    digest = Digest()
    steps = 0
    while not state.is_over and steps < 400:
        lists = [(p, state.legal_actions(p)) for p in state.players]
        digest.add([[p, [a.to_event() for a in legal]] for p, legal in lists])
        able = [(p, legal) for p, legal in lists if legal]
        if not able:
            break
        player, legal = able[rng.randrange(len(able))]
        if steps % 7 == 0:
            digest.add(state.view(player))
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    digest.add(state.events())
    digest.add([state.view(p) for p in state.players])
    digest.add(state.winners())
    return digest.hex()


GAMES = {"critters": critters_game, "wild": wild_game}
