"""``bestiary baselines`` runs end to end on a tiny budget (each game, and wild's small variant),
and its checkpoints play sim games."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bestiary.adapters.baselines import SETTINGS, QNet, evaluate, load_policy  # noqa: E402
from bestiary.adapters.policies import policy_agent  # noqa: E402
from bestiary.cli import app  # noqa: E402
from bestiary.sim.bots import make_agent  # noqa: E402
from bestiary.sim.runner import GameSpec, play_game  # noqa: E402


@pytest.mark.parametrize(
    ("game", "yardstick"), [("critters", "greedy"), ("wild", "reader"), ("wild-small", "reader")]
)
def test_baselines_train_save_and_their_checkpoints_play(
    tmp_path: Path, game: str, yardstick: str
) -> None:
    out = tmp_path / "baselines"
    result = CliRunner().invoke(
        app,
        [
            "baselines",
            game,
            "--steps",
            "300",
            "--eval-games",
            "2",
            "--search-games",
            "0",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    saved = json.loads((out / f"{game}.json").read_text())
    assert saved["command"].startswith(f"bestiary baselines {game} --steps 300")
    rows = {row["agent"]: row for row in saved["rows"]}
    setting = SETTINGS[game]
    every_tick = setting.game == "wild"  # real time: also measured as trained, acting every tick
    assert set(rows) == {"random", yardstick, "ppo", "dqn"} | (
        {"random ids"} if every_tick else set()
    )
    against = ["random", yardstick]
    if every_tick:
        against += ["random, every tick", f"{yardstick}, every tick"]
    for agent in ("ppo", "dqn"):
        row = rows[agent]
        assert row["steps"] == 300 and Path(row["checkpoint"]).stat().st_size > 0
        assert [s["against"] for s in row["scores"]] == against
        assert all(s["games"] == 2 and s["low"] <= s["share"] <= s["high"] for s in row["scores"])
        policy = load_policy(Path(row["checkpoint"]))

        def maker(g: str, name: str, player: str, seed: int, policy: object = policy) -> object:
            if name == "mine":
                return policy_agent(policy, g, player)
            return make_agent(g, name, player, seed)

        bots = ("mine", *["random"] * (setting.players - 1))
        spec = GameSpec(0, setting.game, bots, seed=3, options=setting.options)
        played = play_game(spec, bot_maker=maker)  # type: ignore[arg-type]
        assert played.ended in ("won", "exhausted", "sundown", "nightfall", "out_of_cards")


def test_a_saved_dqn_gives_the_same_values(tmp_path: Path) -> None:
    net = QNet([4.0, 2.0, 1.0], actions=5, hidden=8)
    path = tmp_path / "q.pt"
    net.save(path)
    again = QNet.load(path)
    x = torch.tensor([[1.0, 2.0, 0.0]])
    assert torch.equal(net(x), again(x))


def test_a_bot_in_the_learner_seat_is_scored_with_its_interval() -> None:
    score = evaluate("critters", 2, "greedy", "random", games=6, seed=1)
    assert score.games == 6 and 0.0 <= score.low <= score.share <= score.high <= 1.0
    assert score.cell().endswith("n=6")
    assert score.share == pytest.approx((score.won + score.shared / 2) / 6)  # a tie counts 1/2


class CountingReader:
    """The ``reader`` bot, noting the most cards it ever held in hand and Pack together."""

    most = 0

    def __init__(self, player: str) -> None:
        self.player = player
        self.reader = make_agent("wild", "reader", player, 1)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any]) -> Any | None:
        held = view["packs"][self.player] + len(view["hand"])
        CountingReader.most = max(CountingReader.most, held)
        return self.reader.act(view, legal)


def test_a_variant_setting_plays_its_options() -> None:
    small = SETTINGS["wild-small"]
    CountingReader.most = 0
    score = evaluate("wild", 2, CountingReader, "random", games=4, seed=1, options=small.options)
    assert score.games == 4 and score.won + score.shared <= 4
    assert small.players == 2 and CountingReader.most == 3  # a 3-card Pack, never the sheet's 10
