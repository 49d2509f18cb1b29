"""What one seat may see (an allow-list), and what each viewer may see of an event.

``seat_view`` reads a state only through the public read-outs ``Seen`` lists, so a view cannot
see a Pack's order, and another seat's hand, offered card or Objective only where the view
itself shows them (the end of the game).
"""

from __future__ import annotations

from typing import Any, Protocol

from bestiary.wild.meetings import Meeting
from bestiary.wild.objectives import OBJECTIVE_BY_ID
from bestiary.wild.setup import Deal


class Seen(Protocol):
    """What a view (and the summary) may read of a game."""

    players: tuple[str, ...]
    deal: Deal
    limit: int
    meetings: list[Meeting]
    ended_by: list[str]

    @property
    def is_over(self) -> bool: ...
    def winners(self) -> list[str]: ...
    def scores(self) -> dict[str, int]: ...
    def hand(self, player: str) -> list[str]: ...
    def hand_size(self, player: str) -> int: ...
    def offer(self, player: str) -> tuple[str, str] | None: ...
    def offer_call(self, player: str) -> str | None: ...
    def pack_size(self, player: str) -> int: ...
    def den(self, player: str) -> list[tuple[str, str]]: ...
    def watering_hole(self) -> list[tuple[str, str, bool]]: ...
    def asks(self) -> list[tuple[str, str]]: ...
    def objective(self, player: str) -> str | None: ...
    def objective_scores(self, player: str) -> bool: ...


def _objective(objective_id: str) -> dict[str, Any]:
    objective = OBJECTIVE_BY_ID[objective_id]
    return {"id": objective.id, "title": objective.title, "points": objective.points}


def dens(state: Seen) -> dict[str, list[dict[str, str]]]:
    return {p: [{"creature": c, "owner": o} for c, o in state.den(p)] for p in state.players}


def calls(state: Seen) -> dict[str, str | None]:
    """Each player's Call (None: no Call): heard by all."""
    return {p: state.offer_call(p) for p in state.players}


def view_part(state: Seen, player: str | None, key: str) -> Any:
    """``seat_view(state, player)[key]`` without the rest of the view, for the one key a bot
    reads alone (wild's random bot: the Calls heard); KeyError for any other key."""
    if key != "calls" or (player is not None and player not in state.players):
        raise KeyError(key)
    return calls(state)


def seat_view(
    state: Seen,
    player: str | None,
    public: tuple[dict[str, Any], dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """``player``'s view (``None``: a spectator). Built only from public facts plus own cards.

    ``public`` is ``public_part(state)`` when the caller kept it (it is the same for every seat
    until the state changes); its containers are then shared, read-only, between views."""
    view: dict[str, Any] = {}
    for part in seat_view_parts(state, player, public):
        view |= part
    return view


def seat_view_parts(
    state: Seen,
    player: str | None,
    public: tuple[dict[str, Any], dict[str, Any] | None] | None = None,
) -> list[dict[str, Any]]:
    """``player``'s view as dicts whose keys, merged in order, are ``seat_view``'s: the
    seat's own, the table (``public``'s, the same object for every seat), its own cards, and
    (at the end) every Objective."""
    if player is not None and player not in state.players:
        raise KeyError(f"{player!r} is not playing at this table")
    shared, objectives = public_part(state) if public is None else public
    parts: list[dict[str, Any]] = [{"game": "wild", "you": player}, shared]
    if player is not None:
        offer = state.offer(player)
        objective_id = state.objective(player)
        parts.append(
            {
                "hand": state.hand(player),
                "offer": None if offer is None else {"card": offer[0], "call": offer[1]},
                "objective": None if objective_id is None else _objective(objective_id),
            }
        )
    if objectives is not None:
        parts.append({"objectives": objectives})
    return parts


def public_part(state: Seen) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What every seat's view shows alike: the table, and (at the end) every Objective."""
    face_up = []
    face_down = dict.fromkeys(state.players, 0)
    for creature, owner, up in state.watering_hole():
        if up:
            face_up.append({"creature": creature, "owner": owner})
        else:
            face_down[owner] += 1
    shared: dict[str, Any] = {
        "players": list(state.players),
        "options": dict(state.deal.options),
        "hand_limit": state.limit,
        "calls": calls(state),
        "hand_sizes": {p: state.hand_size(p) for p in state.players},
        "packs": {p: state.pack_size(p) for p in state.players},
        "dens": dens(state),
        "watering_hole": {"face_up": face_up, "face_down": face_down},
        "asks": [list(pair) for pair in state.asks()],
        "meetings": [m.to_dict() for m in state.meetings],
        "over": state.is_over,
        "winners": state.winners(),
        "scores": state.scores(),
        "ended_by": list(state.ended_by),
    }
    objectives = None
    if state.is_over and state.deal.objectives is not None:
        # At the end every Objective is turned up and scored in the open.
        objectives = {
            p: dict(_objective(o), scored=state.objective_scores(p))
            for p, o in state.deal.objectives.items()
        }
    return shared, objectives


# What an event shows to anyone but its actor. A Call is heard by all, but the card under it
# is face-down; so is a discarded card. Everything else about a wild event is public.
_HIDDEN_KEYS: dict[str, frozenset[str]] = {
    "call": frozenset({"card"}),
    "discard": frozenset({"card"}),
}


def redact(event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """``event`` as ``viewer`` may see it: the actor sees all, others not the face-down card.

    >>> call = {"by": "ann", "do": "call", "card": "snerlep", "call": "skeevil"}
    >>> redact(call, "bo")
    {'by': 'ann', 'do': 'call', 'call': 'skeevil'}
    >>> redact(call, "ann") == call
    True
    """
    hidden = _HIDDEN_KEYS.get(event.get("do"))  # type: ignore[arg-type]
    if hidden is None or (viewer is not None and event.get("by") == viewer):
        return event
    return {k: v for k, v in event.items() if k not in hidden}
