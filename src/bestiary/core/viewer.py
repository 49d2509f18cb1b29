"""What one viewer is shown of a state: its events, redacted, and its view, in parts.

Apart from ``core.game`` (whose registry and protocols stay interpreted) so that mypyc compiles
these: the server calls them for every seat of every move (setup.py's ``COMPILED``).
``core.game`` re-exports both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bestiary.core.records import Event

if TYPE_CHECKING:  # core.game imports this module
    from bestiary.core.game import State


def redacted(state: State, events: Sequence[Event], viewer: str | None) -> list[Event]:
    """``events`` as ``viewer`` may see them (``None``: a spectator), by the game's ``redact``.

    The one filter every viewer-facing event passes through, in every front end.
    """
    redact = state.redact
    return [redact(event, viewer) for event in events]


def view_in_parts(state: State, player: str | None) -> list[dict[str, Any]]:
    """``state.view(player)`` as dicts whose keys, merged in order, are the view: the game's own
    ``view_in_parts`` where it has one, whose parts that every seat sees alike are then one
    object for every seat until the state changes (the server encodes each such object once a
    move); else the whole view as one part.

    A part, once handed out, never changes (a changed part is a new object)."""
    parts = getattr(state, "view_in_parts", None)
    if parts is None:
        return [state.view(player)]
    made: list[dict[str, Any]] = parts(player)
    return made
