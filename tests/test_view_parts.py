"""A view in parts (``core.game.view_in_parts``): what a server encodes once for every seat.

Merged in order, the parts are the view, key for key and in its order, with no key in two
parts; what every seat sees alike is one object in every seat's parts; a part, once handed
out, never changes; critters' table part is one object for the whole game.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary.core.game import State, get_game, view_in_parts

VIEWERS = ["ann", "bo", "cy", "di"]


def _check_parts(state: State, players: list[str]) -> list[list[dict[str, Any]]]:
    """Every viewer's parts merge into its view, key for key and in its order."""
    all_parts = []
    for viewer in [*players, None]:
        parts = view_in_parts(state, viewer)
        merged: dict[str, Any] = {}
        for part in parts:
            assert not merged.keys() & part.keys()  # no key in two parts
            merged |= part
        view = state.view(viewer)
        assert list(merged) == list(view)
        assert merged == view
        all_parts.append(parts)
    return all_parts


@settings(max_examples=15, deadline=None)
@given(
    game=st.sampled_from(["critters", "wild"]),
    seed=st.integers(0, 2**31 - 1),
    players=st.integers(2, 4),
)
def test_parts_merge_into_the_view_and_never_change(game: str, seed: int, players: int) -> None:
    names = VIEWERS[:players]
    state = get_game(game).new_game(names, {}, seed)
    rng = random.Random(seed)
    handed: list[tuple[dict[str, Any], dict[str, Any]]] = []  # each part and a copy of it
    for _ in range(150):
        if state.is_over:
            break
        for parts in _check_parts(state, names):
            handed.extend((part, copy.deepcopy(part)) for part in parts)
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
        else:
            movers = [p for p in names if state.legal_actions(p)]
            if not movers:
                break
            mover = rng.choice(movers)
            state.apply(rng.choice(state.legal_actions(mover)))
    _check_parts(state, names)
    for part, was in handed:
        assert part == was  # never changed once handed out


def test_shared_parts_are_one_object_and_critters_table_lasts_the_game() -> None:
    state = get_game("critters").new_game(VIEWERS, {}, 3)
    seats = [view_in_parts(state, p) for p in VIEWERS]
    spectator = view_in_parts(state, None)
    # the seat's own head, the table, the hand, the play; a spectator has no hand
    assert [len(parts) for parts in seats] == [4, 4, 4, 4] and len(spectator) == 3
    for parts in seats:
        assert parts[1] is seats[0][1] is spectator[1]  # the table
        assert parts[3] is seats[0][3] is spectator[2]  # the play
    table = seats[0][1]
    rng = random.Random(3)
    for _ in range(20):
        if state.chance_due:
            state.apply(state.chance_outcome(rng))
        else:
            state.apply(rng.choice(state.legal_actions(state.actors[0])))
    again = view_in_parts(state, "ann")
    assert again[1] is table  # the same table part, moves later
    assert again[3] is not seats[0][3]  # the play changed


def test_wild_shares_the_table_part_between_seats() -> None:
    state = get_game("wild").new_game(VIEWERS, {}, 5)
    seats = [view_in_parts(state, p) for p in VIEWERS]
    assert all(parts[1] is seats[0][1] for parts in seats)
    assert all("hand" in parts[2] for parts in seats)


def test_a_game_without_parts_is_one_part() -> None:
    class Whole:
        def view(self, player: str | None) -> dict[str, Any]:
            return {"you": player}

    assert view_in_parts(Whole(), "ann") == [{"you": "ann"}]  # type: ignore[arg-type]
