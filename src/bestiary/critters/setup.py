"""Setting up a critters game: players, options, the deck and the deal (docs/rulings.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bestiary.core.errors import BadOption
from bestiary.core.values import by_fields
from bestiary.critters.cards import WILD, Deck
from bestiary.critters.effects import ActionCard
from bestiary.critters.info import INFO, STALL_RESHUFFLES


@dataclass(frozen=True)
class Table:
    """Everything fixed for one game, shared by every clone of its state."""

    players: tuple[str, ...]
    set_size: int
    sets_to_win: int
    hand_limit: int
    deck: Deck
    deal: tuple[str, ...]
    first: int
    seed: int | None
    stall_reshuffles: int = STALL_RESHUFFLES
    # False: the plain path, keeping nothing to go faster (bestiary.critters.kept)
    keep: bool = field(default=True, compare=False)
    seat: dict[str, int] = field(init=False, compare=False)
    memo: dict[Any, Any] = field(init=False, compare=False, repr=False)
    kinds: tuple[str, ...] = field(init=False, compare=False)
    card_order: tuple[str, ...] = field(init=False, compare=False)
    # Each card's place in card_order (kinds first, in the deck's order): legal-move generation
    # counts a hand in a list by these places rather than in a dict by name.
    card_at: dict[str, int] = field(init=False, compare=False, repr=False)
    wild_at: int = field(init=False, compare=False, repr=False)
    # the deck's action cards (but no, an answer), each with its place in card_order
    playable: tuple[tuple[ActionCard, int], ...] = field(init=False, compare=False, repr=False)
    # the same cards by name (the rules look a played card up at every play and answer)
    card_named: dict[str, ActionCard] = field(init=False, compare=False, repr=False)
    own_cards: tuple[ActionCard, ...] = field(init=False, compare=False, repr=False)  # deck's own

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", {name: i for i, name in enumerate(self.players)})
        # Per-game lists of ready-made actions (legal-action generation reuses them).
        object.__setattr__(self, "memo", {})
        object.__setattr__(self, "kinds", self.deck.kinds)
        order = tuple(card for card, _ in self.deck.counts)
        object.__setattr__(self, "card_order", order)
        at = {card: i for i, card in enumerate(order)}
        object.__setattr__(self, "card_at", at)
        object.__setattr__(self, "wild_at", at[WILD])
        playable = tuple((card, at[card.name]) for card in self.deck.actions)
        object.__setattr__(self, "playable", playable)
        object.__setattr__(self, "card_named", {card.name: card for card in self.deck.actions})
        object.__setattr__(self, "own_cards", self.deck.own_cards)

    def action_card(self, name: str) -> ActionCard | None:
        """The definition of the deck's action card ``name`` (None if the deck has none)."""
        return self.card_named.get(name)

    def options(self) -> dict[str, Any]:
        """The effective options, as a record header carries them."""
        return {
            "set_size": self.set_size,
            "sets_to_win": self.sets_to_win,
            "hand_limit": self.hand_limit,
            "stall_reshuffles": self.stall_reshuffles,
        }


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(players)
    if not all(isinstance(p, str) and p for p in names):
        raise BadOption("player names must be non-empty text")
    if len(set(names)) != len(names):
        raise BadOption("player names must be unique")
    INFO.check_player_count(len(names))
    return names


@dataclass(frozen=True, slots=True)
class Options:
    """The options of one game, checked and resolved against the table."""

    set_size: int
    sets_to_win: int
    hand_limit: int
    first: int  # a seat
    deck: Any  # the deck option as given (a file path or a deck's content), or None
    stall_reshuffles: int


def read_options(
    players: tuple[str, ...], options: Mapping[str, Any] | None, *, from_record: bool = False
) -> Options:
    """Options checked by the game's schema (``INFO``), then the checks that span options.

    A record ignores option names it does not know (docs/records.md); a new game refuses them.
    """
    given = {**INFO.defaults(), **INFO.check_options(options, from_record=from_record)}
    set_size, sets_to_win = given["set_size"], given["sets_to_win"]
    if set_size == 4 and sets_to_win == 4:
        raise BadOption("choose one longer variant: set_size 4 or sets_to_win 4, not both")
    if (set_size == 4 or sets_to_win == 4) and len(players) > 4:
        raise BadOption("the longer variants (set_size 4, sets_to_win 4) are for 2 to 4 players")
    hand_limit = given["hand_limit"]
    if hand_limit is None:
        hand_limit = 4 if len(players) >= 6 else 5
    first = given["first"]
    if first is None:
        first = players[0]
    if first not in players:
        raise BadOption(f"option first must name one of the players, not {first!r}")
    return Options(
        set_size,
        sets_to_win,
        hand_limit,
        players.index(first),
        given["deck"],
        given["stall_reshuffles"],
    )


def deal_table(
    players: tuple[str, ...], options: Options, deck: Deck, deal: Sequence[str], seed: int | None
) -> Table:
    """The table of a game dealt from ``deal`` (the whole deck, in order, top first)."""
    needed = len(players) * options.hand_limit
    if len(deal) < needed:
        raise BadOption(
            f"the deck has {len(deal)} cards, too few to deal {options.hand_limit} to each of "
            f"{len(players)} players"
        )
    return Table(
        players, options.set_size, options.sets_to_win, options.hand_limit, deck, tuple(deal),
        options.first, seed, options.stall_reshuffles,
    )  # fmt: skip


# Copied and pickled by their fields (bestiary.core.values: compiled classes need it).
by_fields(Table, Options)
