"""Tournament pairings and OpenSkill ratings."""

from __future__ import annotations

from collections import Counter

import pytest

from bestiary.sim.runner import GameResult
from bestiary.sim.tournament import rate, tournament_specs


def test_round_robin_plays_every_table_with_seats_rotated() -> None:
    specs = tournament_specs("critters", ["a", "b", "c"], 2, 4, seed=1)
    tables = Counter(frozenset(s.bots) for s in specs)
    assert tables == {frozenset("ab"): 4, frozenset("ac"): 4, frozenset("bc"): 4}
    firsts = Counter(s.bots[0] for s in specs if set(s.bots) == {"a", "b"})
    assert firsts == {"a": 2, "b": 2}
    assert [s.index for s in specs] == list(range(12))
    assert len({s.seed for s in specs}) == 12


def test_random_pairings_are_seeded() -> None:
    one = tournament_specs("wild", ["a", "b", "c", "d", "e"], 4, 30, seed=3, pairing="random")
    two = tournament_specs("wild", ["a", "b", "c", "d", "e"], 4, 30, seed=3, pairing="random")
    other = tournament_specs("wild", ["a", "b", "c", "d", "e"], 4, 30, seed=4, pairing="random")
    assert one == two and one != other
    assert all(len(set(s.bots)) == 4 for s in one)


@pytest.mark.parametrize(
    ("pool", "players", "pairing", "message"),
    [
        (["a", "a"], 2, "round-robin", "only once"),
        (["a"], 2, "round-robin", "cannot fill"),
        (["a", "b"], 2, "elimination", "pairing"),
    ],
)
def test_bad_tournaments_are_refused(
    pool: list[str], players: int, pairing: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        tournament_specs("critters", pool, players, 1, seed=1, pairing=pairing)


def _result(index: int, bots: tuple[str, ...], winners: tuple[int, ...]) -> GameResult:
    return GameResult(index, index, bots, winners, (0,) * len(bots), 10, 0, {}, "won")


def test_ratings_follow_the_results() -> None:
    results = [_result(i, ("strong", "weak"), (0,)) for i in range(30)]
    results += [_result(30 + i, ("weak", "strong"), (1,)) for i in range(30)]
    tournament = rate("critters", 2, results)
    board = tournament.leaderboard()
    assert [s.bot for s in board] == ["strong", "weak"]
    assert board[0].mu > board[1].mu and board[0].sigma < 25 / 3
    assert board[0].record.rate == 1.0 and board[1].record.games == 60
    assert tournament.head_to_head[("strong", "weak")].wins == 60
    data = tournament.to_json()
    assert data["leaderboard"][0]["ordinal"] == pytest.approx(
        board[0].mu - 3 * board[0].sigma, 1e-3
    )


def test_a_shared_win_moves_neither_far() -> None:
    tournament = rate("critters", 2, [_result(0, ("a", "b"), (0, 1))])
    a, b = sorted(tournament.leaderboard(), key=lambda s: s.bot)
    assert a.mu == pytest.approx(b.mu)
    assert a.record.wins == pytest.approx(0.5)
