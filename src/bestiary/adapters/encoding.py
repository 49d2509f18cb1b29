"""Observations and action ids for any registered game: the game's own encoding, or a generic one.

A game may declare an encoding (``GameInfo.faces.encoding``: a ``module:name`` factory called
with one seat's view, returning an object of the ``Encoding`` shape: ``wild_encoding`` and
``critters_encoding`` are the built-in games'). A game that declares none gets
``ViewEncoding``, made from what every game has, its view and its legal actions:

- the observation is the seat's own view (``State.view``, the allow-list) as ASCII JSON bytes,
  zero-padded to ``max_view_bytes``, as float32 (``view_of`` reads it back), so nothing hidden
  from the seat reaches a learner;
- action ``i`` is the ``i``-th of the seat's legal actions in the engine's stable order (ids
  ``0 .. max_actions - 1``; the mask marks the first ``len(legal)``). A seat with more legal
  actions than that, or a view longer than ``max_view_bytes``, is refused in one sentence.

The Gymnasium face (``generic_gym``), the OpenSpiel face (``generic_spiel``) and the policies
(``policies``) all take their encoding from ``encoding_for``.

>>> enc = ViewEncoding(max_actions=4, max_view_bytes=16)
>>> view_of(enc.observe({"a": 1}))
{'a': 1}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np

from bestiary.core.errors import BadOption, IllegalAction
from bestiary.core.game import get_game
from bestiary.core.info import resolve

FloatArray: TypeAlias = np.ndarray[Any, np.dtype[np.float32]]
MaskArray: TypeAlias = np.ndarray[Any, np.dtype[np.int8]]

MAX_ACTIONS = 64
MAX_VIEW_BYTES = 4096


class Encoding(Protocol):
    """What the research faces need of a game: fixed-size observations and action ids."""

    size: int  # action ids are 0 .. size - 1
    obs_size: int

    def observe(self, view: Mapping[str, Any]) -> FloatArray: ...

    def mask(self, legal: Sequence[Any]) -> MaskArray: ...

    def action(self, player: str, action_id: int) -> Any:
        """The action ``action_id`` stands for; with ``ViewEncoding``, the last legal list's."""

    def describe(self, action_id: int) -> str: ...


def view_of(observation: np.ndarray) -> dict[str, Any]:
    """The view a ``ViewEncoding`` observation carries (without the zero padding)."""
    raw = bytes(np.asarray(observation, dtype=np.uint8)).rstrip(b"\0")
    view: dict[str, Any] = json.loads(raw.decode("ascii"))
    return view


class ViewEncoding:
    """Any game's view as JSON bytes and its legal actions by position (module docstring)."""

    def __init__(self, max_actions: int = MAX_ACTIONS, max_view_bytes: int = MAX_VIEW_BYTES):
        self.size = max_actions
        self.obs_size = max_view_bytes
        self.legal: list[Any] = []  # the list the last mask was made from

    def observe(self, view: Mapping[str, Any]) -> FloatArray:
        text = json.dumps(view, sort_keys=True, ensure_ascii=True).encode("ascii")
        if len(text) > self.obs_size:
            raise BadOption(
                f"a view of {len(text)} bytes is more than max_view_bytes={self.obs_size}"
            )
        out = np.zeros(self.obs_size, dtype=np.float32)
        out[: len(text)] = np.frombuffer(text, dtype=np.uint8)
        return out

    def observation_high(self) -> FloatArray:
        return np.full(self.obs_size, 127.0, dtype=np.float32)

    def mask(self, legal: Sequence[Any]) -> MaskArray:
        if len(legal) > self.size:
            raise BadOption(f"{len(legal)} legal actions are more than max_actions={self.size}")
        self.legal = list(legal)
        out = np.zeros(self.size, dtype=np.int8)
        out[: len(legal)] = 1
        return out

    def action(self, player: str, action_id: int) -> Any:
        if not 0 <= action_id < len(self.legal):
            raise IllegalAction(f"action {action_id} is not one of {len(self.legal)} legal ones")
        return self.legal[action_id]

    def describe(self, action_id: int) -> str:
        if 0 <= action_id < len(self.legal):
            return json.dumps(self.legal[action_id].to_event(), sort_keys=True)
        return f"legal action {action_id}"


def encoding_for(game: str, view: Mapping[str, Any]) -> Encoding:
    """The encoding ``game`` declares for the table ``view`` shows, else a ``ViewEncoding``."""
    reference = get_game(game).info.faces.encoding
    if reference is None:
        return ViewEncoding()
    made: Encoding = resolve(reference)(view)
    return made
