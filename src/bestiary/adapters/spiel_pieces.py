"""What both games' OpenSpiel faces share: their game type, and their observers' layout.

OpenSpiel's own Python games (kuhn_poker, liars_poker) lay an observation out as one float32
vector cut into named pieces (``observer.dict``); ``private_info`` says whose hidden cards an
observer shows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel


def named_pieces(
    pieces: list[tuple[str, tuple[int, ...]]],
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One zeroed float32 tensor and a view of it per named piece, in order."""
    sizes = [int(np.prod(shape)) for _, shape in pieces]
    tensor = np.zeros(sum(sizes), dtype=np.float32)
    views: dict[str, np.ndarray] = {}
    at = 0
    for (name, shape), size in zip(pieces, sizes, strict=True):
        views[name] = tensor[at : at + size].reshape(shape)
        at += size
    return tensor, views


def shows(private: Any, seat: int, player: int) -> bool:
    """Whether an observer of ``player`` with ``private`` info shows ``seat``'s hidden cards."""
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        return True
    return bool(private == pyspiel.PrivateInfoType.SINGLE_PLAYER and seat == player)


def game_type(
    short_name: str,
    long_name: str,
    dynamics: Any,
    utility: Any,
    reward_model: Any,
    max_players: int,
    parameters: dict[str, Any],
    information_state_tensor: bool = True,
) -> Any:
    """A bestiary game's ``pyspiel.GameType``: explicit chance, imperfect information, every
    information-state and observation string and tensor provided (the information-state
    tensor unless ``information_state_tensor`` is False)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=reward_model,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=information_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )
