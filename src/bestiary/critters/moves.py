"""Legal-action generation for the turn player: every move but pass and discard.

The actions come from the seat's ``SeatMoves`` (``bestiary.critters.kept``: ready-made and
reused, or made anew on the plain path), found by a kind's place and a count. No
``add = acts.append`` alias: compiled, a bound method is a call through a Python object,
``acts.append`` a direct C call.
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
    """Every move but pass/discard for the turn player ``p`` (seat).

    ``hands`` and ``tabs`` are every seat's hand and tableau, in seat order; ``guards`` the
    protected sets. The hand is counted in a list by each card's place (``Table.card_at``: the
    kinds first), so the moves are found from counts.
    """
    hand = hands[p]
    size = t.set_size
    kinds = t.kinds
    at = t.card_at
    cnt = [0] * len(t.card_order)
    for c in hand:
        j = at[c]
        cnt[j] = cnt[j] + 1  # compiled, `cnt[j] += 1` is a generic Python addition
    wilds = cnt[t.wild_at]
    last = size - 1
    inc: list[CardSet] = []  # the incomplete sets, oldest first
    wild_full: list[str] = []  # kinds with a full set holding a wild (swap_wild)
    blocked: list[str] = []  # kinds where one more wild would make an all-wild full set
    for card_set in tabs[p]:
        cards = card_set[1]
        n_cards = len(cards)
        if n_cards < size:
            inc.append(card_set)
            if fills_with_wilds(cards, last):
                blocked.append(card_set[0])
        elif WILD in cards:
            wild_full.append(card_set[0])
    book = seat_moves(t, p, by)
    acts: list[CrittersAction] = []
    n_kinds = len(kinds)
    downs = book.downs
    for i in range(n_kinds):
        if cnt[i]:
            acts.append(downs[i])
    if wilds:
        every = book.wild_downs
        acts.extend(every if not blocked else [a for a in every if a.as_ not in blocked])
    low = max(1, size - wilds)
    for i in range(n_kinds):
        top = min(cnt[i], size)
        for n in range(low, top + 1):
            acts.append(book.play_set(i, kinds[i], n))
    for k, cards in inc:
        need = size - len(cards)
        has = cnt[at[k]]
        for n in range(0, min(has, need) + 1):
            if need - n <= wilds and (n or k in cards):
                acts.append(book.complete(k, need, n))
    if wild_full:
        for i in range(n_kinds):
            k = kinds[i]
            if cnt[i] and k in wild_full:
                swaps = book.swap_wild(k, kinds)
                acts.extend(swaps if not blocked else [a for a in swaps if a.to not in blocked])
    for card, place in t.playable:
        if cnt[place]:
            _card_moves(acts, book, t, p, card, inc, tabs, blocked, hands, guards)
    return acts


def _card_moves(
    acts: list[CrittersAction],
    book: SeatMoves,
    t: Table,
    p: int,
    card: ActionCard,
    inc: list[CardSet],
    tabs: list[list[CardSet]],
    blocked: list[str],
    hands: list[list[str]],
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
    targets = [(p + step) % n for step in range(1, n)]
    if card.takes_random:  # only a target holding a card
        targets = [q for q in targets if hands[q]]
    if choice == TAKE_DOWN:
        for q in targets:
            for kind, cards in tabs[q]:
                if len(cards) < size and not (guards and (q, kind, False) in guards):
                    if kind in cards:
                        acts.append(book.hop_over(play, q, players[q], kind, kind))
                    if WILD in cards and kind not in blocked:
                        acts.append(book.hop_over(play, q, players[q], kind, WILD))
    elif choice == SWAP_DOWN:
        if inc:
            _game_changers(acts, book, t, p, play, inc, tabs, blocked, targets, guards)
    elif choice == STEAL_SET:
        for q in targets:
            seen: list[str] = []
            for kind, cards in tabs[q]:
                if len(cards) == size and kind not in seen:
                    seen.append(kind)
                    if not (guards and (q, kind, True) in guards):
                        acts.append(book.steal(players[q], kind, play))
    elif choice == PROTECT_SET:
        own: list[tuple[str, bool]] = []
        for kind, cards in tabs[p]:
            mark = (kind, len(cards) == size)
            if mark not in own:
                own.append(mark)
        for kind, full in own:
            if card.targeted:
                for q in targets:
                    acts.append(book.protect(play, kind, full, players[q]))
            else:
                acts.append(book.protect(play, kind, full, None))
    elif card.targeted:
        for q in targets:
            acts.append(book.play_card(play, players[q]))
    else:
        acts.append(book.play_card(play, None))


def _game_changers(
    acts: list[CrittersAction],
    book: SeatMoves,
    t: Table,
    p: int,
    play: str,
    inc: list[CardSet],
    tabs: list[list[CardSet]],
    blocked: list[str],
    targets: list[int],
    guards: Guards,
) -> None:
    """Append every swap_down play of ``play`` by seat ``p``, whose incomplete sets are
    ``inc``, on each of ``targets`` (seats): never with a target's protected set, which nothing
    leaves or joins."""
    size = t.set_size
    last = size - 1
    players = t.players
    width = 2 * len(t.kinds)
    give = _offered(inc, t)
    for q in targets:
        theirs = [s for s in tabs[q] if len(s[1]) < size]
        if guards:
            shut = [k for seat, k, full in guards if seat == q and not full]
            theirs = [s for s in theirs if s[0] not in shut]
            give_q = [g for g in give if g[0] not in shut]
        else:
            give_q = give
        if not theirs:
            continue
        take = _offered(theirs, t)
        target = players[q]
        row = book.changers_of(play, q)
        for k1, c1, g in give_q:
            for k2, c2, h in take:
                if k1 != k2:
                    if c2 == WILD and k2 in blocked:
                        continue
                    if c1 == WILD and fills_with_wilds(_cards_of(theirs, k1), last):
                        continue
                found = row[g * width + h]
                if found is None:
                    found = row[g * width + h] = book.changer(target, k1, c1, k2, c2, play)
                acts.append(found)


def _offered(sets: list[CardSet], t: Table) -> list[tuple[str, str, int]]:
    """The cards a game_changer may move out of these incomplete sets, in order: (kind, card,
    2 * the kind's place + 1 for a wild)."""
    at = t.card_at
    out: list[tuple[str, str, int]] = []
    for kind, cards in sets:
        i = 2 * at[kind]
        if kind in cards:
            out.append((kind, kind, i))
        if WILD in cards:
            out.append((kind, WILD, i + 1))
    return out


def _cards_of(sets: list[CardSet], kind: str) -> tuple[str, ...] | None:
    """The cards of the ``kind`` set among these incomplete sets, or None."""
    for k, cards in sets:
        if k == kind:
            return cards
    return None
