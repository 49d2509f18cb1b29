"""Call of the Wild as numbers: a dense action space and an observation vector per seat.

Action ids for ``n`` players (``33 + n`` of them), the same for every seat:

====================  ==========================================================
id                    action
====================  ==========================================================
0                     ``wait`` (do nothing this tick)
1                     ``draw``
2                     ``withdraw``
3                     ``reveal_own``
4 + c                 ``discard`` creature ``c`` (food-chain order, 0..4)
9 + 5*c + s           ``call``: offer creature ``c`` with the Call of creature ``s``
34 + (k - 1)          ``meet`` the seat ``k`` places after you (k = 1 .. n-1)
====================  ==========================================================

Meetings are named relative to the acting seat so that one policy fits every seat.

Observations are built from ``state.view(player)`` alone (the allow-list), so they can hold
nothing a seat may not see. The layout (``WildEncoding.layout``) is seat-relative: "seat 0" is
the observer, then the others in seat order after them.

>>> enc = WildEncoding(("ann", "bob", "cy"))
>>> enc.size, enc.describe(9 + 5 * 4 + 0), enc.describe(35)
(36, 'call skeevil as megalotaur', 'meet seat +2')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from typing import Any, Final, TypeAlias

import numpy as np
import numpy.typing as npt

from bestiary.adapters.batch import write_nonzero
from bestiary.core.values import by_arguments
from bestiary.wild import (
    CREATURES,
    OBJECTIVES,
    Call,
    Discard,
    Draw,
    Meet,
    RevealOwn,
    WildAction,
    WildState,
    Withdraw,
)

WAIT: Final = 0
DRAW: Final = 1
WITHDRAW: Final = 2
REVEAL_OWN: Final = 3
DISCARD: Final = 4
CALL: Final = 9
MEET: Final = 34

_INDEX: Final = {c: i for i, c in enumerate(CREATURES)}
_OBJECTIVE_INDEX: Final = {o.id: i for i, o in enumerate(OBJECTIVES)}

FloatArray: TypeAlias = npt.NDArray[np.float32]
MaskArray: TypeAlias = npt.NDArray[np.int8]


class WildEncoding:
    """Action ids and observation vectors for one table of ``players`` (seat order)."""

    def __init__(self, players: Sequence[str], objectives: bool = False) -> None:
        self.players = tuple(players)
        self.n = len(self.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        self.objectives = objectives
        self.size = MEET + self.n - 1
        self.layout: list[tuple[str, int]] = [
            ("hand", 5),
            ("offer_card", 5),
            ("offer_call", 5),
        ]
        for k in range(self.n):
            self.layout += [
                (f"seat{k}.call", 5),
                (f"seat{k}.hand_size", 1),
                (f"seat{k}.pack_size", 1),
                (f"seat{k}.den", 5),
                (f"seat{k}.den_foreign", 1),
                (f"seat{k}.face_down", 1),
                (f"seat{k}.score", 1),
                (f"seat{k}.asked_by_you", 1),
                (f"seat{k}.asks_you", 1),
            ]
        self.layout += [("watering_hole_face_up", 5), ("quiet", 1), ("over", 1)]
        if objectives:
            self.layout.append(("objective", len(OBJECTIVES)))
        self.offsets: dict[str, int] = {}
        at = 0
        for name, width in self.layout:
            self.offsets[name] = at
            at += width
        self.obs_size = at
        self._per_seat = 17
        self.quiet_at = self.offsets["quiet"]

    # ----------------------------------------------------------------- actions

    def action_id(self, action: WildAction | None) -> int:
        """The id of ``action`` (``None`` is ``wait``); ValueError for Nightfall or strangers."""
        if action is None:
            return WAIT
        cls = type(action)
        if cls is Call:
            assert isinstance(action, Call)
            return CALL + 5 * _INDEX[action.card] + _INDEX[action.call]
        if cls is Meet:
            assert isinstance(action, Meet)
            k = (self.seat[action.with_] - self.seat[action.by]) % self.n
            return MEET + k - 1
        if cls is Discard:
            assert isinstance(action, Discard)
            return DISCARD + _INDEX[action.card]
        if cls is Draw:
            return DRAW
        if cls is Withdraw:
            return WITHDRAW
        if cls is RevealOwn:
            return REVEAL_OWN
        raise ValueError(f"{action!r} is not a player's action")

    def action(self, player: str, action_id: int) -> WildAction | None:
        """The engine action that ``action_id`` means for ``player`` (``None`` for wait)."""
        a = int(action_id)
        if not 0 <= a < self.size:
            raise ValueError(f"action id {a} is outside 0..{self.size - 1}")
        if a == WAIT:
            return None
        if a == DRAW:
            return Draw(player)
        if a == WITHDRAW:
            return Withdraw(player)
        if a == REVEAL_OWN:
            return RevealOwn(player)
        if a < CALL:
            return Discard(player, CREATURES[a - DISCARD])
        if a < MEET:
            c, s = divmod(a - CALL, 5)
            return Call(player, CREATURES[c], CREATURES[s])
        k = a - MEET + 1
        return Meet(player, self.players[(self.seat[player] + k) % self.n])

    def describe(self, action_id: int) -> str:
        """A seat-independent name for ``action_id``."""
        a = int(action_id)
        if a == WAIT:
            return "wait"
        if a < DISCARD:
            return ("wait", "draw", "withdraw", "reveal_own")[a]
        if a < CALL:
            return f"discard {CREATURES[a - DISCARD]}"
        if a < MEET:
            c, s = divmod(a - CALL, 5)
            return f"call {CREATURES[c]} as {CREATURES[s]}"
        return f"meet seat +{a - MEET + 1}"

    def mask(self, legal: Iterable[WildAction], can_wait: bool = True) -> MaskArray:
        """An int8 mask over the action ids: 1 for each legal action (and ``wait``)."""
        out = np.zeros(self.size, dtype=np.int8)
        out[[self.action_id(action) for action in legal]] = 1
        if can_wait:
            out[WAIT] = 1
        return out

    # ------------------------------------------------------------ observations

    def observe(self, view: Mapping[str, Any], quiet: float = 0.0) -> FloatArray:
        """The observation vector of ``view`` (a seat's view); ``quiet`` is the Nightfall clock.

        ``quiet`` is the share of the tick budget already spent without a meeting (0..1).
        """
        # A Python list first: item updates on it are far cheaper than on a NumPy array.
        out = [0.0] * self.obs_size
        me = view["you"]
        i = self.seat[me]
        for card in view.get("hand", ()):
            out[_INDEX[card]] += 1
        offer = view.get("offer")
        if offer is not None:
            out[5 + _INDEX[offer["card"]]] = 1
            out[10 + _INDEX[offer["call"]]] = 1
        asks = {(a, b) for a, b in view["asks"]}
        face_down = view["watering_hole"]["face_down"]
        scores = view["scores"]
        base = 15
        for k in range(self.n):
            p = self.players[(i + k) % self.n]
            at = base + k * self._per_seat
            call = view["calls"][p]
            if call is not None:
                out[at + _INDEX[call]] = 1
            out[at + 5] = view["hand_sizes"][p]
            out[at + 6] = view["packs"][p]
            foreign = 0
            for card in view["dens"][p]:
                out[at + 7 + _INDEX[card["creature"]]] += 1
                foreign += card["owner"] != p
            out[at + 12] = foreign
            out[at + 13] = face_down[p]
            out[at + 14] = scores[p]
            out[at + 15] = float((me, p) in asks)
            out[at + 16] = float((p, me) in asks)
        at = base + self.n * self._per_seat
        for card in view["watering_hole"]["face_up"]:
            out[at + _INDEX[card["creature"]]] += 1
        out[at + 5] = quiet
        out[at + 6] = float(bool(view["over"]))
        objective = view.get("objective")
        if self.objectives and objective is not None:
            out[at + 7 + _OBJECTIVE_INDEX[objective["id"]]] = 1
        return np.array(out, dtype=np.float32)

    def counts(
        self, state: WildState, player: str, scores: dict[str, int] | None = None
    ) -> list[int]:
        """``observe(state.view(player), 0.0)`` as whole numbers (every entry but the clock is a
        count or a flag), read from the state: the read-outs the view is made of (the player's
        own hand, offer and Objective; the public table), without building the JSON-shaped view
        (whose meeting history grows all game).

        The vector env's fast path (``batch.write_nonzero`` puts it in its batch row, the clock
        beside it). Tested equal to ``observe`` on random games (``tests/test_adapters_vector.py``).
        ``scores``: ``state.scores()`` where the caller already has them.
        """
        out = [0] * self.obs_size
        n, per_seat, players = self.n, self._per_seat, self.players
        i = self.seat[player]
        for card in state.held_at(i):  # cards as indices in CREATURES, the encoding's order
            out[card] += 1
        card, call = state.offer_at(i)
        if card >= 0:
            out[5 + card] = 1
            out[10 + call] = 1
        base = 15  # seat k's block (k places after the player) starts at base + k * per_seat
        up_at = base + n * per_seat
        for creature, owner, up in state.hole_at():
            if up:
                out[up_at + creature] += 1
            else:
                out[base + (owner - i) % n * per_seat + 13] += 1
        asked_by_me = state.asks_at(i)
        if scores is None:
            scores = state.scores()
        for k in range(n):
            seat = (i + k) % n
            at = base + k * per_seat
            call = state.offer_at(seat)[1]
            if call >= 0:
                out[at + call] = 1
            out[at + 5] = state.hand_size_at(seat)
            out[at + 6] = state.pack_size_at(seat)
            foreign = 0
            for creature, owner in state.den_at(seat):
                out[at + 7 + creature] += 1
                if owner != seat:
                    foreign += 1
            out[at + 12] = foreign
            out[at + 14] = scores[players[seat]]
            out[at + 15] = (asked_by_me >> seat) & 1
            out[at + 16] = (state.asks_at(seat) >> i) & 1
        out[up_at + 6] = int(state.is_over)
        objective = state.objective(player)
        if self.objectives and objective is not None:
            out[up_at + 7 + _OBJECTIVE_INDEX[objective]] = 1
        return out

    def observe_state(
        self, state: WildState, player: str, quiet: float, out: MutableSequence[float]
    ) -> None:
        """Write ``observe(state.view(player), quiet)`` into ``out`` (zeroed): ``counts``'
        entries and the clock."""
        write_nonzero(out, self.counts(state, player))
        out[self.quiet_at] = quiet

    def observation_high(self) -> FloatArray:
        """Upper bounds of the observation entries (for a Box space)."""
        # Counts never exceed every card at the table; scores stay under 2 points per card.
        cards = 10.0 * self.n
        high = np.full(self.obs_size, cards, dtype=np.float32)
        for k in range(self.n):
            high[self.offsets[f"seat{k}.score"]] = 2 * cards + 3
        high[self.offsets["quiet"]] = 1.0
        high[self.offsets["over"]] = 1.0
        return high


def from_view(view: Mapping[str, Any]) -> WildEncoding:
    """The encoding of the table a seat's view shows (wild's ``GameInfo.faces.encoding``)."""
    return WildEncoding(view["players"], bool(view["options"]["objectives"]))


# Copied and pickled by its arguments (bestiary.core.values: compiled classes need it).
by_arguments(WildEncoding, lambda e: (e.players, e.objectives))
