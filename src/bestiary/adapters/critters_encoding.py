"""The critter game as numbers: a fixed dense action space and an observation vector per seat.

The action space depends only on the deck's critter kinds (``k`` of them, in deck order), the
set size ``s`` and the player count ``n``; targets are named relative to the actor ("the seat
``t`` places after you", t = 1 .. n-1) so one policy fits every seat. Sections, in id order:

==================  =================  ==============================================
section             size               one id per
==================  =================  ==============================================
``down``            k                  critter kind put down
``down_wild``       k                  kind a wild is declared as
``set``             k * s              kind, number of wilds (0 .. s-1)
``complete``        k * C              kind, cards needed (1 .. s-1), wilds among them
``swap_wild``       k * k              kind from hand, kind the wild moves to
``hop_over``        (n-1) * k * 2      target, kind, card (the critter or a wild)
``game_changer``    (n-1) * 2k * 2k    target, (kind, card) given, (kind, card) taken
``ultimate``        (n-1) * k          target, kind of the full set
``no``, ``allow``   1 each
``pass``            1
``discard``         k + 5 + d          card (kinds, wild, no, hop_over, game_changer,
                                       ultimate_collector, then the deck's own cards)
``card NAME``       by its choice      each of the deck's own d action cards, in deck
                                       order: take_down as ``hop_over``, swap_down as
                                       ``game_changer``, steal_set as ``ultimate``;
                                       protect_set: (kind, full or not) per target, or
                                       2k if it has none; no choice: (n-1) targets, or
                                       1 if it has none
==================  =================  ==============================================

where C = 2 + 3 + ... + s (for s = 3: 5). Chance (reshuffles, a take_random card's pick) is
the engine's, never an id. A deck's own cards also widen the observation's hand, centre pile
and pending entries; a deck with a skip_turn card adds whose turn is skipped, one with a
protect_set card which sets are protected (seat, kind, full or not); the sheet's deck encodes
as it always has.

>>> enc = CrittersEncoding(("ann", "bo"), ("fox", "owl"), set_size=3)
>>> enc.size, enc.describe(enc.action_id(PlaySet("ann", "owl", ("owl", "owl", "wild"))))
(56, 'set owl with 1 wild')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from bestiary.adapters.batch import write_nonzero
from bestiary.core.values import by_arguments
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
from bestiary.critters.cards import ACTION_CARDS, WILD, cards_from_spec
from bestiary.critters.effects import PROTECT_SET, STEAL_SET, SWAP_DOWN, TAKE_DOWN, ActionCard
from bestiary.critters.state import CrittersState

FloatArray: TypeAlias = npt.NDArray[np.float32]
MaskArray: TypeAlias = npt.NDArray[np.int8]

PENDING_KINDS = ("hop_over", "game_changer", "ultimate_collector")


class CrittersEncoding:
    """Action ids and observation vectors for ``players`` (seat order), a deck's kinds and its
    own action cards (``cards``, beyond the sheet's)."""

    def __init__(
        self,
        players: Sequence[str],
        kinds: Sequence[str],
        set_size: int = 3,
        cards: Sequence[ActionCard] = (),
    ) -> None:
        self.players = tuple(players)
        self.n = len(self.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.kinds = tuple(kinds)
        self.k = len(self.kinds)
        self.kind_index = {kind: i for i, kind in enumerate(self.kinds)}
        self.s = set_size
        self.own = tuple(cards)
        self.cards = (*self.kinds, WILD, *ACTION_CARDS, *(c.name for c in self.own))
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.pending_kinds = (*PENDING_KINDS, *(c.name for c in self.own))
        self._pending_index = {name: i for i, name in enumerate(self.pending_kinds)}
        self._skips = any(c.skips for c in self.own)
        self._guards = any(c.choice == PROTECT_SET for c in self.own)
        # (need, critters) pairs of a ``complete``, in id order.
        self.completions = [(need, c) for need in range(1, set_size) for c in range(need + 1)]
        self._completion_index = {pair: i for i, pair in enumerate(self.completions)}
        k, m = self.k, self.n - 1
        sizes = [
            ("down", k),
            ("down_wild", k),
            ("set", k * set_size),
            ("complete", k * len(self.completions)),
            ("swap_wild", k * k),
            ("hop_over", m * k * 2),
            ("game_changer", m * 4 * k * k),
            ("ultimate", m * k),
            ("no", 1),
            ("allow", 1),
            ("pass", 1),
            ("discard", len(self.cards)),
        ]
        for card in self.own:
            width = {TAKE_DOWN: m * k * 2, SWAP_DOWN: m * 4 * k * k, STEAL_SET: m * k}
            width[PROTECT_SET] = (m if card.targeted else 1) * 2 * k
            sizes.append((f"card {card.name}", width.get(card.choice, m if card.targeted else 1)))
        self.sections: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in sizes:
            self.sections[name] = (at, size)
            at += size
        self.size = at
        self._ids: dict[CrittersAction, int] = {}
        self._build_layout()

    # ----------------------------------------------------------------- actions

    def _start(self, section: str) -> int:
        return self.sections[section][0]

    def _target(self, by: str, target: str) -> int:
        return (self.seat[target] - self.seat[by]) % self.n - 1

    def _kind_card(self, kind: str, card: str) -> int:
        return 2 * self.kind_index[kind] + (card == WILD)

    def action_id(self, action: CrittersAction) -> int:
        """The id of ``action``; ValueError for a chance event or a card not in this deck."""
        cached = self._ids.get(action)
        if cached is not None:
            return cached
        try:
            result = self._encode(action)
        except KeyError as err:
            raise ValueError(f"{action!r} names {err.args[0]!r}, unknown at this table") from None
        self._ids[action] = result
        return result

    def _encode(self, a: CrittersAction) -> int:
        ki = self.kind_index
        k = self.k
        if isinstance(a, Down):
            if a.card == WILD:
                return self._start("down_wild") + ki[a.as_ or ""]
            return self._start("down") + ki[a.card]
        if isinstance(a, PlaySet):
            wilds = a.cards.count(WILD)
            return self._start("set") + ki[a.kind] * self.s + wilds
        if isinstance(a, Complete):
            critters = len(a.cards) - a.cards.count(WILD)
            pair = self._completion_index[(len(a.cards), critters)]
            return self._start("complete") + ki[a.kind] * len(self.completions) + pair
        if isinstance(a, SwapWild):
            return self._start("swap_wild") + ki[a.kind] * k + ki[a.to]
        if isinstance(a, HopOver):
            t = self._target(a.by, a.target)
            return (
                self._start(self._section(a.play, "hop_over"))
                + t * 2 * k
                + self._kind_card(a.kind, a.card)
            )
        if isinstance(a, GameChanger):
            t = self._target(a.by, a.target)
            give = self._kind_card(a.give_kind, a.give_card)
            take = self._kind_card(a.take_kind, a.take_card)
            start = self._start(self._section(a.play, "game_changer"))
            return start + (t * 2 * k + give) * 2 * k + take
        if isinstance(a, UltimateCollector):
            start = self._start(self._section(a.play, "ultimate"))
            return start + self._target(a.by, a.target) * k + ki[a.kind]
        if isinstance(a, Protect):
            start = self._start(f"card {a.play}") + 2 * ki[a.kind] + a.full
            return start if a.target is None else start + self._target(a.by, a.target) * 2 * k
        if isinstance(a, PlayCard):
            start = self._start(f"card {a.play}")
            return start if a.target is None else start + self._target(a.by, a.target)
        if isinstance(a, SayNo):
            return self._start("no")
        if isinstance(a, Allow):
            return self._start("allow")
        if isinstance(a, Pass):
            return self._start("pass")
        if isinstance(a, Discard):
            return self._start("discard") + self.card_index[a.card]
        raise ValueError(f"{a!r} is not a player's action")

    def _section(self, play: str, sheet: str) -> str:
        """The section of a card making the choice the sheet's card of section ``sheet`` makes."""
        return sheet if play in ACTION_CARDS else f"card {play}"

    def action(self, player: str, action_id: int) -> CrittersAction:
        """The engine action that ``action_id`` means for ``player``."""
        a = int(action_id)
        if not 0 <= a < self.size:
            raise ValueError(f"action id {a} is outside 0..{self.size - 1}")
        section, i = self.section_of(a)
        kinds, k = self.kinds, self.k
        me = self.seat[player]

        def target(t: int) -> str:
            return self.players[(me + t + 1) % self.n]

        def kind_card(j: int) -> tuple[str, str]:
            kind = kinds[j // 2]
            return kind, (WILD if j % 2 else kind)

        if section == "down":
            return Down(player, kinds[i])
        if section == "down_wild":
            return Down(player, WILD, kinds[i])
        if section == "set":
            kind, wilds = kinds[i // self.s], i % self.s
            return PlaySet(player, kind, (kind,) * (self.s - wilds) + (WILD,) * wilds)
        if section == "complete":
            kind = kinds[i // len(self.completions)]
            need, critters = self.completions[i % len(self.completions)]
            return Complete(player, kind, (kind,) * critters + (WILD,) * (need - critters))
        if section == "swap_wild":
            return SwapWild(player, kinds[i // k], kinds[i % k])
        own = None
        choice = {"hop_over": TAKE_DOWN, "game_changer": SWAP_DOWN, "ultimate": STEAL_SET}.get(
            section, ""
        )
        play = {TAKE_DOWN: "hop_over", SWAP_DOWN: "game_changer", STEAL_SET: "ultimate_collector"}
        if section.startswith("card "):
            own = next(c for c in self.own if c.name == section[5:])
            choice = own.choice
            play = {choice: own.name}
        if choice == TAKE_DOWN:
            kind, card = kind_card(i % (2 * k))
            return HopOver(player, target(i // (2 * k)), kind, card, play[choice])
        if choice == SWAP_DOWN:
            rest, take = divmod(i, 2 * k)
            t, give = divmod(rest, 2 * k)
            give_kind, give_card = kind_card(give)
            take_kind, take_card = kind_card(take)
            return GameChanger(
                player, target(t), give_kind, give_card, take_kind, take_card, play[choice]
            )
        if choice == STEAL_SET:
            return UltimateCollector(player, target(i // k), kinds[i % k], play[choice])
        if own is not None and choice == PROTECT_SET:
            on = target(i // (2 * k)) if own.targeted else None
            return Protect(player, own.name, kinds[i % (2 * k) // 2], bool(i % 2), on)
        if own is not None:
            return PlayCard(player, own.name, target(i) if own.targeted else None)
        if section == "no":
            return SayNo(player)
        if section == "allow":
            return Allow(player)
        if section == "pass":
            return Pass(player)
        return Discard(player, self.cards[i])

    def section_of(self, a: int) -> tuple[str, int]:
        """The section of id ``a`` and its index within the section."""
        for name, (start, size) in self.sections.items():
            if a < start + size:
                return name, a - start
        raise ValueError(f"action id {a} is outside 0..{self.size - 1}")

    def describe(self, action_id: int) -> str:
        """A seat-independent name for ``action_id`` ("seat +1" is the next seat)."""
        a = self.action(self.players[0], action_id)
        if isinstance(a, PlaySet):
            return f"set {a.kind} with {a.cards.count(WILD)} wild"
        if isinstance(a, Complete):
            return f"complete {a.kind} with {' '.join(a.cards)}"
        event = a.to_event()
        event.pop("by", None)
        parts = [str(event.pop("do"))]
        target = event.pop("target", None)
        if target is not None:
            parts.append(f"seat +{self._target(self.players[0], target) + 1}")
        for key, value in event.items():
            shown = f"{value['card']} of {value['kind']}" if isinstance(value, dict) else value
            parts.append(f"{key} {shown}")
        return " ".join(parts)

    def mask(self, legal: Iterable[CrittersAction]) -> MaskArray:
        """An int8 mask with 1 for each action in ``legal``."""
        out = np.zeros(self.size, dtype=np.int8)
        ids = self._ids
        out[[ids[a] if a in ids else self.action_id(a) for a in legal]] = 1
        return out

    # ------------------------------------------------------------ observations

    def _build_layout(self) -> None:
        k, t = self.k, len(self.cards)
        self.layout: list[tuple[str, int]] = [("hand", t)]
        for j in range(self.n):
            self.layout += [
                (f"seat{j}.hand_size", 1),
                (f"seat{j}.incomplete_critters", k),
                (f"seat{j}.incomplete_wilds", k),
                (f"seat{j}.full_sets", k),
                (f"seat{j}.full_sets_with_wild", k),
                (f"seat{j}.full_kinds", 1),
            ]
        self.layout += [
            ("draw_pile", 1),
            ("centre_pile", t),
            ("turn", self.n),
            ("awaiting", self.n),
            ("pending", len(self.pending_kinds)),
            ("pending_kind", k),
            ("quiet_turns", 1),
            ("began_with_empty_draw_pile", 1),
            ("over", 1),
        ]
        if self._skips:
            self.layout.append(("skip_next", self.n))
        if self._guards:
            self.layout.append(("protected", self.n * 2 * k))
        self.offsets: dict[str, int] = {}
        at = 0
        for name, width in self.layout:
            self.offsets[name] = at
            at += width
        self.obs_size = at
        # Where ``counts`` writes (attributes: a dict lookup per entry costs more than it does).
        self._seat_at = [self.offsets[f"seat{j}.hand_size"] for j in range(self.n)]
        self._draw_at = self.offsets["draw_pile"]
        self._centre_at = self.offsets["centre_pile"]
        self._turn_at = self.offsets["turn"]
        self._awaiting_at = self.offsets["awaiting"]
        self._pending_at = self.offsets["pending"]
        self._pending_kind_at = self.offsets["pending_kind"]
        self._quiet_at = self.offsets["quiet_turns"]
        self._seat_offsets = [
            tuple(
                self.offsets[f"seat{j}.{name}"]
                for name in (
                    "hand_size",
                    "incomplete_critters",
                    "incomplete_wilds",
                    "full_sets",
                    "full_sets_with_wild",
                    "full_kinds",
                )
            )
            for j in range(self.n)
        ]

    def observe(self, view: Mapping[str, Any]) -> FloatArray:
        """The observation vector of a seat's ``view`` (seat-relative: the viewer is seat 0)."""
        # A Python list first: item updates on it are far cheaper than on a NumPy array.
        out = [0.0] * self.obs_size
        off = self.offsets
        ci, ki = self.card_index, self.kind_index
        n = self.n
        players = self.players
        me = self.seat[view["you"]]
        for card in view.get("hand", ()):
            out[ci[card]] += 1
        hand_sizes = view["hand_sizes"]
        tableaus = view["tableaus"]
        for j, (size_at, crit_at, wild_at, full_at, full_wild_at, kinds_at) in enumerate(
            self._seat_offsets
        ):
            p = players[(me + j) % n]
            out[size_at] = hand_sizes[p]
            sets = [(e["kind"], e["cards"], e["full"]) for e in tableaus[p]]
            self._count_sets(out, sets, crit_at, wild_at, full_at, full_wild_at, kinds_at)
        out[off["draw_pile"]] = view["draw_pile"]
        centre = off["centre_pile"]
        for card in view["centre_pile"]:
            out[centre + ci[card]] += 1
        for key in ("turn", "awaiting"):
            who = view[key]
            if who is not None:
                out[off[key] + (self.seat[who] - me) % n] = 1
        pending = view["pending"]
        if pending is not None:
            out[off["pending"] + self._pending_index[pending["do"]]] = 1
            taken = pending["take"]["kind"] if "take" in pending else pending.get("kind")
            if taken is not None:
                out[off["pending_kind"] + ki[taken]] = 1
        out[off["quiet_turns"]] = view["quiet_turns"]
        out[off["began_with_empty_draw_pile"]] = float(bool(view["began_with_empty_draw_pile"]))
        out[off["over"]] = float(bool(view["over"]))
        if self._skips:
            for who in view.get("skip_next", ()):
                out[off["skip_next"] + (self.seat[who] - me) % n] = 1
        if self._guards:
            for owner, mark in view.get("protected", ()):
                j = (self.seat[owner] - me) % n * 2 * self.k + 2 * ki[mark["kind"]] + mark["full"]
                out[off["protected"] + j] = 1
        return np.array(out, dtype=np.float32)

    def _count_sets(
        self,
        out: MutableSequence[float],
        sets: Iterable[tuple[str, Sequence[str], bool]],
        *at: int,
    ) -> None:
        """One seat's tableau, (kind, cards, full) per set, into its observation entries."""
        crit_at, wild_at, full_at, full_wild_at, kinds_at = at
        ki = self.kind_index
        full_kinds = set()
        for kind_name, cards, full in sets:
            kind = ki[kind_name]
            wilds = cards.count(WILD)
            if full:
                full_kinds.add(kind)
                out[full_at + kind] += 1
                if wilds:
                    out[full_wild_at + kind] += 1
            else:
                out[crit_at + kind] += len(cards) - wilds
                out[wild_at + kind] += wilds
        out[kinds_at] = len(full_kinds)

    def counts(self, state: CrittersState, player: str) -> list[int]:
        """``observe(state.view(player))`` as whole numbers (every entry is a count or a flag),
        read from the state: the read-outs the view is made of (the player's own hand, the
        public table), without building the JSON-shaped view.

        The vector env's fast path (``batch.gather_nonzero`` takes its entries for the batch).
        Tested equal to ``observe`` on random games (``tests/test_adapters_vector.py``). Items
        are counted as ``x[j] = x[j] + 1``: compiled, ``x[j] += 1`` is a generic addition.
        """
        out = [0] * self.obs_size
        ci, ki = self.card_index, self.kind_index
        n, size, k = self.n, self.s, self.k
        me = self.seat[player]
        for card in state.hand_at(me):
            j = ci[card]
            out[j] = out[j] + 1
        for step in range(n):
            seat = (me + step) % n
            at = self._seat_at[step]  # hand size; critters, wilds, full, full with wild: k each
            out[at] = len(state.hand_at(seat))
            full_kinds = 0  # a bit per kind
            for kind_name, cards in state.tableau_at(seat):
                kind = ki[kind_name]
                wilds = 0
                for card in cards:
                    if card == WILD:
                        wilds += 1
                if len(cards) == size:
                    full_kinds |= 1 << kind
                    j = at + 1 + 2 * k + kind
                    out[j] = out[j] + 1
                    if wilds:
                        j = at + 1 + 3 * k + kind
                        out[j] = out[j] + 1
                else:
                    j = at + 1 + kind
                    out[j] = out[j] + len(cards) - wilds
                    j = at + 1 + k + kind
                    out[j] = out[j] + wilds
            distinct = 0
            while full_kinds:
                distinct += full_kinds & 1
                full_kinds >>= 1
            out[at + 1 + 4 * k] = distinct
        out[self._draw_at] = state.draw_pile_size
        centre = self._centre_at
        for card in state.centre_pile:
            j = centre + ci[card]
            out[j] = out[j] + 1
        turn, awaiting = state.turn, state.awaiting
        if turn is not None:
            out[self._turn_at + (self.seat[turn] - me) % n] = 1
        if awaiting is not None:
            out[self._awaiting_at + (self.seat[awaiting] - me) % n] = 1
        pending = state.pending
        if pending is not None:
            assert isinstance(
                pending, HopOver | GameChanger | UltimateCollector | PlayCard | Protect
            )
            out[self._pending_at + self._pending_index[pending.play]] = 1
            if not isinstance(pending, PlayCard):
                taken = pending.take_kind if isinstance(pending, GameChanger) else pending.kind
                out[self._pending_kind_at + ki[taken]] = 1
        tail = self._quiet_at  # quiet turns, began with an empty Draw Pile, over
        out[tail] = state.quiet_turns
        out[tail + 1] = int(state.began_with_empty_draw_pile)
        out[tail + 2] = int(state.is_over)
        if self._skips:
            for who in state.skip_next:
                out[tail + 3 + (self.seat[who] - me) % n] = 1
        if self._guards:
            at = self.offsets["protected"]
            for owner, guarded, full in state.protected:
                out[at + (self.seat[owner] - me) % n * 2 * k + 2 * ki[guarded] + full] = 1
        return out

    def observe_state(self, state: CrittersState, player: str, out: MutableSequence[float]) -> None:
        """Write ``observe(state.view(player))`` into ``out`` (zeroed): ``counts``' entries."""
        write_nonzero(out, self.counts(state, player))

    def observation_high(self, deck_size: int) -> FloatArray:
        """Upper bounds of the observation entries for a deck of ``deck_size`` cards."""
        return np.full(self.obs_size, float(max(deck_size, self.n)), dtype=np.float32)


def from_view(view: Mapping[str, Any]) -> CrittersEncoding:
    """The encoding of the table a seat's view shows (critters' ``GameInfo.faces.encoding``)."""
    own = cards_from_spec(view.get("cards", {}), "the view's deck")
    return CrittersEncoding(view["players"], view["kinds"], view["options"]["set_size"], own)


# Copied and pickled by its arguments (bestiary.core.values: compiled classes need it).
by_arguments(CrittersEncoding, lambda e: (e.players, e.kinds, e.s, e.own))
