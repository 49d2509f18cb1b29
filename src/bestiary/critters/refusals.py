"""Why an action is refused: one readable sentence per case.

Legality is decided in one place: an action is legal exactly when ``legal_actions`` lists it
(card lists in any order), and ``refusal`` asks that first. The checks below only explain a
refusal in the sheet's words; they never decide one, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bestiary.critters.actions import (
    Allow,
    Complete,
    CrittersAction,
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
from bestiary.critters.cards import NO, WILD
from bestiary.critters.effects import PROTECT_SET, STEAL_SET, SWAP_DOWN, TAKE_DOWN
from bestiary.critters.kept import interned_like
from bestiary.critters.tableau import CardSet, fills_with_wilds, has_full, incomplete, swappable
from bestiary.critters.view import Seen


class Position(Seen, Protocol):
    """What the refusals read of a game: a view's read-outs, by seat its hands and sets, and
    the legal actions that decide."""

    def hand_at(self, seat: int) -> Sequence[str]: ...
    def tableau_at(self, seat: int) -> Sequence[CardSet]: ...
    def legal_actions(self, player: str) -> list[CrittersAction]: ...


def refusal(state: Position, action: Any) -> str | None:
    """The reason ``action`` is illegal in ``state``, or None if it is legal (listed)."""
    kind_of_action = type(action)
    if kind_of_action not in _CHECKS:
        return f"{action!r} is not a critters action"
    t = state.table
    by = getattr(action, "by", None)
    if by not in t.seat:
        return f"{by!r} is not playing in this game"
    if _listed(_normal(action), state.legal_actions(by)):
        return None
    return _why_not(state, t.seat[by], action) or f"{action!r} is not legal now"


def _why_not(state: Position, p: int, action: Any) -> str | None:
    """The sheet's reason an unlisted ``action`` of seat ``p`` is refused, if one applies."""
    kind_of_action = type(action)
    by = state.table.players[p]
    awaiting = state.awaiting
    answering = kind_of_action in (SayNo, Allow)
    if awaiting is not None:
        card = getattr(state.pending, "play", "action")
        if by != awaiting:
            return f"{awaiting} must first answer the {card} played against them"
        if not answering:
            return f"{by} must answer the {card} with no or allow"
        if kind_of_action is SayNo and NO not in state.hand_at(p):
            return f"{by} holds no 'no' card"
        return None
    if answering:
        return "there is no action card to answer"
    if by != state.turn:
        return f"it is {state.turn}'s turn, not {by}'s"
    reason: str | None = _CHECKS[kind_of_action](state, p, action)
    return reason


def _listed(action: Any, legal: list[CrittersAction]) -> bool:
    """``action in legal``. Legal-move generation lists interned actions (``kept.interned``):
    the one equal to ``action``, found by its fields, is looked for by identity, where the
    equality scan compared each of the hundreds a late hand can list; the scan still answers
    for an action never interned."""
    known = interned_like(action)
    if known is not None:
        for listed in legal:
            if listed is known:
                return True
    return action in legal


def _normal(action: Any) -> Any:
    """Card lists in the order legal_actions uses (the kind first, then wilds)."""
    if isinstance(action, PlaySet | Complete):
        n = sum(1 for c in action.cards if c == action.kind)
        w = sum(1 for c in action.cards if c == WILD)
        if n + w == len(action.cards):
            cards = (action.kind,) * n + (WILD,) * w
            return type(action)(action.by, action.kind, cards)
    return action


def _has(state: Position, p: int, cards: Any) -> str | None:
    hand = list(state.hand_at(p))
    for card in cards:
        if card not in hand:
            return f"{state.table.players[p]} does not hold {_enough(card, cards)}"
        hand.remove(card)
    return None


def _enough(card: str, cards: Any) -> str:
    n = list(cards).count(card)
    return f"{n} × {card}" if n > 1 else f"a {card} card"


def _kind(state: Position, kind: str) -> str | None:
    if kind not in state.table.kinds:
        return f"{kind!r} is not a critter kind of this deck"
    return None


def _target(state: Position, p: int, target: str) -> str | None:
    q = state.table.seat.get(target)
    if q is None:
        return f"{target!r} is not playing in this game"
    if q == p:
        return "an action card must target another player"
    return None


def _guarded(state: Position, owner: str, kind: str, full: bool) -> str | None:
    """Is ``owner``'s ``kind`` set (full or not) protected (a protect_set card)?"""
    if (owner, kind, full) in state.protected:
        which = "full" if full else "incomplete"
        return f"{owner}'s {which} {kind} set is protected until {owner}'s turn comes round"
    return None


def _hand_to_take(state: Position, play: str, target: str) -> str | None:
    """A take_random card needs a target holding a card."""
    card = state.table.action_card(play)
    if card is not None and card.takes_random and not state.hand_at(state.table.seat[target]):
        return f"{target} holds no card for {play} to take at random"
    return None


def _incomplete(state: Position, seat: int, kind: str) -> tuple[str, ...] | None:
    tableau = state.tableau_at(seat)
    i = incomplete(tableau, kind, state.table.set_size)
    return None if i < 0 else tableau[i][1]


def _check_down(state: Position, p: int, a: Down) -> str | None:
    if a.card == WILD:
        if a.as_ is None:
            return "a wild put down must be declared as a kind"
        return _kind(state, a.as_) or _has(state, p, [WILD]) or _all_wild(state, p, a.as_)
    if a.as_ is not None:
        return "only a wild is declared 'as' a kind"
    return _kind(state, a.card) or _has(state, p, [a.card])


def _all_wild(state: Position, seat: int, kind: str) -> str | None:
    if fills_with_wilds(_incomplete(state, seat, kind), state.table.set_size - 1):
        name = state.table.players[seat]
        return f"that would give {name} a full {kind} set made only of wilds"
    return None


def _check_cards(state: Position, kind: str, cards: tuple[str, ...]) -> str | None:
    bad = [c for c in cards if c not in (kind, WILD)]
    if bad:
        return f"a {kind} set holds only {kind} cards and wilds, not {bad[0]}"
    return None


def _check_set(state: Position, p: int, a: PlaySet) -> str | None:
    size = state.table.set_size
    reason = _kind(state, a.kind) or _check_cards(state, a.kind, a.cards)
    if reason:
        return reason
    if len(a.cards) != size:
        return f"a full set has exactly {size} cards, not {len(a.cards)}"
    if a.kind not in a.cards:
        return "a full set needs at least one critter card"
    return _has(state, p, a.cards)


def _check_complete(state: Position, p: int, a: Complete) -> str | None:
    reason = _kind(state, a.kind) or _check_cards(state, a.kind, a.cards)
    if reason:
        return reason
    cards = _incomplete(state, p, a.kind)
    if cards is None:
        return f"{a.by} has no incomplete {a.kind} set to complete"
    need = state.table.set_size - len(cards)
    if len(a.cards) != need:
        return f"the {a.kind} set needs exactly {need} more card(s), not {len(a.cards)}"
    if a.kind not in cards and a.kind not in a.cards:
        return "a full set needs at least one critter card"
    return _has(state, p, a.cards)


def _card(state: Position, p: int, play: str, choice: str) -> str | None:
    """Is ``play`` an action card of this deck that makes ``choice``, held by seat ``p``?"""
    card = state.table.action_card(play)
    if card is None:
        return f"{play!r} is not an action card of this deck"
    if card.choice != choice:
        does = card.choice or "no choice on cards"
        return f"{play} makes {does}, not {choice or 'no choice on cards'}"
    return _has(state, p, [play])


def _check_hop_over(state: Position, p: int, a: HopOver) -> str | None:
    reason = (
        _card(state, p, a.play, TAKE_DOWN) or _target(state, p, a.target) or _kind(state, a.kind)
    )
    reason = reason or _hand_to_take(state, a.play, a.target)
    if reason:
        return reason
    cards = _incomplete(state, state.table.seat[a.target], a.kind)
    if cards is None:
        return f"{a.target} has no incomplete {a.kind} set (cards in full sets cannot be taken)"
    if a.card not in cards:
        return f"{a.target}'s incomplete {a.kind} set holds no {a.card}"
    guarded = _guarded(state, a.target, a.kind, False)
    if guarded:
        return guarded
    return _all_wild(state, p, a.kind) if a.card == WILD else None


def _check_game_changer(state: Position, p: int, a: GameChanger) -> str | None:
    reason = _card(state, p, a.play, SWAP_DOWN) or _target(state, p, a.target)
    reason = reason or _hand_to_take(state, a.play, a.target)
    if reason:
        return reason
    mine = _incomplete(state, p, a.give_kind)
    if mine is None or a.give_card not in mine:
        return f"{a.by} has no {a.give_card} in an incomplete {a.give_kind} set to give"
    q = state.table.seat[a.target]
    theirs = _incomplete(state, q, a.take_kind)
    if theirs is None or a.take_card not in theirs:
        return f"{a.target} has no {a.take_card} in an incomplete {a.take_kind} set to take"
    guarded = _guarded(state, a.target, a.take_kind, False)
    guarded = guarded or _guarded(state, a.target, a.give_kind, False)
    if guarded:
        return guarded
    if a.give_kind == a.take_kind:
        return None  # both sets keep their size
    mine_after = _all_wild(state, p, a.take_kind) if a.take_card == WILD else None
    return mine_after or (_all_wild(state, q, a.give_kind) if a.give_card == WILD else None)


def _check_ultimate_collector(state: Position, p: int, a: UltimateCollector) -> str | None:
    reason = _card(state, p, a.play, STEAL_SET) or _target(state, p, a.target)
    reason = reason or _hand_to_take(state, a.play, a.target)
    if reason:
        return reason
    q = state.table.seat[a.target]
    if not has_full(state.tableau_at(q), a.kind, state.table.set_size):
        return f"{a.target} has no full {a.kind} set"
    return _guarded(state, a.target, a.kind, True)


def _check_protect(state: Position, p: int, a: Protect) -> str | None:
    reason = _card(state, p, a.play, PROTECT_SET) or _on_whom(state, p, a.play, a.target)
    if reason:
        return reason
    size = state.table.set_size
    if not any(k == a.kind and (len(c) == size) == a.full for k, c in state.tableau_at(p)):
        return f"{a.by} has no {'full' if a.full else 'incomplete'} {a.kind} set to protect"
    return None


def _check_play(state: Position, p: int, a: PlayCard) -> str | None:
    return _card(state, p, a.play, "") or _on_whom(state, p, a.play, a.target)


def _on_whom(state: Position, p: int, play: str, target: str | None) -> str | None:
    """Is ``play`` played on a target exactly when it chooses one (one holding a card, if it
    takes one from their hand)?"""
    card = state.table.action_card(play)
    if card is not None and card.targeted:
        if target is None:
            return f"{play} needs a target"
        return _target(state, p, target) or _hand_to_take(state, play, target)
    if target is not None:
        return f"{play} is played on nobody (it has no choose_target)"
    return None


def _check_swap_wild(state: Position, p: int, a: SwapWild) -> str | None:
    reason = _kind(state, a.kind) or _kind(state, a.to) or _has(state, p, [a.kind])
    if reason:
        return reason
    if swappable(state.tableau_at(p), a.kind, state.table.set_size) < 0:
        return f"{a.by} has no full {a.kind} set holding a wild"
    return _all_wild(state, p, a.to)


def _check_pass(state: Position, p: int, a: Pass) -> str | None:
    held, limit = len(state.hand_at(p)), state.table.hand_limit
    if held > limit:
        return f"{a.by} holds {held} cards, above the hand limit of {limit}: play one"
    return None


def _check_discard(state: Position, p: int, a: Discard) -> str | None:
    if len(state.hand_at(p)) <= state.table.hand_limit:
        return "a discard is only for a hand above the limit (pass instead)"
    # Above the limit the legal list is either the moves or, when there are none, discards.
    if any(type(legal) is not Discard for legal in state.legal_actions(a.by)):
        return "a discard is only forced when no other move is legal"
    return _has(state, p, [a.card])


_CHECKS: dict[type, Any] = {
    Down: _check_down,
    PlaySet: _check_set,
    Complete: _check_complete,
    HopOver: _check_hop_over,
    GameChanger: _check_game_changer,
    UltimateCollector: _check_ultimate_collector,
    PlayCard: _check_play,
    Protect: _check_protect,
    SwapWild: _check_swap_wild,
    Pass: _check_pass,
    Discard: _check_discard,
    SayNo: lambda state, p, a: None,
    Allow: lambda state, p, a: None,
}
