"""Duel: a tiny hidden-card game that exists only for the tests.

It proves that a game package is all a new game needs: installed as its own distribution
(``tests/toygame/pyproject.toml``) and found through the ``bestiary.games`` entry point, it is
served by the real server with the generic browser board, played at the terminal with the
generic terminal board, simulated by ``bestiary sim`` (worker processes too), replayed by
``bestiary replay`` and wrapped by the adapters' generic faces, with no change anywhere else.
It writes only what it has: ``BaseState`` gives it the plumbing (no chance, no clocks).

Rules: every player holds one face-down card (1 to 9). In seat order, each player takes
``rounds`` turns; a turn is ``stand`` or ``swap`` (your card goes face-up to the discard pile
and you take the top card of the deck). Then the highest card wins; equal cards share the win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bestiary.core.errors import BadOption, IllegalAction, MalformedEvent
from bestiary.core.game import BaseGame, BaseState
from bestiary.core.info import GameInfo, OptionSpec
from bestiary.core.records import Event, Header

CARDS = tuple(str(n) for n in range(1, 10))

INFO = GameInfo(
    name="duel",
    title="Duel",
    summary="Keep your hidden card or swap it for the top of the deck; the highest card wins.",
    min_players=2,
    max_players=4,
    real_time=False,
    chance=False,
    options=(OptionSpec("rounds", "int", 2, minimum=1, maximum=5, description="turns each"),),
    vocabulary={"cards": {c: f"card {c}" for c in CARDS}},
    default_bot="duel-keeper",
    bots=("bestiary_duel.bots",),
)


@dataclass(frozen=True, slots=True)
class Stand:
    by: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "stand"}


@dataclass(frozen=True, slots=True)
class Swap:
    by: str

    def to_event(self) -> Event:
        return {"by": self.by, "do": "swap"}


class DuelState(BaseState):
    def __init__(self, players: tuple[str, ...], deck: Sequence[str], rounds: int) -> None:
        if len(deck) < len(players):
            raise BadOption("the deck is too small to deal every player a card")
        self.players = players
        self.rounds = rounds
        self.deal = tuple(deck)
        self.held = {p: deck[i] for i, p in enumerate(players)}
        self.deck = list(deck[len(players) :])
        self.discards: list[str] = []
        self.log: list[Stand | Swap] = []

    @property
    def turn(self) -> str | None:
        turns, total = len(self.log), self.rounds * len(self.players)
        return None if turns >= total else self.players[turns % len(self.players)]

    @property
    def is_over(self) -> bool:
        return self.turn is None

    @property
    def actors(self) -> tuple[str, ...]:
        turn = self.turn
        return () if turn is None else (turn,)

    @property
    def history(self) -> tuple[Stand | Swap, ...]:
        return tuple(self.log)

    def timeout_action(self, player: str) -> Stand | None:
        return Stand(player) if player == self.turn else None

    def legal_actions(self, player: str) -> list[Any]:
        if player != self.turn:
            return []
        return [Stand(player), Swap(player)] if self.deck else [Stand(player)]

    def apply(self, action: Any) -> list[Event]:
        if action not in self.legal_actions(getattr(action, "by", "")):
            raise IllegalAction(f"{action!r} is not legal now (it is {self.turn}'s turn)")
        if isinstance(action, Swap):
            self.discards.append(self.held[action.by])
            self.held[action.by] = self.deck.pop(0)
        self.log.append(action)
        return [action.to_event()]

    def winners(self) -> list[str]:
        if not self.is_over:
            return []
        best = max(self.held.values(), key=int)
        return [p for p in self.players if self.held[p] == best]

    def scores(self) -> dict[str, int]:
        return {p: int(c) if self.is_over else 0 for p, c in self.held.items()}

    def ending(self) -> str | None:
        return "shown" if self.is_over else None

    def tallies(self) -> dict[str, int]:
        return {"swaps": sum(isinstance(a, Swap) for a in self.log)}

    def view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": "duel",
            "players": list(self.players),
            "you": player,
            "turn": self.turn,
            "discards": list(self.discards),
            "deck": len(self.deck),
            "over": self.is_over,
            "winners": self.winners(),
        }
        if player is not None:
            view["card"] = self.held[player]
        if self.is_over:
            view["cards"] = dict(self.held)  # shown at the end
        return view

    def redact(self, event: Event, viewer: str | None) -> Event:
        return event  # every duel event is public; the cards are in the views

    def summary(self) -> dict[str, Any]:
        return {"game": "duel", "over": self.is_over, "winners": self.winners(), **self.held}

    def header(self) -> Header:
        return {
            "game": "duel",
            "version": 1,
            "players": list(self.players),
            "options": {"rounds": self.rounds},
            "deck": list(self.deal),
        }


class DuelGame(BaseGame):
    info = INFO

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> DuelState:
        INFO.check_player_count(len(players))
        opts = {**INFO.defaults(), **INFO.check_options(options)}
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        return DuelState(tuple(players), deck, opts["rounds"])

    def from_header(self, header: Header) -> DuelState:
        opts = {**INFO.defaults(), **INFO.check_options(header.get("options"), from_record=True)}
        deck = header.get("deck")
        if not isinstance(deck, list) or not all(c in CARDS for c in deck):
            raise BadOption("a duel header needs 'deck' as a list of cards 1 to 9")
        return DuelState(tuple(header["players"]), deck, opts["rounds"])

    def action_from_event(self, event: Event) -> Any:
        by, do = event.get("by"), event.get("do")
        if not isinstance(by, str) or do not in ("stand", "swap"):
            raise MalformedEvent("a duel event is {'by': player, 'do': 'stand' or 'swap'}")
        return Stand(by) if do == "stand" else Swap(by)


GAME = DuelGame()
