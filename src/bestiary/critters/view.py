"""What one seat may see (an allow-list), and determinization for search.

``view_of`` is the only thing bots, encoders and clients receive. ``determinize`` builds a full
state consistent with a view by re-dealing every card the viewer cannot see (other hands and
the Draw Pile order) from the unseen cards; it never looks at the true hidden cards.
"""

from __future__ import annotations

import random
from typing import Any

from bestiary.core.errors import BadOption
from bestiary.critters.actions import action_from_event
from bestiary.critters.cards import ACTION_CARDS, WILD, make_deck
from bestiary.critters.rules import CardSet, CrittersState
from bestiary.critters.setup import Table


def view_of(state: CrittersState, player: str | None) -> dict[str, Any]:
    """``player``'s view (``None``: a spectator, who sees no hand), JSON-shaped."""
    t = state.table
    if player is not None and player not in t.seat:
        raise KeyError(f"{player!r} is not playing in this game")
    pending = state.pending
    view: dict[str, Any] = {
        "game": "critters",
        "players": list(t.players),
        "you": player,
        "options": t.options(),
        "first": t.players[t.first],
        "kinds": list(t.kinds),
        "deck": dict(t.deck.counts),
    }
    if player is not None:
        view["hand"] = state.hand(player)
    view |= {
        "hand_sizes": {p: len(state._hands[i]) for i, p in enumerate(t.players)},
        "tableaus": {p: state.tableau(p) for p in t.players},
        "draw_pile": len(state._draw),
        "centre_pile": state.centre_pile,
        "turn": state.turn,
        "awaiting": state.awaiting,
        "pending": None if pending is None else pending.to_event(),
        "chance_due": state.chance_due,
        "quiet_turns": state.quiet_turns,
        "began_with_empty_draw_pile": state.began_with_empty_draw_pile,
        "over": state.is_over,
        "winners": state.winners(),
    }
    return view


def determinize(
    state_or_view: CrittersState | dict[str, Any], player: str, rng: random.Random
) -> CrittersState:
    """A full state that ``player`` cannot tell from the real one, hidden cards dealt by ``rng``.

    The result owns its own chance seed (it reshuffles by itself during search) and has no record
    history: its ``header()`` describes no real deal.
    """
    view = state_or_view.view(player) if isinstance(state_or_view, CrittersState) else state_or_view
    if view.get("you") != player or "hand" not in view:
        raise BadOption(f"determinize needs {player}'s own view (with their hand)")
    players = tuple(view["players"])
    counts: dict[str, int] = dict(view["deck"])
    kinds = list(view["kinds"])
    unseen = dict(counts)
    seen: list[str] = list(view["hand"]) + list(view["centre_pile"])
    for sets in view["tableaus"].values():
        for s in sets:
            seen.extend(s["cards"])
    for card in seen:
        unseen[card] = unseen.get(card, 0) - 1
        if unseen[card] < 0:
            raise BadOption(f"the view shows more {card} cards than the deck holds")
    pool = [card for card, n in unseen.items() for _ in range(n)]
    hidden = sum(n for p, n in view["hand_sizes"].items() if p != player) + view["draw_pile"]
    if len(pool) != hidden:
        raise BadOption("the view's hidden card counts do not match the deck")
    rng.shuffle(pool)
    options = view["options"]
    key = (players, tuple(sorted(options.items())), view["first"], tuple(counts.items()))
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) > 256:
            _TABLES.clear()
        deck = make_deck(
            {k: counts[k] for k in kinds},
            counts.get(WILD, 0),
            {a: counts.get(a, 0) for a in ACTION_CARDS},
        )
        table = _TABLES[key] = Table(
            players,
            options["set_size"],
            options["sets_to_win"],
            options["hand_limit"],
            deck,
            (),
            players.index(view["first"]),
            None,
        )
    state = object.__new__(CrittersState)
    state._t = table
    state.players = players
    state._chance_seed = rng.getrandbits(64)
    state._shuffles = 0
    hands: list[list[str]] = []
    for p in players:
        if p == player:
            hands.append(list(view["hand"]))
        else:
            n = view["hand_sizes"][p]
            hands.append(pool[:n])
            del pool[:n]
    state._hands = hands
    state._draw = pool
    state._centre = list(view["centre_pile"])
    state._tabs = [[_card_set(s) for s in view["tableaus"][p]] for p in players]
    seat = table.seat
    over = bool(view["over"])
    state._turn = seat[view["turn"]] if view["turn"] is not None else table.first
    state._awaiting = seat[view["awaiting"]] if view["awaiting"] is not None else -1
    state._pending = None if view["pending"] is None else action_from_event(view["pending"])
    state._chance = bool(view["chance_due"])
    state._quiet = int(view["quiet_turns"])
    state._began_empty = bool(view["began_with_empty_draw_pile"])
    state._winners = tuple(seat[w] for w in view["winners"]) if over else None
    state._ending = "won" if over else None
    state._log = []
    return state


_TABLES: dict[Any, Table] = {}
"""Tables of determinized states, reused so that their ready-made action lists are too."""


def _card_set(entry: dict[str, Any]) -> CardSet:
    return (entry["kind"], tuple(entry["cards"]))
