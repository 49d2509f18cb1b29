"""Bots for the critter set-collection game (registered as ``critters`` bots).

A bot sees only its view and is handed its legal moves (``act(view, legal)``). Handed none, it
lists them from a determinized state: every legal move of a seat depends only on what that seat
can see (its hand, the tableaus, the pending action), so any re-deal gives the same list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bestiary.core.agent import register_bot
from bestiary.core.bot_params import BotParam
from bestiary.core.chance import pick
from bestiary.critters.actions import (
    Allow,
    Complete,
    Discard,
    Down,
    GameChanger,
    HopOver,
    Pass,
    PlayCard,
    PlaySet,
    Protect,
    SayNo,
    SwapWild,
    UltimateCollector,
)
from bestiary.critters.effects import DRAW, SKIP_TURN, TAKE_RANDOM
from bestiary.critters.info import STALL_RESHUFFLES
from bestiary.critters.state import CrittersState, determinize

View = Mapping[str, Any]


def legal_moves(view: View, rng: random.Random) -> list[Any]:
    """The seat's legal moves, from its view alone."""
    if view["over"]:
        return []
    return determinize(dict(view), view["you"], rng).legal_actions(view["you"])


class CritterBot:
    """Base: one seat and a seeded RNG (pacing is the driver's)."""

    def __init__(self, player: str, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through __init__ and then its fields: a compiled (mypyc) bot is made only
        through its __init__ (OpenSpiel serializes a state with its match and bots)."""
        return type(self), (self.player, self.rng), self.__getstate__()

    def act(self, view: View, legal: Sequence[Any] | None = None) -> Any | None:
        moves = list(legal) if legal is not None else legal_moves(view, self.rng)
        return self.choose(view, moves) if moves else None

    def choose(self, view: View, moves: list[Any]) -> Any:
        raise NotImplementedError


class RandomBot(CritterBot):
    """Uniformly random legal moves."""

    lazy_view: ClassVar[bool] = True  # reads its view rarely if at all (core.agent.LazyView)

    def choose(self, view: View, moves: list[Any]) -> Any:
        # rng.choice's draws, compiled (the stdlib's choice is interpreted Python)
        return pick(self.rng, moves)


class Position:
    """What a move scorer needs to know about the table, as one seat sees it."""

    def __init__(
        self,
        me: str,
        size: int,
        to_win: int,
        hand: Counter[str],
        full: dict[str, set[str]],
        partial: dict[str, dict[str, int]],
        pending: Mapping[str, Any] | None,
        extras: Mapping[str, float] | None = None,
        last_pile: bool = False,
    ) -> None:
        self.me = me
        self.size = size
        self.to_win = to_win
        self.hand = hand
        self.full = full
        self.partial = partial
        self.pending = pending
        # a deck's own card -> what its effects beyond its choice are worth (card_extras)
        self.extras = extras or {}
        # The Draw Pile is the last before the stalled ending (``stall_reshuffles``): the game
        # is then ranked by full-set kinds, then Down Cards, so every Down Card counts.
        self.last_pile = last_pile

    @classmethod
    def from_view(cls, view: View) -> Position:
        options = view["options"]
        tableaus: Mapping[str, list[dict[str, Any]]] = view["tableaus"]
        return cls(
            view["you"],
            options["set_size"],
            options["sets_to_win"],
            Counter(view["hand"]),
            {p: {s["kind"] for s in sets if s["full"]} for p, sets in tableaus.items()},
            {
                p: {s["kind"]: len(s["cards"]) for s in sets if not s["full"]}
                for p, sets in tableaus.items()
            },
            view["pending"],
            card_extras({name: spec["effects"] for name, spec in view.get("cards", {}).items()}),
            view.get("stale_reshuffles", 0) >= options.get("stall_reshuffles", STALL_RESHUFFLES),
        )

    @classmethod
    def from_state(cls, state: CrittersState, me: str) -> Position:
        """For playouts inside a determinization (which is a full state).

        The same position ``from_view`` reads, built straight from the state's sets (the hot
        path of every playout step: no view, no set dicts).
        """
        size = state.set_size
        full: dict[str, set[str]] = {}
        partial: dict[str, dict[str, int]] = {}
        for seat, player in enumerate(state.players):
            sets = state.tableau_at(seat)
            full[player] = {kind for kind, cards in sets if len(cards) == size}
            partial[player] = {kind: len(cards) for kind, cards in sets if len(cards) != size}
        hand = Counter(state.hand_at(state.players.index(me)))
        pending = state.pending
        return cls(
            me,
            size,
            state.sets_to_win,
            hand,
            full,
            partial,
            None if pending is None else pending.to_event(),
            _own_extras(state),
            state.stale_reshuffles >= state.table.stall_reshuffles,
        )

    def mine_full(self) -> set[str]:
        return self.full[self.me]

    def mine_partial(self, kind: str) -> int:
        return self.partial[self.me].get(kind, 0)

    def leader_weight(self, player: str) -> int:
        return len(self.full[player])

    def new_kind(self, kind: str) -> bool:
        return kind not in self.mine_full()

    def wins_with(self, kind: str) -> bool:
        return self.new_kind(kind) and len(self.mine_full()) + 1 >= self.to_win


def _own_extras(state: CrittersState) -> dict[str, float] | None:
    """``card_extras`` of the state's deck's own cards (None for the sheet's deck: every playout
    step reads a position, and most decks add no card)."""
    own = state.table.own_cards
    return card_extras({card.name: card.effects for card in own}) if own else None


def card_extras(cards: Mapping[str, Sequence[str]]) -> dict[str, float]:
    """What a deck's own cards' effects beyond a choice are worth to the greedy score: a card
    drawn is worth a little, a card taken from an opponent's hand a little more (it is one
    they no longer hold), a skipped opponent's turn more again."""
    worth: dict[str, float] = {}
    for name, effects in cards.items():
        value = 0.0
        for effect in effects:
            if effect.startswith(DRAW + " "):
                value += 3.0 * int(effect.split()[1])
            elif effect == TAKE_RANDOM:
                value += 4.0
            elif effect == SKIP_TURN:
                value += 6.0
        worth[name] = value
    return worth


# What a Down Card is worth on the last Draw Pile before the stalled ending, where the ranking
# counts Down Cards: more than passing (8), less than a set.
LAST_PILE_DOWN = 10.0


@dataclass(frozen=True)
class GreedyWeights:
    """The greedy score's settable weights (``greedy(key=value)``); the rest of the score is
    the order of what a move does, which these leave as it is."""

    spare_no: float = 30.0  # a NO! against a move that is not a steal, holding two or more
    leader: float = 1.0  # how much more a move against the leader is worth, per full set
    wild_cost: float = 2.0  # what spending a Wild in a set costs
    last_pile: float = LAST_PILE_DOWN  # a Down Card on the last Draw Pile

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through __init__: compiled (mypyc), a frozen dataclass refuses the field by
        field restore pickle would otherwise use (a bot is pickled with an OpenSpiel state)."""
        return GreedyWeights, (self.spare_no, self.leader, self.wild_cost, self.last_pile)


GREEDY = GreedyWeights()
GREEDY_PARAMS = (
    BotParam("spare_no", GREEDY.spare_no, 0.0, 200.0, "worth of a NO! against a non-steal"),
    BotParam("leader", GREEDY.leader, 0.0, 10.0, "weight of going after the leader (1: as is)"),
    BotParam("wild_cost", GREEDY.wild_cost, 0.0, 40.0, "cost of each Wild spent in a set"),
    BotParam("last_pile", GREEDY.last_pile, 0.0, 100.0, "worth of a Down Card on the last pile"),
)


def score_move(move: Any, pos: Position, weights: GreedyWeights = GREEDY) -> float:
    """A hand-written sense of how good ``move`` is (bigger is better): by what the move does,
    so a deck's own card scores as the sheet's card making the same choice, plus its extras
    (``pos.extras``, empty for the sheet's deck)."""
    cls = type(move)
    if cls is SayNo:
        # Save NO! for steals: always against a steal (Ultimate Collector's event is the one
        # naming a kind and no card), else only with NOs to spare.
        pending = pos.pending or {}
        if "kind" in pending and "card" not in pending and "full" not in pending:
            return 100.0
        return weights.spare_no if pos.hand["no"] >= 2 else 0.0
    if cls is Allow:
        return 10.0
    if cls in (PlaySet, Complete):
        if pos.wins_with(move.kind):
            return 1000.0
        wilds: int = move.cards.count("wild")
        return (50.0 if pos.new_kind(move.kind) else 5.0) - weights.wild_cost * wilds
    if cls is UltimateCollector:
        if pos.wins_with(move.kind):
            return 1000.0
        leader = 6.0 * weights.leader * pos.leader_weight(move.target)
        extra = pos.extras.get(move.play, 0.0) if pos.extras else 0.0
        return (60.0 if pos.new_kind(move.kind) else 22.0) + leader + extra
    if cls is HopOver:
        have = pos.mine_partial(move.kind)
        fills = have == pos.size - 1 and pos.new_kind(move.kind)
        if fills and pos.wins_with(move.kind):
            return 1000.0
        hurt = 3.0 * pos.partial[move.target].get(move.kind, 0)
        hurt += pos.extras.get(move.play, 0.0) if pos.extras else 0.0
        return (45.0 if fills else 14.0 + 6.0 * have) + hurt + (2.0 if move.card == "wild" else 0)
    if cls is GameChanger:
        gain = pos.mine_partial(move.take_kind) - pos.mine_partial(move.give_kind)
        fills = (
            pos.mine_partial(move.take_kind) == pos.size - 1 and move.give_kind != move.take_kind
        )
        extra = pos.extras.get(move.play, 0.0) if pos.extras else 0.0
        return (40.0 if fills else 6.0 + 5.0 * gain) + extra
    if cls is SwapWild:
        have = pos.mine_partial(move.to)
        fills = have == pos.size - 1 and pos.new_kind(move.to)
        if fills and pos.wins_with(move.to):
            return 1000.0
        return 44.0 if fills else 9.0 + 5.0 * have
    if cls is Down:
        kind = move.as_ if move.card == "wild" else move.card
        have = pos.mine_partial(kind)
        if have == pos.size - 1:
            if pos.wins_with(kind):
                return 1000.0
            return 46.0 if pos.new_kind(kind) else 2.0
        counted = weights.last_pile if pos.last_pile else 0.0
        if move.card == "wild":
            return (3.0 + 4.0 * have if have else 0.5) + counted
        # Building on a started set, or laying the kind we hold most of.
        own = 7.0 + 5.0 * have + 2.0 * pos.hand[kind] - (4.0 if kind in pos.mine_full() else 0)
        return own + counted
    if cls is PlayCard:
        # its worth is its extras; on the leader if it has a target
        on = (
            2.0 * weights.leader * pos.leader_weight(move.target)
            if move.target is not None
            else 0.0
        )
        return 8.0 + on + pos.extras.get(move.play, 0.0)
    if cls is Protect:
        # worth most on the set an opponent could most hurt: a full one (a steal), else the
        # bigger incomplete one
        have = pos.mine_partial(move.kind)
        guard = 12.0 if move.full else 3.0 + 2.0 * have
        on = 2.0 * pos.leader_weight(move.target) if move.target is not None else 0.0
        return guard + on + pos.extras.get(move.play, 0.0)
    if cls is Pass:
        return 8.0
    if cls is Discard:
        card = move.card
        keep = {"no": 6.0, "ultimate_collector": 8.0, "wild": 9.0}.get(card, 2.0 * pos.hand[card])
        return -keep
    return 0.0


def greedy_move(
    moves: list[Any], pos: Position, rng: random.Random, weights: GreedyWeights = GREEDY
) -> Any:
    """The best-scoring move (ties broken at random)."""
    scored = [(score_move(m, pos, weights), m) for m in moves]
    best = max(score for score, _ in scored)
    return pick(rng, [m for score, m in scored if score == best])


def greedy_playout(state: CrittersState, actor: str, rng: random.Random) -> Any:
    """ISMCTS playout policy: greedy play (``PLAYOUT_NOISE``: the share of random moves)."""
    moves = state.legal_actions(actor)
    if PLAYOUT_NOISE and rng.random() < PLAYOUT_NOISE:
        return pick(rng, moves)
    return greedy_move(moves, Position.from_state(state, actor), rng)


# No noise: the search compares root moves on the same deals and seeds, and noise only blurs
# that comparison (docs/sim.md).
PLAYOUT_NOISE = 0.0


def ranked(state: CrittersState, actor: str, moves: list[Any]) -> list[Any]:
    """``moves`` by the greedy score, best first (stable on ties): search widens in this order."""
    pos = Position.from_state(state, actor)
    scores = [score_move(m, pos) for m in moves]
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    return [moves[i] for i in order]


class GreedyBot(CritterBot):
    """Completes sets, saves NO! for steals, turns Ultimate Collector on the leader."""

    def __init__(self, player: str, rng: random.Random, weights: GreedyWeights = GREEDY) -> None:
        super().__init__(player, rng)
        self.weights = weights

    def choose(self, view: View, moves: list[Any]) -> Any:
        return greedy_move(moves, Position.from_view(view), self.rng, self.weights)


def _greedy(player: str, rng: random.Random, **weights: float) -> CritterBot:
    return GreedyBot(player, rng, GreedyWeights(**weights))


def _random(player: str, rng: random.Random) -> CritterBot:
    return RandomBot(player, rng)


# Ranks follow the ladder of docs/bots.md (higher is stronger); the last sentence of each is
# what the lobby tells a person about it.
register_bot(
    "critters",
    "random",
    "Plays uniformly random legal moves.",
    rank=0,
    persona="Plays any legal move at random.",
)(_random)
register_bot(
    "critters",
    "greedy",
    "Completes sets, saves NO! for steals and turns Ultimate Collector on the leader.",
    rank=1,
    persona="Completes its sets, keeps NO! for steals and goes after the leader.",
    params=GREEDY_PARAMS,
)(_greedy)
