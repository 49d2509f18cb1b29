"""What the critters engine keeps to go faster (bestiary.critters.kept) changes nothing: seeded
games on a table that keeps nothing (``Table.keep`` False: every action built anew, no legal
list or view part kept) and on the same table keeping everything list the same legal actions,
show the same views and make the same records, with the sheet's deck and with new cards."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from bestiary.critters import GAME, CrittersState

DECKS = Path(__file__).parent.parent / "examples" / "decks"


def both(seed: int, n: int, options: dict[str, Any]) -> tuple[CrittersState, CrittersState]:
    kept = GAME.new_game(["ann", "bo", "cy", "dee", "eve"][:n], options, seed=seed)
    plain_table = dataclasses.replace(kept.table, keep=False)
    return kept, CrittersState.deal(plain_table, seed)


@pytest.mark.parametrize("deck", [None, "sneaky.toml", "windfall.toml", "pickpocket.toml"])
def test_keeping_changes_nothing(deck: str | None) -> None:
    options = {"deck": str(DECKS / deck)} if deck else {}
    for seed in range(60):
        kept, plain = both(seed, 2 + seed % 4, options)
        assert not plain.table.keep
        rng = random.Random(seed)
        while not kept.is_over:
            if kept.chance_due:
                outcome = kept.chance_outcome(rng)
                kept.apply(outcome)
                plain.apply(outcome)
                continue
            player = str(kept.to_act)
            legal = kept.legal_actions(player)
            assert plain.legal_actions(player) == legal
            assert plain.legal_actions_once(player) == legal
            # the plain path builds each action anew: nothing it lists was kept
            assert plain.legal_actions(player)[0] is not plain.legal_actions(player)[0]
            if rng.random() < 0.2:
                assert plain.view(player) == kept.view(player)
            action = legal[rng.randrange(len(legal))]
            assert kept.apply(action) == plain.apply(action)
        assert plain.events() == kept.events()
        assert plain.summary() == kept.summary()
