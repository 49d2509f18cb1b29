"""Setting up a wild game: players, options, Packs and Objectives checked, and the deal.

Dealing from a seed is ``random.Random(seed)``: each Pack (``fresh_pack``: the sheet's ten
cards, or the smaller Pack the ``pack_creatures`` and ``pack_copies`` options ask for) is
shuffled in seat order, then the Objective deck (``OBJECTIVE_IDS``) is shuffled and seat i
takes card i.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.core.errors import BadOption
from bestiary.core.values import by_fields
from bestiary.wild.cards import CREATURE_INDEX, CREATURES, fresh_pack
from bestiary.wild.info import INFO
from bestiary.wild.objectives import OBJECTIVE_BY_ID, OBJECTIVE_IDS


@dataclass(frozen=True, slots=True)
class Deal:
    """A checked starting position: who plays, with what options, and every Pack in order."""

    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int | None
    packs: dict[str, tuple[str, ...]]  # top of the Pack first
    objectives: dict[str, str] | None


def check_players(players: Any) -> tuple[str, ...]:
    """Players must be 2-6 unique non-empty strings."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise BadOption("players must be a list of names")
    if not all(isinstance(p, str) and p for p in players):
        raise BadOption("every player name must be a non-empty string")
    if len(set(players)) != len(players):
        raise BadOption("player names must be unique")
    INFO.check_player_count(len(players))
    return tuple(players)


def check_options(options: Any, *, from_record: bool = False) -> dict[str, Any]:
    """Every option, checked by the game's schema (``INFO``); missing ones take their defaults.

    A new game refuses an unknown option name (most likely a typo); a record ignores it, as
    docs/records.md says of every unknown key. No wild option depends on another.
    """
    return {**INFO.defaults(), **INFO.check_options(options, from_record=from_record)}


def pack_for(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The unshuffled Pack every player holds under ``options`` (checked ones)."""
    return fresh_pack(options["pack_creatures"], options["pack_copies"])


def check_pack(player: str, pack: Any, fresh: tuple[str, ...]) -> tuple[str, ...]:
    """``pack`` if it holds exactly the cards of ``fresh`` (in any order)."""
    if not isinstance(pack, list | tuple) or len(pack) != len(fresh):
        raise BadOption(f"{player}'s Pack must be a list of exactly {len(fresh)} creatures")
    for card in pack:
        if card not in CREATURE_INDEX:
            raise BadOption(f"{player}'s Pack holds {card!r}, which is not a creature")
    counts, wanted = Counter(pack), Counter(fresh)
    if counts != wanted:
        wrong = next(c for c in CREATURES if counts[c] != wanted[c])
        which = "creature" if len(wanted) == len(CREATURES) else "of " + ", ".join(wanted)
        raise BadOption(
            f"{player}'s Pack must hold {_COPIES[wanted[fresh[0]]]} of each {which} "
            f"(it has {counts[wrong]} {wrong})"
        )
    return tuple(pack)


_COPIES = ("no", "one", "two")


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOption(f"seed must be an integer, not {seed!r}")
    return seed


def deal_from_header(header: Mapping[str, Any]) -> Deal:
    """Check a wild header and produce its deal; BadOption with one sentence if it is wrong."""
    players = check_players(header.get("players"))
    options = check_options(header.get("options"), from_record=True)
    seed = check_seed(header["seed"]) if header.get("seed") is not None else None
    rng = random.Random(seed) if seed is not None else None
    seeded_packs: dict[str, tuple[str, ...]] = {}
    fresh = pack_for(options)
    if rng is not None:
        for player in players:
            pack = list(fresh)
            rng.shuffle(pack)
            seeded_packs[player] = tuple(pack)
    raw_packs = header.get("packs")
    if raw_packs is not None:
        if not isinstance(raw_packs, Mapping) or set(raw_packs) != set(players):
            raise BadOption("'packs' must give exactly one Pack for each player")
        packs = {p: check_pack(p, raw_packs[p], fresh) for p in players}
    elif rng is not None:
        packs = seeded_packs
    else:
        raise BadOption("the header needs either 'packs' (the deal) or 'seed'")
    objectives: dict[str, str] | None = None
    if options["objectives"]:
        raw = header.get("objectives")
        if raw is not None:
            objectives = check_objectives(players, raw)
        elif rng is not None:
            deck = list(OBJECTIVE_IDS)
            rng.shuffle(deck)
            objectives = dict(zip(players, deck, strict=False))
        else:
            raise BadOption("objectives are on but the header deals none and has no seed")
    return Deal(players, options, seed, packs, objectives)


def check_objectives(players: tuple[str, ...], raw: Any) -> dict[str, str]:
    if not isinstance(raw, Mapping) or set(raw) != set(players):
        raise BadOption("'objectives' must give exactly one Objective for each player")
    for player in players:
        if raw[player] not in OBJECTIVE_BY_ID:
            raise BadOption(f"{player}'s Objective {raw[player]!r} is not in the Objective deck")
    if len(set(raw.values())) != len(players):
        raise BadOption("each player must hold a different Objective")
    return {p: raw[p] for p in players}


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Deal)
