"""The turn player's moves, as the sheet lists them ("HOW TO PLAY", 3), then the special
situations: put a Down Card down (a wild as any kind), play a full set, complete a set, swap a
critter in for the wild of a full set, play an action card. Pass and the forced discard are
the state's (they depend on the hand limit).

Each move is made by the seat's ``SeatMoves`` (``bestiary.critters.kept``), found there by its
words (a kind, a card, how many): ready-made and reused, or built anew on the plain path. The
rules here never depend on which. No ``add = acts.append`` alias: compiled, a bound method is a
call through a Python object, ``acts.append`` a direct C call.
"""

from __future__ import annotations

from bestiary.critters.actions import CrittersAction
from bestiary.critters.cards import WILD
from bestiary.critters.effects import PROTECT_SET, STEAL_SET, SWAP_DOWN, TAKE_DOWN, ActionCard
from bestiary.critters.kept import SeatMoves, seat_moves
from bestiary.critters.setup import Table
from bestiary.critters.tableau import CardSet, fills_with_wilds

Guards = tuple[tuple[int, str, bool], ...]
"""Protected sets (a deck's protect_set card): (seat, kind, full), in the order protected."""


def turn_moves(
    t: Table,
    hands: list[list[str]],
    tabs: list[list[CardSet]],
    p: int,
    by: str,
    guards: Guards = (),
) -> list[CrittersAction]:
    """Every move but pass/discard for the turn player ``p`` (seat), named ``by``.

    ``hands`` and ``tabs`` are every seat's hand and tableau, in seat order; ``guards`` the
    protected sets."""
    size = t.set_size
    kinds = t.kinds
    hand = hands[p]
    mine = tabs[p]
    make = seat_moves(t, p, by)
    # The hand counted by card, once: "is it held", "how many" are then a lookup each (a scan
    # of the hand per kind compares every card it is not).
    held: dict[str, int] = {}
    for c in hand:
        held[c] = held[c] + 1 if c in held else 1
    wilds = held.get(WILD, 0)
    # No wild may go where it would make a full set of wilds only (RULINGS: a set needs a
    # critter): the kinds whose incomplete set is one wild short of that.
    no_wild_to: list[str] = []
    wild_in_full: list[str] = []  # kinds of a full set holding a wild (swap_wild)
    for kind, cards in mine:
        if len(cards) < size:
            if fills_with_wilds(cards, size - 1):
                no_wild_to.append(kind)
        elif WILD in cards:
            wild_in_full.append(kind)
    acts: list[CrittersAction] = []
    # Place a critter down in front of you; a wild as any kind.
    for kind in kinds:
        if kind in held:
            acts.append(make.down(kind))
    if wilds:
        for kind in kinds:
            if kind not in no_wild_to:
                acts.append(make.wild_down(kind))
    # Play a full set: n critters of a kind and the rest wilds, at least one critter.
    for kind in kinds:
        if kind in held:
            for n in range(max(1, size - wilds), min(held[kind], size) + 1):
                acts.append(make.play_set(kind, n))
    # Complete a set: onto an incomplete set, exactly the cards it needs (n critters, the rest
    # wilds), so that it holds a critter.
    for kind, cards in mine:
        need = size - len(cards)
        if need > 0:
            for n in range(min(held.get(kind, 0), need) + 1):
                if need - n <= wilds and (n or kind in cards):
                    acts.append(make.complete(kind, need, n))
    # A critter in place of the wild of its full set; the wild moves to another set.
    if wild_in_full:
        for kind in kinds:
            if kind in wild_in_full and kind in held:
                for to in kinds:
                    if to not in no_wild_to:
                        acts.append(make.swap_wild(kind, to))
    # Play an action card.
    for card, _ in t.playable:
        if card.name in held:
            _card_moves(acts, make, t, p, card, hands, tabs, no_wild_to, guards)
    return acts


def _card_moves(
    acts: list[CrittersAction],
    make: SeatMoves,
    t: Table,
    p: int,
    card: ActionCard,
    hands: list[list[str]],
    tabs: list[list[CardSet]],
    no_wild_to: list[str],
    guards: Guards,
) -> None:
    """Append every play of the action ``card`` held by seat ``p``, by what its definition
    chooses: a card that takes or swaps or steals needs something to take (RULINGS: an action
    needs a legal target), and nothing of a protected set; one that takes from a hand at
    random needs a target holding a card; one that protects needs a set of the player's; one
    that chooses nothing on cards is played on any opponent."""
    size = t.set_size
    players = t.players
    n = len(players)
    play = card.name
    choice = card.choice
    targets = [(p + step) % n for step in range(1, n)]  # the opponents, in turn order
    if card.takes_random:
        targets = [q for q in targets if hands[q]]
    if choice == TAKE_DOWN:
        # a critter or a wild of an incomplete set (a wild only where it may go)
        for q in targets:
            for kind, cards in tabs[q]:
                if len(cards) < size and not (guards and (q, kind, False) in guards):
                    if kind in cards:
                        acts.append(make.hop_over(play, q, players[q], kind, kind))
                    if WILD in cards and kind not in no_wild_to:
                        acts.append(make.hop_over(play, q, players[q], kind, WILD))
    elif choice == SWAP_DOWN:
        _swaps(acts, make, t, p, play, targets, tabs, no_wild_to, guards)
    elif choice == STEAL_SET:
        # a full set, named by its kind (with two, the older is taken)
        for q in targets:
            named: list[str] = []
            for kind, cards in tabs[q]:
                if len(cards) == size and kind not in named:
                    named.append(kind)
                    if not (guards and (q, kind, True) in guards):
                        acts.append(make.steal(players[q], kind, play))
    elif choice == PROTECT_SET:
        # one of the player's own sets, named by its kind, full or not
        named_sets: list[tuple[str, bool]] = []
        for kind, cards in tabs[p]:
            mark = (kind, len(cards) == size)
            if mark not in named_sets:
                named_sets.append(mark)
        for kind, full in named_sets:
            if card.targeted:
                for q in targets:
                    acts.append(make.protect(play, kind, full, players[q]))
            else:
                acts.append(make.protect(play, kind, full, None))
    elif card.targeted:
        for q in targets:
            acts.append(make.play_card(play, players[q]))
    else:
        acts.append(make.play_card(play, None))


def _swaps(
    acts: list[CrittersAction],
    make: SeatMoves,
    t: Table,
    p: int,
    play: str,
    targets: list[int],
    tabs: list[list[CardSet]],
    no_wild_to: list[str],
    guards: Guards,
) -> None:
    """Append every swap_down play of ``play`` by seat ``p``: one of your Down Cards for one
    of the target's, neither from a full set nor from a protected one, and no wild arriving
    where it would make a set of wilds only."""
    size = t.set_size
    players = t.players
    mine = [s for s in tabs[p] if len(s[1]) < size]
    if not mine:
        return
    for q in targets:
        theirs = [s for s in tabs[q] if len(s[1]) < size]
        if guards:
            shut = [kind for seat, kind, full in guards if seat == q and not full]
            theirs = [s for s in theirs if s[0] not in shut]
            given = [s for s in mine if s[0] not in shut]  # a given card joins their set
        else:
            given = mine
        if not theirs:
            continue
        target = players[q]
        taken = _down_cards(theirs)
        for k1, c1 in _down_cards(given):
            for k2, c2 in taken:
                if k1 != k2:
                    if c2 == WILD and k2 in no_wild_to:
                        continue
                    if c1 == WILD and fills_with_wilds(_cards_of(theirs, k1), size - 1):
                        continue
                acts.append(make.changer(play, q, target, k1, c1, k2, c2))


def _down_cards(sets: list[CardSet]) -> list[tuple[str, str]]:
    """The different Down Cards of these incomplete sets, in order: (kind, the critter or
    ``wild``)."""
    out: list[tuple[str, str]] = []
    for kind, cards in sets:
        if kind in cards:
            out.append((kind, kind))
        if WILD in cards:
            out.append((kind, WILD))
    return out


def _cards_of(sets: list[CardSet], kind: str) -> tuple[str, ...] | None:
    """The cards of the ``kind`` set among these incomplete sets, or None."""
    for k, cards in sets:
        if k == kind:
            return cards
    return None
