"""The table's parts for friends, each alone: reactions on a fake clock, the rematch's seats, and
the rematch made on a real table over a real store (no server, no socket)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bestiary.server.lobby import Lobby
from bestiary.server.reactions import BURST, RATE, Reactions, Refused, menu
from bestiary.server.rematch import Planned, planned, play_again
from bestiary.server.seating import TableError
from bestiary.server.seats import Seat
from bestiary.server.store import Store
from bestiary.server.table import Table, TableSettings
from tests.test_server_driver import FakeClock, Watcher, settle


def seat(index: int, name: str, bot: str | None = None, here: bool = False) -> Seat:
    made = Seat(index, name=name, bot=bot, address=None if bot else f"10.0.0.{index}")
    if here:
        made.connections.add(Watcher())
    return made


def test_reactions_are_a_fixed_set_per_game_and_each_seat_has_an_allowance() -> None:
    clock = FakeClock()
    reactions = Reactions("wild", clock)
    ann, bob = seat(0, "ann"), seat(1, "bob")
    keys = [r.key for r in menu("wild")]
    assert "meet" in keys and "howl" in keys and "think" not in keys
    assert "think" in [r.key for r in menu("critters")] and "meet" not in [
        r.key for r in menu("critters")
    ]
    assert {r.key for r in menu("duel")} == {"wave", "yes", "no", "laugh", "gg"}
    shown = reactions.react(ann, "meet")
    assert shown == {"type": "reaction", "seat": 0, "player": "ann", "reaction": "meet"}
    for _ in range(BURST - 1):
        reactions.react(ann, "yes")
    with pytest.raises(Refused) as slow:
        reactions.react(ann, "yes")
    assert slow.value.code == "slow_down"
    assert slow.value.message == f"too many reactions; the next one in {1 / RATE:.1f} s."
    reactions.react(bob, "wave")  # bob's allowance is his own
    clock.t += 1 / RATE  # one more comes back with time
    reactions.react(ann, "yes")
    with pytest.raises(Refused, match="too many reactions"):
        reactions.react(ann, "yes")
    with pytest.raises(Refused) as watcher:
        reactions.react(None, "wave")
    assert (watcher.value.code, watcher.value.message) == (
        "not_seated",
        "spectators cannot send reactions; take a seat to react.",
    )
    with pytest.raises(Refused) as unknown:
        reactions.react(bob, "<b>hi</b>")
    assert unknown.value.code == "bad_reaction" and "'<b>hi</b>'" in unknown.value.message


def test_the_rematch_rotates_the_seats_and_replaces_who_left_with_a_bot() -> None:
    seats = [
        seat(0, "ann", here=True),
        seat(1, "reader-2", bot="reader"),
        seat(2, "cy"),  # left: no socket
        seat(3, "bob", here=True),
    ]
    seats[2].agent_name = "honest"  # the bot that stood in for cy
    new = planned(seats, lambda s: s.agent_name or "random", here=0)
    assert new == [
        Planned("reader-2", "reader", None, None),
        Planned("honest-2", "honest", None, None),
        Planned("bob", None, "10.0.0.3", 3),
        Planned("ann", None, "10.0.0.0", 0),
    ]
    # the one who asked is there even without a socket; a bot's kept name is not taken twice
    seats = [seat(0, "ann"), seat(1, "random-1", bot="random"), seat(2, "bo")]
    new = planned(seats, lambda s: "random", here=2)
    assert new[0] == Planned("random-1", "random", None, None)
    assert new[1] == Planned("bo", None, "10.0.0.2", 2)
    assert new[2] == Planned("random-3", "random", None, None)


def test_a_rematch_is_made_once_committed_then_told_and_the_old_table_points_to_it(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'again.sqlite'}")
        writer = asyncio.get_running_loop().create_task(store.run_writer())
        lobby = Lobby(store, TableSettings(bot_pause=0.0))
        clock = FakeClock()
        old = Table("OLD111", "duel", {}, 3, store, TableSettings(bot_pause=0.0), clock)
        _, ann_token = old.seating.join("ann", 0, "10.0.0.1")
        _, bob_token = old.seating.join("bob", 1, "10.0.0.2")
        old.seating.add_bot("random", 2, None)
        lobby.open(old)
        ann, bob, watcher = Watcher(), Watcher(), Watcher()
        await old.ask(lambda: old.attach(ann, ann_token, 1))
        await old.ask(lambda: old.attach(bob, bob_token, 1))
        await old.ask(lambda: old.attach(watcher, None, 1))
        with pytest.raises(TableError, match="once the game is over"):
            await play_again(lobby, old, ann_token)
        old.status = "finished"  # as if played out (the parts, not the game, are tested here)
        with pytest.raises(TableError, match="does not belong"):
            await play_again(lobby, old, "someone else's")
        first, second = await asyncio.gather(
            play_again(lobby, old, bob_token), play_again(lobby, old, ann_token)
        )
        code = first["code"]
        assert second["code"] == code and code != "OLD111"  # one table, however many ask
        assert (first["seat"], second["seat"]) == (0, 2)  # everyone moved one seat on
        new = lobby.tables[code]
        await settle(new)
        assert [s.name for s in new.seats] == ["bob", "random-3", "ann"]
        assert new.status == "playing" and new.settings == old.settings
        stored = store.get(code)
        assert stored is not None and stored.status == "playing"  # committed before told
        told = {w: [m for m in w.messages if m["type"] == "rematch"] for w in (ann, bob, watcher)}
        assert told[watcher] == [{"type": "rematch", "code": code}]
        assert told[ann] == [{"type": "rematch", "code": code, "seat": 2, "token": second["token"]}]
        assert told[bob][0]["token"] == first["token"] != second["token"]
        assert new.seating.seat_of(first["token"]).name == "bob"
        assert old.info()["next"] == code
        kept = store.get("OLD111")
        assert kept is not None and kept.options["next"] == code  # the link follows a restart
        assert Table.restore(kept, store).info()["next"] == code
        await lobby.close()
        writer.cancel()

    asyncio.run(main())
