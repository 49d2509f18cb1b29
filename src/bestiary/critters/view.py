"""What one seat may see (an allow-list), and what a view says of the cards it hides.

``view_of`` is the only thing bots, encoders and clients receive; it reads a state only through
the public read-outs ``Seen`` lists. ``CrittersState.from_view`` (determinization for search)
re-deals what a view hides from ``unseen_cards``, on the table ``table_of_view`` rebuilds; it
never looks at the true hidden cards.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from bestiary.core.errors import BadOption
from bestiary.core.records import Event
from bestiary.critters.actions import RANDOM_CARD, CrittersAction
from bestiary.critters.cards import WILD, cards_from_spec, make_deck
from bestiary.critters.effects import PROTECT_SET
from bestiary.critters.info import STALL_RESHUFFLES
from bestiary.critters.kept import share_table, shared_table
from bestiary.critters.setup import Table
from bestiary.critters.tableau import CardSet


class Seen(Protocol):
    """What a view reads of a game: public facts, and the hands (a view shows only its own
    seat's; the omniscient ``summary`` shows them all)."""

    players: tuple[str, ...]

    @property
    def table(self) -> Table: ...
    @property
    def turn(self) -> str | None: ...
    @property
    def awaiting(self) -> str | None: ...
    @property
    def pending(self) -> CrittersAction | None: ...
    @property
    def chance_due(self) -> bool: ...
    @property
    def quiet_turns(self) -> int: ...
    @property
    def stale_reshuffles(self) -> int: ...
    @property
    def began_with_empty_draw_pile(self) -> bool: ...
    @property
    def skip_next(self) -> list[str]: ...
    @property
    def protected(self) -> list[tuple[str, str, bool]]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def draw_pile_size(self) -> int: ...
    @property
    def centre_pile(self) -> list[str]: ...
    def hand(self, player: str) -> list[str]: ...
    def hand_size(self, player: str) -> int: ...
    def tableau(self, player: str) -> list[dict[str, Any]]: ...
    def winners(self) -> list[str]: ...


Public = tuple[list[str], dict[str, Any], dict[str, Any]]  # public_part's


def view_of(state: Seen, player: str | None, public: Public | None = None) -> dict[str, Any]:
    """``player``'s view (``None``: a spectator, who sees no hand), JSON-shaped.

    ``public`` is ``public_part(state)`` when the caller kept it (it is the same for every seat
    until the state changes); its containers are then shared, read-only, between views."""
    view: dict[str, Any] = {}
    for part in view_parts(state, player, public):
        view |= part
    return view


def view_parts(
    state: Seen, player: str | None, public: Public | None = None
) -> list[dict[str, Any]]:
    """``player``'s view as dicts whose keys, merged in order, are ``view_of``'s (no key in
    two parts): the seat's own, then the table (``public``'s, the same object for every seat),
    the hand, the play (``public``'s)."""
    t = state.table
    if player is not None and player not in t.seat:
        raise KeyError(f"{player!r} is not playing in this game")
    players, table, play = public_part(state) if public is None else public
    head: dict[str, Any] = {"game": "critters", "players": players, "you": player}
    if player is None:
        return [head, table, play]
    return [head, table, {"hand": state.hand(player)}, play]


def public_part(state: Seen) -> Public:
    """What every seat's view shows alike: the players, the table (before a view's hand), then
    the play."""
    t = state.table
    pending = state.pending
    players, table = _fixed_part(t)
    play = {
        "hand_sizes": {p: state.hand_size(p) for p in t.players},
        "tableaus": {p: state.tableau(p) for p in t.players},
        "draw_pile": state.draw_pile_size,
        "centre_pile": state.centre_pile,
        "turn": state.turn,
        "awaiting": state.awaiting,
        "pending": None if pending is None else pending.to_event(),
        "chance_due": state.chance_due,
        "quiet_turns": state.quiet_turns,
        "stale_reshuffles": state.stale_reshuffles,
        "began_with_empty_draw_pile": state.began_with_empty_draw_pile,
        "over": state.is_over,
        "winners": state.winners(),
    }
    if t.own_cards and any(card.skips for card in t.own_cards):
        play["skip_next"] = state.skip_next
    if t.own_cards and any(card.choice == PROTECT_SET for card in t.own_cards):
        play["protected"] = [
            [owner, {"kind": kind, "full": full}] for owner, kind, full in state.protected
        ]
    return players, table, play


def _fixed_part(t: Table) -> tuple[list[str], dict[str, Any]]:
    """The players and the table's part of every view: made once a game and kept in the
    table's memo (read-only, as every shared part of a view), not rebuilt at every change."""
    fixed: tuple[list[str], dict[str, Any]] | None = t.memo.get(_FIXED)
    if fixed is None:
        table = {
            "options": t.options(),
            "first": t.players[t.first],
            "kinds": list(t.kinds),
            "deck": dict(t.deck.counts),
        }
        own = t.deck.own_cards
        if own:  # a deck's own action cards: what each is called, says and does
            table["cards"] = {card.name: card.spec() for card in own}
        fixed = t.memo[_FIXED] = (list(t.players), table)
    return fixed


_FIXED: Final = "view's fixed part"  # its key in Table.memo


def redact(event: Event, viewer: str | None) -> Event:
    """``event`` as ``viewer`` may see it: a reshuffle's order is the new Draw Pile, which
    nobody sees; the card a random_card event moves is seen only by the two hands it moves
    between; every other critters event is public.

    >>> redact({"do": "reshuffle", "order": ["fox", "no"]}, "ann")
    {'do': 'reshuffle'}
    >>> redact({"do": "random_card", "from": "bo", "to": "cy", "card": "fox"}, "ann")
    {'do': 'random_card', 'from': 'bo', 'to': 'cy'}
    """
    do = event.get("do")
    if do == "reshuffle":
        return {k: v for k, v in event.items() if k != "order"}
    if do == RANDOM_CARD and viewer not in (event.get("from"), event.get("to")):
        return {k: v for k, v in event.items() if k != "card"}
    return event


def unseen_cards(view: dict[str, Any], player: str) -> list[str]:
    """Every card ``player``'s view hides (other hands and the Draw Pile), in deck order."""
    if view.get("you") != player or "hand" not in view:
        raise BadOption(f"determinize needs {player}'s own view (with their hand)")
    unseen: dict[str, int] = dict(view["deck"])
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
    return pool


def table_of_view(view: dict[str, Any]) -> Table:
    """The table a view describes (players, options, deck; no deal): shared by every state
    determinized from views of one game, so that their ready-made action lists are too."""
    players = tuple(view["players"])
    counts: dict[str, int] = dict(view["deck"])
    options = view["options"]
    own_cards = view.get("cards") or {}
    key = (
        players,
        tuple(sorted(options.items())),
        view["first"],
        tuple(counts.items()),
        repr(own_cards),
    )

    table = shared_table(key)
    if table is None:
        kinds = view["kinds"]
        deck = make_deck(
            {k: counts[k] for k in kinds},
            counts.get(WILD, 0),
            {a: n for a, n in counts.items() if a not in kinds and a != WILD},
            "the view's deck",
            cards_from_spec(own_cards, "the view's deck"),
        )
        table = Table(
            players,
            options["set_size"],
            options["sets_to_win"],
            options["hand_limit"],
            deck,
            (),
            players.index(view["first"]),
            None,
            options.get("stall_reshuffles", STALL_RESHUFFLES),
        )
        share_table(key, table)
    return table


def card_sets(view: dict[str, Any], player: str) -> list[CardSet]:
    """``player``'s tableau as the view shows it, as (kind, cards) sets."""
    return [(s["kind"], tuple(s["cards"])) for s in view["tableaus"][player]]
