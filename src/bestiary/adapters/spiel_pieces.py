"""What the OpenSpiel faces declare with: their game type, and their observers' layout.

OpenSpiel's own Python games (kuhn_poker, liars_poker) lay an observation out as one float32
vector cut into named pieces (``observer.dict``); ``private_info`` says whose hidden cards an
observer shows. A face's observer is a ``PiecesObserver`` that declares its ``pieces``,
``set_from`` and ``string_from``.
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


PRIVATE_KINDS = (
    pyspiel.PrivateInfoType.NONE,
    pyspiel.PrivateInfoType.SINGLE_PLAYER,
    pyspiel.PrivateInfoType.ALL_PLAYERS,
)


class PiecesObserver:
    """An observer for any ``IIGObservationType`` (none given: the observation, no recall):
    ``private``, ``public`` and ``perfect_recall`` as asked, ``tensor`` and ``dict`` laid out
    from the face's ``pieces``."""

    def __init__(self, game: Any, iig_obs_type: Any = None) -> None:
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if kind.private_info not in PRIVATE_KINDS:
            raise ValueError(
                f"private_info must be NONE, SINGLE_PLAYER or ALL_PLAYERS, not {kind.private_info}"
            )
        self.game = game
        self.private = kind.private_info
        self.public = bool(kind.public_info)
        self.perfect_recall = bool(kind.perfect_recall)
        self.tensor, self.dict = named_pieces(self.pieces())

    def pieces(self) -> list[tuple[str, tuple[int, ...]]]:
        """The tensor's named pieces in order (OpenSpiel's convention starts with ``player``)."""
        raise NotImplementedError

    def _sees(self, seat: int, player: int) -> bool:
        return shows(self.private, seat, player)


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
