"""``bestiary evaluate``: the protocols, the policies it takes, its one-sentence refusals, and
scores that are the same to the digit for the same protocol version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from bestiary.adapters import evaluate as ev
from bestiary.cli import app
from bestiary.core.errors import BadOption
from bestiary.wild.info import VARIANTS as WILD_VARIANTS


def first_legal(observation: dict[str, np.ndarray]) -> int:
    """A policy for ``module:NAME``: the highest legal id."""
    return int(np.flatnonzero(observation["action_mask"])[-1])


def test_every_protocol_is_data_with_a_version_and_its_variants_options() -> None:
    known = ev.protocols()
    assert sorted(known) == ["critters", "wild", "wild/small"]
    versions = [p.version for p in known.values()]
    assert len(set(versions)) == len(versions)
    assert known["wild/small"].options == WILD_VARIANTS["small"]
    assert known["wild"].players == 4 and known["critters"].players == 2
    for proto in known.values():
        assert proto.games == sum(b.games for b in proto.opponents) > 0
        assert json.loads(json.dumps(proto.as_json()))["version"] == proto.version


def test_scores_are_the_same_to_the_digit_for_the_same_protocol() -> None:
    first = ev.evaluate("reader", "wild", "small").as_json()
    again = ev.evaluate("reader", "wild", "small").as_json()
    assert first == again
    assert first["protocol"]["version"] == "wild-small-2p-v1"
    assert [s["games"] for s in first["scores"]] == [400, 400]
    for s in first["scores"]:
        assert s["low"] <= s["share"] <= s["high"]
        assert s["won"] + s["shared"] + s["lost"] == s["games"]


def test_a_callable_policy_by_module_name_is_scored_reproducibly() -> None:
    proto = ev.protocol("critters")
    who = ev.contender("tests.test_adapters_evaluate:first_legal", proto)
    assert who.kind == "callable"
    opponent = ev.bot_seat("critters", "random")
    runs = [ev.play_seat("critters", 2, who.seat, opponent, 6, proto.seed) for _ in range(2)]
    assert runs[0].as_json() == runs[1].as_json()
    assert runs[0].games == 6


@pytest.mark.parametrize(
    ("policy", "words"),
    [
        ("nonsense", "is no critters bot"),
        ("missing.zip", "no checkpoint file"),
        ("os:path", "neither a policy nor a bot factory"),
        ("no_such_module_here:x", "cannot load"),
    ],
)
def test_a_bad_policy_is_refused_in_one_sentence(policy: str, words: str) -> None:
    with pytest.raises(BadOption, match=words) as caught:
        ev.contender(policy, ev.protocol("critters"))
    message = str(caught.value)
    assert "\n" not in message and message.count(". ") == 0


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.zip"
    bad.write_text("not a zip", encoding="utf-8")
    with pytest.raises(BadOption, match="is not a Stable-Baselines3 checkpoint"):
        ev.contender(str(bad), ev.protocol("critters"))
    with pytest.raises(BadOption, match="no evaluation protocol for 'wild/big'"):
        ev.protocol("wild", "big")


def test_sb3_and_torchscript_checkpoints_take_a_seat(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from bestiary.adapters import gym_envs

    torch.set_num_threads(1)
    env = gym_envs.WildEnv(players=2, options=WILD_VARIANTS["small"])
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, seed=1, device="cpu")
    model.learn(32)
    model.save(tmp_path / "ppo.zip")
    small = ev.protocol("wild", "small")
    who = ev.contender(str(tmp_path / "ppo.zip"), small)
    assert who.kind == "sb3"
    opponent = ev.bot_seat("wild", "random")
    runs = [ev.play_seat("wild", 2, who.seat, opponent, 4, small.seed, small.options) for _ in "ab"]
    assert runs[0].as_json() == runs[1].as_json()
    # Trained on the small variant for 2: refused on the 4-player table, in one sentence.
    with pytest.raises(BadOption, match=r"trained on .* but wild with 4 players has"):
        ev.contender(str(tmp_path / "ppo.zip"), ev.protocol("wild"))

    obs_size, size = env.encoding.obs_size, env.encoding.size
    module = torch.jit.script(torch.nn.Linear(obs_size, size))
    module.save(str(tmp_path / "linear.pt"))  # type: ignore[no-untyped-call]
    scripted = ev.contender(str(tmp_path / "linear.pt"), small)
    tally = ev.play_seat("wild", 2, scripted.seat, opponent, 2, small.seed, small.options)
    assert tally.games == 2


def test_the_command_prints_the_protocol_version_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["evaluate", "random", "--game", "wild", "--variant", "small"])
    assert result.exit_code == 0, result.output
    assert "wild-small-2p-v1" in result.stdout and "vs reader" in result.stdout
    result = runner.invoke(
        app, ["evaluate", "random", "--game", "wild", "--variant", "small", "--json"]
    )
    printed: dict[str, Any] = json.loads(result.stdout)
    assert printed == ev.evaluate("random", "wild", "small").as_json()
    bad = runner.invoke(app, ["evaluate", "nobody", "--game", "wild"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: 'nobody' is no wild bot")
