"""What ``GET /api/games`` serves: each game described for a client (CORE_API.md's shape).

Stand-in until ``GameInfo.as_json()`` lands on main (issue 10): the same fields, gathered here
from what the engines already expose. When it lands, ``game_json`` becomes
``get_game(name).info.as_json()`` and this module goes away.
"""

from __future__ import annotations

from typing import Any

from bestiary.core.agent import bot_entries

# Which registered bot a table offers first (the strongest that answers at once), best first.
BOT_PREFERENCE = ("heuristic", "greedy", "trickster", "basic", "honest", "random")


def _option(
    name: str,
    kind: str,
    default: Any,
    description: str,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: tuple[Any, ...] = (),
) -> dict[str, Any]:
    return {
        "name": name,
        "kind": kind,
        "default": default,
        "minimum": minimum,
        "maximum": maximum,
        "choices": list(choices),
        "description": description,
    }


def _wild() -> dict[str, Any]:
    from bestiary.wild.cards import CREATURES, EATING_VERBS, SOUNDS, eaten_by_index

    return {
        "name": "wild",
        "title": "Call of the Wild",
        "summary": (
            "Real-time bluffing for 2 to 6: put a card face-down, make a creature's Call, meet a "
            "player making the same Call. Two of a kind mate; neighbours on the food chain eat."
        ),
        "min_players": 2,
        "max_players": 6,
        "real_time": True,
        "chance": False,
        "options": [
            _option(
                "mating_bonus",
                "bool",
                False,
                "Mating bonus: 2 points per Den card from another player's Pack.",
            ),
            _option(
                "objectives",
                "bool",
                False,
                "Objectives: each player gets a secret Objective card that scores at the end.",
            ),
            _option(
                "nightfall_seconds",
                "number",
                120,
                "Nightfall: the game ends after this many seconds without a meeting.",
                minimum=10,
                maximum=3600,
            ),
        ],
        "vocabulary": {
            "creatures": list(CREATURES),  # in food-chain order: each eats the next
            "names": {c: c for c in CREATURES},
            "sounds": dict(SOUNDS),
            "eats": {c: CREATURES[eaten_by_index(i)] for i, c in enumerate(CREATURES)},
            "verbs": dict(EATING_VERBS),
        },
    }


def _critters() -> dict[str, Any]:
    from bestiary.critters.cards import ACTION_CARDS, DEFAULT_KINDS, WILD

    names = {kind: kind for kind in DEFAULT_KINDS}
    names |= {
        WILD: "wild",
        "no": "It's Okay to Say NO!",
        "hop_over": "Hop Over",
        "game_changer": "Game Changer",
        "ultimate_collector": "Ultimate Collector",
    }
    return {
        "name": "critters",
        "title": "Critters",
        "summary": (
            "Turn-based set collecting for 2 to 8: put critters down, complete full sets with "
            "wild cards, hop over, swap and steal with action cards, and say NO!. Full sets of "
            "three different kinds win."
        ),
        "min_players": 2,
        "max_players": 8,
        "real_time": False,
        "chance": True,
        "options": [
            _option(
                "set_size",
                "choice",
                3,
                "Cards in a full set (4: the longer variant, 2 to 4 players).",
                choices=(3, 4),
            ),
            _option(
                "sets_to_win",
                "choice",
                3,
                "Full sets of different kinds needed to win "
                "(4: the longer variant, 2 to 4 players).",
                choices=(3, 4),
            ),
            _option(
                "hand_limit",
                "int",
                None,
                "Most cards you may hold at the end of a turn "
                "(default 5, 4 with six or more players).",
                minimum=1,
                maximum=20,
            ),
        ],
        "vocabulary": {
            "kinds": list(DEFAULT_KINDS),
            "actions": list(ACTION_CARDS),
            "wild": WILD,
            "names": names,
            "descriptions": {
                WILD: "Stands for any critter kind, declared when it goes down.",
                "no": "Cancels an action card played against you.",
                "hop_over": "Take one Down Card from an opponent's incomplete set.",
                "game_changer": "Swap one of your Down Cards with one of an opponent's "
                "(neither from a full set).",
                "ultimate_collector": "Steal an opponent's full set, whole.",
            },
        },
    }


_DESCRIBED = {"wild": _wild, "critters": _critters}


def game_json(name: str) -> dict[str, Any]:
    """One game as ``/api/games`` lists it, with its registered bots, best first."""
    described = _DESCRIBED[name]()
    entries = bot_entries(name)
    order = {bot: rank for rank, bot in enumerate(reversed(BOT_PREFERENCE), start=1)}
    bots = sorted(
        (
            {"name": e.name, "description": e.description, "rank": order.get(e.name, 0)}
            for e in entries
        ),
        key=lambda b: -int(b["rank"]),
    )
    described["bots"] = bots
    described["default_bot"] = bots[0]["name"] if bots else None
    return described
