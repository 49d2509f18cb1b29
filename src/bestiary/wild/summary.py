"""The omniscient final-state object of ``bestiary replay --json`` for wild (docs/records.md)."""

from __future__ import annotations

from typing import Any

from bestiary.wild.view import Seen, dens


def summary_of(state: Seen) -> dict[str, Any]:
    """The final-state object of ``bestiary replay --json`` for wild (docs/records.md)."""
    offers: dict[str, dict[str, str] | None] = {}
    for p in state.players:
        offer = state.offer(p)
        offers[p] = None if offer is None else {"card": offer[0], "call": offer[1]}
    return {
        "game": "wild",
        "over": state.is_over,
        "winners": state.winners(),
        "scores": state.scores(),
        "dens": dens(state),
        "watering_hole": [
            {"creature": c, "owner": o, "face_up": up} for c, o, up in state.watering_hole()
        ],
        "hands": {p: state.hand(p) for p in state.players},
        "offers": offers,
        "packs": {p: state.pack_size(p) for p in state.players},
        "meetings": [m.to_dict() for m in state.meetings],
        "ended_by": list(state.ended_by),
    }
