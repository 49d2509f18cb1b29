"""Bot parameters: written after a bot's name, declared with bounds, refused in one sentence."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from typer.testing import CliRunner

from bestiary.bots.critters import GreedyWeights
from bestiary.bots.wild import ReaderNumbers
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
    greedy = make_bot("critters", "greedy(leader=2, wild_cost=0)", "p1", 1)
    assert greedy.weights == GreedyWeights(leader=2.0, wild_cost=0.0)  # type: ignore[attr-defined]
    randomly = make_bot("wild", "random(pause=0.5)", "p1", 1)
    assert (randomly.pause, randomly.echo) == (0.5, 0.5)  # type: ignore[attr-defined]


def test_bots_with_parameters_pickle_with_them() -> None:
    """OpenSpiel pickles a state with its bots: their settings must survive it."""
    greedy = make_bot("critters", "greedy(leader=2)", "p1", 1)
    again: Any = pickle.loads(pickle.dumps(greedy))
    assert again.weights == GreedyWeights(leader=2.0)
    assert again.rng.getstate() == greedy.rng.getstate()  # type: ignore[attr-defined]
    cautious = make_bot("wild", "cautious(decay=0.3,distrust=0.5)", "p1", 1)
    again = pickle.loads(pickle.dumps(cautious))
    assert (again.decay, again.distrust) == (0.3, 0.5)
    assert pickle.loads(pickle.dumps(GreedyWeights(leader=3.0))) == GreedyWeights(leader=3.0)


def test_the_cautious_reader_plays_the_readers_numbers() -> None:
    """Both take one ReaderNumbers: a setting reaches a cautious bot as it reaches a reader."""
    numbers = ReaderNumbers(decay=0.3, threshold=1.0)
    reader = make_bot("wild", "reader(decay=0.3,threshold=1)", "p1", 1)
    cautious = make_bot("wild", "cautious(decay=0.3,threshold=1,distrust=0.5)", "p1", 1)
    for bot in (reader, cautious):
        assert (bot.decay, bot.least, bot.pair) == (0.3, 1.0, numbers.pair)  # type: ignore[attr-defined]
    assert cautious.distrust == 0.5  # type: ignore[attr-defined]


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
    noisy = moves(("random", "hunter", "honest"))
    assert moves(("random(pause=0.25,discard=0.05,echo=0.5)", "hunter", "honest")) == noisy
    assert moves(("random(pause=0,discard=1)", "hunter", "honest")) != noisy


def test_greedys_weights_change_its_play_and_their_defaults_change_nothing() -> None:
    def moves(bots: tuple[str, ...], seed: int) -> tuple[int, ...]:
        return play_game(GameSpec(0, "critters", bots, seed)).moves

    seeds = range(1, 9)
    plain = [moves(("greedy", "greedy", "random"), s) for s in seeds]
    defaults = "greedy(spare_no=30,leader=1,wild_cost=2,last_pile=10)"
    assert [moves((defaults, "greedy", "random"), s) for s in seeds] == plain
    changed = "greedy(spare_no=0,leader=0,wild_cost=40,last_pile=0)"
    assert [moves((changed, "greedy", "random"), s) for s in seeds] != plain


def test_bestiary_bots_lists_parameters_with_bounds() -> None:
    result = CliRunner().invoke(app, ["bots", "wild"])
    assert result.exit_code == 0
    assert "decay=0.85 (0 to 1)" in result.output and "appetite=0.6 (0 to 1)" in result.output
    assert "pause=0.25 (0 to 0.95)" in result.output
    listing = CliRunner().invoke(app, ["bots", "critters"]).output
    assert "leader=1 (0 to 10)" in listing and "spare_no=30 (0 to 200)" in listing
    bad = CliRunner().invoke(app, ["sim", "wild", "--bots", "reader(decay=2)", "--games", "1"])
    assert bad.exit_code != 0 and "decay=2 is outside 0 to 1" in bad.output
