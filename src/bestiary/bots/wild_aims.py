"""What a meeting is worth to a wild bot beyond its Den cards: its Objective and the Mating Bonus.

Both are read from the seat's view alone: the table's options, the seat's own Objective (dealt
face-down, shown to its holder) and the meetings the table has seen. With ``objectives`` off the
view holds no Objective, every aim is worth 0 and a bot plays as it always has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bestiary.wild import CREATURES
from bestiary.wild.analytics import INDEX

View = Mapping[str, Any]

# A meeting's outcome from one seat's side, as payoff (wild_view) reckons it.
MATE, EAT, EATEN, AVOID = "mate", "eat", "eaten", "avoid"
# The table's default Nightfall (wild/info.py): bots' patience is tuned for it.
NIGHTFALL = 120.0


def mating_bonus(view: View) -> bool:
    return bool(view["options"].get("mating_bonus", False))


def mate_worth(view: View) -> float:
    """A mate's Den points as a share of a hunt's: 1 of 2 without the Mating Bonus, 2 of 3 with
    it (a mate brings one foreign card; an eat one own and one foreign)."""
    return 2.0 / 3.0 if mating_bonus(view) else 0.5


def nightfall_share(view: View) -> float:
    """The table's Nightfall as a share of the default one: how soon a quiet table ends."""
    return float(view["options"].get("nightfall_seconds", NIGHTFALL)) / NIGHTFALL


def objective(view: View) -> str | None:
    """The seat's own Objective (its id), or None when the table plays without them."""
    if not view["options"].get("objectives", False):
        return None
    mine = view.get("objective")
    return None if mine is None else str(mine["id"])


def outcome(mine: str, theirs: str, call: str) -> str:
    """What a meeting of ``mine`` against ``theirs`` under ``call`` does, from my side."""
    step = (INDEX[theirs] - INDEX[mine]) % 5
    if step == 0:
        return MATE if call == mine else AVOID
    if step == 1:
        return EAT
    if step == 4:
        return EATEN
    return AVOID


def gained(mine: str, theirs: str, result: str) -> list[str]:
    """The creatures my Den gains from the meeting."""
    if result == MATE:
        return [theirs]
    if result == EAT:
        return [mine, theirs]
    return []


def _mine(view: View, me: str) -> list[Mapping[str, Any]]:
    return [m for m in view["meetings"] if me in m["players"]]


def _partner(meeting: Mapping[str, Any], me: str) -> str:
    a, b = meeting["players"]
    return str(b if a == me else a)


def _last_card(view: View, me: str) -> bool:
    held = len(view["hand"]) + (view["offer"] is not None)
    return bool(held + view["packs"][me] <= 1)


def pursuit(view: View, me: str, mine: str, theirs: str, call: str, other: str) -> float:
    """Objective points the meeting brings ``me`` closer to: the Objective's value over the
    meetings still needed (negative where it spoils the Objective), 0 without one."""
    aim = objective(view)
    if aim is None:
        return 0.0
    points = float(view["objective"]["points"])
    result = outcome(mine, theirs, call)
    met = _mine(view, me)
    if aim == "three_partners":
        mated = {_partner(m, me) for m in met if m["outcome"] == "mate"}
        new = result == MATE and other not in mated
        return points / max(1, 3 - len(mated)) if new and len(mated) < 3 else 0.0
    if aim in ("eat_megalotaur", "eat_skeevil"):
        return points if result == EAT and theirs == aim.removeprefix("eat_") else 0.0
    if aim == "bring_sundown":
        return points if _last_card(view, me) else 0.0
    if aim == "full_menagerie":
        have = {card["creature"] for card in view["dens"][me]}
        missing = set(CREATURES) - have
        brought = missing & set(gained(mine, theirs, result))
        return points * len(brought) / len(missing) if missing else 0.0
    if aim == "double_cross":
        crossed = result == EAT and call == CREATURES[(INDEX[mine] + 2) % 5]
        return points if crossed else 0.0
    if aim == "never_hunt":
        return -points if call != mine else points / 2 if not met and result == MATE else 0.0
    if aim == "mate_twice":
        mates = sum(1 for m in met if m["outcome"] == "mate")
        return points / (2 - mates) if result == MATE and mates < 2 else 0.0
    if aim == "three_kills":
        kills = sum(1 for m in met if m["eater"] == me)
        return points / (3 - kills) if result == EAT and kills < 3 else 0.0
    if aim == "big_den":
        need = 6 - len(view["dens"][me])
        return points * min(need, len(gained(mine, theirs, result))) / need if need > 0 else 0.0
    if aim == "peacemaker":
        avoided = sum(1 for m in met if m["outcome"] == "avoid")
        return points / (2 - avoided) if result == AVOID and avoided < 2 else 0.0
    if aim == "untouchable":
        if result == EATEN:
            return -points
        return points / max(1, 2 - len(met)) if result in (MATE, EAT) and len(met) < 2 else 0.0
    if aim == "well_travelled":
        others = set(view["players"]) - {me}
        partners = {_partner(m, me) for m in met}
        new = other not in partners and result != AVOID
        return points / len(others - partners) if new and others - partners else 0.0
    if aim == "last_laugh":
        return points if result == EAT and _last_card(view, me) else 0.0
    return 0.0


def planned(card: str, call: str) -> str:
    """The card a partner shows if the meeting goes as the Call intends: the same creature for
    an honest Call, the called creature for a hunt, its eater for a double-cross, and for a
    bluff the called one (the bluffer hopes for an avoid)."""
    step = (INDEX[call] - INDEX[card]) % 5
    return CREATURES[(INDEX[call] - 1) % 5] if step == 2 else call


def best_partner_pursuit(view: View, me: str, card: str, call: str) -> float:
    """``pursuit`` of a planned meeting, with the partner it helps most (an opening's Call may
    be answered by anyone)."""
    others = [p for p in view["players"] if p != me]
    theirs = planned(card, call)
    return max(pursuit(view, me, card, theirs, call, p) for p in others)
