"""The critters entry point: new games, games from record headers, events, random playouts."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bestiary.core.chance import shuffle
from bestiary.core.errors import BadOption
from bestiary.core.game import State
from bestiary.core.records import Header
from bestiary.critters.actions import CrittersAction, action_from_event
from bestiary.critters.cards import (
    DEFAULT_DECK,
    Deck,
    cards_from_spec,
    deck_from_option,
    deck_of_cards,
)
from bestiary.critters.info import INFO
from bestiary.critters.setup import check_players, deal_table, read_options
from bestiary.critters.state import CrittersState


class CrittersGame:
    """The critter set-collection game (registered as ``critters``)."""

    info = INFO

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: object = None,  # checked here: compiled, an int parameter would refuse a bad one
    ) -> CrittersState:
        """Shuffle the deck with ``random.Random(seed)`` and deal (a random seed if None)."""
        names = check_players(players)
        opts = read_options(names, options)
        deck = DEFAULT_DECK if opts.deck is None else deck_from_option(opts.deck)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOption(f"the seed must be a whole number, not {seed!r}")
        cards = deck.cards()
        shuffle(random.Random(seed), cards)
        table = deal_table(names, opts, deck, cards, seed)
        _check_winnable(deck, opts.set_size, opts.sets_to_win)
        return CrittersState.deal(table, seed)

    def from_header(self, header: Header) -> CrittersState:
        """The starting state of a record: its explicit deck, or the deal its seed makes."""
        players = header.get("players")
        if not isinstance(players, list):
            raise BadOption("the header needs 'players' as a list of names")
        names = check_players(players)
        options = header.get("options") or {}
        if not isinstance(options, dict):
            raise BadOption("the header's 'options' must be an object")
        # A deck option means nothing here: a record carries its deck (or its seed).
        options = {k: v for k, v in options.items() if k != "deck"}
        if "first" in header:
            options["first"] = header["first"]
        opts = read_options(names, options, from_record=True)
        seed = header.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadOption(f"the header's seed must be a whole number, not {seed!r}")
        cards = header.get("deck")
        chance_seed: int | None = None
        deck: Deck
        if cards is not None:
            deck = deck_of_cards(cards, own=cards_from_spec(header.get("cards", {}), "the header"))
            deal = list(cards)
        elif seed is not None:
            deck = DEFAULT_DECK
            chance_seed = seed
            deal = deck.cards()
            shuffle(random.Random(seed), deal)
        else:
            raise BadOption("the header needs an explicit 'deck' list or a 'seed'")
        table = deal_table(names, opts, deck, deal, seed)
        return CrittersState.deal(table, chance_seed)

    def action_from_event(self, event: Any) -> CrittersAction:
        """Any JSON value: what is not an event is a MalformedEvent (compiled code would
        refuse a non-dict argument with a TypeError before parsing could say why)."""
        return action_from_event(event)

    def random_playout(self, state: State, rng: random.Random, max_steps: int) -> int:
        """Random legal play by whoever must act (chance included) until the end or max_steps."""
        if not isinstance(state, CrittersState):
            raise TypeError("random_playout needs a CrittersState")
        return state.random_playout(rng, max_steps)


def _check_winnable(deck: Deck, set_size: int, sets_to_win: int) -> None:
    """A new game's deck must be able to give someone the win (a record's need not: it is what
    it was)."""
    most = _DEFAULT_MOST.get(set_size, -1) if deck is DEFAULT_DECK else -1
    if most < 0:
        most = deck.most_full_kinds(set_size)
    if most < sets_to_win:
        raise BadOption(
            f"this deck can never produce a winner: a win needs full sets of {sets_to_win} "
            f"different kinds ({set_size} cards each, wilds filling in), and its cards make "
            f"full sets of at most {most} different kinds"
        )


# The default deck's answer for each set size the options allow, worked out once.
_DEFAULT_MOST: Final = {size: DEFAULT_DECK.most_full_kinds(size) for size in (2, 3, 4)}

GAME = CrittersGame()
