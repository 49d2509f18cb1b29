"""The tick model every wild adapter uses, on explicit deals."""

from __future__ import annotations

import pytest

from bestiary.adapters.ticks import TickedWild
from bestiary.wild import GAME, Call, Meet, Nightfall, WildState

PACK = ["megalotaur", "snerlep", "fizzalisk", "wiffaloon", "skeevil"] * 2


def _table(quiet_ticks: int = 10) -> TickedWild:
    header = {
        "game": "wild",
        "version": 1,
        "players": ["ann", "bob", "cy"],
        "options": {},
        "packs": {"ann": PACK, "bob": PACK, "cy": PACK},
    }
    return TickedWild(GAME.from_header(header), quiet_ticks)


def _all_call(table: TickedWild) -> WildState:
    table.play_tick([Call(p, "megalotaur", "megalotaur") for p in ("ann", "bob", "cy")], [0, 1, 2])
    return table.state


def test_an_action_made_illegal_earlier_in_the_tick_is_skipped_as_a_wait() -> None:
    table = _table()
    state = _all_call(table)
    report = table.play_tick([Meet("ann", "bob"), Meet("bob", "ann"), Meet("cy", "bob")], [0, 1, 2])
    assert report.applied == [Meet("ann", "bob"), Meet("bob", "ann")]
    assert list(report.skipped) == ["cy"]
    assert "no Call" in report.skipped["cy"]
    assert [(m.players, m.outcome) for m in state.meetings] == [(("ann", "bob"), "mate")]
    assert state.offer_call("cy") == "megalotaur"
    assert state.asks() == []


def test_another_order_lets_the_same_actions_all_apply() -> None:
    table = _table()
    state = _all_call(table)
    report = table.play_tick([Meet("ann", "bob"), Meet("bob", "ann"), Meet("cy", "bob")], [2, 0, 1])
    assert report.skipped == {}
    assert len(report.applied) == 3
    # cy asked bob first, but bob agreed with ann: cy's ask lapsed when bob met ann.
    assert [m.players for m in state.meetings] == [("ann", "bob")]
    assert state.asks() == []


def test_waits_and_the_nightfall_clock() -> None:
    table = _table(quiet_ticks=3)
    for tick in range(1, 3):
        report = table.play_tick([None, None, None], [0, 1, 2])
        assert not report.nightfall and table.quiet == tick
    assert table.quiet_share == pytest.approx(2 / 3)
    report = table.play_tick([None, None, None], [0, 1, 2])
    assert report.nightfall and table.state.is_over
    assert table.state.history[-1] == Nightfall()
    assert table.state.ended_by == []


def test_a_meeting_resets_the_clock() -> None:
    table = _table(quiet_ticks=4)
    _all_call(table)
    table.play_tick([None, None, None], [0, 1, 2])
    assert table.quiet == 2
    table.play_tick([Meet("ann", "bob"), None, None], [0, 1, 2])
    assert table.quiet == 3
    table.play_tick([None, Meet("bob", "ann"), None], [0, 1, 2])
    assert table.quiet == 0 and not table.state.is_over


def test_clone_is_independent() -> None:
    table = _table()
    _all_call(table)
    other = table.clone()
    other.play_tick([Meet("ann", "bob"), Meet("bob", "ann"), None], [0, 1, 2])
    assert other.state.meetings and not table.state.meetings
    assert other.ticks == table.ticks + 1


def test_a_nightfall_budget_below_one_tick_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one tick"):
        TickedWild(GAME.new_game(["a", "b"], seed=1), quiet_ticks=-1)
