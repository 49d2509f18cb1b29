"""docs/leaderboard.md: who is on it, and that it is the page of the protocols as they are."""

from __future__ import annotations

from pathlib import Path

from bestiary.adapters import evaluate as ev
from bestiary.adapters.leaderboard import COMMAND, checkpoints, entrants

PAGE = Path(__file__).resolve().parents[1] / "docs" / "leaderboard.md"


def test_the_entrants_are_the_bots_that_play_to_win_and_the_released_checkpoints() -> None:
    known = ev.protocols()
    critters = entrants(known["critters"])
    assert critters[:3] == ["greedy", "ismcts", "random"]
    assert {Path(p).name for p in critters[3:]} >= {"critters_ppo.zip", "critters_league.zip"}
    small = entrants(known["wild/small"])
    assert "reader" in small and "matcher" not in small  # a yardstick (rank below 0)
    # A checkpoint belongs to one protocol: wild's 4-player files are not the small variant's.
    assert not {p.name for p in checkpoints(known["wild"])} & {
        p.name for p in checkpoints(known["wild/small"])
    }


def test_the_page_is_generated_for_every_current_protocol_version() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert COMMAND in text
    for proto in ev.protocols().values():
        assert f"protocol `{proto.version}`" in text
        for policy in entrants(proto):
            assert f"`{Path(policy).name}`" in text
