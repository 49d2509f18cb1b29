"""The seeded runner: tick model, turns, nightfall, faults, seating, determinism across jobs."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bestiary.core.agent import Agent
from bestiary.core.driver import Match, Pace
from bestiary.core.game import get_game, replay
from bestiary.core.records import parse_lines
from bestiary.sim.parallel import game_seed, run_games
from bestiary.sim.runner import BotFault, GameSpec, play_game
from bestiary.sim.seating import seat_bots, sim_specs
from bestiary.sim.summary import reproducible, summarize
from bestiary.wild import Call, Meet, Withdraw


class Waiter:
    """Never acts; counts how often it was asked, when, and what it was given."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.asked = 0
        self.seen: list[Any] = []

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        self.asked += 1
        self.seen.append(view)
        return None


def _waiters() -> tuple[list[Waiter], Any]:
    waiters: list[Waiter] = []

    def maker(game: str, name: str, player: str, seed: int) -> Agent:
        waiters.append(Waiter(player))
        return waiters[-1]

    return waiters, maker


def test_wild_nightfall_after_nightfall_seconds_without_a_meeting() -> None:
    waiters, maker = _waiters()
    spec = GameSpec(0, "wild", ("x", "x"), seed=5, options={"nightfall_seconds": 7})
    result = play_game(spec, bot_maker=maker)
    pace = Pace()
    assert result.ended == "nightfall"
    assert result.ticks == pace.ticks(7) == 20  # 7 s of 0.35 s ticks, the one real-time model
    assert result.length == 0
    lo, hi = min(pace.reaction_ticks), max(pace.reaction_ticks)
    assert all(28 // hi <= w.asked <= 28 // lo for w in waiters)
    assert result.outcomes == {"mate": 0, "eat": 0, "avoid": 0}


def test_reaction_ticks_space_out_a_bots_decisions() -> None:
    state = get_game("wild").new_game(["a", "b"], seed=5)
    ticks: list[int] = []

    class Clocked(Waiter):
        def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
            ticks.append(match.tick)
            return super().act(view, legal)

    match = Match(get_game("wild"), state, {"a": Clocked("a")}, pace=Pace(reaction_ticks=(3,)))
    match.advance(30)
    assert ticks == list(range(3, 31, 3))  # a decision every 3 ticks, whatever it decided


def test_bots_are_given_views_and_their_legal_actions_only() -> None:
    waiters, maker = _waiters()
    spec = GameSpec(0, "wild", ("x", "x"), seed=3, options={"nightfall_seconds": 2})
    play_game(spec, bot_maker=maker)
    for waiter in waiters:
        assert waiter.seen
        for view in waiter.seen:
            assert type(view) is dict and view["you"] == waiter.player
            assert "packs" in view and all(isinstance(n, int) for n in view["packs"].values())


class Cheat:
    def __init__(self, player: str) -> None:
        self.player = player

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        return Withdraw(self.player)  # nothing on offer: the engine refuses it


def test_an_illegal_bot_move_is_a_readable_fault() -> None:
    def maker(game: str, name: str, player: str, seed: int) -> Agent:
        return Cheat(player)

    with pytest.raises(BotFault, match=r"bot for p.* played Withdraw.*refused: .*no offer"):
        play_game(GameSpec(0, "wild", ("x", "x"), seed=1), bot_maker=maker)


def test_a_critters_bot_that_will_not_move_is_a_fault() -> None:
    def maker(game: str, name: str, player: str, seed: int) -> Agent:
        return Waiter(player)

    with pytest.raises(BotFault, match="made no move"):
        play_game(GameSpec(0, "critters", ("x", "x"), seed=1), bot_maker=maker)


def test_one_scripted_meeting_is_counted() -> None:
    """Both players offer their first card with its own Call and meet: one meeting recorded."""

    class Scripted:
        def __init__(self, player: str) -> None:
            self.player = player

        def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
            other = next(p for p in view["players"] if p != self.player)
            if view["meetings"]:
                return None
            if view["offer"] is None:
                return Call(self.player, view["hand"][0], "snerlep")
            if view["calls"][other] == "snerlep" and [self.player, other] not in view["asks"]:
                return Meet(self.player, other)
            return None

    def maker(game: str, name: str, player: str, seed: int) -> Agent:
        return Scripted(player)

    spec = GameSpec(0, "wild", ("s", "s"), seed=2, options={"nightfall_seconds": 12})
    result = play_game(
        GameSpec(spec.index, spec.game, spec.bots, spec.seed, spec.options, keep_record=True),
        bot_maker=maker,
    )
    assert sum(result.outcomes.values()) == 1
    assert result.ended == "nightfall"
    assert result.record is not None
    header, events = parse_lines(result.record)
    assert header["bots"] == ["s", "s"]
    assert [e["do"] for _, e in events].count("meet") == 2


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    seen = {seat_bots(["a", "b", "c"], 3, i) for i in range(3)}
    assert seen == {("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")}
    with pytest.raises(ValueError, match="do not fit"):
        seat_bots(["a", "b", "c"], 2, 0)
    with pytest.raises(ValueError, match="at least one bot"):
        seat_bots([], 2, 0)


def test_game_seeds_depend_on_seed_and_index_only() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(s, i) for s in range(3) for i in range(50)}) == 150
    assert all(0 <= game_seed(9, i) < 2**63 for i in range(20))


@pytest.mark.parametrize(
    ("game", "bots", "players"),
    [
        ("wild", ["reader", "honest", "hunter", "trickster"], 4),
        ("critters", ["greedy", "random"], 2),
    ],
)
def test_same_seed_same_results_whatever_the_jobs(game: str, bots: list[str], players: int) -> None:
    specs = sim_specs(game, bots, players, 12, seed=3, keep_record=True)
    one = list(run_games(specs, jobs=1))
    two = list(run_games(specs, jobs=2))
    assert one == two
    assert reproducible(summarize(game, players, one).to_json()) == reproducible(
        summarize(game, players, two).to_json()
    )
    again = list(run_games(sim_specs(game, bots, players, 12, seed=4, keep_record=True), jobs=1))
    assert [r.record for r in again] != [r.record for r in one]


def test_records_replay_to_the_same_result() -> None:
    for spec in sim_specs("wild", ["reader", "cautious", "random"], 3, 3, seed=8, keep_record=True):
        result = play_game(spec)
        assert result.record is not None
        header, events = parse_lines(result.record)
        state = replay(header, events)
        assert state.is_over
        winners = state.winners()
        assert tuple(int(p[1:]) - 1 for p in winners) == result.winners
        assert tuple(state.scores()[p] for p in state.players) == result.scores


def test_progress_is_reported_per_batch() -> None:
    specs = sim_specs("critters", ["random"], 2, 10, seed=1)
    done: list[int] = []
    results = list(run_games(specs, jobs=1, progress=done.append))
    assert sum(done) == 10 and [r.index for r in results] == list(range(10))


def test_bad_driver_arguments_are_refused() -> None:
    specs = sim_specs("critters", ["random"], 2, 2, seed=1)
    with pytest.raises(ValueError, match="backend"):
        list(run_games(specs, backend="spark"))
    with pytest.raises(ValueError, match="--jobs"):
        list(run_games(specs, jobs=0))
    with pytest.raises(ValueError, match="--games"):
        sim_specs("critters", ["random"], 2, 0, seed=1)


def test_win_share_splits_ties() -> None:
    rng = random.Random(0)
    spec = sim_specs("critters", ["random"], 2, 1, seed=rng.randrange(100))[0]
    result = play_game(spec)
    assert sum(result.win_share(s) for s in range(2)) == pytest.approx(1.0)
