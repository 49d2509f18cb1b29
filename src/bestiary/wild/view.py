"""What one seat may see (an allow-list), and the omniscient ``replay --json`` summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bestiary.wild.objectives import OBJECTIVE_BY_ID

if TYPE_CHECKING:
    from bestiary.wild.rules import WildState


def _objective(objective_id: str) -> dict[str, Any]:
    objective = OBJECTIVE_BY_ID[objective_id]
    return {"id": objective.id, "title": objective.title, "points": objective.points}


def _dens(state: WildState) -> dict[str, list[dict[str, str]]]:
    return {p: [{"creature": c, "owner": o} for c, o in state.den(p)] for p in state.players}


def seat_view(state: WildState, player: str | None) -> dict[str, Any]:
    """``player``'s view (``None``: a spectator). Built only from public facts plus own cards."""
    if player is not None and player not in state.players:
        raise KeyError(f"{player!r} is not playing at this table")
    face_up = []
    face_down = dict.fromkeys(state.players, 0)
    for creature, owner, up in state.watering_hole():
        if up:
            face_up.append({"creature": creature, "owner": owner})
        else:
            face_down[owner] += 1
    view: dict[str, Any] = {
        "game": "wild",
        "you": player,
        "players": list(state.players),
        "options": dict(state.deal.options),
        "hand_limit": state.limit,
        "calls": {p: state.offer_call(p) for p in state.players},
        "hand_sizes": {p: state.hand_size(p) for p in state.players},
        "packs": {p: state.pack_size(p) for p in state.players},
        "dens": _dens(state),
        "watering_hole": {"face_up": face_up, "face_down": face_down},
        "asks": [list(pair) for pair in state.asks()],
        "meetings": [m.to_dict() for m in state.meetings],
        "over": state.is_over,
        "winners": state.winners(),
        "scores": state.scores(),
        "ended_by": list(state.ended_by),
    }
    if player is not None:
        offer = state.offer(player)
        view["hand"] = state.hand(player)
        view["offer"] = None if offer is None else {"card": offer[0], "call": offer[1]}
        objective_id = state.objective(player)
        view["objective"] = None if objective_id is None else _objective(objective_id)
    if state.is_over and state.deal.objectives is not None:
        # At the end every Objective is turned up and scored in the open.
        view["objectives"] = {
            p: dict(_objective(o), scored=state.objective_scores(p))
            for p, o in state.deal.objectives.items()
        }
    return view


def summary(state: WildState) -> dict[str, Any]:
    """The final-state object of ``bestiary replay --json`` for wild (RECORDS.md)."""
    offers: dict[str, dict[str, str] | None] = {}
    for p in state.players:
        offer = state.offer(p)
        offers[p] = None if offer is None else {"card": offer[0], "call": offer[1]}
    return {
        "game": "wild",
        "over": state.is_over,
        "winners": state.winners(),
        "scores": state.scores(),
        "dens": _dens(state),
        "watering_hole": [
            {"creature": c, "owner": o, "face_up": up} for c, o, up in state.watering_hole()
        ],
        "hands": {p: state.hand(p) for p in state.players},
        "offers": offers,
        "packs": {p: state.pack_size(p) for p in state.players},
        "meetings": [m.to_dict() for m in state.meetings],
        "ended_by": list(state.ended_by),
    }


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
