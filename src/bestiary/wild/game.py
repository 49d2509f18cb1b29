"""The wild entry point registered as ``bestiary.wild.GAME``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bestiary.core.driver import Pace
from bestiary.core.errors import BadOption
from bestiary.core.game import State
from bestiary.wild.actions import Nightfall, WildAction, action_from_event
from bestiary.wild.info import INFO
from bestiary.wild.setup import (
    check_options,
    check_players,
    deal_from_header,
)
from bestiary.wild.state import WildState


class WildGame:
    """Call of the Wild: 2-6 players, real time, bluffing with Calls."""

    info = INFO

    def new_game(
        self,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> WildState:
        """Deal a new game from ``seed`` (a random one, recorded in the header, if None)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        header = {
            "game": "wild",
            "version": 1,
            "players": list(check_players(list(players))),
            "options": check_options(options),
            "seed": seed,
        }
        return WildState(deal_from_header(header))

    def from_header(self, header: Mapping[str, Any]) -> WildState:
        if header.get("game", "wild") != "wild":
            raise BadOption(f"this is a {header.get('game')!r} record, not wild")
        return WildState(deal_from_header(header))

    def action_from_event(self, event: Mapping[str, Any]) -> WildAction:
        return action_from_event(event)

    def random_playout(self, state: State, rng: random.Random, max_steps: int) -> int:
        """Random legal play: a random player with a move, a random move; return steps taken.

        A step stands for one tick of the driver's clock (``bestiary.core.driver.Pace``):
        Nightfall comes after the game's ``nightfall_seconds`` of such ticks without a
        meeting, as at a live table, or when ``max_steps`` is reached.
        """
        if not isinstance(state, WildState):
            raise TypeError("random_playout needs a WildState")
        players = state.players
        budget = Pace().ticks(float(state.deal.options["nightfall_seconds"]))
        choice = rng.choice
        legal = state.legal_actions
        apply = state.play
        steps = quiet = 0
        met = len(state.meetings)
        while not state.is_over and steps < max_steps:
            if quiet >= budget:
                break
            actions = legal(choice(players))
            if not actions:
                able = [p for p in players if legal(p)]
                if not able:
                    break
                actions = legal(choice(able))
            apply(choice(actions))
            steps += 1
            if len(state.meetings) != met:
                met = len(state.meetings)
                quiet = 0
            else:
                quiet += 1
        if not state.is_over:
            state.apply(Nightfall())
            steps += 1
        return steps


GAME = WildGame()
