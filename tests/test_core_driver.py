"""The one match driver: pacing, chance, the quiet and answer clocks, stand-ins, outside play."""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bestiary.core.agent import default_bot, make_bot
from bestiary.core.driver import _FIELDS, BotFault, LazyView, Match, Pace
from bestiary.core.errors import IllegalAction
from bestiary.core.game import get_game
from bestiary.critters import GAME as CRITTERS
from bestiary.critters.actions import HopOver
from bestiary.wild import GAME as WILD


def bots(game: str, players: Sequence[str], name: str, seed: int = 0) -> dict[str, Any]:
    return {p: make_bot(game, name, p, seed + i) for i, p in enumerate(players)}


@pytest.mark.parametrize(("game", "bot"), [("wild", "reader"), ("critters", "greedy")])
def test_the_same_seed_gives_the_same_game(game: str, bot: str) -> None:
    def play(seed: int) -> list[Any]:
        rules = get_game(game)
        state = rules.new_game(["a", "b", "c"], seed=5)
        Match(rules, state, bots(game, state.players, bot), seed=seed).play()
        assert state.is_over
        return state.events()

    assert play(1) == play(1)
    if get_game(game).info.real_time:
        assert play(1) != play(2)  # the table's seed orders bots and draws reaction times


SHORT_DECK = ["fox", "owl", "frog", "hedgehog", "otter", "rabbit", "raccoon", "squirrel"] * 2
SHORT_DECK += ["turtle", "wild", "no", "hop_over"]


def test_chance_is_sampled_by_the_driver_at_once_from_its_seed() -> None:
    def play(seed: int) -> list[Any]:
        header = {"game": "critters", "players": ["a", "b"], "deck": SHORT_DECK}
        state = CRITTERS.from_header(header)
        Match(CRITTERS, state, bots("critters", state.players, "random"), seed=seed).play()
        return state.events()

    games = [play(seed) for seed in range(6)]
    shuffled = [g for g in games if any(e["do"] == "reshuffle" for e in g)]
    assert shuffled, "a short deck runs out: the centre pile is reshuffled"
    for events in shuffled:
        for i, event in enumerate(events):
            if event["do"] == "reshuffle":  # the table's event, right where a turn began
                assert "by" not in event and events[i - 1].get("by") is not None
    assert play(3) == play(3)


def test_the_quiet_clock_ends_a_wild_game_at_nightfall() -> None:
    state = WILD.new_game(["a", "b"], {"nightfall_seconds": 7}, seed=1)
    match = Match(WILD, state, {})
    assert match.next_due() == Pace().ticks(7) == 20
    assert match.advance(19) == [] and not state.is_over
    played = match.advance(20)
    assert [p.events for p in played] == [[{"do": "nightfall"}]] and state.ending() == "nightfall"


def test_a_person_who_lets_the_answer_clock_run_out_allows() -> None:
    # Dealt one at a time: ann gets hop_over first; bo's fox goes down, then ann hops it.
    deck = ["fox", "hop_over", "no", "fox", "owl", "turtle", "frog", "rabbit"]
    deck += ["hedgehog", "rabbit", "otter", "otter", "squirrel", "raccoon", "owl", "owl"]
    header = {"game": "critters", "version": 1, "players": ["bo", "ann"], "deck": deck}
    state = CRITTERS.from_header(header)
    pace = Pace(answer_seconds=2)
    match = Match(CRITTERS, state, {}, pace=pace)
    match.submit("bo", CRITTERS.action_from_event({"by": "bo", "do": "down", "card": "fox"}))
    match.submit("ann", HopOver("ann", "bo", "fox", "fox"))
    assert state.awaiting == "bo"
    due = match.next_due()
    assert due == match.tick + pace.ticks(2)
    assert match.deadlines()["answer"] == {"bo": due}
    played = match.advance(due)
    assert [(p.by, p.events) for p in played] == [("bo", [{"by": "bo", "do": "allow"}])]


def test_outside_players_act_only_for_their_own_seat() -> None:
    state = WILD.new_game(["a", "b"], seed=2)
    match = Match(WILD, state, {"b": make_bot("wild", "reader", "b", 1)})
    card = state.hand("a")[0]
    call = WILD.action_from_event({"by": "a", "do": "call", "card": card, "call": card})
    with pytest.raises(IllegalAction, match="being played by a bot"):
        match.submit("b", call)
    theirs = WILD.action_from_event({"by": "b", "do": "withdraw"})
    with pytest.raises(IllegalAction, match="you play a, not 'b'"):
        match.submit("a", theirs)
    assert match.submit("a", call) == [call.to_event()]
    with pytest.raises(IllegalAction):
        match.submit("a", WILD.action_from_event({"by": "a", "do": "meet", "with": "a"}))


def test_a_stand_in_takes_over_and_steps_aside() -> None:
    state = CRITTERS.new_game(["ann", "bo"], seed=3)
    match = Match(CRITTERS, state, {"bo": make_bot("critters", "greedy", "bo", 2)})
    assert state.to_act == "ann" and match.next_due() is None  # a person's turn: no clock
    match.set_agent("ann", make_bot("critters", default_bot("critters"), "ann", 3))
    assert match.next_due() == match.tick + match.pace.turn_pause_ticks
    match.advance(match.tick + 40)
    assert any(e.get("by") == "ann" for e in state.events())
    match.set_agent("ann", None)
    while not state.is_over and state.to_act != "ann":
        match.advance(match.tick + 1)
    assert state.is_over or match.next_due() is None


def test_step_tick_skips_what_an_earlier_action_made_illegal() -> None:
    state = WILD.new_game(["a", "b"], seed=4)
    match = Match(WILD, state, {}, pace=Pace(learner_every_tick=True))
    card = state.hand("a")[0]
    call = WILD.action_from_event({"by": "a", "do": "call", "card": card, "call": card})
    report = match.step_tick({"a": call, "b": None})
    assert [p.events for p in report.played] == [[call.to_event()]] and match.tick == 1
    again = match.step_tick({"a": WILD.action_from_event({"by": "a", "do": "withdraw"})})
    assert not again.skipped
    report = match.step_tick({"a": WILD.action_from_event({"by": "a", "do": "withdraw"})})
    assert "a" in report.skipped  # nothing on offer any more: reported, not replaced


class Stubborn:
    def __init__(self, player: str) -> None:
        self.player = player

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        return None


def test_a_live_table_logs_a_bot_fault_and_goes_on() -> None:
    state = CRITTERS.new_game(["a", "b"], seed=1)
    strict = Match(CRITTERS, state.clone(), {"a": Stubborn("a")})
    with pytest.raises(BotFault, match="made no move"):
        strict.advance(10)
    live = Match(CRITTERS, state, {"a": Stubborn("a")}, strict=False)
    live.advance(20)
    assert live.faults and "made no move" in live.faults[0] and not state.is_over


class Peeking:
    """A lazy-view bot that checks each view it reads against the seat's full view."""

    lazy_view = True

    def __init__(self, bot: Any, state: Any) -> None:
        self.player, self.bot, self.state, self.reads = bot.player, bot, state, 0

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        assert isinstance(view, LazyView)
        if self.reads % 2 == 0:  # every other decision unread: a random bot's usual case
            assert dict(view) == self.state.view(self.player) and view["you"] == self.player
        self.reads += 1
        return self.bot.act(view, legal)


class Eager:
    """A bot handed the full view up front, whatever its class says."""

    lazy_view = False

    def __init__(self, bot: Any) -> None:
        self.player, self.bot = bot.player, bot

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        assert type(view) is dict
        return self.bot.act(view, legal)


@pytest.mark.parametrize("game", ["wild", "critters"])
def test_a_lazy_view_is_the_seats_own_view_and_changes_no_game(game: str) -> None:
    rules = get_game(game)

    def play(wrap: Any) -> list[Any]:
        state = rules.new_game(["a", "b", "c"], seed=3)
        agents = {p: wrap(bot, state) for p, bot in bots(game, state.players, "random").items()}
        Match(rules, state, agents, seed=4).play()
        assert state.is_over
        return state.events()

    as_is = play(lambda bot, state: bot)
    assert as_is == play(Peeking) == play(lambda bot, state: Eager(bot))


class Counted:
    """A state's ``view`` and ``view_part``, counting the calls of each."""

    def __init__(self, state: Any) -> None:
        self.state, self.views, self.parts = state, 0, 0

    def view(self, player: str | None) -> dict[str, Any]:
        self.views += 1
        return dict(self.state.view(player))

    def view_part(self, player: str | None, key: str) -> Any:
        self.parts += 1
        return self.state.view_part(player, key)


def test_a_lazy_view_reads_a_part_the_game_answers_alone_without_the_whole_view() -> None:
    state = WILD.new_game(["a", "b", "c"], seed=3)
    Match(WILD, state, bots("wild", state.players, "random"), seed=4).advance(40)
    counted: Any = Counted(state)  # stands in for the State it wraps
    view = LazyView(counted, "b")
    assert view["calls"] == view["calls"] == state.view("b")["calls"]
    assert (counted.views, counted.parts) == (0, 2)
    assert view["hand"] == state.hand("b") and view["calls"] == state.view("b")["calls"]
    assert (counted.views, counted.parts) == (1, 3)  # built once, then read from the whole view
    critters = CRITTERS.new_game(["a", "b"], seed=3)  # a game without view_part: the whole view
    assert LazyView(critters, "a")["players"] == critters.view("a")["players"]


def test_pace_refuses_nonsense() -> None:
    for bad in ({"tick_seconds": 0}, {"tick_seconds": float("inf")}, {"reaction_ticks": ()}):
        with pytest.raises(ValueError):
            Pace(**bad)
    assert Pace().ticks(120) == 343 and Pace().seconds(20) == 7.0


def test_bot_reaction_times_do_not_depend_on_the_cards() -> None:
    """Two deals, the same table seed: every bot decides at the same ticks (until play differs)."""

    def decision_ticks(deal_seed: int) -> list[tuple[int, str]]:
        state = WILD.new_game(["a", "b", "c"], seed=deal_seed)
        seen: list[tuple[int, str]] = []

        class Watcher(Stubborn):
            def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
                seen.append((match.tick, self.player))
                return None

        match = Match(WILD, state, {p: Watcher(p) for p in state.players}, seed=8)
        match.advance(200)
        return seen

    assert decision_ticks(1) == decision_ticks(2) != []


def test_default_bot_is_the_strongest_within_the_budget() -> None:
    assert default_bot("wild") == "reader"
    assert default_bot("critters") == "ismcts"
    assert default_bot("critters", budget_seconds=0.1) == "greedy"


@pytest.mark.parametrize(("game", "bot"), [("wild", "reader"), ("critters", "greedy")])
def test_a_copied_match_plays_on_as_the_original_would(game: str, bot: str) -> None:
    rules = get_game(game)
    state = rules.new_game(["a", "b", "c"], seed=5)
    match = Match(rules, state, {"a": make_bot(game, bot, "a", 1)}, seed=3)
    match.advance(40)
    copied = match.copy(state.clone())
    if hasattr(match, "__dict__"):  # pure: every attribute copied, none left as __init__ made it
        assert vars(copied).keys() == vars(match).keys()
        for name, value in vars(match).items():
            mine = getattr(copied, name)
            assert mine == value or name == "state", name
            if isinstance(value, list | dict):
                assert mine is not value, f"{name} is shared with the original"
    assert copied.state is not match.state and copied.tick == match.tick
    pickled = pickle.loads(pickle.dumps(match))
    assert pickled.tick == match.tick and pickled.state.events() == match.state.events()
    if hasattr(match, "__dict__"):
        assert vars(pickled).keys() == vars(match).keys()
        assert set(vars(match)) == {"game", "state", *_FIELDS}  # pickling keeps every field
    # Bots are shared (a copy does not copy their RNGs): the two play on with the seat empty.
    for m in (match, copied):
        m.set_agent("a", None)
    copied.rng.setstate(match.rng.getstate())
    assert copied.advance(1_000) == match.advance(1_000)
    assert copied.state.events() == match.state.events()


@pytest.mark.parametrize(("game", "bot"), [("wild", "reader"), ("critters", "greedy")])
def test_a_bounded_advance_plays_the_same_game_a_few_moves_at_a_time(game: str, bot: str) -> None:
    """However far behind its clock a table is, one call plays at most ``most`` actions (plus
    the rest of the tick it began); call after call, it is the same game as one long call."""
    rules = get_game(game)
    pace = Pace(turn_pause_ticks=0)  # every bot's turn is due the moment it begins

    def match() -> Match:
        state = rules.new_game(["a", "b", "c"], seed=5)
        return Match(rules, state, bots(game, state.players, bot), seed=1, pace=pace)

    whole = match()
    whole.advance(10**6)
    assert whole.state.is_over
    stepped, calls = match(), 0
    while not stepped.state.is_over:
        played = stepped.advance(10**6, most=3)
        moves = sum(p.by is not None for p in played)
        assert moves <= 3 + len(stepped.state.players) - 1  # a begun tick finishes
        calls += 1
    assert calls > 10
    assert stepped.state.events() == whole.state.events()
