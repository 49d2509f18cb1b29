"""One default player count per game across the RL faces (docs/rl.md, *Constructor defaults*)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")


@pytest.mark.parametrize(("game", "players"), [("critters", 2), ("wild", 4)])
def test_every_face_seats_the_same_number_of_players_by_default(game: str, players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from bestiary.adapters import (
        critters_v0,
        gym_envs,
        openspiel_critters,
        openspiel_wild,
        vector,
        wild_v0,
    )

    if game == "critters":
        aec: Any = critters_v0.env()
        gym: Any = gym_envs.CrittersEnv()
        spiel = pyspiel.load_game(openspiel_critters.SHORT_NAME)
        vec = vector.make_vector("critters", 1)
    else:
        aec = wild_v0.parallel_env()
        gym = gym_envs.WildEnv()
        spiel = pyspiel.load_game(openspiel_wild.SHORT_NAME)
        vec = vector.make_vector("wild", 1)
    counts = {
        "pettingzoo": len(aec.possible_agents),
        "gymnasium": len(gym.players),
        "openspiel": spiel.num_players(),
        "vector": len(vec.players),  # type: ignore[attr-defined]
    }
    assert counts == dict.fromkeys(counts, players)
