"""Bot parameters: written after a bot's name, declared with bounds, refused in one sentence."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bestiary.cli import app
from bestiary.core.agent import bot_entries, make_bot
from bestiary.core.bot_params import split_bot, split_outside
from bestiary.sim.arms import parse_sweeps
from bestiary.sim.commands import parse_bots
from bestiary.sim.runner import GameSpec, play_game


def test_a_parameter_reaches_the_bot() -> None:
    bot = make_bot("wild", "reader(decay=0.5, ambition=2)", "p1", 1)
    assert (bot.decay, bot.ambition, bot.pair) == (0.5, 2.0, 3.0)  # type: ignore[attr-defined]
    cautious = make_bot("wild", "cautious(distrust=0.2,decay=1)", "p1", 1)
    assert (cautious.distrust, cautious.decay) == (0.2, 1.0)  # type: ignore[attr-defined]
    search = make_bot("critters", "ismcts(iterations=7)", "p1", 1)
    assert search.budget.iterations == 7  # type: ignore[attr-defined]


def test_every_default_is_within_its_bounds() -> None:
    for game in ("wild", "critters"):
        for entry in bot_entries(game):
            for param in entry.params:
                assert param.minimum <= param.default <= param.maximum, (entry.name, param)
                make_bot(game, f"{entry.name}({param.name}={param.maximum:g})", "p1", 1)


@pytest.mark.parametrize(
    ("spec", "sentence"),
    [
        ("reader(decay=2)", "bot 'reader': decay=2 is outside 0 to 1"),
        ("reader(dcay=0.5)", "bot 'reader' has no parameter 'dcay'"),
        ("reader(decay=x)", "bot 'reader': decay=x is not a number"),
        ("reader(decay=0.5", "is not written name(key=value, ...)"),
        ("reader(decay)", "'decay' is not written key=value"),
        ("reader(decay=1,decay=1)", "sets 'decay' twice"),
        ("honest(decay=1)", "its parameters: none"),
        ("ismcts(iterations=1.5)", "is not a whole number"),
        ("readr(decay=1)", "no bot called 'readr'"),
    ],
)
def test_a_bad_parameter_is_one_sentence(spec: str, sentence: str) -> None:
    game = "critters" if spec.startswith("ismcts") else "wild"
    with pytest.raises(ValueError, match=None) as err:
        make_bot(game, spec, "p1", 1)
    assert sentence in str(err.value) and "\n" not in str(err.value)


def test_names_with_parameters_split_at_the_right_commas() -> None:
    assert split_bot("reader( decay = 0.5 )") == ("reader", {"decay": "0.5"})
    assert split_outside("reader(decay=0.5,pair=2),greedy") == [
        "reader(decay=0.5,pair=2)",
        "greedy",
    ]
    assert parse_bots("wild", "reader(decay=0.5,pair=2),hunter") == [
        "reader(decay=0.5,pair=2)",
        "hunter",
    ]
    sweep = parse_sweeps(["bots=reader(decay=0.5,pair=2)+hunter,reader+hunter"])[0]
    assert sweep.values == (("reader(decay=0.5,pair=2)", "hunter"), ("reader", "hunter"))


def test_a_parameter_changes_play_and_its_default_changes_nothing() -> None:
    def moves(bots: tuple[str, ...]) -> tuple[int, ...]:
        return play_game(GameSpec(0, "wild", bots, 5)).moves

    plain = moves(("reader", "hunter", "honest"))
    assert moves(("reader(decay=0.85)", "hunter", "honest")) == plain
    assert moves(("reader(decay=0.1,threshold=1)", "hunter", "honest")) != plain


def test_bestiary_bots_lists_parameters_with_bounds() -> None:
    result = CliRunner().invoke(app, ["bots", "wild"])
    assert result.exit_code == 0
    assert "decay=0.85 (0 to 1)" in result.output and "appetite=0.6 (0 to 1)" in result.output
    bad = CliRunner().invoke(app, ["sim", "wild", "--bots", "reader(decay=2)", "--games", "1"])
    assert bad.exit_code != 0 and "decay=2 is outside 0 to 1" in bad.output
