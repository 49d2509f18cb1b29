"""The strategy words (docs/sim.md) read from hand-written records."""

from __future__ import annotations

from typing import Any

from bestiary.sim.outcome import strategy_counts


def _meeting(
    p: str, q: str, call: str, cards: tuple[str, str], outcome: str, eater: str | None
) -> dict[str, Any]:
    return {
        "players": [p, q],
        "call": call,
        "cards": {p: cards[0], q: cards[1]},
        "outcome": outcome,
        "eater": eater,
    }


def test_wild_plays_results_and_points() -> None:
    # megalotaur eats snerlep, snerlep eats fizzalisk, ... skeevil eats megalotaur.
    meetings = [
        # ann calls snerlep honestly; bob answers with megalotaur (a hunt) and eats her card
        _meeting("ann", "bob", "snerlep", ("snerlep", "megalotaur"), "eat", "bob"),
        # two honest snerleps mate
        _meeting("ann", "bob", "snerlep", ("snerlep", "snerlep"), "mate", None),
        # bob hunts snerlep with megalotaur; ann double-crosses with skeevil (eats megalotaur)
        _meeting("bob", "ann", "snerlep", ("megalotaur", "skeevil"), "eat", "ann"),
        # ann bluffs: wiffaloon under a snerlep Call; bob honest snerlep; too far apart
        _meeting("ann", "bob", "snerlep", ("wiffaloon", "snerlep"), "avoid", None),
    ]
    events = [
        {"by": "ann", "do": "call", "card": "snerlep", "call": "snerlep"},
        {"by": "bob", "do": "call", "card": "megalotaur", "call": "snerlep"},
    ]
    summary = {"meetings": meetings}
    plain = strategy_counts("wild", ["ann", "bob"], summary, {"options": {}}, events)
    ann, bob = plain
    assert ann["play_honest"] == 2 and ann["play_double_cross"] == 1 and ann["play_bluff"] == 1
    assert bob["play_hunt"] == 2 and bob["play_honest"] == 2
    assert ann["eaten"] == 1 and ann["ate"] == 1 and ann["mated"] == 1 and ann["avoided"] == 1
    assert (
        ann["points_honest"] == 1 and ann["points_double_cross"] == 2 and ann["points_bluff"] == 0
    )
    assert bob["points_hunt"] == 2 and bob["points_honest"] == 1
    assert ann["calls"] == 1 and ann["false_calls"] == 0 and bob["false_calls"] == 1
    bonus = strategy_counts(
        "wild", ["ann", "bob"], summary, {"options": {"mating_bonus": True}}, events
    )
    assert bonus[0]["points_honest"] == 2 and bonus[0]["points_double_cross"] == 3


def test_critters_action_cards_and_no() -> None:
    events = [
        {"by": "ann", "do": "hop_over", "target": "bob", "kind": "fox", "card": "fox"},
        {"by": "bob", "do": "no"},
        {"by": "bob", "do": "ultimate_collector", "target": "ann", "kind": "owl"},
        {"by": "ann", "do": "allow"},
        {"by": "ann", "do": "pass"},
    ]
    ann, bob = strategy_counts("critters", ["ann", "bob"], {}, {"options": {}}, events)
    assert ann == {"allowed": 1.0, "played_hop_over": 1.0, "refused_hop_over": 1.0}
    assert bob == {"played_ultimate_collector": 1.0, "said_no": 1.0}
