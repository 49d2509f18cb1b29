"""The omniscient final-state object of ``bestiary replay --json`` for critters
(docs/records.md)."""

from __future__ import annotations

from typing import Any

from bestiary.critters.view import Seen


def summary_of(state: Seen) -> dict[str, Any]:
    """Every hand and tableau, the piles' sizes, whose turn it is and who won."""
    return {
        "game": "critters",
        "over": state.is_over,
        "winners": state.winners(),
        "turn": state.turn,
        "awaiting": state.awaiting,
        "hands": {p: state.hand(p) for p in state.players},
        "tableaus": {p: state.tableau(p) for p in state.players},
        "draw_pile": state.draw_pile_size,
        "centre_pile": state.centre_pile,
    }
