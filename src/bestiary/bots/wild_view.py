"""Reading a wild seat's view: the moves it allows and what the table has shown so far.

Bots get only ``view(player)``; everything here is computed from that dict, never from the
state, so a bot cannot reach a card its seat cannot see.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bestiary.wild import CREATURES, Call, Discard, Draw, Meet, RevealOwn, Withdraw
from bestiary.wild.analytics import INDEX as INDEX
from bestiary.wild.setup import pack_for


def eats(creature: str) -> str:
    """The creature that ``creature`` eats (one step clockwise)."""
    return CREATURES[(INDEX[creature] + 1) % 5]


def eater_of(creature: str) -> str:
    """The creature that eats ``creature``."""
    return CREATURES[(INDEX[creature] - 1) % 5]


def payoff(mine: str, theirs: str, call: str) -> tuple[int, int]:
    """Den cards (mine, theirs) that a meeting adds, by seat: (1, 1) mate, (2, 0) I eat..."""
    step = (INDEX[theirs] - INDEX[mine]) % 5
    if step == 0:
        return (1, 1) if call == mine else (0, 0)
    if step == 1:
        return (2, 0)
    if step == 4:
        return (0, 2)
    return (0, 0)


def legal_moves(view: Mapping[str, Any]) -> list[Any]:
    """Every move the seat's view allows (the engine's ``legal_actions``, from the view alone)."""
    me: str = view["you"]
    if view["over"]:
        return []
    hand: list[str] = view["hand"]
    offer: Mapping[str, str] | None = view["offer"]
    moves: list[Any] = []
    if len(hand) + (offer is not None) < view["hand_limit"] and view["packs"][me] > 0:
        moves.append(Draw(me))
    held = sorted(set(hand) | ({offer["card"]} if offer else set()), key=INDEX.__getitem__)
    for card in held:
        moves += [Call(me, card, call) for call in CREATURES]
        if card in hand:
            moves.append(Discard(me, card))
    if offer is not None:
        moves += [Withdraw(me), RevealOwn(me)]
        asked = {q for p, q in view["asks"] if p == me}
        for other, call in view["calls"].items():
            if other != me and call == offer["call"] and other not in asked:
                moves.append(Meet(me, other))
    return moves


@dataclass
class Unseen:
    """What is left, as far as a seat can tell, of each opponent's cards (hand, offer, Pack)."""

    left: dict[str, Counter[str]] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Unseen:
        """Each Pack as dealt (the sheet's: two of each creature), less every card of theirs
        seen face-up since."""
        left = {p: Counter(pack_for(view["options"])) for p in view["players"]}
        for den in view["dens"].values():
            for card in den:
                left[card["owner"]][card["creature"]] -= 1
        for card in view["watering_hole"]["face_up"]:
            left[card["owner"]][card["creature"]] -= 1
        return cls({p: +counts for p, counts in left.items()})
