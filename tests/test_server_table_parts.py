"""Each part of a table, built and exercised alone: the actor, the seats, who is present, the
ticks, the alarm and the turn clock on a fake clock, the outbox on a fake store, the line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import orjson
import pytest

from bestiary.server.actor import Actor
from bestiary.server.commits import Line, Outbox
from bestiary.server.metrics import app_registry
from bestiary.server.presence import Presence
from bestiary.server.seating import Seating, TableError
from bestiary.server.seats import Seat, hash_token
from bestiary.server.table_clocks import Alarm, Ticks, TurnClock
from tests.test_server_driver import FakeClock, Watcher


def at_once(job: Callable[[], None]) -> None:
    """A post that runs the job now (the parts alone, without an actor)."""
    job()


def test_the_actor_runs_jobs_in_order_and_survives_a_failing_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> list[str]:
        actor = Actor("ACTOR1")
        done: list[str] = []
        actor.post(lambda: done.append("before start"))  # no task yet: queued
        assert done == []
        actor.start()

        def first() -> None:
            done.append("first")
            actor.post(lambda: done.append("posted by first"))  # runs after first ends
            done.append("first ends")

        def failing() -> None:
            raise RuntimeError("a bad job")

        actor.post(first)
        actor.post(failing)
        assert await actor.ask(lambda: 42) == 42
        empty: dict[str, int] = {}
        with pytest.raises(KeyError):
            await actor.ask(lambda: empty["missing"])
        await actor.stop()
        return done

    with caplog.at_level(logging.ERROR, logger="bestiary.server"):
        done = asyncio.run(main())
    assert done == ["before start", "first", "first ends", "posted by first"]
    assert "table ACTOR1: job failed" in caplog.text


def test_seating_checks_names_tokens_and_the_host() -> None:
    seating = Seating("SEATS1", "critters", 3)
    host, token = seating.join("ann", None, "10.0.0.1")
    assert host.index == 0 and host.token_hash == hash_token(token)
    assert token not in repr(seating.seats)  # only its hash is kept
    with pytest.raises(TableError, match="looks too much like"):
        seating.join("Ann", None, None)
    bot = seating.add_bot("random", None, None)
    assert (bot.index, bot.name, bot.bot) == (1, "random-2", "random")
    with pytest.raises(TableError, match="no bot called 'nobody'"):
        seating.add_bot("nobody", None, None)
    bo, bo_token = seating.join("bo", 2, "10.0.0.2")
    assert seating.full() and seating.seat_of(bo_token) is bo
    with pytest.raises(TableError, match="does not belong"):
        seating.seat_of("not a token")
    with pytest.raises(TableError, match="only the host"):
        seating.host(bo_token, "start the game")
    seating.host(token, "start the game")
    assert seating.addresses() == ["10.0.0.1", "10.0.0.2"]
    sock = Watcher()
    bo.connections.add(sock)
    sock.seat = 2
    seating.empty(bo, "the host gave your seat to someone else.")
    assert bo.is_open and not bo.connections and sock.seat is None and sock.closed
    assert sock.messages[-1]["code"] == "unseated"
    with pytest.raises(TableError, match="seat 2 is empty"):
        seating.other(2)


def test_presence_counts_sockets_and_runs_a_grace_on_the_clock() -> None:
    clock = FakeClock()
    seats = [Seat(0, "ann"), Seat(1, "bo")]
    presence = Presence(seats, clock, at_once, max_spectators=1)
    ann, watcher = Watcher(), Watcher()
    assert presence.add(ann, seats[0]) is True  # her seat's first socket
    assert presence.add(Watcher(), seats[0]) is False
    assert presence.room_to_watch()
    presence.add(watcher, None)
    assert not presence.room_to_watch()
    presence.send(b'{"type":"notice"}')
    assert watcher.messages == ann.messages == [{"type": "notice"}]
    assert presence.remove(watcher) is None
    assert presence.remove(ann) is None  # her other socket is still there
    over: list[tuple[str | None, float]] = []
    presence.start_grace(seats[1], 30.0, lambda seat: over.append((seat.name, clock.now())))
    presence.start_grace(seats[1], 5.0, lambda seat: over.append(("again", clock.now())))
    assert seats[1].grace_due == 30.0  # one grace at a time
    presence.start_grace(seats[0], 10.0, lambda seat: over.append((seat.name, clock.now())))
    presence.end_grace(seats[0])  # she came back
    while clock.step():
        pass
    assert over == [("bo", 30.0)]
    assert seats[1].grace is None


def test_ticks_stand_still_while_paused() -> None:
    clock = FakeClock()
    ticks = Ticks(clock, 0.5)
    clock.t = 10.0
    ticks.start()
    clock.t = 11.2
    assert ticks.now_tick() == 2 and ticks.played() == pytest.approx(1.2)
    ticks.pause()
    clock.t = 20.0
    assert ticks.played() == pytest.approx(1.2)
    ticks.resume()
    assert ticks.now_tick() == 2 and ticks.starts_at(3) == pytest.approx(20.3)
    ticks.offset = 100.0  # a restored game's seconds before tick 0
    assert ticks.played_at(4) == pytest.approx(102.0)


def test_the_alarm_keeps_an_earlier_timer_and_ignores_a_cancelled_ring() -> None:
    clock = FakeClock()
    rang: list[float] = []
    alarm = Alarm(clock, at_once)

    def ring() -> None:
        rang.append(clock.now())

    alarm.want(5.0, ring)
    alarm.want(8.0, ring)  # later: the timer for 5 is kept (its owner wants again when it rings)
    assert clock.step() and rang == [5.0]
    alarm.want(9.0, ring)
    alarm.want(7.0, ring)  # earlier: set again
    assert clock.step() and rang == [5.0, 7.0]
    assert not clock.step()
    alarm.want(12.0, ring)
    alarm.cancel()
    assert not alarm.set
    assert not clock.step() and rang == [5.0, 7.0]


def test_the_turn_clock_restarts_and_runs_out_once() -> None:
    clock = FakeClock()
    out: list[tuple[str, int, float]] = []
    turn = TurnClock(clock, at_once)

    def over(who: str, seq: int) -> None:
        out.append((who, seq, clock.now()))

    turn.run("ann", 3, 2.0, over)
    clock.t = 1.5
    turn.run("ann", 4, 2.0, over)  # every change starts it again: due at 3.5
    assert turn.left() == pytest.approx(2.0)
    while clock.step():
        pass
    assert out == [("ann", 4, 3.5)]
    turn.run("bo", 5, 1.0, over)
    turn.stop()
    assert turn.left() is None
    assert not clock.step() and len(out) == 1


def test_the_outbox_sends_each_group_only_once_committed_in_order() -> None:
    outbox = Outbox()
    ann, bo = Watcher(), Watcher()
    registry = app_registry(lambda: None)

    def committed() -> float:
        return registry.get_sample_value("bestiary_moves_committed_total") or 0.0

    before = committed()
    outbox.add([([ann, bo], orjson.dumps({"seq": 1}))], 1)
    outbox.add([([ann], orjson.dumps({"seq": 3}))], 2)
    assert outbox.unsent == 2 and ann.messages == bo.messages == []  # durable before visible
    outbox.send_oldest()  # the store's word: the first group is committed
    assert ann.messages == bo.messages == [{"seq": 1}] and outbox.unsent == 1
    outbox.send_oldest()
    assert ann.messages == [{"seq": 1}, {"seq": 3}] and bo.messages == [{"seq": 1}]
    assert outbox.unsent == 0
    assert committed() - before == 3
    waited = registry.get_sample_value("bestiary_commit_seconds_bucket", {"le": "+Inf"})
    assert waited is not None and waited >= 2


def test_the_line_runs_waiting_jobs_in_order_while_they_may_go() -> None:
    may = {"go": False}

    def may_go(reveals: bool) -> bool:
        return may["go"] and not reveals

    line = Line("LINE01")
    ran: list[str] = []
    line.keep(lambda: ran.append("a"))
    line.keep(lambda: ran.append("shows the state"), reveals=True)
    line.keep(lambda: ran.append("c"))
    assert line.waiting()
    assert line.run(may_go) and ran == []  # may not go: nothing runs, the order is kept
    may["go"] = True
    assert line.run(may_go) and ran == ["a"]  # the one that reveals waits, and so does what follows

    def putting_back() -> None:
        line.keep(lambda: ran.append("kept again, first"))  # kept while running: stays first
        may["go"] = False

    line = Line("LINE02")
    line.keep(putting_back)
    line.keep(lambda: ran.append("d"))
    may["go"] = True
    line.run(lambda reveals: may["go"])
    may["go"] = True
    line.run(lambda reveals: may["go"])
    assert ran == ["a", "kept again, first", "d"]
