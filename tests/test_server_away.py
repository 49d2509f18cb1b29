"""What an absent seat missed (server/away.py): kept in order with seqs, bounded, handed once."""

from __future__ import annotations

from bestiary.server.away import AwayLog


def test_an_absent_seat_gets_its_missed_events_once_numbered_and_bounded() -> None:
    away = AwayLog(limit=3)
    away.left("ann", 7, {"hand": ["fox"]})
    away.left("ann", 9, {"hand": []})  # a second leave keeps the first moment
    assert away.missing() == ["ann"]
    away.add("ann", 8, [{"by": "bob", "do": "draw"}, {"by": "ann", "do": "draw", "stand_in": True}])
    away.add("ann", 10, [{"by": "bob", "do": "discard"}, {"by": "bob", "do": "draw"}])
    missed = away.back("ann")
    assert missed is not None
    message = missed.message()
    assert message["type"] == "away" and message["since"] == 7
    assert message["view"] == {"hand": ["fox"]}
    assert [e["seq"] for e in message["events"]] == [9, 10, 11]  # the oldest one dropped
    assert message["dropped"] == 1 and message["events"][0]["stand_in"] is True
    assert away.back("ann") is None and away.missing() == []
