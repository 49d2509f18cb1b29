"""The bots' pace follows who sits at the table: a person's pace where a person sits, the lab's
at a table of bots only, and the same live pace in ``bestiary sim --pace live``. Every clock
here is the driver's own (ticks), so nothing depends on wall time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

from bestiary.core.agent import make_bot
from bestiary.core.driver import PACES, Match, Pace, Played, pace_option
from bestiary.critters import GAME as CRITTERS
from bestiary.server.settings import ServerSettings
from bestiary.server.table import TableSettings
from bestiary.sim.commands import SimRequest, plan_experiment
from bestiary.sim.runner import SIM_PACES, GameSpec, play_game, start_match
from bestiary.wild import GAME as WILD
from bestiary.wild import Call
from tests.live import LiveServer

NORMAL = Pace.chosen("normal")  # a live table's default: follows who sits there
FIRST, LAST = NORMAL.person_reaction_ticks[0], NORMAL.person_reaction_ticks[-1]


class Echo:
    """Answers the first Call it hears by making it too (with a card from its hand); waits
    otherwise. A table of these is quiet until someone calls."""

    def __init__(self, player: str) -> None:
        self.player = player

    def act(self, view: Mapping[str, Any], legal: Sequence[Any] | None = None) -> Any | None:
        if view["offer"] is not None or not view["hand"]:
            return None
        heard = [c for p, c in view["calls"].items() if p != self.player and c]
        return Call(self.player, view["hand"][0], heard[0]) if heard else None


class Caller(Echo):
    """Makes one honest Call at its first decision, then waits."""

    def act(self, view: Mapping[str, Any], legal: Sequence[Any] | None = None) -> Any | None:
        if view["offer"] is not None:
            return None
        return Call(self.player, view["hand"][0], view["hand"][0])


def answers(played: list[Played]) -> dict[str, int]:
    """The tick of each player's first Call in ``played``."""
    first: dict[str, int] = {}
    for step in played:
        for event in step.events:
            if event.get("do") == "call":
                first.setdefault(event["by"], step.tick)
    return first


def person_calls(pace: Pace, seed: int) -> tuple[int, dict[str, int]]:
    """ann (a person) calls at tick 40 at a quiet table of three Echo bots: (40, answers)."""
    state = WILD.new_game(["ann", "b1", "b2", "b3"], seed=seed)
    match = Match(WILD, state, {p: Echo(p) for p in ("b1", "b2", "b3")}, seed=seed, pace=pace)
    assert match.advance(40) == [] and match.tick == 40
    card = state.view("ann")["hand"][0]
    match.submit("ann", Call("ann", card, card))
    return 40, answers(match.advance(120))


@pytest.mark.parametrize("seed", range(8))
def test_with_a_person_seated_bots_answer_a_call_at_a_persons_pace(seed: int) -> None:
    at, answered = person_calls(NORMAL, seed)
    assert set(answered) == {"b1", "b2", "b3"}
    for tick in answered.values():  # 2.8 to 5.6 s after the Call: never snapped up
        assert at + FIRST <= tick <= at + LAST
    # the lab's pace (and "fast"): the bots' free-running 0.7-2.1 s clock answers at once
    for pace in (Pace(), Pace.chosen("fast")):
        at, answered = person_calls(pace, seed)
        assert all(at < tick <= at + max(pace.reaction_ticks) for tick in answered.values())


@pytest.mark.parametrize("seed", range(8))
def test_a_bots_call_is_answered_at_the_pace_a_persons_is(seed: int) -> None:
    # the same table with a bot making the Call: its answers come as late as the person's do
    state = WILD.new_game(["ann", "b1", "b2", "b3"], seed=seed)
    agents: dict[str, Any] = {"b1": Caller("b1"), "b2": Echo("b2"), "b3": Echo("b3")}
    match = Match(WILD, state, agents, seed=seed, pace=NORMAL)
    answered = answers(match.advance(120))
    called = answered.pop("b1")
    assert FIRST <= called <= LAST  # its first decision, a reaction after the deal
    assert set(answered) == {"b2", "b3"}
    for tick in answered.values():
        assert called + FIRST <= tick <= called + LAST


def decision_gaps(played: list[Played]) -> list[int]:
    """Ticks between each player's successive moves."""
    last: dict[str, int] = {}
    gaps = []
    for step in played:
        if step.by is not None:
            if step.by in last:
                gaps.append(step.tick - last[step.by])
            last[step.by] = step.tick
    return gaps


def reader_table(pace: Pace, people: Sequence[str] = ()) -> Match:
    players = ["ann", "b1", "b2", "b3"]
    state = WILD.new_game(players, seed=7)
    agents = {p: make_bot("wild", "reader", p, i) for i, p in enumerate(players) if p not in people}
    return Match(WILD, state, agents, seed=3, pace=pace)


def test_a_table_of_bots_only_keeps_the_labs_pace_whatever_was_chosen() -> None:
    lab = reader_table(Pace())
    lab_played = lab.play()
    for choice in PACES:
        chosen = reader_table(Pace.chosen(choice))
        assert not chosen.person_paced
        played = chosen.play()
        assert chosen.state.events() == lab.state.events()  # the same game, event for event
        assert [(p.tick, p.by) for p in played] == [(p.tick, p.by) for p in lab_played]
    assert min(decision_gaps(lab_played)) == min(Pace().reaction_ticks)


def test_a_person_seated_slows_every_bot_and_a_stand_in_keeps_the_pace() -> None:
    match = reader_table(NORMAL, people=["ann"])
    assert match.person_paced and match.people == {"ann"}
    match.set_agent("ann", make_bot("wild", "reader", "ann", 9))  # ann left: a stand-in plays
    played = match.play()
    assert match.state.is_over
    assert min(decision_gaps(played)) >= FIRST  # no bot moves twice within a person's reaction


def test_sim_live_pace_is_the_live_tables_model() -> None:
    spec = GameSpec(0, "wild", ("reader",) * 4, seed=11, keep_record=True, pace="live")
    live = play_game(spec)
    lab = play_game(GameSpec(0, "wild", ("reader",) * 4, seed=11, keep_record=True))
    # the same as a Match at a live table's normal pace with a person seated (forced here)
    match = start_match(spec, pace=Pace.chosen("normal", people=True))
    played = match.play()
    assert live.record is not None and lab.record is not None
    assert match.state.events() == [orjson.loads(line) for line in live.record[1:]]
    assert live.ticks == match.tick and live.record != lab.record
    assert min(decision_gaps(played)) >= FIRST
    assert live.ticks > 2 * lab.ticks  # seconds per decision, not the lab's 0.7-2.1 s
    # `bestiary sim --pace live` plays these specs; an unknown pace is one sentence
    request = SimRequest(game="wild", players=4, bots="reader", games=2, seed=1, pace="live")
    base = plan_experiment(request)[0]
    assert {s.pace for s in base.specs(2, [1])} == {"live"} and "live" in SIM_PACES
    with pytest.raises(ValueError, match="--pace must be one of lab, live, not 'brisk'"):
        plan_experiment(replace(request, pace="brisk"))


def test_a_critters_bot_waits_the_chosen_pause_only_with_a_person_seated() -> None:
    def first_due(pace: Pace, person: bool) -> int | None:
        state = CRITTERS.new_game(["bo", "ann"], seed=2)
        agents = {"bo": make_bot("critters", "greedy", "bo", 1)}
        if not person:
            agents["ann"] = make_bot("critters", "greedy", "ann", 2)
        return Match(CRITTERS, state, agents, seed=1, pace=pace).next_due()

    slow = Pace.chosen("slow")
    assert first_due(slow, person=True) == slow.ticks(2.5) == 8
    assert first_due(NORMAL, person=True) == 3
    assert first_due(Pace.chosen("fast"), person=True) == 1
    assert first_due(slow, person=False) == Pace().turn_pause_ticks == 3


def test_pace_choices_are_checked_and_described() -> None:
    with pytest.raises(ValueError, match="the pace must be one of normal, slow, fast, not 'x'"):
        Pace.chosen("x")
    with pytest.raises(ValueError, match="reaction times must be at least one tick"):
        Pace(person_reaction_ticks=())
    assert pace_option(True).choices == PACES and pace_option(True, "slow").default == "slow"
    assert "normal, 2.8 to 5.6 s" in pace_option(True).description
    assert "slow, 2.8 s" in pace_option(False).description


def test_the_lobby_serves_the_pace_and_a_table_keeps_its_choice(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'p.sqlite'}"
    limits = ServerSettings(tables_per_minute=600)
    with LiveServer(db, TableSettings(), server=limits) as server, server.http() as http:
        games = {g["name"]: g for g in http.get("/api/games").json()}
        for name in ("wild", "critters"):
            (spec,) = games[name]["table_options"]
            assert spec["name"] == "pace" and spec["choices"] == list(PACES)
            assert spec["default"] == "normal" and spec["kind"] == "choice"
        made = http.post(
            "/api/tables", json={"game": "wild", "seats": 2, "name": "ann", "pace": "slow"}
        )
        assert made.status_code == 201
        assert made.json()["table"]["settings"]["bots_pace"] == "slow"
        plain = http.post("/api/tables", json={"game": "wild", "seats": 2, "name": "bo"})
        assert plain.json()["table"]["settings"]["bots_pace"] == "normal"
        bad = http.post(
            "/api/tables", json={"game": "wild", "seats": 2, "name": "cy", "pace": "brisk"}
        )
        assert bad.status_code in (400, 422) and "pace" in bad.json()["detail"]
