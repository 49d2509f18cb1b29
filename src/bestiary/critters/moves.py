"""Legal-action generation for the turn player: every move but pass and discard.

This is the engine's hot path (``bestiary bench``): action values are interned and reused, and
per-game lists of ready-made actions live in the game's ``Table``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bestiary.critters.actions import (
    Complete,
    CrittersAction,
    Down,
    GameChanger,
    HopOver,
    PlaySet,
    SwapWild,
    UltimateCollector,
)
from bestiary.critters.cards import GAME_CHANGER, HOP_OVER, ULTIMATE_COLLECTOR, WILD
from bestiary.critters.setup import Table
from bestiary.critters.tableau import CardSet, fills_with_wilds

_CACHE: dict[tuple[Any, ...], Any] = {}


def interned(cls: Any, *args: Any) -> Any:
    """Actions are values: intern them, so generating legal actions rarely builds objects."""
    key = (cls, *args)
    action = _CACHE.get(key)
    if action is None:
        if len(_CACHE) > 500_000:
            _CACHE.clear()
        action = _CACHE[key] = cls(*args)
    return action


def turn_moves(
    t: Table, hand: Sequence[str], tabs: Sequence[Sequence[CardSet]], p: int, by: str
) -> list[CrittersAction]:
    """Every move but pass/discard for the turn player ``p`` (seat) holding ``hand``.

    ``tabs`` is every seat's tableau, in seat order.
    """
    size = t.set_size
    kinds = t.kinds
    players = t.players
    cnt: dict[str, int] = {}
    for c in hand:
        cnt[c] = cnt.get(c, 0) + 1
    wilds = cnt.get(WILD, 0)
    last = size - 1
    inc: dict[str, tuple[str, ...]] = {}
    wild_full: set[str] = set()  # kinds with a full set holding a wild (swap_wild)
    blocked: set[str] = set()  # kinds where one more wild would make an all-wild full set
    for kind, cards in tabs[p]:
        n_cards = len(cards)
        if n_cards < size:
            inc[kind] = cards
            if n_cards == last and cards.count(WILD) == last:
                blocked.add(kind)
        elif WILD in cards:
            wild_full.add(kind)
    memo = t.memo
    cget = _CACHE.get
    acts: list[CrittersAction] = []
    add = acts.append
    held = [k for k in kinds if k in cnt]
    for k in held:
        add(cget((Down, by, k, None)) or interned(Down, by, k, None))
    if wilds:
        every = memo.get(("down_wild", p))
        if every is None:
            every = memo[("down_wild", p)] = [interned(Down, by, WILD, k) for k in kinds]
        acts.extend(every if not blocked else [a for a in every if a.as_ not in blocked])
    for k in held:
        for n in range(max(1, size - wilds), min(cnt[k], size) + 1):
            add(
                cget((PlaySet, by, k, (k,) * n + (WILD,) * (size - n)))
                or interned(PlaySet, by, k, (k,) * n + (WILD,) * (size - n))
            )
    for k, cards in inc.items():
        need = size - len(cards)
        has = cnt.get(k, 0)
        for n in range(0, min(has, need) + 1):
            if need - n <= wilds and (n or k in cards):
                add(
                    cget((Complete, by, k, (k,) * n + (WILD,) * (need - n)))
                    or interned(Complete, by, k, (k,) * n + (WILD,) * (need - n))
                )
    for k in held:
        if k in wild_full:
            every = memo.get(("swap_wild", p, k))
            if every is None:
                every = memo[("swap_wild", p, k)] = [interned(SwapWild, by, k, k2) for k2 in kinds]
            acts.extend(every if not blocked else [a for a in every if a.to not in blocked])
    n = len(players)
    if HOP_OVER in cnt:
        for step in range(1, n):
            q = (p + step) % n
            for kind, cards in tabs[q]:
                if len(cards) < size:
                    if kind in cards:
                        add(
                            cget((HopOver, by, players[q], kind, kind))
                            or interned(HopOver, by, players[q], kind, kind)
                        )
                    if WILD in cards and kind not in blocked:
                        add(
                            cget((HopOver, by, players[q], kind, WILD))
                            or interned(HopOver, by, players[q], kind, WILD)
                        )
    if GAME_CHANGER in cnt and inc:
        give = [(k, c) for k, cards in inc.items() for c in (k, WILD) if c in cards]
        for step in range(1, n):
            q = (p + step) % n
            theirs_inc = {k: c for k, c in tabs[q] if len(c) < size}
            if not theirs_inc:
                continue
            take = [(k, c) for k, cards in theirs_inc.items() for c in (k, WILD) if c in cards]
            target = players[q]
            for k1, c1 in give:
                for k2, c2 in take:
                    if k1 != k2:
                        if c2 == WILD and k2 in blocked:
                            continue
                        if c1 == WILD and fills_with_wilds(theirs_inc.get(k1), last):
                            continue
                    add(
                        cget((GameChanger, by, target, k1, c1, k2, c2))
                        or interned(GameChanger, by, target, k1, c1, k2, c2)
                    )
    if ULTIMATE_COLLECTOR in cnt:
        for step in range(1, n):
            q = (p + step) % n
            seen: list[str] = []
            for kind, cards in tabs[q]:
                if len(cards) == size and kind not in seen:
                    seen.append(kind)
                    add(
                        cget((UltimateCollector, by, players[q], kind))
                        or interned(UltimateCollector, by, players[q], kind)
                    )
    return acts
